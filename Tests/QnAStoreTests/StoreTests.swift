import Foundation
import QnA
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import TestSupport
import Testing

/// The store's promises, each test run against SQLite and against a real PostgreSQL (a
/// database of its own on the test process's throwaway server): the same rules, the same
/// answers, exactly once under concurrent writers.
@Suite("qna-server: the store, on SQLite and PostgreSQL", .serialized)
struct StoreTests {
  @Test(arguments: StoreKind.allCases)
  func aTokenStoresAQuestionOnceAndMovesItToTheSendersConnection(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let token = uuid(1, group: 0x70)
    let question = StoredQuestion(
      id: uuid(1), content: "Why?", askedFrom: firstConnection, createdAt: Self.time(0),
      token: token)
    #expect(try await store.insert(question).inserted)
    var resent = question
    resent.id = uuid(2)
    resent.askedFrom = secondConnection
    let again = try await store.insert(resent)
    #expect(!again.inserted)
    #expect(again.question.id == uuid(1), "the first one comes back")
    #expect(try await store.question(token: token)?.askedFrom == secondConnection)
    #expect(try await store.count() == 1)
    // Another session does not see it, nor may it use its token.
    let elsewhere = try await Self.anotherSession(of: store)
    await #expect(throws: StoreError.self) { _ = try await elsewhere.insert(resent) }
    #expect(try await elsewhere.question(token: token) == nil)
  }

  /// A presenter's delta names the askers of its questions, looked up by their keys (the
  /// statement's plan: `SQLiteDriverTests`); another session's attendee of the same id, and
  /// an attendee's delta, name no one.
  @Test(arguments: StoreKind.allCases)
  func aPresentersDeltaNamesItsAskers(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (alice, bob) = (uuid(1, group: 0xA5), uuid(2, group: 0xA5))
    try await Self.anotherSession(of: store).join(attendee: bob, name: "Mallory", at: Date())
    // Three askers: a batch of four keys, the last again as its padding.
    let carol = uuid(3, group: 0xA5)
    for (asker, name) in [(alice, "Alice"), (bob, "Bob"), (carol, "Carol")] {
      try await store.join(attendee: asker, name: name, at: Self.time(0))
    }
    let seq = try await store.currentSeq()
    for (index, asker) in [alice, bob, alice, carol].enumerated() {
      _ = try await store.insert(
        StoredQuestion(
          id: uuid(index + 1), content: "Q\(index)", askedFrom: firstConnection,
          createdAt: Self.time(index + 1), attendee: asker))
    }
    let upTo = try await store.currentSeq()
    let forPresenters = try await store.changes(after: seq, upTo: upTo, presenter: true)
    #expect(forPresenters.delta.questions.map(\.name) == ["Alice", "Bob", "Alice", "Carol"])
    let forAttendees = try await store.changes(after: seq, upTo: upTo, presenter: false)
    #expect(forAttendees.delta.questions.count == 4)
    #expect(forAttendees.delta.questions.allSatisfy { $0.name == nil })
  }

  @Test(arguments: StoreKind.allCases)
  func resumeMovesOnlyTheSendersQuestions(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (alice, bob) = (uuid(1, group: 0xA1), uuid(2, group: 0xA1))
    let mine = StoredQuestion(
      id: uuid(1), content: "Mine", askedFrom: firstConnection, createdAt: Self.time(0),
      token: uuid(1, group: 0x70), attendee: alice)
    let theirs = StoredQuestion(
      id: uuid(2), content: "Theirs", askedFrom: firstConnection, createdAt: Self.time(1),
      token: uuid(2, group: 0x70), attendee: bob)
    let old = StoredQuestion(
      id: uuid(3), content: "Old client", askedFrom: firstConnection, createdAt: Self.time(2),
      token: uuid(3, group: 0x70))
    for question in [mine, theirs, old] { _ = try await store.insert(question) }
    // By id: only alice's own; by token: alice's, and the one no attendee asked.
    let moved = try await store.reassign(
      ids: [uuid(1), uuid(2)], tokens: [uuid(2, group: 0x70), uuid(3, group: 0x70)],
      to: secondConnection, attendee: alice)
    #expect(moved.map(\.id) == [uuid(1), uuid(3)])
    #expect(try await store.question(id: uuid(2))?.askedFrom == firstConnection)
    #expect(try await store.existing(ids: [uuid(1), uuid(2), uuid(9)]) == [uuid(1), uuid(2)])
    // A resume may name hundreds: read a batch of rows at a time (601 ids: two of 256, the
    // rest in halving sizes), the ones found wherever they fall.
    let many = (1...600).map { uuid($0, group: 0x5E) } + [uuid(2)]
    #expect(try await store.existing(ids: many) == [uuid(2)])
    let again = try await store.reassign(
      ids: [uuid(9)] + many.reversed() + [uuid(1)], tokens: many, to: firstConnection,
      attendee: alice)
    #expect(again.map(\.id) == [uuid(1)], "alice's own, found in the last batch")
    #expect(try await store.question(id: uuid(1))?.askedFrom == firstConnection)
  }

  @Test(arguments: StoreKind.allCases)
  func pagesGoNewestFirstOrByVotesAndResumeAfterTheirAnchor(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    // Five questions, two at the same instant (the order of insertion breaks the tie).
    let times = [0, 1, 1, 2, 3]
    let votes = [4, 0, 9, 4, 1]
    try await store.seed(
      (0..<5).map { index in
        StoredQuestion(
          id: uuid(index), content: "Q\(index)", answered: index == 1, askedFrom: firstConnection,
          createdAt: Self.time(times[index]), votes: votes[index])
      })
    #expect(try await store.all().map(\.id) == (0..<5).map { uuid($0) })
    let newest = try await store.page(limit: 2)
    #expect(newest.map(\.id) == [uuid(4), uuid(3)])
    let next = try await store.page(limit: 2, before: uuid(3))
    #expect(next.map(\.id) == [uuid(2), uuid(1)])
    let byVotes = try await store.page(limit: 3, byVotes: true)
    #expect(byVotes.map(\.id) == [uuid(2), uuid(3), uuid(0)])
    let afterTie = try await store.page(limit: 5, before: uuid(3), byVotes: true)
    #expect(afterTie.map(\.id) == [uuid(0), uuid(4), uuid(1)])
    #expect(try await store.page(limit: 2, before: uuid(99)).isEmpty)
    let counts = try await store.counts()
    #expect(counts.total == 5 && counts.answered == 1)
  }

  @Test(arguments: StoreKind.allCases)
  func oneVotePerAttendeeNoneForOnesOwnNorForAnAnsweredOne(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (alice, bob) = (uuid(1, group: 0xA1), uuid(2, group: 0xA1))
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(1), content: "Alice's", askedFrom: firstConnection, createdAt: Self.time(0),
        attendee: alice))
    let start = try await store.currentSeq()
    let own = try #require(
      try await store.vote(attendee: alice, question: uuid(1), up: true, at: Date()))
    #expect(!own.voted && own.refusal != nil && own.votes == 0)
    let first = try #require(
      try await store.vote(attendee: bob, question: uuid(1), up: true, at: Date()))
    #expect(first.voted && first.votes == 1 && first.seq > start)
    let again = try #require(
      try await store.vote(attendee: bob, question: uuid(1), up: true, at: Date()))
    #expect(again.voted && again.votes == 1 && again.seq == first.seq, "sent twice, counted once")
    let back = try #require(
      try await store.vote(attendee: bob, question: uuid(1), up: false, at: Date()))
    #expect(!back.voted && back.votes == 0)
    _ = try await store.perform(.answer, on: uuid(1), token: UUID(), at: Date())
    let late = try #require(
      try await store.vote(attendee: bob, question: uuid(1), up: true, at: Date()))
    #expect(late.refusal == "That question has been answered.")
    #expect(try await store.vote(attendee: bob, question: uuid(9), up: true, at: Date()) == nil)
    // In review, a question is no question to a voter.
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(2), content: "Pending", askedFrom: firstConnection, createdAt: Self.time(1),
        state: .review))
    #expect(try await store.vote(attendee: bob, question: uuid(2), up: true, at: Date()) == nil)
  }

  @Test(arguments: StoreKind.allCases)
  func everyActionTwiceByTokenActsOnceAndOutOfOrderActionsAreHarmless(_ kind: StoreKind)
    async throws
  {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let id = uuid(7, group: 0x1C)
    _ = try await store.insert(
      StoredQuestion(
        id: id, content: "Q", askedFrom: uuid(1), createdAt: Date(), state: .review))
    let start = Date(timeIntervalSinceReferenceDate: 1000)
    // The actions of the life cycle (edits and silence have their own tests).
    let lifeCycle: [PresenterActionKind] = [
      .approve, .dismiss, .restore, .highlight, .unhighlight, .answer,
    ]
    for (step, kind) in lifeCycle.enumerated() {
      let token = UUID()
      let at = start.addingTimeInterval(Double(step))
      let first = try #require(
        try await store.perform(kind, on: id, text: "A", token: token, at: at))
      let again = try #require(
        try await store.perform(kind, on: id, text: "B", token: token, at: at))
      #expect(again.changed == false && again.refusal == nil, "\(kind) sent twice")
      #expect(again.question == first.question, "\(kind) sent twice")
      let reused = try #require(
        try await store.perform(kind == .answer ? .dismiss : .answer, on: id, token: token, at: at))
      #expect(reused.refusal == "That token was used for another action.")
    }
    // Each token once in the history, with its time.
    let history = try await store.transitions(of: id)
    #expect(history.map(\.action) == lifeCycle)
    #expect(history.map(\.at) == (0..<6).map { start.addingTimeInterval(Double($0)) })
    // The answer's text is the first's, not the repeat's.
    #expect(try await store.question(id: id)?.answer == "A")

    // Out of order: a restore before its dismiss changes nothing; the dismiss then holds.
    let other = uuid(8, group: 0x1C)
    _ = try await store.insert(
      StoredQuestion(id: other, content: "R", askedFrom: uuid(1), createdAt: Date()))
    let restore = try await store.perform(.restore, on: other, token: UUID(), at: start)
    #expect(restore?.changed == false)
    _ = try await store.perform(.dismiss, on: other, token: UUID(), at: start)
    #expect(try await store.question(id: other)?.publicState == .dismissed)
    // Dismissed, it can be neither approved nor highlighted: restored first.
    let approve = try await store.perform(.approve, on: other, token: UUID(), at: start)
    #expect(approve?.refusal != nil)
    let highlight = try await store.perform(.highlight, on: other, token: UUID(), at: start)
    #expect(highlight?.refusal != nil)
    #expect(try await store.perform(.dismiss, on: uuid(99), token: UUID(), at: start) == nil)
  }

  /// A crowd's first joins go to the database together (`GroupCommit`), each decided as if
  /// alone: every one issued its own credential, then proved by it, and a claim of an
  /// id with another's credential refused, however the claims fell into transactions.
  @Test(arguments: StoreKind.allCases)
  func claimsMadeTogetherAreDecidedEachAsIfAlone(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let crowd = (0..<300).map {
      (attendee: uuid($0, group: 0xC1), credential: uuid($0, group: 0xC2))
    }
    func claimAll(
      _ offered: @escaping @Sendable (Int) -> UUID?, mint: @escaping @Sendable (Int) -> UUID?
    )
      async throws -> [AttendeeClaim]
    {
      try await withThrowingTaskGroup(of: (Int, AttendeeClaim).self) { group in
        for (index, member) in crowd.enumerated() {
          group.addTask {
            let claim = try await store.claim(
              attendee: member.attendee, credential: offered(index), mint: mint(index),
              name: nil, at: Date())
            return (index, claim)
          }
        }
        var claims = [AttendeeClaim](repeating: .needsMint, count: crowd.count)
        for try await (index, claim) in group { claims[index] = claim }
        return claims
      }
    }
    #expect(
      try await claimAll({ _ in nil }, mint: { crowd[$0].credential }).enumerated().allSatisfy {
        $0.element == .issued(crowd[$0.offset].credential)
      })
    #expect(
      try await claimAll({ crowd[$0].credential }, mint: { _ in nil }).allSatisfy { $0 == .proved })
    let others = try await claimAll(
      { crowd[($0 + 1) % crowd.count].credential }, mint: { _ in UUID() })
    #expect(others.allSatisfy { $0 == .taken })
  }

  /// Extension `identity`: an id is proved by the credential issued for it (to an attendee
  /// from before the extension too), issued again only until a join has proved it.
  @Test(arguments: StoreKind.allCases)
  func anAttendeeIsProvedByTheCredentialIssuedForItOnly(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (fresh, old, credential) = (
      uuid(1, group: 0x1D), uuid(2, group: 0x1D), uuid(3, group: 0x1D)
    )
    func claim(_ attendee: UUID, _ offered: UUID?, mint: UUID?, name: String? = nil) async throws
      -> AttendeeClaim
    {
      try await store.claim(
        attendee: attendee, credential: offered, mint: mint, name: name, at: Date())
    }
    #expect(try await claim(fresh, nil, mint: nil) == .needsMint, "nothing is written unasked")
    #expect(try await claim(fresh, UUID(), mint: nil) == .needsMint, "an invented credential")
    #expect(try await claim(fresh, nil, mint: credential, name: "Zoë") == .issued(credential))
    #expect(try await claim(fresh, credential, mint: nil, name: "Zoë B.") == .proved)
    #expect(try await claim(fresh, nil, mint: UUID()) == .taken)
    #expect(try await claim(fresh, UUID(), mint: UUID()) == .taken)
    // An attendee from before identity (a row without a credential) is issued one. Until a
    // join proves it, that same one is issued again, needing no mint (its client may have
    // lost the joined that carried it, or shares the id with another client); once proved,
    // it alone proves the id.
    try await store.join(attendee: old, name: nil, at: Date())
    let issued = UUID()
    #expect(try await claim(old, nil, mint: nil) == .needsMint)
    #expect(try await claim(old, nil, mint: issued) == .issued(issued))
    #expect(try await claim(old, nil, mint: UUID()) == .issued(issued), "the same again")
    #expect(try await claim(old, nil, mint: nil) == .issued(issued), "no mint needed")
    #expect(try await claim(old, UUID(), mint: nil) == .issued(issued), "a stale one")
    #expect(try await claim(old, issued, mint: nil) == .proved)
    #expect(try await claim(old, UUID(), mint: UUID()) == .taken)
    #expect(try await claim(old, nil, mint: UUID()) == .taken)
    // The proved one's new name is recorded; a refused claim changes nothing.
    let seq = try await store.currentSeq()
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(20, group: 0x1D), content: "Named?", askedFrom: uuid(1), createdAt: Self.time(0),
        attendee: fresh))
    let delta = try await store.changes(
      after: seq, upTo: try await store.currentSeq(), presenter: true
    ).delta
    #expect(delta.questions.map(\.name) == ["Zoë B."])
    // An attendee's own view: its question, as its asker sees it.
    let view = try await store.view(of: fresh)
    #expect(view.own.map(\.id) == [uuid(20, group: 0x1D)] && view.own.first?.mine == true)
    #expect(view.voted.isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  func theRoomShowsAttendeesWhatIsPublicAndPresentersEverythingWithNames(_ kind: StoreKind)
    async throws
  {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (named, anonymous) = (uuid(5, group: 0x1C), uuid(6, group: 0x1C))
    try await store.join(attendee: named, name: "Zoë", at: Date())
    try await store.join(attendee: anonymous, name: nil, at: Date())
    for (index, attendee) in [named, anonymous].enumerated() {
      _ = try await store.insert(
        StoredQuestion(
          id: uuid(10 + index), content: "Q\(index)", askedFrom: uuid(1),
          createdAt: Self.time(index), attendee: attendee))
    }
    _ = try await store.insert(
      StoredQuestion(
        id: uuid(12), content: "In review", askedFrom: uuid(1), createdAt: Self.time(2),
        attendee: anonymous, state: .review))
    let seq = try await store.currentSeq()
    let forPresenters = try await store.changes(after: 0, upTo: seq, presenter: true).delta
    #expect(forPresenters.questions.map(\.name) == ["Zoë", nil, nil])
    let forAttendees = try await store.changes(after: 0, upTo: seq).delta
    #expect(forAttendees.questions.map(\.id) == [uuid(10), uuid(11)])
    #expect(forAttendees.questions.allSatisfy { $0.name == nil })
    // The asker sees their own question in review; nobody else does.
    #expect(try await store.snapshot(for: anonymous).questions.count == 3)
    #expect(try await store.snapshot(for: named).questions.map(\.id) == [uuid(10), uuid(11)])

    // Dismissed: removed for attendees, in the delta after the last sequence.
    _ = try await store.perform(.highlight, on: uuid(10), token: UUID(), at: Date())
    _ = try await store.perform(.dismiss, on: uuid(10), token: UUID(), at: Date())
    let later = try await store.currentSeq()
    let delta = try await store.changes(after: seq, upTo: later).delta
    #expect(delta.from == seq + 1 && delta.to == later)
    #expect(delta.removed == [uuid(10)])
    #expect(delta.highlight == HighlightChange(id: nil), "the dismissed one was highlighted")
    #expect(try await store.highlighted() == nil)
    let snapshot = try await store.snapshot(for: named, presenter: true)
    #expect(snapshot.seq == later && snapshot.questions.count == 3)
  }

  /// Two stores on one database (two instances, or a server and `qna-server session`): a
  /// token, a vote and an action sent through both at once count once.
  @Test(arguments: StoreKind.allCases)
  func concurrentWritersThroughTwoStoresCountEachThingOnce(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let question = uuid(1)
    _ = try await stores[0].insert(
      StoredQuestion(id: question, content: "Vote", askedFrom: uuid(1), createdAt: Date()))
    let voters = (0..<40).map { uuid($0, group: 0xB0) }
    let token = uuid(9, group: 0x70)
    let answerToken = uuid(10, group: 0x70)
    let results = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
      for (index, store) in [stores[0], stores[1], stores[0], stores[1]].enumerated() {
        group.addTask {
          // Every voter votes through every store; the same question is sent four times.
          for voter in voters {
            _ = try await store.vote(attendee: voter, question: question, up: true, at: Date())
          }
          let inserted = try await store.insert(
            StoredQuestion(
              id: uuid(100 + index), content: "Same", askedFrom: uuid(1), createdAt: Date(),
              token: token)
          ).inserted
          let acted = try await store.perform(
            .highlight, on: question, token: answerToken, at: Date())
          return (inserted, acted?.changed == true)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.filter(\.0).count == 1, "one of four sends stored the question")
    #expect(results.filter(\.1).count == 1, "one of four sends did the action")
    #expect(try await stores[1].question(id: question)?.votes == voters.count)
    #expect(try await stores[1].count() == 2)
    #expect(try await stores[0].transitions(of: question).count == 1)
    #expect(try await stores[0].highlighted() == question)
  }

  /// The log's numbers never go back, and a change is in it with the question's row: a
  /// reader that saw number n has every change up to n.
  @Test(arguments: StoreKind.allCases)
  func theLogNumbersChangesInTheOrderTheyCommit(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let ids = (0..<30).map { uuid($0) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, id) in ids.enumerated() {
        group.addTask {
          _ = try await stores[index % 2].insert(
            StoredQuestion(id: id, content: "Q", askedFrom: uuid(1), createdAt: Date()))
        }
      }
      try await group.waitForAll()
    }
    var seen: Set<UUID> = []
    var last = 0
    // Read back in slices, as a room's broadcasts do: every question once.
    let end = try await stores[0].currentSeq()
    while last < end {
      let upTo = min(end, last + 7)
      let delta = try await stores[1].changes(after: last, upTo: upTo).delta
      for question in delta.questions { #expect(seen.insert(question.id).inserted) }
      last = upTo
    }
    #expect(seen == Set(ids))
  }

  @Test func bothDatabasesMigrateByTheSameSteps() {
    #expect(SQLiteDriver.migrator.migrations == PostgresSchema.steps.map(\.name))
  }

  /// A new session's view of `store`'s database.
  static func anotherSession(of store: QuestionStore) async throws -> QuestionStore {
    let other = try await store.directory.createSession(
      title: "Other", at: Date(), using: &random
    )
    .session
    return store.session(try #require(other.id))
  }

  static func time(_ seconds: Int) -> Date {
    Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seconds))
  }

  nonisolated(unsafe) static var random = SplitMix64(seed: 42)
}
