import Foundation
import QnA

/// A question as the server stores it.
public struct StoredQuestion: Sendable, Hashable, Codable {
  public var id: UUID
  public var content: String
  public var answered: Bool
  /// The connection id that asked (answers are routed to it).
  public var askedFrom: UUID
  public var createdAt: Date
  /// Extension: the client's token, for deduplicating resends.
  public var token: UUID?
  /// Extension `room`: the attendee who asked (their stable id, never shown to others).
  public var attendee: UUID?
  /// Extension `room`: the attendees' votes for it.
  public var votes: Int
  /// Extension `lifecycle`: `review`, `live` or `dismissed` (whether it is answered is
  /// `answered`: a dismissed question may be answered too).
  public var state: QuestionState
  /// The presenter's answer text, whether only the asker may read it, and when it was
  /// answered (unknown for questions answered before the server kept it).
  public var answer: String?
  public var answerPrivate: Bool
  public var answeredAt: Date?
  /// The word filter's entries its text matched when it was asked (it went to review, or
  /// was refused): for presenters and the export only.
  public var flagged: [String]
  /// The text as it was asked, when a presenter edited it (`content` is the text now).
  public var original: String?
  /// A presenter starred it (extension `queue`): presenters and the export only.
  public var starred: Bool
  /// The session's label it is filed under (extension `labels`), if any.
  public var label: String?

  public init(
    id: UUID, content: String, answered: Bool = false, askedFrom: UUID, createdAt: Date,
    token: UUID? = nil, attendee: UUID? = nil, votes: Int = 0, state: QuestionState = .live,
    answer: String? = nil, answerPrivate: Bool = false, answeredAt: Date? = nil,
    flagged: [String] = [], original: String? = nil, starred: Bool = false,
    label: String? = nil
  ) {
    self.label = label
    self.starred = starred
    self.flagged = flagged
    self.original = original
    self.state = state
    self.answer = answer
    self.answerPrivate = answerPrivate
    self.answeredAt = answeredAt
    self.id = id
    self.content = content
    self.answered = answered
    self.askedFrom = askedFrom
    self.createdAt = createdAt
    self.token = token
    self.attendee = attendee
    self.votes = votes
  }
}

extension StoredQuestion {
  /// Its state as the wire and the export have it: dismissed and in review first, then
  /// answered or live.
  public var publicState: QuestionState {
    switch state {
    case .review, .dismissed: state
    case .live, .answered: answered ? .answered : .live
    }
  }
}
