import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// A presenter's edit and silence in the store, on SQLite and on a real PostgreSQL: each
/// once per token, undone by the opposite, the original text kept in the log and the export.
@Suite("qna-server: edits and silenced askers in the store", .serialized)
struct ModerationStoreTests {
  static let alice = uuid(1, group: 0xED)

  @Test(arguments: StoreKind.allCases)
  func anEditKeepsTheOriginalAndActsOncePerToken(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    _ = try await first.insert(
      StoredQuestion(
        id: uuid(1), content: "Waht about Bob Smith's salary?", askedFrom: firstConnection,
        createdAt: StoreTests.time(0), attendee: Self.alice, state: .review))
    let seq = try await first.currentSeq()
    let token = uuid(1, group: 0xE1)
    let edited = try #require(
      try await first.perform(
        .edit, on: uuid(1), text: "What about salaries?", token: token, at: StoreTests.time(1)))
    #expect(edited.changed && edited.question.content == "What about salaries?")
    #expect(edited.question.original == "Waht about Bob Smith's salary?")
    // Again by token, from the other instance: done already.
    let again = try #require(
      try await second.perform(
        .edit, on: uuid(1), text: "What about salaries?", token: token, at: StoreTests.time(2)))
    #expect(!again.changed && again.refusal == nil)
    // A second edit keeps the text as asked, and the room's delta carries the new text.
    _ = try await second.perform(
      .edit, on: uuid(1), text: "What about pay?", token: uuid(2, group: 0xE1),
      at: StoreTests.time(3))
    let now = try #require(try await first.question(id: uuid(1)))
    #expect(now.content == "What about pay?" && now.original == "Waht about Bob Smith's salary?")
    let delta = try await first.changes(
      after: seq, upTo: try await first.currentSeq(), presenter: true)
    #expect(delta.delta.questions.first?.content == "What about pay?")
    #expect(delta.delta.questions.first?.edited == true)
    #expect(!"\(delta.delta)".contains("Bob Smith"), "the original stays out of the room")
    // The log keeps each text, the export the original.
    let history = try await first.transitions(of: uuid(1))
    #expect(history.map(\.text) == ["What about salaries?", "What about pay?"])
    let csv = String(decoding: Export.render(try await first.export(), as: .csv), as: UTF8.self)
    #expect(
      csv.contains("\"Waht about Bob Smith's salary?\"")
        && csv.contains(",original,starred,label\r\n"))
    // Undo is an edit back.
    _ = try await first.perform(
      .edit, on: uuid(1), text: "Waht about Bob Smith's salary?", token: uuid(3, group: 0xE1),
      at: StoreTests.time(4))
    #expect(try await second.question(id: uuid(1))?.content == "Waht about Bob Smith's salary?")
  }

  @Test(arguments: StoreKind.allCases)
  func silencingAnAskerByTheirQuestionIsKeptUntilUndone(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    _ = try await first.insert(
      StoredQuestion(
        id: uuid(1), content: "Spam", askedFrom: firstConnection, createdAt: StoreTests.time(0),
        attendee: Self.alice))
    _ = try await first.insert(
      StoredQuestion(
        id: uuid(2), content: "From an old client", askedFrom: firstConnection,
        createdAt: StoreTests.time(1)))
    let silenced = try #require(
      try await first.perform(
        .silence, on: uuid(1), token: uuid(1, group: 0xE2), at: StoreTests.time(2)))
    #expect(silenced.changed && silenced.refusal == nil)
    #expect(try await second.moderation.filterSettings().silenced == [Self.alice])
    // No identity, nobody to silence.
    let anonymous = try #require(
      try await first.perform(
        .silence, on: uuid(2), token: uuid(2, group: 0xE2), at: StoreTests.time(3)))
    #expect(anonymous.refusal?.contains("cannot be told apart") == true)
    _ = try await second.perform(
      .unsilence, on: uuid(1), token: uuid(3, group: 0xE2), at: StoreTests.time(4))
    #expect(try await first.moderation.filterSettings().silenced.isEmpty)
    #expect(try await first.currentSeq() == 2, "the room saw only the two questions")
  }
}
