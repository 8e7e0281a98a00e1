import Foundation
import QnA

/// What a session's ticket holds (extension `tickets`).
public enum TicketState: Sendable, Equatable {
  /// Not one of the session's tickets.
  case unknown
  /// Handed out, no identity yet: the first join with it gets a new one, bound to it.
  case unused
  /// Bound to this attendee, whose credential it is issued again (`nil` if the attendee's
  /// row is gone).
  case bound(attendee: UUID, credential: UUID?)
}

extension QuestionStore {
  /// Tickets one call issues at most, and a session holds at most.
  public static let maxTicketsPerIssue = 10_000
  public static let maxTicketsPerSession = 100_000

  /// Issues `count` new tickets for the session, which from then on admits new attendees
  /// only by ticket; returns them (canonical), the only time they exist in clear: the
  /// database keeps their digests.
  public func issueTickets(
    _ count: Int, at time: Date, using random: inout some RandomNumberGenerator
  ) async throws(StoreError) -> [String] {
    guard session != SessionRecord.defaultID else {
      throw .refused("the default room has no tickets: issue them for a session")
    }
    guard (1...Self.maxTicketsPerIssue).contains(count) else {
      throw .refused("tickets are issued 1 to \(Self.maxTicketsPerIssue) at a time")
    }
    let tickets = (0..<count).map { _ in
      SessionDirectory.randomLetters(Ticket.length, using: &random)
    }
    let added = try await timed {
      try await driver.transact(
        .addTickets(
          tickets.map(Ticket.digest), at: time.timeIntervalSinceReferenceDate,
          limit: Self.maxTicketsPerSession, session: session), writes: true, locking: session)
    }
    guard added else {
      throw .refused("a session holds at most \(Self.maxTicketsPerSession) tickets")
    }
    return tickets
  }

  /// Whether the session admits new attendees only by ticket (it has been issued some).
  public func admitsByTicket() async throws(StoreError) -> Bool {
    guard session != SessionRecord.defaultID else { return false }
    return try await timed { try await driver.fetch(.hasTickets(session: session)) }
  }

  /// How many tickets the session has, and how many are bound to an attendee.
  public func ticketCounts() async throws(StoreError) -> (issued: Int, used: Int) {
    try await timed { try await driver.fetch(.ticketCounts(session: session)) }
  }

  /// What the canonical `ticket` holds in this session.
  public func ticket(_ ticket: String) async throws(StoreError) -> TicketState {
    try await timed {
      try await driver.fetch(.ticket(Ticket.digest(ticket), session: session))
    }
  }

  /// Binds an unused ticket to `attendee`; returns what the ticket holds after: `attendee`,
  /// or the attendee another join bound it to first.
  public func bind(_ ticket: String, to attendee: UUID) async throws(StoreError) -> TicketState {
    try await timed {
      try await driver.perform(.bind(Ticket.digest(ticket), to: attendee, session: session))
    }
  }
}
