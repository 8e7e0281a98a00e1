#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The `room` extension (docs/protocol-extensions.md): every attendee sees the room's
// questions with their votes, and votes. Nothing here ever names another attendee's token,
// attendee id or connection.

/// Client → server, right after each handshake: who this attendee is (a stable id the client
/// keeps, never the connection's), and the last room sequence it has seen, to catch up from.
public struct Join: Sendable, Hashable, Codable {
  static let type = "join"
  /// This connection's id, as in `newQuestion`.
  public var id: UUID
  public var attendee: UUID
  /// Extension `identity`: the credential the server issued for `attendee` (in `joined`),
  /// which proves the id is this client's. Absent on a first join.
  public var credential: UUID?
  /// Shown beside the attendee's questions when given; anonymous by default.
  public var name: String?
  /// The room sequence the client has seen, and the room it was seen in (a server restarted
  /// on another database counts anew); absent for a whole snapshot.
  public var since: Int?
  public var epoch: UUID?
  /// Extension `counts`: this connection takes the compact room (question numbers, counts
  /// as numbers, shared snapshots with its own marks in `roomOwn`). Absent: today's format.
  public var counts: Bool?
  /// Extension `audience`: this connection is a screen (a projector), which only watches:
  /// it is not counted and is told the room's size.
  public var screen: Bool?
  /// Extension `identityWork`: the nonces that pay for a new identity on this connection
  /// (`IdentityWork`), one per index; sent only by a client without a credential.
  public var work: [UInt32]?
  /// Extension `tickets`: the attendee's ticket, sent only by a client without a credential,
  /// where the session admits new attendees by ticket (`Ticket`).
  public var ticket: String?

  public init(
    id: UUID, attendee: UUID, credential: UUID? = nil, name: String? = nil, since: Int? = nil,
    epoch: UUID? = nil, counts: Bool? = nil, screen: Bool? = nil, work: [UInt32]? = nil,
    ticket: String? = nil
  ) {
    self.screen = screen
    self.work = work
    self.ticket = ticket
    self.id = id
    self.attendee = attendee
    self.credential = credential
    self.name = name
    self.since = since
    self.epoch = epoch
    self.counts = counts
  }
}

/// Extension `identity`, server → client, before the room after each `join`: who this
/// connection is in the room. `attendee` and `credential` are what the client keeps and sends
/// in its next joins; `attendee` differs from the one it sent when that id was already another
/// client's. A refused join carries `message` instead (`retryAfter` when it may be sent again).
public struct Joined: Sendable, Hashable, Codable {
  static let type = "joined"
  /// This connection's id.
  public var id: UUID
  public var attendee: UUID?
  public var credential: UUID?
  public var message: String?
  public var retryAfter: Double?
  /// Extension `identityWork`: on a refusal, the price that would have bought the identity
  /// (the join had no work, or work that did not pay): join again with it, at once.
  public var work: IdentityWork?

  public init(
    id: UUID, attendee: UUID? = nil, credential: UUID? = nil, message: String? = nil,
    retryAfter: Double? = nil, work: IdentityWork? = nil
  ) {
    self.work = work
    self.id = id
    self.attendee = attendee
    self.credential = credential
    self.message = message
    self.retryAfter = retryAfter
  }
}

/// One question as the room sees it.
public struct RoomQuestion: Sendable, Hashable, Codable {
  public var id: UUID
  public var content: String
  public var votes: Int
  public var answered: Bool
  public var createdAt: Date
  /// In a snapshot: whether the attendee it goes to asked it. Absent in deltas, which go to
  /// everyone alike (a client knows its own questions).
  public var mine: Bool?
  /// In a snapshot: whether the attendee it goes to voted for it. Absent in deltas.
  public var voted: Bool?
  /// Extension `lifecycle`: `review`, `live`, `answered` or `dismissed` (`QuestionState`).
  /// Absent from servers without it: then `answered` says all.
  public var state: String?
  /// Extension `lifecycle`: the presenter's answer, when it has text. A private one reaches
  /// only its asker (and presenters), with `private` true.
  public var answer: String?
  public var isPrivate: Bool?
  /// To presenters only: the asker's display name, when they gave one.
  public var name: String?
  /// Extension `counts`: the question's number in the room, which count-only deltas name it
  /// by (stable for the room's life).
  public var n: Int?
  /// To presenters only: the word filter's entries its text matched (why it is in review).
  public var flagged: [String]?
  /// Extension `moderation`: a presenter corrected its text (present, and true, only then).
  public var edited: Bool?
  /// Extension `queue`, to presenters only: a presenter starred it.
  public var starred: Bool?
  /// Extension `labels`: the session's label it is filed under, if any.
  public var label: String?

  enum CodingKeys: String, CodingKey {
    case id, content, votes, answered, createdAt, mine, voted, state, answer, name, n, flagged
    case edited, starred, label
    case isPrivate = "private"
  }

  public init(
    id: UUID, content: String, votes: Int, answered: Bool, createdAt: Date, mine: Bool? = nil,
    voted: Bool? = nil, state: QuestionState? = nil, answer: String? = nil,
    isPrivate: Bool? = nil, name: String? = nil, n: Int? = nil
  ) {
    self.n = n
    self.id = id
    self.content = content
    self.votes = votes
    self.answered = answered
    self.createdAt = createdAt
    self.mine = mine
    self.voted = voted
    self.state = state?.rawValue
    self.answer = answer
    self.isPrivate = isPrivate
    self.name = name
  }

  /// Its state: as the server said, else what `answered` implies (an unknown one reads as
  /// live, so that a newer server's state never hides a question).
  public var lifecycle: QuestionState {
    if let state, let known = QuestionState(rawValue: state) { return known }
    return answered ? .answered : .live
  }
}

/// Server → client: one page of the room as of sequence `seq`; a large room comes in `parts`
/// pages, each small enough for any message limit. The room is the pages together.
public struct RoomSnapshot: Sendable, Hashable, Codable {
  static let type = "room"
  public var seq: Int
  /// This page's number, from 1.
  public var part: Int
  public var parts: Int
  public var questions: [RoomQuestion]
  /// The question being answered now, if any.
  public var highlighted: UUID?
  /// Which room's sequence numbers these are, for a later `join`'s `since`.
  public var epoch: UUID
  /// Extension `announcements`: the room's banner, on every page alike; absent when none.
  public var announcement: Announcement?
  /// Extension `queue`: the next questions, on every page alike; for an attendee absent while
  /// the queue is hidden, for a presenter while it is empty and hidden.
  public var nextUp: NextUp?
  /// Extension `labels`: the session's labels, on every page alike; absent when none.
  public var labels: [String]?
  /// Extension `polls`: the session's polls the receiver sees, on pages of their own after
  /// the questions' (a page's `questions` then empty); absent on the others.
  public var polls: [RoomPoll]?

  public init(
    seq: Int, part: Int, parts: Int, questions: [RoomQuestion], highlighted: UUID? = nil,
    epoch: UUID, announcement: Announcement? = nil, nextUp: NextUp? = nil,
    labels: [String]? = nil, polls: [RoomPoll]? = nil
  ) {
    self.polls = polls
    self.labels = labels
    self.announcement = announcement
    self.nextUp = nextUp
    self.seq = seq
    self.part = part
    self.parts = parts
    self.questions = questions
    self.highlighted = highlighted
    self.epoch = epoch
  }
}

/// Server → client: what changed in the room from sequence `from` to `to` (inclusive), as the
/// current state of each question that changed. Vote counts are coalesced: a delta may cover
/// several sequence numbers at once.
public struct RoomDelta: Sendable, Hashable, Codable {
  static let type = "roomDelta"
  public var from: Int
  public var to: Int
  public var questions: [RoomQuestion]
  /// Questions that left the room.
  public var removed: [UUID]?
  /// Present when the question being answered changed (its `id` absent when none is).
  public var highlight: HighlightChange?
  /// A delta too large for one message comes in pages with the same `from` and `to`, in
  /// order, each `part` of `parts` (both absent for one page). Each page's questions are
  /// current states, applied as they come; the last page completes the delta.
  public var part: Int?
  public var parts: Int?
  /// Extension `counts`: the questions whose only change was their votes, as pairs of
  /// numbers, the question's `n` then its count (`[17,15,23,4]`); they are not in `questions`.
  public var counts: [Int]?
  /// Extension `announcements`: present when the banner changed (`{}`: cleared), on the last
  /// page.
  public var announcement: Announcement?
  /// Extension `queue`: present when the next questions changed, on the last page.
  public var nextUp: NextUp?
  /// Extension `labels`: the session's labels, whole, when they changed (`[]`: none left), on
  /// the last page.
  public var labels: [String]?
  /// Extension `polls`: the polls that changed, whole (results included where the receiver
  /// sees them).
  public var polls: [RoomPoll]?
  /// Extension `polls`: the polls whose only change was their results, by number (`n`).
  public var pollResults: [PollResults]?
  /// Extension `polls`: polls deleted, or no longer the receiver's to see.
  public var removedPolls: [UUID]?

  public init(
    from: Int, to: Int, questions: [RoomQuestion] = [], removed: [UUID]? = nil,
    highlight: HighlightChange? = nil, part: Int? = nil, parts: Int? = nil, counts: [Int]? = nil,
    announcement: Announcement? = nil, nextUp: NextUp? = nil, labels: [String]? = nil,
    polls: [RoomPoll]? = nil, pollResults: [PollResults]? = nil, removedPolls: [UUID]? = nil
  ) {
    self.polls = polls
    self.pollResults = pollResults
    self.removedPolls = removedPolls
    self.labels = labels
    self.announcement = announcement
    self.nextUp = nextUp
    self.counts = counts
    self.from = from
    self.to = to
    self.questions = questions
    self.removed = removed
    self.highlight = highlight
    self.part = part
    self.parts = parts
  }

  /// Whether this is the last (or only) page of its delta.
  public var completes: Bool { (part ?? 1) >= (parts ?? 1) }
}

/// Extension `counts`, server → client, after a shared snapshot's last page: what in the room
/// is this attendee's, which the shared pages do not say. `questions`: its own questions as
/// their asker sees them (in review, dismissed, private answers), `mine` true; `voted`: the
/// numbers (`n`) of the questions it voted for. Large ones come in `parts`, each applied as
/// it comes.
public struct RoomOwn: Sendable, Hashable, Codable {
  static let type = "roomOwn"
  /// The snapshot's sequence number these marks belong to.
  public var seq: Int
  public var questions: [RoomQuestion]
  public var voted: [Int]
  public var part: Int
  public var parts: Int
  /// Extension `polls`: the attendee's answers, by poll number; absent when none.
  public var polls: [PollMine]?

  public init(
    seq: Int, questions: [RoomQuestion], voted: [Int], part: Int = 1, parts: Int = 1,
    polls: [PollMine]? = nil
  ) {
    self.polls = polls
    self.seq = seq
    self.questions = questions
    self.voted = voted
    self.part = part
    self.parts = parts
  }
}

/// Server → client: a message of an extension (`join`, `vote`, `presenterAction`, `resume`)
/// that the server could not read (a field missing or of the wrong kind, an id that is not a
/// UUID), so nothing in it was done. `refused` names its type.
public struct Refusal: Sendable, Hashable, Codable {
  static let type = "refusal"
  public var refused: String
  public var message: String

  public init(refused: String, message: String) {
    self.refused = refused
    self.message = message
  }
}

/// The question being answered now, or none.
public struct HighlightChange: Sendable, Hashable, Codable {
  public var id: UUID?

  public init(id: UUID?) { self.id = id }
}

/// Client → server: this attendee's vote for a question (`up`), or its withdrawal. One vote
/// per attendee per question: sending it again changes nothing.
public struct Vote: Sendable, Hashable, Codable {
  static let type = "vote"
  /// This connection's id, as in `newQuestion`.
  public var id: UUID
  public var question: UUID
  public var up: Bool
  /// The client's id for this vote, echoed in its response.
  public var token: UUID

  public init(id: UUID, question: UUID, up: Bool, token: UUID) {
    self.id = id
    self.question = question
    self.up = up
    self.token = token
  }
}

/// Server → the voting connection: where the vote stands now.
public struct VoteResponse: Sendable, Hashable, Codable {
  static let type = "voteResponse"
  public var question: UUID
  public var token: UUID
  public var success: Bool
  /// Whether this attendee's vote counts for the question now.
  public var voted: Bool
  public var votes: Int
  /// The room sequence number `votes` is as of: a client already past it has a newer count
  /// from a delta. Absent on refusals that never reached the room.
  public var seq: Int?
  /// Why it was refused.
  public var message: String?
  /// As on `questionResponse`: a refusal that may be retried after this many seconds.
  public var retryAfter: Double?

  public init(
    question: UUID, token: UUID, success: Bool, voted: Bool, votes: Int, seq: Int? = nil,
    message: String? = nil, retryAfter: Double? = nil
  ) {
    self.question = question
    self.token = token
    self.success = success
    self.voted = voted
    self.votes = votes
    self.seq = seq
    self.message = message
    self.retryAfter = retryAfter
  }
}

extension Join: WireBody {}
extension Joined: WireBody {}
extension RoomSnapshot: WireBody {}
extension RoomDelta: WireBody {}
extension RoomOwn: WireBody {}
extension Refusal: WireBody {}
extension Vote: WireBody {}
extension VoteResponse: WireBody {}
extension Audience: WireBody {}
extension SessionNews: WireBody {}
