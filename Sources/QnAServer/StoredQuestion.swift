import Foundation

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

  public init(
    id: UUID, content: String, answered: Bool = false, askedFrom: UUID, createdAt: Date,
    token: UUID? = nil, attendee: UUID? = nil, votes: Int = 0
  ) {
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
