import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// The sessions' word filters in the store, on SQLite and on a real PostgreSQL: each change
/// exactly once per token, undone by the next, bounded, per session; the filter's marks kept
/// with the question and in the export.
@Suite("qna-server: word filters in the store", .serialized)
struct FilterStoreTests {
  static let max = 20_000

  @Test(arguments: StoreKind.allCases)
  func listsAreReplacedEditedAndUndoneOncePerToken(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let (first, second) = (stores[0], stores[1])
    #expect(try await first.moderation.filterSettings() == FilterSettings())
    let token = uuid(1, group: 0xF1)
    let made = try await first.moderation.replaceFilterList(
      "en", entries: ["darn", "heck", "darn"], maxEntries: Self.max, token: token,
      at: StoreTests.time(1))
    #expect(made == QuestionStore.RoomActionOutcome(changed: true))
    #expect(try await second.moderation.filterSettings().lists == ["en": ["darn", "heck"]])
    // The same token again: done already; with another list under it: refused.
    let again = try await second.moderation.replaceFilterList(
      "en", entries: ["darn", "heck"], maxEntries: Self.max, token: token, at: StoreTests.time(2))
    #expect(again == QuestionStore.RoomActionOutcome(changed: false))
    let reused = try await second.moderation.replaceFilterList(
      "en", entries: ["other"], maxEntries: Self.max, token: token, at: StoreTests.time(2))
    #expect(reused.refusal?.contains("another action") == true)
    // One word in, one out; undone by the opposite change.
    _ = try await first.moderation.changeFilterList(
      "en", FilterChange(adding: ["frak"], removing: ["heck"]), maxEntries: Self.max,
      token: uuid(2, group: 0xF1), at: StoreTests.time(3))
    #expect(try await second.moderation.filterSettings().lists["en"] == ["darn", "frak"])
    _ = try await first.moderation.changeFilterList(
      "en", FilterChange(adding: ["heck"], removing: ["frak"]), maxEntries: Self.max,
      token: uuid(3, group: 0xF1), at: StoreTests.time(4))
    #expect(try await first.moderation.filterSettings().lists["en"] == ["darn", "heck"])
    // The mode; an empty list goes.
    _ = try await first.moderation.setFilterMode(
      .refuse, token: uuid(4, group: 0xF1), at: StoreTests.time(5))
    _ = try await first.moderation.replaceFilterList(
      "en", entries: [], maxEntries: Self.max, token: uuid(5, group: 0xF1), at: StoreTests.time(6))
    #expect(
      try await second.moderation.filterSettings() == FilterSettings(lists: [:], mode: .refuse))
    // None of it is the room's: no log row, no sequence number.
    #expect(try await first.currentSeq() == 0)
  }

  @Test(arguments: StoreKind.allCases)
  func listsAreBoundedInEntriesAndInNumber(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let many = (0..<15_000).map { "word\($0)" }
    let big = try await store.moderation.replaceFilterList(
      "big", entries: many, maxEntries: Self.max, token: uuid(1, group: 0xF2),
      at: StoreTests.time(1))
    #expect(big.changed)
    // 15,000 + 6,000 > 20,000: refused whole, nothing of it kept.
    let over = try await store.moderation.replaceFilterList(
      "more", entries: (0..<6_000).map { "extra\($0)" }, maxEntries: Self.max,
      token: uuid(2, group: 0xF2), at: StoreTests.time(2))
    #expect(over.refusal?.contains("at most 20000 entries") == true)
    #expect(try await store.moderation.filterSettings().lists["more"] == nil)
    let oneTooMany = try await store.moderation.changeFilterList(
      "big", FilterChange(adding: (0..<5_001).map { "new\($0)" }), maxEntries: Self.max,
      token: uuid(3, group: 0xF2), at: StoreTests.time(3))
    #expect(oneTooMany.refusal != nil)
    #expect(try await store.moderation.filterSettings().lists["big"]?.count == 15_000)
    for index in 0..<(ModerationStore.maxFilterLists - 1) {
      _ = try await store.moderation.replaceFilterList(
        "list\(index)", entries: ["w"], maxEntries: Self.max, token: uuid(10 + index, group: 0xF2),
        at: StoreTests.time(4))
    }
    let seventeenth = try await store.moderation.replaceFilterList(
      "last", entries: ["w"], maxEntries: Self.max, token: uuid(99, group: 0xF2),
      at: StoreTests.time(5))
    #expect(seventeenth.refusal?.contains("at most 16 word lists") == true)
  }

  @Test(arguments: StoreKind.allCases)
  func aQuestionKeepsWhatTheFilterMatchedAndTheExportSaysIt(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let question = StoredQuestion(
      id: uuid(1), content: "What the darn?", askedFrom: firstConnection,
      createdAt: StoreTests.time(0), state: .review, flagged: ["darn", "the heck"])
    _ = try await store.insert(question)
    #expect(try await store.question(id: uuid(1))?.flagged == ["darn", "the heck"])
    let presenterRoom = try await store.snapshot(for: nil, presenter: true).questions
    #expect(presenterRoom.first?.flagged == ["darn", "the heck"])
    let attendeeView = try await store.snapshot(for: nil).questions
    #expect(attendeeView.allSatisfy { $0.flagged == nil })
    let csv = String(decoding: Export.render(try await store.export(), as: .csv), as: UTF8.self)
    #expect(
      csv.contains(",flagged,original,starred,label\r\n") && csv.contains("\"darn; the heck\""))
  }

  @Test(arguments: StoreKind.allCases)
  func aSessionsListsGoWithIt(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let session = try await store.directory.createSession(
      title: "Talk", at: StoreTests.time(0), using: &StoreTests.random
    ).session
    let talk = store.session(try #require(session.id))
    _ = try await talk.moderation.replaceFilterList(
      "en", entries: ["darn"], maxEntries: Self.max, token: uuid(1, group: 0xF3),
      at: StoreTests.time(1))
    #expect(
      try await store.moderation.filterSettings().lists.isEmpty, "the default room's are its own")
    _ = try await store.directory.deleteSession(code: session.code)
    #expect(try await talk.moderation.filterSettings().lists.isEmpty)
  }
}
