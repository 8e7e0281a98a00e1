/// The sessions, and the presenters' logins and wrong guesses: what the whole database holds,
/// not one session's room (`QuestionStore.directory`).
public struct SessionDirectory: Sendable, TimedStore {
  package let driver: any FlowDriver
  package let timing: StoreTiming
}
