import Foundation
import PostgresNIO
import QnAStore

/// Extension `tickets` on PostgreSQL: `TicketSQL`'s statements, bound by position. Adding
/// takes the session's lock, so that two issues at once cannot pass its limit together.
extension PostgresDriver {
  package func addTickets(_ digests: [String], at time: Double, limit: Int, session: Int64)
    async throws(StoreError) -> Bool
  {
    try await transaction(locking: session) { [logger] connection in
      let held =
        try await Self.int(
          connection.query(Self.query(TicketSQL.count, session), logger: logger)) ?? 0
      guard held + digests.count <= limit else { return false }
      for digest in digests {
        try await connection.query(Self.query(TicketSQL.add, session, digest, time), logger: logger)
      }
      return true
    }
  }

  package func hasTickets(session: Int64) async throws(StoreError) -> Bool {
    try await transaction(locking: nil, readOnly: true) { [logger] connection in
      try await Self.int(
        connection.query(Self.query(TicketSQL.any, session), logger: logger)) != nil
    }
  }

  package func ticketCounts(session: Int64) async throws(StoreError) -> (issued: Int, used: Int) {
    try await transaction(locking: nil, readOnly: true) { [logger] connection in
      for try await counts in try await connection.query(
        Self.query(TicketSQL.counts, session), logger: logger
      ).decode((Int, Int).self) {
        return (issued: counts.0, used: counts.1)
      }
      return (issued: 0, used: 0)
    }
  }

  package func ticket(_ digest: String, session: Int64) async throws(StoreError) -> TicketState {
    try await transaction(locking: nil, readOnly: true) { [logger] connection in
      try await Self.ticket(connection, digest, session, logger)
    }
  }

  package func bindTicket(_ digest: String, to attendee: UUID, session: Int64)
    async throws(StoreError) -> TicketState
  {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query(
        Self.query(TicketSQL.bind, session, digest, attendee.uuidString), logger: logger)
      return try await Self.ticket(connection, digest, session, logger)
    }
  }

  private static func ticket(
    _ connection: PostgresConnection, _ digest: String, _ session: Int64, _ logger: Logger
  ) async throws -> TicketState {
    for try await row in try await connection.query(
      query(TicketSQL.lookup, session, digest), logger: logger
    ).decode((String?, String?).self) {
      return StoreRules.ticketState(row: (attendee: row.0, credential: row.1))
    }
    return StoreRules.ticketState(row: nil)
  }
}
