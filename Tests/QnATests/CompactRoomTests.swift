import Foundation
import QnA
import TestSupport
import Testing

/// Extension `counts` in the reducer: asked for only when announced, numbered questions,
/// counts applied by number without any text, and the attendee's own marks after a shared
/// snapshot.
@Suite("QnAState: the compact room")
struct CompactRoomTests {
  typealias Room = StateDriver

  static func numbered(
    _ n: Int, votes: Int = 0, mine: Bool? = nil
  ) -> RoomQuestion {
    var question = Room.roomQuestion(n, votes: votes, mine: mine)
    question.n = 100 + n
    return question
  }

  static func joins(_ effects: [QnAEffect]) -> [Join] {
    effects.compactMap { if case .join(let join) = $0 { join } else { nil } }
  }

  @Test func theCompactRoomIsAskedForOnlyWhenTheServerAnnouncesIt() {
    var room = Room()
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.apply(.connecting(attempt: 1))
    room.apply(.connected)
    let today = Self.joins(
      room.apply(
        .received(.handshake(Handshake(id: firstConnection, extensions: Room.roomExtensions)))))
    #expect(today.count == 1 && today[0].counts == nil)
    room.apply(.disconnected(reason: "drop", retry: nil))
    room.apply(.connecting(attempt: 2))
    room.apply(.connected)
    let compact = Self.joins(
      room.apply(
        .received(
          .handshake(
            Handshake(id: uuid(2), extensions: Room.roomExtensions + [ProtocolExtension.counts])))))
    #expect(compact.count == 1 && compact[0].counts == true)
  }

  @Test func countsApplyByNumberAndOwnMarksFollowTheSharedSnapshot() {
    var room = Room()
    room.apply(.identity(attendee: Room.attendee, name: nil))
    room.connect(extensions: Room.roomExtensions + [ProtocolExtension.counts])
    room.receiveSnapshot([Self.numbered(1, votes: 2), Self.numbered(2), Self.numbered(3)], seq: 10)
    #expect(room.roomEntry(1)?.voted == false && room.roomEntry(2)?.mine == false)

    // Its own marks: question 2 is this attendee's, it voted for question 1.
    room.apply(
      .received(
        .roomOwn(RoomOwn(seq: 10, questions: [Self.numbered(2, mine: true)], voted: [101]))))
    #expect(room.roomEntry(1)?.voted == true && room.roomEntry(2)?.mine == true)
    // Marks for another snapshot are old news.
    room.apply(.received(.roomOwn(RoomOwn(seq: 9, questions: [], voted: [103]))))
    #expect(room.roomEntry(3)?.voted == false)

    // Count-only changes by number; an unknown number names nothing; twice changes nothing.
    let delta = RoomDelta(from: 11, to: 12, counts: [101, 7, 103, 1, 999, 4])
    let effects = room.apply(.received(.roomDelta(delta)))
    #expect(room.roomEntry(1)?.votes == 7 && room.roomEntry(3)?.votes == 1)
    #expect(room.roomEntry(1)?.question.content == "Question 1")
    #expect(effects.count == 2)
    #expect(room.apply(.received(.roomDelta(delta))).isEmpty)
    #expect(room.state.room.seq == 12)
    // A whole question with a number learns it; later counts find it.
    room.receiveDelta(from: 13, to: 13, [Self.numbered(4)])
    room.apply(.received(.roomDelta(RoomDelta(from: 14, to: 14, counts: [104, 3]))))
    #expect(room.roomEntry(4)?.votes == 3)
  }
}
