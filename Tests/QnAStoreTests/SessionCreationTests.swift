import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Sessions on both databases: their own room, code and life cycle; and creation under an
/// idempotency key, where a retry after a timeout, or the same request through two instances
/// at once, makes one session.
@Suite("Store: sessions")
struct SessionCreationTests {
  @Test(arguments: StoreKind.allCases)
  func sessionsHaveTheirOwnRoomCodeAndLifeCycle(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    var first = SplitMix64(seed: 7)
    var replay = SplitMix64(seed: 7)
    let taken = try await store.directory.createSession(title: "First", at: Date(), using: &first)
      .session
    // The same draws again: the first code is taken, so the store draws another.
    let talk = try await store.directory.createSession(title: "Second", at: Date(), using: &replay)
      .session
    #expect(talk.code != taken.code)
    #expect(try await store.directory.session(code: talk.code.lowercased())?.title == "Second")
    let room = store.session(try #require(talk.id))
    let defaultEpoch = try await store.roomEpoch()
    #expect(try await room.roomEpoch() != defaultEpoch)
    _ = try await room.insert(
      StoredQuestion(id: uuid(1), content: "Q", askedFrom: uuid(1), createdAt: Date()))
    #expect(try await store.count() == 0)
    #expect(try await room.count() == 1)
    #expect(try await store.directory.sessions().map(\.questions) == [0, 1])

    #expect(try await store.directory.setSession(code: talk.code, open: false)?.open == false)
    await #expect(throws: StoreError.self) {
      _ = try await room.insert(
        StoredQuestion(id: uuid(2), content: "Late", askedFrom: uuid(1), createdAt: Date()))
    }
    #expect(try await store.directory.deleteSession(code: talk.code)?.code == talk.code)
    #expect(try await store.directory.session(code: talk.code) == nil)
    #expect(try await room.count() == 0)
    await #expect(throws: StoreError.self) {
      try await room.join(attendee: uuid(1), name: "Late", at: Date())
    }
  }

  @Test(arguments: StoreKind.allCases)
  func oneKeyMakesOneSessionThroughEveryStoreEvenAtOnce(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    var random = SystemRandomNumberGenerator()
    let first = try await stores[0].directory.createSession(
      title: "Keynote", at: Date(), requestToken: "create-keynote-1", using: &random)
    #expect(first.created)
    let again = try await stores[1].directory.createSession(
      title: "Keynote", at: Date(), requestToken: "create-keynote-1", using: &random)
    #expect(!again.created && again.session == first.session, "the first one, token and all")
    // Ten creations under one new key, through both stores at the same moment.
    let made = try await withThrowingTaskGroup(of: (SessionRecord, Bool).self) { group in
      for index in 0..<10 {
        group.addTask {
          var random = SystemRandomNumberGenerator()
          return try await stores[index % 2].directory.createSession(
            title: "Workshop", at: Date(), requestToken: "create-workshop", using: &random)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(made.map(\.0.code)).count == 1, "\(made.map(\.0.code))")
    #expect(made.filter(\.1).count == 1, "created once")
    // Without a key, each creation is a session of its own.
    let plain = try await stores[0].directory.createSession(
      title: "Keynote", at: Date(), using: &random)
    #expect(plain.created && plain.session.code != first.session.code)
    let titles = try await stores[0].directory.sessions().map(\.session.title)
    #expect(titles.filter { $0 == "Workshop" }.count == 1)
    #expect(titles.filter { $0 == "Keynote" }.count == 2)
  }

  @Test func aKeyIsOneToTwoHundredPrintableCharacters() {
    #expect(SessionDirectory.validRequestToken("a") == "a")
    #expect(SessionDirectory.validRequestToken(String(repeating: "k", count: 200)) != nil)
    for bad in ["", String(repeating: "k", count: 201), "with space", "tab\t", "é", "\u{202E}x"] {
      #expect(SessionDirectory.validRequestToken(bad) == nil, "\(bad)")
    }
  }
}
