#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Client → server (extension `polls`): this attendee's answer to a poll, which replaces any
/// answer it gave before, until the poll closes. `token` makes it exactly-once: sent again
/// (after a reconnect), the same answer is not counted again.
public struct PollAnswer: Sendable, Hashable, Codable {
  static let type = "pollAnswer"
  /// This connection's id, as in `newQuestion`.
  public var id: UUID
  public var poll: UUID
  public var token: UUID
  public var value: PollValue

  public init(id: UUID, poll: UUID, token: UUID, value: PollValue) {
    self.id = id
    self.poll = poll
    self.token = token
    self.value = value
  }
}

/// Server → the answering connection: where its answer stands now.
public struct PollAnswerResponse: Sendable, Hashable, Codable {
  static let type = "pollAnswerResponse"
  public var poll: UUID
  public var token: UUID
  public var success: Bool
  /// The answer the poll counts for this attendee now, as the server read it (word cloud
  /// entries folded); absent when it counts none.
  public var value: PollValue?
  /// The room sequence number it is as of; absent on refusals that never reached the room.
  public var seq: Int?
  /// Why it was refused.
  public var message: String?
  /// As on `questionResponse`: a refusal that may be retried after this many seconds.
  public var retryAfter: Double?

  public init(
    poll: UUID, token: UUID, success: Bool, value: PollValue? = nil, seq: Int? = nil,
    message: String? = nil, retryAfter: Double? = nil
  ) {
    self.poll = poll
    self.token = token
    self.success = success
    self.value = value
    self.seq = seq
    self.message = message
    self.retryAfter = retryAfter
  }
}

/// What a presenter does to a poll.
public enum PollActionKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// Prepares a poll (`spec`) under the id the presenter chose: sent again, nothing more.
  case create
  /// A draft's new `spec`.
  case update
  case open, close
  /// Whether attendees see its results.
  case show, hide
  /// Its answers gone, its counts to zero; it stays as it was otherwise.
  case reset
  case delete
  /// An open text's entry (`text`) let through to the room, or kept out of it.
  case approve, dismiss
}

/// Client → server, on a presenter's connection only: one action on one poll. `token` makes
/// it exactly-once.
public struct PollAction: Sendable, Hashable, Codable {
  static let type = "pollAction"
  /// This connection's id.
  public var id: UUID
  public var token: UUID
  public var poll: UUID
  /// A `PollActionKind`, as text: an action this server does not know is refused in words.
  public var action: String
  /// `create` and `update`: the poll.
  public var spec: PollSpec?
  /// `approve` and `dismiss`: the open text's entry, as results name it.
  public var text: String?

  public init(
    id: UUID, token: UUID, poll: UUID, action: PollActionKind, spec: PollSpec? = nil,
    text: String? = nil
  ) {
    self.id = id
    self.token = token
    self.poll = poll
    self.action = action.rawValue
    self.spec = spec
    self.text = text
  }

  public var kind: PollActionKind? { PollActionKind(rawValue: action) }
}

/// Server → the presenter's connection: whether the action was done.
public struct PollActionResponse: Sendable, Hashable, Codable {
  static let type = "pollActionResponse"
  public var token: UUID
  public var poll: UUID
  public var success: Bool
  public var message: String?
  public var retryAfter: Double?

  public init(
    token: UUID, poll: UUID, success: Bool, message: String? = nil, retryAfter: Double? = nil
  ) {
    self.token = token
    self.poll = poll
    self.success = success
    self.message = message
    self.retryAfter = retryAfter
  }
}

extension PollAnswer: WireBody {}
extension PollAnswerResponse: WireBody {}
extension PollAction: WireBody {}
extension PollActionResponse: WireBody {}
