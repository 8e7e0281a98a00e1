#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One message of the Q&A wire protocol (docs/protocol.md), in either direction.
public enum WireMessage: Sendable, Hashable {
  case handshake(Handshake)
  case newQuestion(NewQuestion)
  case questionResponse(QuestionResponse)
  case questionAnswer(QuestionAnswer)
  /// Extension: a client presents its earlier questions on a new connection.
  case resume(Resume)
  /// Extension: the server's reply to one `resume`, naming the questions it does not have.
  case resumed(Resumed)
  /// Extension `room`: the attendee introduces itself on a connection.
  case join(Join)
  /// Extension `identity`.
  case joined(Joined)
  /// Extension `room`: a page of the room's snapshot.
  case room(RoomSnapshot)
  /// Extension `room`: what changed in the room.
  case roomDelta(RoomDelta)
  /// Extension `counts`: this attendee's marks after a shared snapshot.
  case roomOwn(RoomOwn)
  /// A message of an extension the server could not read.
  case refusal(Refusal)
  /// Extension `room`: a vote, and its answer.
  case vote(Vote)
  case voteResponse(VoteResponse)
  /// Extension `presenter`: an action on a question, and its outcome.
  case presenterAction(PresenterAction)
  case presenterActionResponse(PresenterActionResponse)
  case audience(Audience)
  case sessionNews(SessionNews)
  /// Extension `polls`.
  case pollAnswer(PollAnswer)
  case pollAnswerResponse(PollAnswerResponse)
  case pollAction(PollAction)
  case pollActionResponse(PollActionResponse)

  /// The `type` field each message carries on the wire.
  public var type: String {
    switch self {
    case .handshake: Handshake.type
    case .newQuestion: NewQuestion.type
    case .questionResponse: QuestionResponse.type
    case .questionAnswer: QuestionAnswer.type
    case .resume: Resume.type
    case .resumed: Resumed.type
    case .join: Join.type
    case .joined: Joined.type
    case .room: RoomSnapshot.type
    case .roomDelta: RoomDelta.type
    case .roomOwn: RoomOwn.type
    case .refusal: Refusal.type
    case .vote: Vote.type
    case .voteResponse: VoteResponse.type
    case .presenterAction: PresenterAction.type
    case .presenterActionResponse: PresenterActionResponse.type
    case .audience: Audience.type
    case .sessionNews: SessionNews.type
    case .pollAnswer: PollAnswer.type
    case .pollAnswerResponse: PollAnswerResponse.type
    case .pollAction: PollAction.type
    case .pollActionResponse: PollActionResponse.type
    }
  }
}

/// Server → client, first on every connection: `id` names this connection.
public struct Handshake: Sendable, Hashable, Codable {
  static let type = "handshake"
  public var id: UUID
  /// Extension: the project extensions this server supports (`token`, `resume`); absent on
  /// existing back ends.
  public var extensions: [String]?
  /// Extension `sessions`: the session this socket belongs to, when it is not the default.
  public var session: SessionInfo?
  /// Extension: the largest message, in bytes, this server reads (it closes with 1009 past
  /// it), so that a client splits what it sends in bulk (`resume`) to fit.
  public var maxMessageSize: Int?
  /// Extension `identityWork`: what a new identity costs on this connection; absent where it
  /// costs nothing (a client the server does not count by address, such as loopback).
  public var identityWork: IdentityWork?

  public init(
    id: UUID, extensions: [String]? = nil, session: SessionInfo? = nil,
    maxMessageSize: Int? = nil, identityWork: IdentityWork? = nil
  ) {
    self.id = id
    self.extensions = extensions
    self.session = session
    self.maxMessageSize = maxMessageSize
    self.identityWork = identityWork
  }
}

/// Extension `sessions`: a talk's Q&A on a server that hosts many, as its handshake names it.
public struct SessionInfo: Sendable, Hashable, Codable {
  /// The join code, upper case.
  public var code: String
  public var title: String
  /// False once the presenter closed it: it takes no new questions, and stays readable.
  public var open: Bool

  public init(code: String, title: String, open: Bool) {
    self.code = code
    self.title = title
    self.open = open
  }
}

/// The project extensions a server can announce in its handshake.
public enum ProtocolExtension {
  /// `newQuestion.token` is stored, echoed in `questionResponse`, and a repeat is not stored
  /// again.
  public static let token = "token"
  /// The server understands `resume`, and answers each with `resumed`.
  public static let resume = "resume"
  /// A refusal that may be retried carries `retryAfter`; one without it is final.
  public static let retryAfter = "retryAfter"
  /// The whole room's questions and votes: `join`, `room`, `roomDelta`, `vote`.
  public static let room = "room"
  /// Questions have a state (`review`, `live`, `answered`, `dismissed`) and answers text.
  public static let lifecycle = "lifecycle"
  /// Announced only on a presenter's connection: `presenterAction` is accepted on it.
  public static let presenter = "presenter"
  /// Many sessions on one server, each under `/s/CODE/`; the handshake names its session.
  public static let sessions = "sessions"
  /// The server issues each attendee's identity: `join.credential`, answered with `joined`.
  public static let identity = "identity"
  /// A new identity is paid for with work, priced in the handshake (`IdentityWork`): `join`
  /// carries `work`, and a refused `joined` names the price again.
  public static let identityWork = "identityWork"
  /// A session may admit new attendees only by personal ticket (`Ticket`): `join` carries
  /// `ticket`, and a join without a valid one is refused for good.
  public static let tickets = "tickets"
  /// The compact room, asked for in `join` (`counts`): questions numbered, count-only
  /// changes as numbers, snapshots shared with the attendee's marks in `roomOwn`.
  public static let counts = "counts"
  /// A screen (a projector) joins with `screen`: it is not counted, has no identity, and is
  /// told how many attendees are in the room (`audience`).
  public static let audience = "audience"
  /// A session's socket is told when the session is closed, reopened or deleted (`session`).
  public static let sessionState = "sessionState"
  /// The presenter's banner for the whole room: `announce` actions, `announcement` in the
  /// room's snapshots and deltas.
  public static let announcements = "announcements"
  /// Announced to presenters: the session's word filter, edited with `filterAdd` and
  /// `filterRemove`; questions it matched carry `flagged` in presenters' rooms.
  public static let wordFilter = "wordFilter"
  /// Announced to presenters: `edit` (a question's text corrected, the original kept) and
  /// `silence`/`unsilence` (an asker's new questions to review). Edited questions carry
  /// `edited` in everyone's room.
  public static let moderation = "moderation"
  /// Stars (presenters only) and the "next up" queue: `nextUp` in the room's snapshots and
  /// deltas; actions `star`, `unstar`, `enqueue`, `dequeue`, `moveUp`, `moveDown`,
  /// `moveToTop`, `next`, `showQueue`, `hideQueue`.
  public static let queue = "queue"
  /// The session's labels in snapshots and deltas (`labels`), a question's `label`,
  /// `newQuestion.label`; actions `labelAdd`, `labelRemove` and `relabel`.
  public static let labels = "labels"
  /// Polls: `polls` in the room's snapshots and deltas, `pollResults` as counts, the
  /// attendee's answers in `roomOwn`; `pollAnswer`, and `pollAction` for presenters.
  public static let polls = "polls"
}

/// Extension `sessionState`, server → every socket of a session, on whichever instance: the
/// session as it is now, when a presenter closed, reopened or deleted it. A deleted session's
/// sockets are then closed with 1001, and reconnecting gets 404.
public struct SessionNews: Sendable, Hashable, Codable {
  static let type = "session"
  public var session: SessionInfo
  /// The session is gone: present (and true) only then.
  public var deleted: Bool?

  public init(session: SessionInfo, deleted: Bool? = nil) {
    self.session = session
    self.deleted = deleted
  }
}

/// Extension `audience`, server → a screen's connection: how many attendees are connected to
/// the room (on this instance), at most once a second while it changes.
public struct Audience: Sendable, Hashable, Codable {
  static let type = "audience"
  public var count: Int

  public init(count: Int) { self.count = count }
}

/// Extension, client → server, right after a handshake on a new connection: "these
/// questions are mine". The server answers with a `questionResponse` for each one it knows
/// (with its current `answered`) and sends their future answers to this connection.
public struct Resume: Sendable, Hashable, Codable {
  static let type = "resume"
  /// This connection's id, as in `newQuestion`.
  public var id: UUID
  /// Server ids of confirmed questions.
  public var questions: [UUID]
  /// Tokens of questions sent but not confirmed.
  public var tokens: [UUID]

  public init(id: UUID, questions: [UUID], tokens: [UUID] = []) {
    self.id = id
    self.questions = questions
    self.tokens = tokens
  }
}

/// Extension, server → client: the answer to one `resume`, sent after the `questionResponse`s
/// of the questions it restored. `missing` names the questions of that `resume` the server
/// does not have (lost in a restart, or never stored): the client asks them again.
public struct Resumed: Sendable, Hashable, Codable {
  static let type = "resumed"
  /// This connection's id.
  public var id: UUID
  /// Server ids and tokens of the `resume` that name no stored question.
  public var missing: [UUID]

  public init(id: UUID, missing: [UUID]) {
    self.id = id
    self.missing = missing
  }
}

/// Client → server: ask. `id` is the connection id from the handshake, not a question id.
public struct NewQuestion: Sendable, Hashable, Codable {
  static let type = "newQuestion"
  public var id: UUID
  public var content: String
  /// Extension: the question's client-generated token. Back ends without it ignore the key.
  public var token: UUID?
  /// Extension `labels`: one of the session's labels (its letters in any case); any other is
  /// refused for good.
  public var label: String?

  public init(id: UUID, content: String, token: UUID? = nil, label: String? = nil) {
    self.label = label
    self.id = id
    self.content = content
    self.token = token
  }
}

/// Server → client: the result of a `newQuestion`. On failure `id`, `content` and `createdAt`
/// may be absent, and an `id` that is present was never stored.
public struct QuestionResponse: Sendable, Hashable, Codable {
  static let type = "questionResponse"
  public var success: Bool
  public var message: String
  public var id: UUID?
  public var answered: Bool?
  public var content: String?
  public var createdAt: Date?
  /// Extension: the token of the `newQuestion` this answers, from servers that echo it.
  public var token: UUID?
  /// Extension: on a refusal that is not final (a rate limit, a busy database), the seconds
  /// after which the same question may be sent again.
  public var retryAfter: Double?
  /// Extension `lifecycle`: the question's state (`review` while the presenter has not
  /// approved it), and the answer's text when it has one.
  public var state: String?
  public var answer: String?
  /// With `answer`: whether only the asker may read it.
  public var isPrivate: Bool?

  enum CodingKeys: String, CodingKey {
    case success, message, id, answered, content, createdAt, token, retryAfter, state, answer
    case isPrivate = "private"
  }

  public init(
    success: Bool, message: String, id: UUID? = nil, answered: Bool? = nil,
    content: String? = nil, createdAt: Date? = nil, token: UUID? = nil,
    retryAfter: Double? = nil, state: QuestionState? = nil, answer: String? = nil,
    isPrivate: Bool? = nil
  ) {
    self.state = state?.rawValue
    self.answer = answer
    self.isPrivate = isPrivate
    self.success = success
    self.message = message
    self.id = id
    self.answered = answered
    self.content = content
    self.createdAt = createdAt
    self.token = token
    self.retryAfter = retryAfter
  }
}

/// Server → client: the presenter answered the question with this (server) id.
public struct QuestionAnswer: Sendable, Hashable, Codable {
  static let type = "questionAnswer"
  public var questionId: UUID
  /// Extension `lifecycle`: the answer's text, and whether only the asker may read it.
  /// Existing clients ignore both and still see *Answered*.
  public var text: String?
  public var isPrivate: Bool?

  enum CodingKeys: String, CodingKey {
    case questionId, text
    case isPrivate = "private"
  }

  public init(questionId: UUID, text: String? = nil, isPrivate: Bool? = nil) {
    self.questionId = questionId
    self.text = text
    self.isPrivate = isPrivate
  }
}
