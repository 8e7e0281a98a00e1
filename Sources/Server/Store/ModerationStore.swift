/// One session's word filter and labels (`QuestionStore.moderation`): what the presenters
/// set for the room, each change once per token.
public struct ModerationStore: Sendable, TimedStore {
  package let driver: any FlowDriver
  /// The session whose filter and labels these are.
  public let session: Int64
  package let timing: StoreTiming
  /// Told of a change the room shows (a label), at once.
  package let roomChanged: QuestionStore.RoomChanged
}
