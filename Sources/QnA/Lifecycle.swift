#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The `lifecycle` and `presenter` extensions (docs/protocol-extensions.md): a question's
// state in the presenter's hands, answers with text, and the presenter's actions over the
// same WebSocket.

/// Where a question is: *in review* (moderation on, seen only by its asker and presenters),
/// *live*, *answered*, or *dismissed* (archived, restorable; seen only by its asker and
/// presenters). The question being answered now is the room's `highlighted`.
public enum QuestionState: String, Sendable, Hashable, Codable, CaseIterable {
  case review, live, answered, dismissed

  /// Whether every attendee sees it.
  public var isPublic: Bool { self == .live || self == .answered }
}

/// What a presenter can do to a question, or (`announce`, extension `announcements`) to
/// the whole room.
public enum PresenterActionKind: String, Sendable, Hashable, Codable, CaseIterable {
  case approve, dismiss, restore, highlight, unhighlight, answer
  /// Extension `moderation`: the question's text is `text` from now on (its original kept).
  case edit
  /// Extension `moderation`: the question's asker's new questions go to review from now on
  /// (or are refused, as the word filter's mode says), or no longer.
  case silence, unsilence
  /// Extension `queue`: a star for presenters; the "next up" queue: added at its end, taken
  /// out, moved one place up or down, or to its top.
  case star, unstar, enqueue, dequeue, moveUp, moveDown, moveToTop
  /// Extension `queue`, on the room: the first queued question becomes the one being
  /// answered (and leaves the queue); the queue is shown to the room, or no longer.
  case next, showQueue, hideQueue
  /// Extension `announcements`: the room's banner is `text` from now on (cleared without it).
  case announce
  /// Extension `wordFilter`: `text` is an entry of the session's word list `list` from now
  /// on (`custom` without it), or no longer.
  case filterAdd, filterRemove
  /// Extension `labels`, on the room: `text` is one of the session's labels from now on, or
  /// no longer (questions that carry it keep it).
  case labelAdd, labelRemove
  /// Extension `labels`: the question's label is `text` from now on (none without it).
  case relabel

  /// Whether it acts on the room rather than on one question (it names none).
  public var isRoomAction: Bool {
    self == .announce || isFilterAction || self == .next || self == .showQueue
      || self == .hideQueue || self == .labelAdd || self == .labelRemove
  }
  public var isFilterAction: Bool { self == .filterAdd || self == .filterRemove }
  public var isLabelAction: Bool { self == .labelAdd || self == .labelRemove || self == .relabel }

  /// The actions on one question.
  public static let questionActions = allCases.filter { !$0.isRoomAction }
}

/// Client → server, on a presenter's connection only: one action on one question. `token`
/// makes it exactly-once: sent again (after a reconnect), it is not done again.
public struct PresenterAction: Sendable, Hashable, Codable {
  static let type = "presenterAction"
  /// This connection's id, as in `newQuestion`.
  public var id: UUID
  public var token: UUID
  /// The question acted on; absent for an action on the room (`announce`).
  public var question: UUID?
  /// One of `PresenterActionKind`'s raw values; anything else is refused.
  public var action: String
  /// `answer`: the answer's text; `edit`: the question's new text; `announce`: the
  /// announcement's (absent: cleared); `filterAdd`, `filterRemove`: the entry; `labelAdd`,
  /// `labelRemove`: the label; `relabel`: the question's label (absent: none).
  public var text: String?
  public var isPrivate: Bool?
  /// `filterAdd`, `filterRemove`: the word list (`custom` when absent).
  public var list: String?

  enum CodingKeys: String, CodingKey {
    case id, token, question, action, text, list
    case isPrivate = "private"
  }

  /// The word list the moderator's own entries go to unless another is named.
  public static let defaultList = "custom"

  public init(
    id: UUID, token: UUID, question: UUID?, action: PresenterActionKind, text: String? = nil,
    isPrivate: Bool? = nil, list: String? = nil
  ) {
    self.list = list
    self.id = id
    self.token = token
    self.question = question
    self.action = action.rawValue
    self.text = text
    self.isPrivate = isPrivate
  }

  public var kind: PresenterActionKind? { PresenterActionKind(rawValue: action) }
}

/// Server → the presenter's connection: the outcome of one action (the room's delta shows
/// its effect to everyone).
public struct PresenterActionResponse: Sendable, Hashable, Codable {
  static let type = "presenterActionResponse"
  public var token: UUID
  /// The action's question; absent for an action on the room.
  public var question: UUID?
  public var success: Bool
  /// Why it was refused.
  public var message: String?
  /// As on `questionResponse`: a refusal that may be retried after this many seconds.
  public var retryAfter: Double?

  public init(
    token: UUID, question: UUID?, success: Bool, message: String? = nil,
    retryAfter: Double? = nil
  ) {
    self.token = token
    self.question = question
    self.success = success
    self.message = message
    self.retryAfter = retryAfter
  }
}

extension PresenterAction: WireBody {}
extension PresenterActionResponse: WireBody {}

/// Extension `queue`: the questions the presenters put next, in order (`ids`), and whether
/// the room sees them (`shown`). In a presenter's room always; in an attendee's only while
/// shown (otherwise `ids` is empty and `shown` false).
public struct NextUp: Sendable, Hashable, Codable {
  public var ids: [UUID]
  public var shown: Bool

  public init(ids: [UUID] = [], shown: Bool = false) {
    self.ids = ids
    self.shown = shown
  }

  /// The longest queue: a panel's next questions, not a second room.
  public static let maxLength = 50
}

/// Extension `announcements`: the presenter's message to the whole room, shown as a banner
/// until replaced or cleared. In a snapshot, present when there is one; in a delta, present
/// when it changed, `{}` when it was cleared.
public struct Announcement: Sendable, Hashable, Codable {
  public var text: String?
  /// When it was made (seconds since 2001, as `createdAt`).
  public var at: Date?

  public init(text: String? = nil, at: Date? = nil) {
    self.text = text
    self.at = at
  }

  /// The longest announcement, in characters: a banner, not a speech.
  public static let maxLength = 280
}
