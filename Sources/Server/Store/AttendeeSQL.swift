import Foundation
import QnA

/// An attendee's claim on its id (extension `identity`), written once for both databases:
/// the stored credential read under the row's lock (PostgreSQL; SQLite's writes are one at a
/// time), `StoreRules.claim`'s decision, and its write.
package enum AttendeeSQL {
  /// $1 session, $2 attendee: its credential, and whether a join proved it.
  static let credential: PortableSQL = """
    SELECT credential, credentialProved FROM attendee WHERE session = $1 AND id = $2 FOR UPDATE
    """
  /// $1 name, $2 session, $3 attendee: proved now. A reconnect with nothing new changes no
  /// row, so its transaction writes nothing. (The name's comparison is spelled out: SQLite
  /// reads `IS DISTINCT FROM` only from 3.39, and Ubuntu 22.04 has 3.37.)
  static let proved: PortableSQL = """
    UPDATE attendee SET name = $1, credentialProved = TRUE
    WHERE session = $2 AND id = $3
      AND (NOT COALESCE(name = $1, name IS NULL AND $1 IS NULL) OR NOT credentialProved)
    """
  /// $1 session, $2 attendee, $3 name, $4 first seen, $5 credential: issued, unless another
  /// transaction stored one first (that one stays, and is issued again) or proved the id
  /// (no row comes back).
  static let issue: PortableSQL = """
    INSERT INTO attendee (session, id, name, firstSeen, credential) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (session, id) DO UPDATE SET name = excluded.name,
      credential = COALESCE(attendee.credential, excluded.credential)
    WHERE NOT attendee.credentialProved
    RETURNING credential
    """
}

extension TransactionFlow where Output == [AttendeeClaim] {
  /// Each claim as `StoreRules.claim` decides it, in order, all in one transaction
  /// (`GroupCommit`). As a join, it takes no turn on the session's lock: two claims of one
  /// id at once are ordered by the row's lock (a new row: by the insert's conflict), and a
  /// proved credential is never replaced.
  package static func claims(_ requests: [ClaimRequest], session: Int64) -> TransactionFlow {
    TransactionFlow<Void>.requireExists(session).then { _ in
      claims(requests[...], session: session, made: [])
    }
  }

  private static func claims(
    _ requests: ArraySlice<ClaimRequest>, session: Int64, made: [AttendeeClaim]
  ) -> TransactionFlow {
    guard let request = requests.first else { return .done(made) }
    return TransactionFlow<AttendeeClaim>.claim(request, session: session).then { claim in
      claims(requests.dropFirst(), session: session, made: made + [claim])
    }
  }
}

extension TransactionFlow where Output == AttendeeClaim {
  static func claim(_ request: ClaimRequest, session: Int64) -> TransactionFlow {
    let attendee = SQLValue.text(request.attendee.text)
    return .rows(AttendeeSQL.credential, [.integer(session), attendee]) { rows in
      let stored = rows.first.map {
        StoredCredential(value: $0.text(0), proved: $0.bool(1) ?? false)
      }
      let claim = StoreRules.claim(stored: stored, offered: request.credential, mint: request.mint)
      switch claim {
      case .taken, .needsMint: return .done(claim)
      case .proved:
        return .run(
          AttendeeSQL.proved, [SQLValue(request.name), .integer(session), attendee],
          then: .done(claim))
      case .issued(let credential):
        return .rows(
          AttendeeSQL.issue,
          [
            .integer(session), attendee, SQLValue(request.name),
            .real(request.time.timeIntervalSinceReferenceDate), .text(credential.text),
          ]
        ) { kept in
          // No row: another transaction proved this id between the read and the write.
          .done(
            kept.first?.text(0).flatMap(UUID.init(text:)).map(AttendeeClaim.issued)
              ?? .taken)
        }
      }
    }
  }
}
