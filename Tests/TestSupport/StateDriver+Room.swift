import Foundation
import QnA

/// The room (extension `room`) for reducer and view tests: question ids are
/// `uuid(n, group: 0x5E)` as for the attendee's own questions, created `n` minutes into a
/// fixed hour unless said otherwise.
extension StateDriver {
  /// This attendee's id, as the engine would read it from its file.
  public static let attendee = uuid(0xA7, group: 0xA7)
  /// The room's epoch on the test server.
  public static let roomEpoch = uuid(0xE0, group: 0xE0)
  public static let roomExtensions = projectExtensions + [ProtocolExtension.room]

  /// A question of the room as the server describes it.
  public static func roomQuestion(
    _ n: Int, _ content: String? = nil, votes: Int = 0, answered: Bool = false,
    minute: Int? = nil, mine: Bool? = nil, voted: Bool? = nil
  ) -> RoomQuestion {
    RoomQuestion(
      id: uuid(n, group: 0x5E), content: content ?? "Question \(n)", votes: votes,
      answered: answered,
      createdAt: Date(timeIntervalSinceReferenceDate: 821_692_800 + 60 * Double(minute ?? n)),
      mine: mine, voted: voted)
  }

  /// Introduced, connected to a server with the room, and given its snapshot in one page.
  public mutating func enterRoom(
    _ id: UUID = firstConnection, questions: [RoomQuestion] = [], seq: Int = 0,
    highlighted: UUID? = nil
  ) {
    if state.attendeeID == nil { apply(.identity(attendee: Self.attendee, name: nil)) }
    connect(id, extensions: Self.roomExtensions)
    receiveSnapshot(questions, seq: seq, highlighted: highlighted)
  }

  /// The room as of `seq`, in `parts` pages.
  @discardableResult
  public mutating func receiveSnapshot(
    _ questions: [RoomQuestion], seq: Int, highlighted: UUID? = nil, parts: Int = 1
  ) -> [QnAEffect] {
    let size = max(1, (questions.count + parts - 1) / parts)
    var effects: [QnAEffect] = []
    for part in 1...parts {
      let page = Array(questions.dropFirst((part - 1) * size).prefix(size))
      effects += apply(
        .received(
          .room(
            RoomSnapshot(
              seq: seq, part: part, parts: parts, questions: page, highlighted: highlighted,
              epoch: Self.roomEpoch))))
    }
    return effects
  }

  @discardableResult
  public mutating func receiveDelta(
    from: Int, to: Int, _ questions: [RoomQuestion] = [], removed: [UUID]? = nil,
    highlight: HighlightChange? = nil
  ) -> [QnAEffect] {
    apply(
      .received(
        .roomDelta(
          RoomDelta(
            from: from, to: to, questions: questions, removed: removed, highlight: highlight))))
  }

  /// Votes (or unvotes) question `n` under the vote token `uuid(token, group: 0x70)`.
  @discardableResult
  public mutating func vote(_ n: Int, up: Bool = true, token: Int) -> [QnAEffect] {
    apply(.vote(question: uuid(n, group: 0x5E), up: up, token: uuid(token, group: 0x70)))
  }

  /// The server's answer to vote `token` on question `n`, its count as of `seq`.
  @discardableResult
  public mutating func voteAnswered(
    _ n: Int, token: Int, voted: Bool, votes: Int, success: Bool = true, message: String? = nil,
    retryAfter: Double? = nil, seq: Int? = nil
  ) -> [QnAEffect] {
    apply(
      .received(
        .voteResponse(
          VoteResponse(
            question: uuid(n, group: 0x5E), token: uuid(token, group: 0x70), success: success,
            voted: voted, votes: votes, seq: seq, message: message, retryAfter: retryAfter))))
  }

  /// The room entry of question `n`, as the attendee sees it.
  public func roomEntry(_ n: Int) -> RoomEntry? {
    state.roomEntry(uuid(n, group: 0x5E))
  }
}

extension [QnAEffect] {
  public var votes: [Vote] {
    compactMap { if case .vote(let vote) = $0 { vote } else { nil } }
  }

  public var joins: [Join] {
    compactMap { if case .join(let join) = $0 { join } else { nil } }
  }

  /// The room lines reported, as (question, votes, voted).
  public var roomLines: [RoomEntry] {
    compactMap { if case .report(.roomQuestion(let entry, _)) = $0 { entry } else { nil } }
  }
}
