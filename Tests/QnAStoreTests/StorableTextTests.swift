import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Text an attendee sends that a database cannot keep as it is: a NUL, which PostgreSQL's
/// text refuses (its insert would fail a whole transaction, a batch of joins or votes with
/// it). Both databases keep the text without it, the same way.
@Suite("qna-server: text the databases cannot keep, on SQLite and PostgreSQL", .serialized)
struct StorableTextTests {
  @Test func aNULIsDroppedAndNothingElse() {
    #expect(SQLValue.text("a\u{0}b\u{0}").storable == .text("ab"))
    #expect(SQLValue.text("Zoë 🙂\n").storable == .text("Zoë 🙂\n"))
    #expect(SQLValue.integer(0).storable == .integer(0))
  }

  @Test(arguments: StoreKind.allCases)
  func aQuestionAndANameWithANULAreStoredWithoutIt(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let asker = uuid(1, group: 0xD0)
    let stored = try await store.insert(
      StoredQuestion(
        id: uuid(1), content: "Why\u{0}?", askedFrom: uuid(2), createdAt: Date(), attendee: asker))
    #expect(stored.inserted)
    #expect(try await store.question(id: uuid(1))?.content == "Why?")
    // A join's claim with such a name, alone and in a crowd's batch, is issued and proved.
    let credential = uuid(2, group: 0xD0)
    #expect(
      try await store.claim(
        attendee: asker, credential: nil, mint: credential, name: "Zo\u{0}ë", at: Date())
        == .issued(credential))
    #expect(
      try await store.claim(
        attendee: asker, credential: credential, mint: nil, name: "\u{0}", at: Date()) == .proved)
  }
}
