import Foundation
import QnA
import TestSupport
import Testing

/// The room in the reducer: joining, snapshots in pages, deltas and gaps, votes.
@Suite("QnAState: the room")
struct RoomTests {
  typealias Room = StateDriver
  static func q(
    _ n: Int, _ content: String? = nil, votes: Int = 0, answered: Bool = false,
    mine: Bool? = nil, voted: Bool? = nil
  ) -> RoomQuestion {
    Room.roomQuestion(n, content, votes: votes, answered: answered, mine: mine, voted: voted)
  }

  @Test func theHandshakeOfARoomServerJoinsFirstWithTheAttendeeNeverTheConnection() {
    var room = Room()
    room.apply(.identity(attendee: Room.attendee, name: "Zoë"))
    room.ask("Queued before connecting")
    room.apply(.connecting(attempt: 1))
    room.apply(.connected)
    let effects = room.apply(
      .received(.handshake(Handshake(id: firstConnection, extensions: Room.roomExtensions))))
    guard
      case .join(let join) = effects.first(where: { if case .report = $0 { false } else { true } })
    else {
      Issue.record("the join must be the first thing sent: \(effects)")
      return
    }
    #expect(join == Join(id: firstConnection, attendee: Room.attendee, name: "Zoë"))
    #expect(effects.sent.map(\.content) == ["Queued before connecting"])
  }

  @Test func aSnapshotInPagesArrivingInAnyOrderIsTheRoom() {
    var room = Room()
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.connect(extensions: Room.roomExtensions)
    let questions = (1...9).map { Self.q($0, votes: $0, mine: $0 == 2, voted: $0 == 3) }
    let pages = [questions[6...], questions[0..<3], questions[3..<6]]
    for (index, page) in pages.enumerated() {
      let part = [3, 1, 2][index]
      let effects = room.apply(
        .received(
          .room(
            RoomSnapshot(
              seq: 40, part: part, parts: 3, questions: Array(page),
              highlighted: uuid(5, group: 0x5E),
              epoch: Room.roomEpoch))))
      // Nothing shows until the whole room is there.
      #expect(effects.roomLines.isEmpty == (index < 2))
      if index == 2 {
        #expect(effects.roomLines.map(\.id) == (1...9).map { uuid($0, group: 0x5E) })
      }
    }
    #expect(room.state.room.seq == 40)
    #expect(room.state.roomEntries(.popular).map(\.votes) == Array((1...9).reversed()))
    #expect(room.roomEntry(2)?.mine == true)
    #expect(room.roomEntry(3)?.voted == true)
    #expect(room.state.nowAnswering?.id == uuid(5, group: 0x5E))
  }

  @Test func deltasApplyOnceInOrderAndAGapAsksForWhatWasMissed() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1)], seq: 10)
    // A new question and a vote: one delta covering two sequence numbers.
    var effects = room.receiveDelta(
      from: 11, to: 12, [Self.q(1, votes: 1), Self.q(2, "New")])
    #expect(effects.roomLines.map(\.votes) == [1, 0])
    #expect(room.state.room.seq == 12)
    // The same delta again (a resend, a late duplicate): nothing.
    effects = room.receiveDelta(from: 11, to: 12, [Self.q(1, votes: 1)])
    #expect(effects.isEmpty)
    // 13 and 14 never arrive: 15 is a gap. The client asks to catch up from 12.
    effects = room.receiveDelta(from: 15, to: 15, [Self.q(1, votes: 7)])
    #expect(effects.joins.map(\.since) == [12])
    #expect(effects.joins.map(\.epoch) == [Room.roomEpoch])
    #expect(room.roomEntry(1)?.votes == 1, "nothing applied past a gap")
    // Until the catch-up comes, later deltas wait too.
    #expect(room.receiveDelta(from: 16, to: 16, [Self.q(2, votes: 3)]).isEmpty)
    // The catch-up: everything from 13 to 16.
    effects = room.receiveDelta(
      from: 13, to: 16,
      [Self.q(1, votes: 7), Self.q(2, votes: 3, answered: true)],
      removed: [uuid(9, group: 0x5E)], highlight: HighlightChange(id: uuid(2, group: 0x5E)))
    #expect(room.state.room.seq == 16)
    #expect(room.roomEntry(1)?.votes == 7)
    #expect(room.roomEntry(2)?.question.answered == true)
    #expect(room.state.nowAnswering?.id == uuid(2, group: 0x5E))
  }

  @Test func questionsLeaveAndTheHighlightMoves() {
    var room = Room()
    room.enterRoom(
      questions: [Self.q(1), Self.q(2)], seq: 1,
      highlighted: uuid(1, group: 0x5E))
    let effects = room.receiveDelta(
      from: 2, to: 3, removed: [uuid(1, group: 0x5E)], highlight: HighlightChange(id: nil))
    #expect(room.roomEntry(1) == nil)
    #expect(room.state.nowAnswering == nil)
    #expect(
      effects.changes.contains {
        if case .roomQuestion(let entry, removed: true) = $0 {
          entry.id == uuid(1, group: 0x5E)
        } else {
          false
        }
      })
  }

  @Test func aReconnectCatchesUpFromTheLastSequenceAndAnotherRoomStartsAfresh() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1)], seq: 5)
    room.apply(.disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
    room.apply(.connecting(attempt: 2))
    room.apply(.connected)
    let effects = room.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: Room.roomExtensions))))
    #expect(
      effects.joins
        == [Join(id: secondConnection, attendee: Room.attendee, since: 5, epoch: Room.roomEpoch)])
    // A server on another database: a snapshot in another epoch replaces everything.
    room.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 2, part: 1, parts: 1, questions: [Self.q(7)], epoch: uuid(0xE1)))))
    #expect(room.state.roomEntries(.recent).map(\.id) == [uuid(7, group: 0x5E)])
    #expect(room.state.room.seq == 2)
  }

  @Test func aVoteGoesOnceConfirmedAndAResendNeverCountsTwice() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1, votes: 4)], seq: 3)
    var effects = room.vote(1, token: 1)
    #expect(
      effects.votes
        == [
          Vote(
            id: firstConnection, question: uuid(1, group: 0x5E), up: true,
            token: uuid(1, group: 0x70))
        ])
    // On the wire and unanswered: the count waits for the server, the vote shows pending.
    #expect(room.roomEntry(1)?.votes == 4)
    #expect(room.roomEntry(1)?.voted == true)
    #expect(room.roomEntry(1)?.votePending == true)
    effects = room.voteAnswered(1, token: 1, voted: true, votes: 5, seq: 4)
    #expect(effects.roomLines.map(\.votes) == [5])
    #expect(room.roomEntry(1)?.votePending == false)
    // The delta of the same vote: nothing new to show.
    #expect(room.receiveDelta(from: 4, to: 4, [Self.q(1, votes: 5)]).roomLines.isEmpty)
    // A duplicate answer to the same token changes nothing.
    #expect(room.voteAnswered(1, token: 1, voted: true, votes: 5, seq: 4).isEmpty)
    #expect(room.roomEntry(1)?.votes == 5)
  }

  @Test func aVoteTypedOfflineCountsAtOnceAndGoesAfterTheNextJoin() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1, votes: 2)], seq: 3)
    room.apply(.disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
    #expect(room.vote(1, token: 1).votes.isEmpty, "nothing goes while offline")
    #expect(room.roomEntry(1)?.votes == 3, "counted on screen at once")
    room.apply(.connecting(attempt: 2))
    room.apply(.connected)
    let effects = room.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: Room.roomExtensions))))
    let wire = effects.filter { if case .report = $0 { false } else { true } }
    guard case .join = wire.first else {
      Issue.record("the join goes before the vote: \(wire)")
      return
    }
    #expect(
      wire.compactMap { if case .vote(let v) = $0 { v.token } else { nil } } == [
        uuid(1, group: 0x70)
      ])
  }

  /// A vote an earlier run kept goes after the first join, with the token it was typed with
  /// (a resend the server already counted counts once), and leaves the kept list once answered.
  @Test func aKeptVoteFromAnEarlierRunGoesAfterTheFirstJoin() {
    var room = Room()
    let kept = KeptVote(question: uuid(1, group: 0x5E), up: true, token: uuid(9, group: 0x70))
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.apply(.restoreVote(kept))
    #expect(room.state.room.keptVotes == [kept])
    let effects =
      room.apply(.connecting(attempt: 1)) + room.apply(.connected)
      + room.apply(
        .received(.handshake(Handshake(id: firstConnection, extensions: Room.roomExtensions))))
    #expect(
      effects.compactMap { if case .vote(let v) = $0 { v.token } else { nil } } == [kept.token])
    room.apply(
      .received(
        .voteResponse(
          VoteResponse(
            question: kept.question, token: kept.token, success: true, voted: true, votes: 1,
            seq: 1))))
    #expect(room.state.room.keptVotes.isEmpty)
  }

  @Test func aVoteOnTheWireWhenTheLinkDropsGoesAgainWithTheSameToken() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1)], seq: 1)
    room.vote(1, token: 1)
    room.apply(.disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
    room.apply(.connecting(attempt: 2))
    room.apply(.connected)
    let effects = room.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: Room.roomExtensions))))
    #expect(effects.votes.map(\.token) == [uuid(1, group: 0x70)])
    #expect(effects.votes.map(\.id) == [secondConnection])
  }

  @Test func voteThenUnvoteBeforeAnyAnswerEndsUnvotedWhateverOrderTheAnswersCome() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1)], seq: 1)
    room.vote(1, token: 1)
    room.vote(1, up: false, token: 2)
    #expect(room.roomEntry(1)?.voted == false, "the latest intent shows")
    // The answer to the first vote: an older token, only its count is news.
    room.voteAnswered(1, token: 1, voted: true, votes: 1, seq: 2)
    #expect(room.roomEntry(1)?.voted == false)
    #expect(room.roomEntry(1)?.votePending == true)
    room.voteAnswered(1, token: 2, voted: false, votes: 0, seq: 3)
    #expect(room.roomEntry(1)?.voted == false)
    #expect(room.roomEntry(1)?.votes == 0)
    #expect(room.roomEntry(1)?.votePending == false)
  }

  @Test func anAnswersStaleCountNeverUndoesANewerDelta() {
    var room = Room()
    room.enterRoom(questions: [Self.q(1)], seq: 1)
    room.vote(1, token: 1)
    // Another attendee's vote after ours reached everyone first.
    room.receiveDelta(from: 2, to: 3, [Self.q(1, votes: 2)])
    room.voteAnswered(1, token: 1, voted: true, votes: 1, seq: 2)
    #expect(room.roomEntry(1)?.votes == 2)
    #expect(room.roomEntry(1)?.voted == true)
  }

  @Test func noVoteForOnesOwnOrAnAnsweredQuestionAndRefusalsAreSaid() {
    var room = Room()
    room.enterRoom(
      questions: [
        Self.q(1, mine: true), Self.q(2, votes: 3, answered: true), Self.q(3),
      ], seq: 1)
    #expect(room.vote(1, token: 1).votes.isEmpty)
    #expect(room.vote(2, token: 2).votes.isEmpty)
    #expect(room.state.notices.map(\.text).contains { $0.contains("yours") })
    #expect(room.state.notices.map(\.text).contains { $0.contains("answered") })
    room.vote(3, token: 3)
    room.voteAnswered(
      3, token: 3, voted: false, votes: 0, success: false, message: "No such question.", seq: 1)
    #expect(room.state.notices.last?.text == "No such question.")
    #expect(room.roomEntry(3)?.voted == false)
  }

  @Test func aRateLimitedVoteWaitsItsTurnThenGoesAgain() {
    var room = Room(now: .seconds(10))
    room.enterRoom(questions: [Self.q(1)], seq: 1)
    room.vote(1, token: 1)
    #expect(
      room.voteAnswered(1, token: 1, voted: false, votes: 0, success: false, retryAfter: 2).isEmpty)
    #expect(room.apply(.clock(.seconds(11))).votes.isEmpty)
    #expect(room.apply(.clock(.seconds(12))).votes.map(\.token) == [uuid(1, group: 0x70)])
  }

  @Test func popularSinksAnsweredAndBreaksTiesByAgeRecentIsNewestFirst() {
    var room = Room()
    room.enterRoom(
      questions: [
        Self.q(1, votes: 5, answered: true), Self.q(2, votes: 2), Self.q(3, votes: 2),
        Self.q(4, votes: 9),
      ], seq: 1)
    let ids = { (order: RoomOrder) in
      room.state.roomEntries(order).map { Int($0.id.uuidString.suffix(12), radix: 16)! }
    }
    #expect(ids(.popular) == [4, 2, 3, 1])
    #expect(ids(.recent) == [4, 3, 2, 1])
  }

  @Test func anOldServerGetsNoJoinAndTheNoticeIsSaidOnceWhereTheRoomIsExpected() {
    var room = Room(configuration: QnAConfiguration(expectsRoom: true))
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.connect()
    room.apply(.disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
    room.connect(secondConnection, attempt: 2)
    #expect(room.effects.joins.isEmpty)
    #expect(
      room.state.notices.map(\.text).filter { $0 == "This server shows only your own questions." }
        .count == 1)
    // Votes have nothing to go to.
    #expect(room.vote(1, token: 1).votes.isEmpty)
    // Headless without --room: not a word.
    var headless = Room()
    headless.connect()
    #expect(headless.state.notices.isEmpty)
  }

  @Test func aHostileServerCannotGrowTheRoomWithoutBoundOrBreakPaging() {
    var room = Room()
    room.enterRoom(seq: 1)
    for bad in [(0, 3), (4, 3), (1, 0), (1, 20_000)] {
      let effects = room.apply(
        .received(
          .room(
            RoomSnapshot(seq: 9, part: bad.0, parts: bad.1, questions: [], epoch: Room.roomEpoch))))
      #expect(effects.roomLines.isEmpty)
    }
    #expect(room.state.room.seq == 1)
    // A delta going backwards is old news.
    #expect(room.receiveDelta(from: 1, to: 0, [Self.q(1)]).isEmpty)
    // Negative counts never show.
    room.receiveDelta(from: 2, to: 2, [Self.q(1, votes: -5)])
    #expect(room.roomEntry(1)?.votes == 0)
  }

  /// A snapshot that never completes cannot grow memory without bound: the room's limits
  /// (questions, and text bytes) hold while its pages arrive.
  @Test func anEndlessSnapshotIsBoundedWhileItsPagesArrive() {
    var room = Room()
    room.enterRoom(seq: 1)
    let page = (0..<1000).map { Self.q($0) }
    for part in 1...150 {
      room.apply(
        .received(
          .room(
            RoomSnapshot(seq: 9, part: part, parts: 10_000, questions: page, epoch: Room.roomEpoch))
        ))
    }
    #expect(room.state.room.assembling?.count == QnA.Room.maxQuestions)
    var heavy = Room()
    heavy.enterRoom(seq: 1)
    let megabyte = String(repeating: "x", count: 1 << 20)
    for part in 1...100 {
      heavy.apply(
        .received(
          .room(
            RoomSnapshot(
              seq: 9, part: part, parts: 10_000, questions: [Self.q(part, megabyte)],
              epoch: Room.roomEpoch))))
    }
    #expect(heavy.state.room.assembling?.textBytes ?? 0 <= QnA.Room.maxTextBytes)
    #expect(heavy.state.room.assembling?.count == 64)
    // Deltas keep to the same bound.
    heavy.receiveDelta(from: 2, to: 2, (1...100).map { Self.q($0, megabyte) })
    #expect(heavy.state.room.questions.count == 64)
    #expect(heavy.state.room.textBytes <= QnA.Room.maxTextBytes)
  }

  /// A delta in pages: each page's questions show as they come; the sequence moves on with the
  /// last, so a drop between pages catches up from before the delta.
  @Test func aDeltaInPagesCompletesWithItsLastPage() {
    var room = Room()
    room.enterRoom(seq: 4)
    let first = room.apply(
      .received(.roomDelta(RoomDelta(from: 5, to: 7, questions: [Self.q(1)], part: 1, parts: 2))))
    #expect(first.roomLines.map(\.id) == [uuid(1, group: 0x5E)])
    #expect(room.state.room.seq == 4)
    let last = room.apply(
      .received(
        .roomDelta(
          RoomDelta(
            from: 5, to: 7, questions: [Self.q(2)],
            highlight: HighlightChange(id: uuid(2, group: 0x5E)),
            part: 2, parts: 2))))
    #expect(last.roomLines.map(\.id).contains(uuid(2, group: 0x5E)))
    #expect(room.state.room.seq == 7)
    #expect(room.state.room.highlighted == uuid(2, group: 0x5E))
  }

  /// Extension `identity`: the server's word on who this attendee is is kept and sent in
  /// every later join; a join refused for now goes again when the server said.
  @Test func theIssuedIdentityIsKeptAndAJoinRefusedForNowGoesAgain() {
    var room = Room()
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.connect(extensions: Room.roomExtensions)
    let credential = uuid(9, group: 0x1D)
    let kept = room.apply(
      .received(
        .joined(Joined(id: firstConnection, attendee: Room.attendee, credential: credential))))
    #expect(kept == [.keepIdentity(attendee: Room.attendee, credential: credential)])
    #expect(room.state.attendeeCredential == credential)
    // Someone else had this id: the server names another, which replaces it.
    let other = uuid(10, group: 0x1D)
    let replaced = room.apply(
      .received(.joined(Joined(id: firstConnection, attendee: other, credential: credential))))
    #expect(replaced.contains(.keepIdentity(attendee: other, credential: credential)))
    #expect(room.state.attendeeID == other)
    // The next connection proves it.
    room.connect(secondConnection, attempt: 2, extensions: Room.roomExtensions)
    #expect(room.effects.joins.last?.credential == credential)
    #expect(room.effects.joins.last?.attendee == other)
    // Refused for now: joined again after the time said, not before.
    let before = room.effects.joins.count
    room.apply(
      .received(
        .joined(Joined(id: secondConnection, message: "Too many at once.", retryAfter: 2))))
    room.apply(.clock(.seconds(1)))
    #expect(room.effects.joins.count == before)
    room.apply(.clock(.seconds(3)))
    #expect(room.effects.joins.count == before + 1)
    // A joined for another connection changes nothing.
    #expect(
      room.apply(
        .received(.joined(Joined(id: firstConnection, attendee: UUID(), credential: UUID())))
      )
      .allSatisfy { if case .log = $0 { true } else { false } })
  }
}
