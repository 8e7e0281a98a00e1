import Foundation
import GRDB
import QnAStore

/// Extension `tickets` on SQLite: `TicketSQL`'s statements, in GRDB's transactions.
extension SQLiteDriver {
  package func addTickets(_ digests: [String], at time: Double, limit: Int, session: Int64)
    async throws(StoreError) -> Bool
  {
    try await run { db in
      let held = try Int.fetchOne(db, sql: TicketSQL.count.sqlite, arguments: [session])
      guard (held ?? 0) + digests.count <= limit else { return false }
      let add = try db.cachedStatement(sql: TicketSQL.add.sqlite)
      for digest in digests { try add.execute(arguments: [session, digest, time]) }
      return true
    }
  }

  package func hasTickets(session: Int64) async throws(StoreError) -> Bool {
    try await read { db in
      try Int.fetchOne(db, sql: TicketSQL.any.sqlite, arguments: [session]) != nil
    }
  }

  package func ticketCounts(session: Int64) async throws(StoreError) -> (issued: Int, used: Int) {
    try await read { db in
      let row = try Row.fetchOne(
        db, sql: TicketSQL.counts.sqlite, arguments: [session])
      return (row?[0] ?? 0, row?[1] ?? 0)
    }
  }

  package func ticket(_ digest: String, session: Int64) async throws(StoreError) -> TicketState {
    try await read { db in try Self.ticket(db, digest, session) }
  }

  package func bindTicket(_ digest: String, to attendee: UUID, session: Int64)
    async throws(StoreError) -> TicketState
  {
    try await run { db in
      try db.execute(
        sql: TicketSQL.bind.sqlite, arguments: [session, digest, attendee.uuidString])
      return try Self.ticket(db, digest, session)
    }
  }

  private static func ticket(_ db: Database, _ digest: String, _ session: Int64) throws
    -> TicketState
  {
    let row = try Row.fetchOne(
      db, sql: TicketSQL.lookup.sqlite, arguments: [session, digest])
    return StoreRules.ticketState(
      row: row.map { (attendee: $0[0] as String?, credential: $0[1] as String?) })
  }
}
