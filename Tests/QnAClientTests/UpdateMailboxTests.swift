import Foundation
import QnA
import QnAClient
import Testing

/// What waits for a slow front end: merged per room question, every question's own news in
/// order, the state read when the update is taken.
@Suite("The engine's update mailbox")
struct UpdateMailboxTests {
  static func entry(_ number: Int, votes: Int) -> QnAChange {
    .roomQuestion(
      RoomEntry(
        question: RoomQuestion(
          id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number))!,
          content: "Q\(number)", votes: votes, answered: false,
          createdAt: Date(timeIntervalSinceReferenceDate: 785_000_000)),
        mine: false, voted: false, highlighted: false, votePending: false),
      removed: false)
  }

  @Test func aSlowReaderGetsEachRoomQuestionOnceAsItIsNowAndEveryOtherChange() async {
    let mailbox = UpdateMailbox()
    let state = QnAState()
    mailbox.readState { state }
    let question = Question(id: UUID(), content: "Mine", status: .unanswered, sequence: 1)
    for votes in 1...100_000 {
      mailbox.post(changes: [Self.entry(votes % 3, votes: votes)])
      if votes == 50_000 { mailbox.post(changes: [.answered(question)]) }
    }
    let update = await mailbox.next()
    let changes = update?.changes ?? []
    #expect(changes.count == 4, "three room questions and one answer, not 100,001 changes")
    #expect(changes.contains(.answered(question)))
    #expect(changes.contains(Self.entry(1, votes: 100_000)))
    // Finished: what waits is taken, then the end.
    mailbox.post(changes: [.connected])
    mailbox.finish()
    #expect(await mailbox.next()?.changes == [.connected])
    #expect(await mailbox.next() == nil)
  }

  @Test func newsOfTheConnectionIsBoundedTheQuestionsNewsIsNot() async {
    let mailbox = UpdateMailbox()
    let state = QnAState()
    mailbox.readState { state }
    for _ in 0..<(UpdateMailbox.maxWaiting + 5_000) { mailbox.post(changes: [.connected]) }
    let question = Question(id: UUID(), content: "Mine", status: .unanswered, sequence: 1)
    mailbox.post(changes: [.answered(question)])
    let changes = await mailbox.next()?.changes ?? []
    #expect(changes.count == UpdateMailbox.maxWaiting + 1)
    #expect(changes.last == .answered(question))
  }
}
