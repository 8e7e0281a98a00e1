import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// The presenters' actions on the room (extension `announcements`), on SQLite and on a real
/// PostgreSQL: exactly once per token, undone by the next, in the room's log, per session.
@Suite("qna-server: actions on the room in the store", .serialized)
struct RoomActionStoreTests {
  @Test(arguments: StoreKind.allCases)
  func anAnnouncementIsStoredOnceAndLoggedOnlyWhenItChanges(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    #expect(try await first.announcement() == nil)
    let seq = try await first.currentSeq()
    let token = uuid(1, group: 0xAA)
    let made = try await first.announce("Coffee at 15:30", token: token, at: StoreTests.time(5))
    #expect(made == QuestionStore.RoomActionOutcome(changed: true))
    // Through the other store (another instance): the same banner, one log row.
    #expect(
      try await second.announcement()
        == Announcement(text: "Coffee at 15:30", at: StoreTests.time(5)))
    #expect(try await second.currentSeq() == seq + 1)
    let delta = try await second.changes(after: seq, upTo: seq + 1)
    #expect(delta.delta.announcement?.text == "Coffee at 15:30")
    #expect(delta.delta.questions.isEmpty)
    // The same token again, from either store: done already, nothing more logged.
    let again = try await second.announce("Coffee at 15:30", token: token, at: StoreTests.time(6))
    #expect(again == QuestionStore.RoomActionOutcome(changed: false))
    #expect(try await first.currentSeq() == seq + 1)
    // A token names one action: the same token for another text is not done.
    let reused = try await first.announce("Other", token: token, at: StoreTests.time(6))
    #expect(reused == QuestionStore.RoomActionOutcome(changed: false, refusal: reused.refusal))
    #expect(reused.refusal?.contains("another action") == true)
    #expect(try await first.announcement()?.text == "Coffee at 15:30")
    // The same text under a new token changes nothing and logs nothing.
    let same = try await first.announce(
      "Coffee at 15:30", token: uuid(2, group: 0xAA), at: StoreTests.time(7))
    #expect(same == QuestionStore.RoomActionOutcome(changed: false))
    #expect(try await first.currentSeq() == seq + 1)
  }

  @Test(arguments: StoreKind.allCases)
  func aTokenNamesOneActionWhicheverTableKeepsIt(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(1), content: "Q", askedFrom: firstConnection, createdAt: StoreTests.time(0)))
    let token = uuid(1, group: 0xAD)
    _ = try await store.perform(.highlight, on: uuid(1), token: token, at: StoreTests.time(1))
    let announced = try await store.announce("Reused", token: token, at: StoreTests.time(2))
    #expect(announced.refusal == "That token was used for another action.")
    #expect(try await store.announcement() == nil)
    let other = uuid(2, group: 0xAD)
    _ = try await store.announce("First", token: other, at: StoreTests.time(3))
    let acted = try await store.perform(.dismiss, on: uuid(1), token: other, at: StoreTests.time(4))
    #expect(acted?.refusal == "That token was used for another action.")
    #expect(try await store.question(id: uuid(1))?.state == .live)
  }

  @Test(arguments: StoreKind.allCases)
  func clearingAndUndoingAreAnnouncementsToo(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    _ = try await store.announce("First", token: uuid(1, group: 0xAB), at: StoreTests.time(1))
    _ = try await store.announce("Second", token: uuid(2, group: 0xAB), at: StoreTests.time(2))
    // Undo (what the console does): the one before again, under a new token.
    _ = try await store.announce("First", token: uuid(3, group: 0xAB), at: StoreTests.time(3))
    #expect(try await store.announcement()?.text == "First")
    let seq = try await store.currentSeq()
    let cleared = try await store.announce(nil, token: uuid(4, group: 0xAB), at: StoreTests.time(4))
    #expect(cleared.changed)
    #expect(try await store.announcement() == nil)
    // A cleared banner reads as `{}` in the delta, and is absent from the snapshot.
    let delta = try await store.changes(after: seq, upTo: seq + 1)
    #expect(delta.delta.announcement == Announcement())
    #expect(try await store.snapshot(for: nil).announcement == nil)
    // Clearing again changes nothing.
    let twice = try await store.announce(nil, token: uuid(5, group: 0xAB), at: StoreTests.time(5))
    #expect(!twice.changed)
  }

  @Test(arguments: StoreKind.allCases)
  func eachSessionHasItsOwnBannerAndLosesItWithTheSession(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let session = try await store.directory.createSession(
      title: "Talk", at: StoreTests.time(0), using: &StoreTests.random
    ).session
    let talk = store.session(try #require(session.id))
    _ = try await talk.announce("Talk's", token: uuid(1, group: 0xAC), at: StoreTests.time(1))
    #expect(try await store.announcement() == nil, "the default room has none")
    #expect(try await talk.snapshot(for: nil).announcement?.text == "Talk's")
    _ = try await store.directory.deleteSession(code: session.code)
    await #expect(throws: StoreError.self) {
      _ = try await talk.announce("Gone", token: uuid(2, group: 0xAC), at: StoreTests.time(2))
    }
    #expect(try await talk.announcement() == nil)
  }
}
