import Foundation
import QnA
import QnAStore
import Synchronization
import TestSupport
import Testing

/// The store tells the room each write that changed what the room shows (`roomChanged`), so
/// that no message handler has to remember to: at once for a presenter's, within the room's
/// window for a question or a vote. A write that changes nothing tells no one, and neither
/// does another session's view of the same database.
@Suite("The store tells the room what changed, on SQLite and PostgreSQL", .serialized)
struct RoomChangedTests {
  /// What the room was told since the last call: each write's urgency, in order.
  final class Told: Sendable {
    private let urgencies = Mutex<[QuestionStore.RoomPace]>([])
    func note(_ pace: QuestionStore.RoomPace) { urgencies.withLock { $0.append(pace) } }
    func taken() -> [QuestionStore.RoomPace] {
      urgencies.withLock { told in
        defer { told = [] }
        return told
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func eachWriteThatChangesTheRoomTellsItOnce(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let told = Told()
    let store = stores[0].notifying { told.note($0) }
    let asker = uuid(9, group: 0x7C)
    let question = StoredQuestion(
      id: uuid(1), content: "Why?", askedFrom: firstConnection, createdAt: Date(),
      token: uuid(1, group: 0x7A), attendee: asker)
    #expect(try await store.insert(question).inserted)
    #expect(told.taken() == [.window])
    #expect(try await !store.insert(question).inserted, "sent again")
    #expect(told.taken() == [])

    let own = try await store.vote(attendee: asker, question: uuid(1), up: true, at: Date())
    #expect(own?.refusal != nil && told.taken() == [], "one's own question: refused")
    let vote = try await store.vote(attendee: uuid(8), question: uuid(1), up: true, at: Date())
    #expect(vote?.voted == true && told.taken() == [.committed], "a batch, in step with the room")

    let answer = uuid(2, group: 0x7A)
    let answered = try await store.perform(
      .answer, on: uuid(1), text: "Because.", token: answer, at: Date())
    #expect(answered?.changed == true && told.taken() == [.now])
    _ = try await store.perform(.answer, on: uuid(1), text: "Because.", token: answer, at: Date())
    #expect(told.taken() == [], "the same token again")

    let announced = try await store.announce("Coffee", token: uuid(3, group: 0x7A), at: Date())
    #expect(announced.changed && told.taken() == [.now])
    let labelled = try await store.moderation.changeLabels(
      .labelAdd, "Panel", token: uuid(4, group: 0x7A), at: Date())
    #expect(labelled.changed && told.taken() == [.now])
    let again = try await store.moderation.changeLabels(
      .labelAdd, "panel", token: uuid(5, group: 0x7A), at: Date())
    #expect(!again.changed && told.taken() == [], "a label it has")

    // The mock's seeding (`SeedingDriver`): questions, and votes in one transaction.
    var seeded = question
    (seeded.id, seeded.token) = (uuid(3), nil)
    try await store.seed([seeded])
    #expect(told.taken() == [.window])
    let counted = try await store.simulateVotes(
      for: uuid(3), count: 3, at: Date(), makeID: { UUID() })
    #expect(counted == 3 && told.taken() == [.window])
    #expect(try await store.snapshot(for: nil).questions.first { $0.id == uuid(3) }?.votes == 3)
    let nowhere = try await store.simulateVotes(
      for: uuid(99), count: 3, at: Date(), makeID: { UUID() })
    #expect(nowhere == nil && told.taken() == [], "no such question")

    // A poll's answer within the window; a word cloud's within a second (its every delta
    // carries its whole top list).
    for (index, kind) in [PollKind.single, .words].enumerated() {
      let poll = uuid(index, group: 0x7B)
      let spec =
        kind == .words
        ? PollSpec(kind: .words, prompt: "Words?")
        : PollSpec(kind: .single, prompt: "Which?", options: ["A", "B"])
      _ = try await store.pollAction(.create, poll: poll, spec: spec, token: poll, at: Date())
      _ = try await store.pollAction(
        .open, poll: poll, token: uuid(index, group: 0x7D), at: Date())
      #expect(told.taken() == [.now, .now])
      let value = kind == .words ? PollValue(words: ["swift"]) : PollValue(choices: [0])
      _ = try await store.answer(
        poll: poll, attendee: asker, value: value, token: uuid(index, group: 0x7E), at: Date())
      #expect(told.taken() == [kind == .words ? .unhurried : .window])
    }

    // Another session's view writes without telling this room.
    var random = SplitMix64(seed: 0x7A)
    let other = try await store.directory.createSession(title: "Other", at: Date(), using: &random)
      .session
    let elsewhere = store.session(try #require(other.id))
    var theirs = question
    (theirs.id, theirs.token) = (uuid(2), uuid(6, group: 0x7A))
    #expect(try await elsewhere.insert(theirs).inserted)
    #expect(told.taken() == [])
  }
}
