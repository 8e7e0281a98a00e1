import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Polls in the store, on SQLite and PostgreSQL, through two stores on one database (two
/// instances): made, opened and closed exactly once per token; answered once per token and
/// once per identity, changes moving the counts by difference; the room's reads showing
/// each audience what it may see.
@Suite("qna-server: polls in the store, on SQLite and PostgreSQL", .serialized)
struct PollStoreTests {
  let spec = PollSpec(kind: .single, prompt: "Tabs or spaces?", options: ["Tabs", "Spaces"])

  @Test(arguments: StoreKind.allCases)
  func anAnswerCountsOncePerIdentityAcrossInstances(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let poll = uuid(1, group: 0x90)
    _ = try await stores[0].pollAction(.create, poll: poll, spec: spec, token: uuid(1), at: Date())
    let closed = try await stores[1].answer(
      poll: poll, attendee: uuid(1, group: 0xA0), value: PollValue(choices: [0]), token: uuid(2),
      at: Date())
    #expect(closed?.refusal == "That poll is closed.", "a draft takes no answers")
    _ = try await stores[1].pollAction(.open, poll: poll, token: uuid(3), at: Date())
    let voters = (0..<100).map { uuid($0, group: 0xB0) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, voter) in voters.enumerated() {
        let store = stores[index % 2]
        group.addTask {
          // Tabs, then the same answer again (its resend), then Spaces for every third.
          let token = uuid(index, group: 0xC0)
          let first = try await store.answer(
            poll: poll, attendee: voter, value: PollValue(choices: [0]), token: token, at: Date())
          #expect(first?.value == PollValue(choices: [0]))
          let again = try await stores[(index + 1) % 2].answer(
            poll: poll, attendee: voter, value: PollValue(choices: [0]), token: token, at: Date())
          #expect(again?.refusal == nil)
          if index % 3 == 0 {
            let changed = try await store.answer(
              poll: poll, attendee: voter, value: PollValue(choices: [1]),
              token: uuid(index, group: 0xC1), at: Date())
            #expect(changed?.value == PollValue(choices: [1]))
          }
        }
      }
      try await group.waitForAll()
    }
    let polls = try await stores[0].polls()
    #expect(polls.map(\.id) == [poll])
    #expect(polls.first?.results == PollResults(answers: 100, counts: [66, 34]))
    let nobody = try await stores[0].answer(
      poll: uuid(9, group: 0x90), attendee: voters[0], value: PollValue(choices: [0]),
      token: uuid(4), at: Date())
    #expect(nobody == nil, "no such poll")
  }

  @Test(arguments: StoreKind.allCases)
  func attendeesSeeNoDraftsNoHiddenResultsAndNoAnswersBeforeTheReveal(_ kind: StoreKind)
    async throws
  {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let quiz = PollSpec(
      kind: .single, prompt: "2+2?", options: ["3", "4"], correct: [1], timeLimit: 60)
    let (draft, open) = (uuid(1, group: 0x91), uuid(2, group: 0x91))
    _ = try await store.pollAction(.create, poll: draft, spec: spec, token: uuid(1), at: Date())
    _ = try await store.pollAction(.create, poll: open, spec: quiz, token: uuid(2), at: Date())
    let opened = Date()
    _ = try await store.pollAction(.open, poll: open, token: uuid(3), at: opened)
    let attendee = uuid(1, group: 0xA1)
    _ = try await store.answer(
      poll: open, attendee: attendee, value: PollValue(choices: [1]), token: uuid(4), at: Date())

    let seen = try await store.snapshot(for: attendee).polls
    #expect(seen.map(\.id) == [open], "no draft")
    #expect(seen.first?.results == nil, "results not shown yet")
    #expect(seen.first?.correct == nil, "the answer not revealed")
    #expect(seen.first?.mine == PollValue(choices: [1]))
    #expect(seen.first?.closesAt.map { abs($0.timeIntervalSince(opened) - 60) < 1 } == true)
    let presenters = try await store.snapshot(for: nil, presenter: true).polls
    #expect(presenters.map(\.id) == [draft, open])
    #expect(presenters.last?.results == PollResults(answers: 1, counts: [0, 1]))
    #expect(presenters.last?.correct == [1])

    // Past its time limit, a quiz takes no answers.
    let late = try await store.answer(
      poll: open, attendee: uuid(2, group: 0xA1), value: PollValue(choices: [0]), token: uuid(5),
      at: opened.addingTimeInterval(61))
    #expect(late?.refusal == "Time is up for that poll.")

    for (index, action) in [PollActionKind.close, .show].enumerated() {
      _ = try await store.pollAction(action, poll: open, token: uuid(10 + index), at: Date())
    }
    let revealed = try await store.snapshot(for: nil).polls
    #expect(revealed.first?.results == PollResults(answers: 1, counts: [0, 1]))
    #expect(revealed.first?.correct == [1])
    let closed = try await store.answer(
      poll: open, attendee: attendee, value: PollValue(choices: [0]), token: uuid(6), at: Date())
    #expect(closed?.refusal == "That poll is closed.")
    #expect(closed?.value == PollValue(choices: [1]), "the answer counted stays")
  }

  @Test(arguments: StoreKind.allCases)
  func actionsAreOncePerTokenAndBounded(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let poll = uuid(1, group: 0x92)
    let first = try await stores[0].pollAction(
      .create, poll: poll, spec: spec, token: uuid(1), at: Date())
    #expect(first.changed)
    let again = try await stores[1].pollAction(
      .create, poll: poll, spec: spec, token: uuid(1), at: Date())
    #expect(!again.changed && again.refusal == nil)
    _ = try await stores[0].pollAction(.open, poll: poll, token: uuid(2), at: Date())
    for index in 0..<3 {
      _ = try await stores[index % 2].answer(
        poll: poll, attendee: uuid(index, group: 0xA2), value: PollValue(choices: [0]),
        token: uuid(index, group: 0xC2), at: Date())
    }
    // A reset's token sent twice resets once: answers after the first reset stay.
    let reset = try await stores[0].pollAction(.reset, poll: poll, token: uuid(3), at: Date())
    #expect(reset.changed)
    _ = try await stores[1].answer(
      poll: poll, attendee: uuid(9, group: 0xA2), value: PollValue(choices: [1]),
      token: uuid(9, group: 0xC2), at: Date())
    let resetAgain = try await stores[1].pollAction(
      .reset, poll: poll, token: uuid(3), at: Date())
    #expect(!resetAgain.changed)
    #expect(try await stores[0].polls().first?.results == PollResults(answers: 1, counts: [0, 1]))
    #expect(try await stores[0].polls().first?.round == 1, "one reset: clients forget their answer")

    // Another session cannot take the id, nor act on it.
    var random = SplitMix64(seed: 49)
    let other = try await stores[0].directory.createSession(
      title: "Other", at: Date(), using: &random)
    let elsewhere = stores[1].session(try #require(other.session.id))
    let taken = try await elsewhere.pollAction(
      .create, poll: poll, spec: spec, token: uuid(4), at: Date())
    #expect(taken.refusal == "That poll id is another session's.")
    let closing = try await elsewhere.pollAction(.close, poll: poll, token: uuid(5), at: Date())
    #expect(closing.refusal != nil)

    // Open polls and polls per session are bounded.
    for index in 1..<PollRules.maxOpen {
      let id = uuid(index, group: 0x93)
      _ = try await stores[0].pollAction(.create, poll: id, spec: spec, token: id, at: Date())
      _ = try await stores[0].pollAction(
        .open, poll: id, token: uuid(index, group: 0x94), at: Date())
    }
    let eleventh = uuid(99, group: 0x93)
    _ = try await stores[0].pollAction(
      .create, poll: eleventh, spec: spec, token: eleventh, at: Date())
    let tooMany = try await stores[0].pollAction(.open, poll: eleventh, token: uuid(6), at: Date())
    #expect(tooMany.refusal?.contains("At most 10 polls are open") == true)

    let deleted = try await stores[1].pollAction(.delete, poll: poll, token: uuid(7), at: Date())
    #expect(deleted.changed)
    // A deleted poll's number is never another's: the newest deleted, the next is past it.
    let last = try await stores[0].polls().map(\.n).max() ?? 0
    _ = try await stores[0].pollAction(.delete, poll: eleventh, token: uuid(9), at: Date())
    let next = uuid(98, group: 0x93)
    _ = try await stores[1].pollAction(.create, poll: next, spec: spec, token: next, at: Date())
    #expect(try await stores[0].polls().first { $0.id == next }?.n == last + 1)
    #expect(try await stores[0].polls().contains { $0.id == poll } == false)
    let late = try await stores[0].answer(
      poll: poll, attendee: uuid(1, group: 0xA2), value: PollValue(choices: [0]), token: uuid(8),
      at: Date())
    #expect(late == nil)
  }

  @Test(arguments: StoreKind.allCases)
  func aWordCloudCountsFoldedWordsAndMovesThemOnAChange(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let cloud = uuid(1, group: 0x95)
    _ = try await store.pollAction(
      .create, poll: cloud, spec: PollSpec(kind: .words, prompt: "One word?"), token: uuid(1),
      at: Date())
    _ = try await store.pollAction(.open, poll: cloud, token: uuid(2), at: Date())
    let first = try await store.answer(
      poll: cloud, attendee: uuid(1, group: 0xA5), value: PollValue(words: ["Café!", " SWIFT "]),
      token: uuid(3), at: Date())
    #expect(first?.value == PollValue(words: ["cafe", "swift"]))
    _ = try await store.answer(
      poll: cloud, attendee: uuid(2, group: 0xA5), value: PollValue(words: ["cafe"]),
      token: uuid(4), at: Date())
    let hostile = try await store.answer(
      poll: cloud, attendee: uuid(3, group: 0xA5),
      value: PollValue(words: [String(repeating: "\u{202E}x", count: 5_000)]), token: uuid(5),
      at: Date())
    #expect(hostile?.refusal != nil)
    // The first attendee changes its mind: its words move out (swift to none, cafe to one),
    // the new one in.
    _ = try await store.answer(
      poll: cloud, attendee: uuid(1, group: 0xA5), value: PollValue(words: ["rust"]),
      token: uuid(6), at: Date())
    let results = try await store.polls().first?.results
    #expect(results?.answers == 2)
    #expect(results?.words == [PollWord(text: "cafe", count: 1), PollWord(text: "rust", count: 1)])
  }

  /// Two sockets of one attendee race (one reconnected late): an older answer's token
  /// arriving after a newer answer does not count again over it.
  @Test(arguments: StoreKind.allCases)
  func anOlderAnswersResendNeverReplacesANewerOne(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let poll = uuid(3, group: 0x90)
    _ = try await stores[0].pollAction(.create, poll: poll, spec: spec, token: uuid(1), at: Date())
    _ = try await stores[0].pollAction(.open, poll: poll, token: uuid(2), at: Date())
    let attendee = uuid(1, group: 0xA1)
    let older = uuid(1, group: 0xC2)
    _ = try await stores[0].answer(
      poll: poll, attendee: attendee, value: PollValue(choices: [0]), token: older, at: Date())
    _ = try await stores[1].answer(
      poll: poll, attendee: attendee, value: PollValue(choices: [1]), token: uuid(2, group: 0xC2),
      at: Date())
    let late = try await stores[0].answer(
      poll: poll, attendee: attendee, value: PollValue(choices: [0]), token: older, at: Date())
    #expect(late?.value == PollValue(choices: [1]) && late?.refusal == nil, "the newer stands")
    #expect(try await stores[1].polls().first?.results?.counts == [0, 1])
    // Many changes later, the tokens kept stay bounded; the newest answer still counts.
    for change in 3..<20 {
      _ = try await stores[change % 2].answer(
        poll: poll, attendee: attendee, value: PollValue(choices: [change % 2]),
        token: uuid(change, group: 0xC2), at: Date())
    }
    #expect(try await stores[0].polls().first?.results?.counts == [0, 1])
  }

  @Test(arguments: StoreKind.allCases)
  func anOpenTextIsModeratedOnceForEveryoneWhoGivesIt(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let poll = uuid(1, group: 0x96)
    let spec = PollSpec(kind: .text, prompt: "What should we do next year?")
    _ = try await stores[0].pollAction(.create, poll: poll, spec: spec, token: uuid(1), at: Date())
    _ = try await stores[0].pollAction(.open, poll: poll, token: uuid(2), at: Date())
    _ = try await stores[0].pollAction(.show, poll: poll, token: uuid(3), at: Date())
    let start = Date()
    func answer(_ attendee: Int, _ text: String, held: Bool, token: Int, store: Int = 0)
      async throws -> PollAnswerOutcome?
    {
      try await stores[store].answer(
        poll: poll, attendee: uuid(attendee, group: 0xA6), value: PollValue(text: text),
        token: uuid(token, group: 0xC6), at: start.addingTimeInterval(Double(token)), held: held)
    }
    // Cleaned as the rules say: spaces one, bidi marks and controls off.
    let first = try await answer(1, "  More \u{202E}  live\ndemos ", held: false, token: 1)
    #expect(first?.value == PollValue(text: "More live demos"))
    // Held for review (a moderated session) on the other instance; the same text as a live
    // one stays live, counted twice.
    _ = try await answer(2, "Slides online?", held: true, token: 2, store: 1)
    _ = try await answer(3, "More live demos", held: true, token: 3, store: 1)
    let empty = try await answer(4, "\u{200B}\u{202E} \n", held: false, token: 4)
    #expect(empty?.refusal != nil, "nothing left to read")
    let long = try await answer(4, String(repeating: "x", count: 141), held: false, token: 5)
    #expect(long?.refusal != nil)

    var attendees = try await stores[1].polls(presenter: false).first?.results
    #expect(attendees?.texts == [PollWord(text: "More live demos", count: 2)])
    #expect(attendees?.review == nil && attendees?.held == nil, "the queue is presenters'")
    let presenters = try await stores[0].polls().first?.results
    #expect(presenters?.review == [PollWord(text: "Slides online?", count: 1)])
    #expect(presenters?.held == 1)
    #expect(presenters?.answers == 3)

    // Approved once per token, on either instance; an entry no one gives is refused.
    let approved = try await stores[1].pollAction(
      .approve, poll: poll, text: "Slides online?", token: uuid(10), at: Date())
    #expect(approved.changed && approved.refusal == nil)
    let again = try await stores[0].pollAction(
      .approve, poll: poll, text: "Slides online?", token: uuid(11), at: Date())
    #expect(!again.changed && again.refusal == nil)
    let nobody = try await stores[0].pollAction(
      .approve, poll: poll, text: "No one wrote this", token: uuid(12), at: Date())
    #expect(nobody.refusal == RoomActionFlow.noSuchEntry)
    attendees = try await stores[0].polls(presenter: false).first?.results
    #expect(
      attendees?.texts == [
        PollWord(text: "More live demos", count: 2), PollWord(text: "Slides online?", count: 1),
      ], "the most given first")

    // Dismissed: gone from the room, and it stays out for whoever gives it next.
    _ = try await stores[0].pollAction(
      .dismiss, poll: poll, text: "More live demos", token: uuid(13), at: Date())
    _ = try await answer(5, "More live demos", held: false, token: 6)
    _ = try await answer(1, "Coffee", held: false, token: 7)
    attendees = try await stores[1].polls(presenter: false).first?.results
    #expect(attendees?.texts?.map(\.text) == ["Coffee", "Slides online?"])
    let entries = try await stores[0].textEntries()[poll] ?? []
    #expect(
      Set(entries.map { "\($0.text)|\($0.count)|\($0.state)" }) == [
        "More live demos|2|dismissed", "Slides online?|1|live", "Coffee|1|live",
      ], "attendee 1 moved from one entry to another: counts by difference")

    // Two spellings of one text (an accent as one character, or a letter and a mark) are one
    // entry; an entry no one gives any more is forgotten, a dismissed one is not.
    _ = try await answer(7, "Caf\u{E9}", held: false, token: 9)
    _ = try await answer(8, "Cafe\u{301}", held: false, token: 10, store: 1)
    var texts = try await stores[0].textEntries()[poll] ?? []
    #expect(texts.filter { $0.text == "Caf\u{E9}" }.map(\.count) == [2])
    #expect(!texts.contains { $0.text.unicodeScalars.count == 5 }, "stored composed")
    _ = try await answer(1, "Tea", held: false, token: 11)
    texts = try await stores[0].textEntries()[poll] ?? []
    #expect(!texts.contains { $0.text == "Coffee" }, "no one gives it: forgotten")
    for attendee in [3, 5] {
      _ = try await answer(attendee, "Tea", held: false, token: 11 + attendee)
    }
    #expect(
      try await stores[1].pollAction(
        .approve, poll: poll, text: "More live demos", token: uuid(15), at: Date()
      ).refusal
        == RoomActionFlow.noSuchEntry, "no one gives it any more")
    _ = try await answer(9, "More live demos", held: false, token: 20)
    attendees = try await stores[1].polls(presenter: false).first?.results
    #expect(attendees?.texts?.contains { $0.text == "More live demos" } == false, "still out")

    // A reset forgets the entries and their moderation.
    _ = try await stores[0].pollAction(.reset, poll: poll, token: uuid(14), at: Date())
    #expect(try await stores[0].textEntries()[poll] == nil)
    _ = try await answer(6, "More live demos", held: false, token: 8)
    attendees = try await stores[1].polls(presenter: false).first?.results
    #expect(attendees?.texts == [PollWord(text: "More live demos", count: 1)])
  }

  @Test(arguments: StoreKind.allCases)
  func anOpenTextsResultsStayOnOnePageWhateverTheRoomWrites(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let poll = uuid(2, group: 0x96)
    _ = try await store.pollAction(
      .create, poll: poll, spec: PollSpec(kind: .text, prompt: "Say anything"), token: uuid(1),
      at: Date())
    _ = try await store.pollAction(.open, poll: poll, token: uuid(2), at: Date())
    // 300 distinct answers of 140 two-byte characters each, half held.
    for index in 0..<300 {
      let text = String(repeating: "é", count: 136) + String(format: "%04d", index)
      _ = try await store.answer(
        poll: poll, attendee: uuid(index, group: 0xA7), value: PollValue(text: text),
        token: uuid(index, group: 0xC7), at: Date().addingTimeInterval(Double(index)),
        held: index % 2 == 0)
    }
    let results = try #require(try await store.polls().first?.results)
    let texts = results.texts ?? []
    let review = results.review ?? []
    #expect(results.answers == 300 && results.held == 150)
    #expect(!texts.isEmpty && texts.count <= PollRules.topTexts)
    #expect(texts.reduce(0) { $0 + $1.text.utf8.count } <= PollRules.maxTextResultBytes)
    #expect(review.reduce(0) { $0 + $1.text.utf8.count } <= PollRules.maxTextResultBytes)
    #expect(texts.first?.text.hasSuffix("0299") == true, "newest first")
    #expect(review.first?.text.hasSuffix("0000") == true, "oldest waiting first")
  }
}

/// Quiz mode in the store: a point for each closed quiz answered wholly right, the board by
/// score with shared places, names only on a named board.
@Suite("qna-server: quizzes in the store, on SQLite and PostgreSQL", .serialized)
struct QuizStoreTests {
  @Test(arguments: StoreKind.allCases)
  func closedQuizzesScoreAndTheBoardShowsOnceShown(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    let (ada, bob, cy) = (uuid(1, group: 0xA6), uuid(2, group: 0xA6), uuid(3, group: 0xA6))
    for (attendee, name) in [(ada, "Ada"), (bob, "Bob")] {
      try await store.join(attendee: attendee, name: name, at: Date())
    }
    let first = PollSpec(
      kind: .single, prompt: "2+2?", options: ["3", "4"], correct: [1], namedBoard: true)
    let second = PollSpec(
      kind: .ranking, prompt: "Order", options: ["A", "B", "C"], correct: [2, 0, 1])
    let (one, two) = (uuid(1, group: 0x96), uuid(2, group: 0x96))
    for (index, (id, spec)) in [(one, first), (two, second)].enumerated() {
      _ = try await store.pollAction(.create, poll: id, spec: spec, token: uuid(index), at: Date())
      _ = try await store.pollAction(.open, poll: id, token: uuid(10 + index), at: Date())
    }
    let answers: [(UUID, UUID, PollValue)] = [
      (ada, one, PollValue(choices: [1])), (bob, one, PollValue(choices: [1])),
      (cy, one, PollValue(choices: [0])), (ada, two, PollValue(choices: [2, 0, 1])),
      (bob, two, PollValue(choices: [0, 1, 2])),
    ]
    for (index, (attendee, poll, value)) in answers.enumerated() {
      _ = try await store.answer(
        poll: poll, attendee: attendee, value: value, token: uuid(20 + index), at: Date())
    }
    #expect(try await store.quizScores().isEmpty, "no quiz is closed yet")
    for (index, id) in [one, two].enumerated() {
      _ = try await store.pollAction(.close, poll: id, token: uuid(30 + index), at: Date())
    }
    let scores = try await store.quizScores()
    #expect(scores.map(\.score) == [2, 1, 0])
    #expect(scores.map(\.name) == ["Ada", "Bob", nil])
    #expect(try await store.snapshot(for: nil).polls.first?.leaderboard == nil, "not shown yet")
    // The room's board counts the quizzes it has seen revealed: the second, closed and
    // hidden, says nothing yet (Ada and Bob tie on the first, in an order neither chose).
    _ = try await store.pollAction(.show, poll: one, token: uuid(40), at: Date())
    let board = try await store.snapshot(for: nil).polls.first?.leaderboard
    #expect(board?.map(\.place) == [1, 1, 3] && board?.map(\.score) == [1, 1, 0])
    #expect(Set(board?.prefix(2).compactMap(\.name) ?? []) == ["Ada", "Bob"])
    let before = try await store.snapshot(for: nil).seq
    _ = try await store.pollAction(.show, poll: two, token: uuid(41), at: Date())
    // The delta that shows the second quiz carries the board over both, as a snapshot does.
    let after = try await store.snapshot(for: nil).seq
    let delta = try await store.changes(after: before, upTo: after).delta
    #expect(delta.polls?.first?.leaderboard?.map(\.score) == [2, 1, 0])
    // The first quiz's board moved too: it comes again in the same delta, so a screen
    // showing it is current.
    #expect(delta.polls?.map(\.id) == [one, two])
    #expect(delta.polls?.last?.leaderboard?.map(\.score) == [2, 1, 0])
    let both = try await store.snapshot(for: nil).polls
    #expect(
      both.first?.leaderboard == [
        LeaderboardEntry(place: 1, name: "Ada", score: 2),
        LeaderboardEntry(place: 2, name: "Bob", score: 1),
        LeaderboardEntry(place: 3, name: nil, score: 0),
      ])
    #expect(both.last?.leaderboard?.allSatisfy { $0.name == nil } == true, "a board not named")
  }
}
