import Foundation
import QnA

/// Extension `tickets`' SQL, written once for both databases (`PortableSQL`): the statements
/// are the same in SQLite and PostgreSQL but for their placeholders, and so are the flows
/// that run them (`TransactionFlow`).
package enum TicketSQL {
  /// Migration v11. SQLite reads the type names by affinity (INTEGER, TEXT, REAL).
  package static let create = """
    CREATE TABLE ticket (
      session bigint NOT NULL, digest text NOT NULL, attendee text,
      issuedAt double precision NOT NULL, PRIMARY KEY (session, digest))
    """
  /// $1 session.
  package static let count: PortableSQL = "SELECT COUNT(*) FROM ticket WHERE session = $1"
  /// $1 session: a row when the session has any ticket. Asked on every join that needs a new
  /// identity, so one index probe, whatever the number of tickets.
  package static let any: PortableSQL = "SELECT 1 FROM ticket WHERE session = $1 LIMIT 1"
  /// $1 session: how many, how many bound.
  package static let counts: PortableSQL =
    "SELECT COUNT(*), COUNT(attendee) FROM ticket WHERE session = $1"
  /// Rows of (session, digest, issuedAt). A digest already there (80 random bits: never in
  /// practice) is left as it is.
  package static func add(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO ticket (session, digest, issuedAt) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows) + " ON CONFLICT (session, digest) DO NOTHING"
    )
  }
  /// $1 session, $2 digest: the bound attendee (NULL when unused) and its credential.
  package static let lookup: PortableSQL = """
    SELECT ticket.attendee, attendee.credential FROM ticket
    LEFT JOIN attendee ON attendee.session = ticket.session AND attendee.id = ticket.attendee
    WHERE ticket.session = $1 AND ticket.digest = $2
    """
  /// $1 session, $2 digest, $3 attendee: only an unused ticket is bound.
  package static let bind: PortableSQL = """
    UPDATE ticket SET attendee = $3 WHERE session = $1 AND digest = $2 AND attendee IS NULL
    """
}

extension StoreRules {
  /// What a ticket's row says (`TicketSQL.lookup`): `nil` for no row.
  package static func ticketState(row: (attendee: String?, credential: String?)?)
    -> TicketState
  {
    guard let row else { return .unknown }
    guard let attendee = row.attendee.flatMap(UUID.init(text:)) else { return .unused }
    return .bound(attendee: attendee, credential: row.credential.flatMap(UUID.init(text:)))
  }
}

extension TransactionFlow where Output == Bool {
  /// The tickets' digests, unless the session would then hold more than `limit` (false, and
  /// none added). Run on the session's lock, so that two issues at once cannot pass it
  /// together.
  package static func addTickets(
    _ digests: [String], at time: Double, limit: Int, session: Int64
  ) -> TransactionFlow {
    .rows(TicketSQL.count, [.integer(session)]) { held in
      guard (held.first?.int(0) ?? 0) + digests.count <= limit else { return .done(false) }
      return .runInChunks(
        digests.map { [.integer(session), .text($0), .real(time)] }, TicketSQL.add(rows:),
        then: .done(true))
    }
  }

  /// Whether the session has any ticket.
  package static func hasTickets(session: Int64) -> TransactionFlow {
    .rows(TicketSQL.any, [.integer(session)]) { rows in .done(!rows.isEmpty) }
  }
}

extension TransactionFlow where Output == (issued: Int, used: Int) {
  package static func ticketCounts(session: Int64) -> TransactionFlow {
    .rows(TicketSQL.counts, [.integer(session)]) { rows in
      .done((rows.first?.int(0) ?? 0, rows.first?.int(1) ?? 0))
    }
  }
}

extension TransactionFlow where Output == TicketState {
  /// What the ticket with this digest holds.
  package static func ticket(_ digest: String, session: Int64) -> TransactionFlow {
    .rows(TicketSQL.lookup, [.integer(session), .text(digest)]) { rows in
      .done(
        StoreRules.ticketState(
          row: rows.first.map { (attendee: $0.text(0), credential: $0.text(1)) }))
    }
  }

  /// Binds the ticket to `attendee` if it is unused; what it holds after.
  package static func bind(_ digest: String, to attendee: UUID, session: Int64)
    -> TransactionFlow
  {
    .run(
      TicketSQL.bind, [.integer(session), .text(digest), .text(attendee.text)],
      then: .ticket(digest, session: session))
  }
}
