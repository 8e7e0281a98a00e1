import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Stars and the "next up" queue in the store, on SQLite and on a real PostgreSQL: each
/// action once per token, the queue in the room's log (so it catches up and crosses
/// instances), shown to attendees only when the presenters say so.
@Suite("qna-server: stars and the next-up queue in the store", .serialized)
struct QueueStoreTests {
  static func ask(_ store: QuestionStore, _ n: Int, state: QuestionState = .live) async throws {
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(n), content: "Q\(n)", askedFrom: firstConnection,
        createdAt: StoreTests.time(n), state: state))
  }

  @discardableResult
  static func act(
    _ store: QuestionStore, _ kind: PresenterActionKind, _ n: Int, token: UUID = UUID()
  ) async throws -> QuestionStore.ActionOutcome {
    try #require(try await store.perform(kind, on: uuid(n), token: token, at: StoreTests.time(9)))
  }

  @Test(arguments: StoreKind.allCases)
  func theQueueIsOrderedMovedAndAdvancedOncePerToken(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    for n in 1...4 { try await Self.ask(first, n) }
    try await Self.ask(first, 5, state: .review)
    let token = UUID()
    try await Self.act(first, .enqueue, 1, token: token)
    #expect(try await Self.act(second, .enqueue, 1, token: token).changed == false)
    for n in [2, 3] { try await Self.act(first, .enqueue, n) }
    #expect(try await second.nextUp().ids == [uuid(1), uuid(2), uuid(3)])
    // Only an open question the room sees.
    #expect(try await Self.act(first, .enqueue, 5).refusal?.contains("Only an open") == true)
    try await Self.act(second, .moveToTop, 3)
    try await Self.act(first, .moveDown, 1)
    #expect(try await first.nextUp().ids == [uuid(3), uuid(2), uuid(1)])
    #expect(try await Self.act(first, .moveUp, 4).refusal?.contains("not next up") == true)
    // Answering or dismissing one takes it out; `next` highlights the first open one.
    try await Self.act(first, .dismiss, 3)
    #expect(try await first.nextUp().ids == [uuid(2), uuid(1)])
    let next = try await second.queueAction(.next, token: UUID(), at: StoreTests.time(10))
    #expect(next.changed)
    #expect(try await first.highlighted() == uuid(2))
    #expect(try await first.nextUp().ids == [uuid(1)])
    try await Self.act(first, .dequeue, 1)
    let empty = try await first.queueAction(.next, token: UUID(), at: StoreTests.time(11))
    #expect(empty.refusal?.contains("Nothing is next up") == true)
  }

  @Test(arguments: StoreKind.allCases)
  func attendeesSeeTheQueueOnlyWhileItIsShownAndNeverAStar(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    try await Self.ask(store, 1)
    try await Self.act(store, .star, 1)
    try await Self.act(store, .enqueue, 1)
    #expect(try await store.snapshot(for: nil).nextUp == nil, "hidden from attendees")
    #expect(try await store.snapshot(for: nil, presenter: true).nextUp?.ids == [uuid(1)])
    #expect(try await store.snapshot(for: nil, presenter: true).questions.first?.starred == true)
    #expect(try await store.snapshot(for: nil).questions.first?.starred == nil)
    let seq = try await store.currentSeq()
    _ = try await store.queueAction(.showQueue, token: UUID(), at: StoreTests.time(2))
    #expect(try await store.snapshot(for: nil).nextUp == NextUp(ids: [uuid(1)], shown: true))
    let delta = try await store.changes(after: seq, upTo: try await store.currentSeq())
    #expect(delta.delta.nextUp == NextUp(ids: [uuid(1)], shown: true))
    _ = try await store.queueAction(.hideQueue, token: UUID(), at: StoreTests.time(3))
    let hidden = try await store.changes(after: seq + 1, upTo: try await store.currentSeq())
    #expect(hidden.delta.nextUp == NextUp())
    // Showing it again when shown changes nothing, logs nothing.
    let before = try await store.currentSeq()
    _ = try await store.queueAction(.hideQueue, token: UUID(), at: StoreTests.time(4))
    #expect(try await store.currentSeq() == before)
  }
}
