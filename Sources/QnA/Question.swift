#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a question is in its life, as the attendee sees it.
public enum QuestionStatus: Sendable, Hashable {
  /// Typed, waiting for a connection with a handshake.
  case queued
  /// On the wire, no response yet.
  case sending
  /// Refused for now (a rate limit, a busy server): queued again, and sent again at clock
  /// time `until`. Never failed for it.
  case waiting(until: Duration, reason: String)
  /// The server refused it for good (its message as the reason); the user may retry it or
  /// discard it.
  case failed(reason: String)
  case unanswered
  case answered

  /// Typed but not confirmed by the server: queued, sending, waiting or failed.
  public var isUnconfirmed: Bool {
    switch self {
    case .queued, .sending, .waiting, .failed: true
    case .unanswered, .answered: false
    }
  }

  /// On its way to the server: queued, sending or waiting (not failed).
  public var isPending: Bool {
    switch self {
    case .queued, .sending, .waiting: true
    case .failed, .unanswered, .answered: false
    }
  }
}

/// One question in the attendee's list.
public struct Question: Sendable, Hashable, Identifiable {
  /// The client's token for it, made when it was typed; for a question first seen in a
  /// server response, the server's id.
  public let id: UUID
  /// The server's id, once a response confirmed it.
  public var serverID: UUID?
  public var content: String
  public var status: QuestionStatus
  /// The server's creation time.
  public var createdAt: Date?
  /// Clock time of the flip to answered, for a brief highlight.
  public var answeredAt: Duration?
  /// Typing order among all questions of this state.
  public let sequence: Int
  /// Times it was put on the wire.
  public var sendCount = 0
  /// Refusals retried without the server saying when (back ends without `retryAfter`):
  /// bounded, then it fails.
  public var blindRetries = 0
  /// Extension `lifecycle`: where the presenter has it (`review` until approved, `dismissed`
  /// if they set it aside); `nil` from servers without it.
  public var state: QuestionState?
  /// Extension `lifecycle`: the presenter's answer, when it has text, and whether it was
  /// for this attendee only.
  public var answer: String?
  public var answerIsPrivate = false
  /// Extension `labels`: the session's label it was asked under, if any.
  public var label: String?

  public init(
    id: UUID, serverID: UUID? = nil, content: String, status: QuestionStatus,
    createdAt: Date? = nil, answeredAt: Duration? = nil, sequence: Int
  ) {
    self.id = id
    self.serverID = serverID
    self.content = content
    self.status = status
    self.createdAt = createdAt
    self.answeredAt = answeredAt
    self.sequence = sequence
  }
}

/// A message for the attendee that expires on its own.
public struct Notice: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    case info
    case error
  }

  /// In English (what `--headless` prints).
  public var text: String
  /// The same for translation, where the words are ours rather than the server's.
  public var message: Message?
  public var kind: Kind
  /// Clock time after which it is no longer shown.
  public var expiresAt: Duration

  public init(text: String, kind: Kind, expiresAt: Duration) {
    self.text = text
    self.kind = kind
    self.expiresAt = expiresAt
  }

  public init(_ message: Message, kind: Kind, expiresAt: Duration) {
    self.init(text: message.text, kind: kind, expiresAt: expiresAt)
    self.message = message
  }
}

/// What the attendee's list adds up to.
public struct QuestionCounts: Sendable, Hashable {
  public var asked = 0
  public var answered = 0
  /// Queued, sending or waiting.
  public var pending = 0
  public var failed = 0

  public init(asked: Int = 0, answered: Int = 0, pending: Int = 0, failed: Int = 0) {
    self.asked = asked
    self.answered = answered
    self.pending = pending
    self.failed = failed
  }
}
