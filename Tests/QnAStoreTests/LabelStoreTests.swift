import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// The session's labels in the store, on SQLite and on a real PostgreSQL: each change once
/// per token and undoable, in the room's log (so it catches up and crosses instances); a
/// question asked or relabelled under a label the session has, and under no other.
@Suite("qna-server: labels in the store", .serialized)
struct LabelStoreTests {
  static func ask(_ store: QuestionStore, _ n: Int, label: String? = nil) async throws
    -> StoredQuestion
  {
    try await store.insert(
      StoredQuestion(
        id: uuid(n), content: "Q\(n)", askedFrom: firstConnection,
        createdAt: StoreTests.time(n), label: label)
    ).question
  }

  @discardableResult
  static func change(
    _ store: QuestionStore, _ kind: PresenterActionKind, _ name: String, token: UUID = UUID()
  ) async throws -> QuestionStore.RoomActionOutcome {
    try await store.moderation.changeLabels(kind, name, token: token, at: StoreTests.time(9))
  }

  @Test(arguments: StoreKind.allCases)
  func labelsAreAddedAndRemovedOncePerTokenAcrossStores(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    let token = UUID()
    let seq = try await first.currentSeq()
    #expect(try await Self.change(first, .labelAdd, "Keynote", token: token).changed)
    // The same token again, on another store: done already, not done twice.
    #expect(try await Self.change(second, .labelAdd, "Keynote", token: token).changed == false)
    #expect(
      try await Self.change(second, .labelRemove, "Keynote", token: token).refusal?
        .contains("another action") == true)
    try await Self.change(second, .labelAdd, "Panel")
    #expect(try await first.moderation.labels() == ["Keynote", "Panel"])
    #expect(try await first.snapshot(for: nil).labels == ["Keynote", "Panel"])
    let delta = try await first.changes(after: seq, upTo: try await first.currentSeq())
    #expect(delta.delta.labels == ["Keynote", "Panel"])
    // The same name in another case is the same label.
    #expect(
      try await Self.change(first, .labelAdd, "keynote").refusal?.contains("already") == true)
    // Undo (the console's u) is the inverse action under a new token.
    try await Self.change(first, .labelRemove, "Keynote")
    #expect(try await second.moderation.labels() == ["Panel"])
    let removed = try await first.changes(after: seq + 2, upTo: try await first.currentSeq())
    #expect(removed.delta.labels == ["Panel"])
    // A removal names its label in any case.
    try await Self.change(first, .labelRemove, "PANEL")
    let none = try await first.changes(after: seq + 3, upTo: try await first.currentSeq())
    #expect(none.delta.labels == [], "all removed: an empty list, not absent")
    // Removing one the session does not have changes nothing and logs nothing.
    let before = try await first.currentSeq()
    #expect(try await Self.change(first, .labelRemove, "Panel").changed == false)
    #expect(try await first.currentSeq() == before)
  }

  @Test(arguments: StoreKind.allCases)
  func aSessionHasAtMostTwentyLabels(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    for n in 1...SessionLabels.maxCount { try await Self.change(store, .labelAdd, "L\(n)") }
    let refused = try await Self.change(store, .labelAdd, "one more")
    #expect(refused.refusal?.contains("at most \(SessionLabels.maxCount)") == true)
    #expect(try await store.moderation.labels().count == SessionLabels.maxCount)
  }

  @Test(arguments: StoreKind.allCases)
  func questionsCarryOnlyTheSessionsLabelsAsItSpellsThem(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    try await Self.change(store, .labelAdd, "Keynote")
    #expect(try await Self.ask(store, 1, label: "KEYNOTE").label == "Keynote")
    await #expect(throws: StoreError.self) { try await Self.ask(store, 2, label: "Unknown") }
    #expect(try await store.question(id: uuid(2)) == nil, "nothing stored")
    _ = try await Self.ask(store, 3)
    // Relabel: a label the session has (any case), none, or refused.
    let relabel = { (n: Int, text: String?) in
      try #require(
        try await store.perform(
          .relabel, on: uuid(n), text: text, token: UUID(), at: StoreTests.time(9)))
    }
    #expect(try await relabel(3, "keynote").question.label == "Keynote")
    #expect(try await relabel(3, "Nope").refusal?.contains("no label") == true)
    #expect(try await store.snapshot(for: nil).questions.map(\.label) == ["Keynote", "Keynote"])
    #expect(try await store.page(limit: 10, label: "Keynote").count == 2)
    #expect(try await relabel(1, nil).question.label == nil)
    #expect(try await store.page(limit: 10, label: "Keynote").map(\.id) == [uuid(3)])
    #expect(try await store.transitions(of: uuid(3)).last?.text == "Keynote")
    // A removed label stays on the questions filed under it.
    try await Self.change(store, .labelRemove, "Keynote")
    #expect(try await store.question(id: uuid(3))?.label == "Keynote")
    let exported = try await store.export().first { $0.question.id == uuid(3) }
    #expect(exported?.question.label == "Keynote")
  }
}
