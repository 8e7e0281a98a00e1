/// The session's room state, one value per key (`roomState`: the epoch, the highlight, the
/// banner, the queue and whether it is shown, the labels, the filter's mode), read and set by
/// SQL written once for both databases (`PortableSQL`; SQLite has read PostgreSQL's upsert
/// since 3.24).
package enum RoomStateSQL {
  /// $1 session, $2 key: its value (no row, or NULL, when none was set).
  package static let value: PortableSQL =
    "SELECT value FROM roomState WHERE session = $1 AND key = $2"
  /// $1 session, $2 key, $3 value (NULL clears it).
  package static let set: PortableSQL = """
    INSERT INTO roomState (session, key, value) VALUES ($1, $2, $3)
    ON CONFLICT (session, key) DO UPDATE SET value = excluded.value
    """
}

extension TransactionFlow where Output == [String?] {
  /// The room's values under `keys`, in order (`nil` for one never set).
  package static func roomState(_ keys: [String], session: Int64) -> TransactionFlow {
    read(keys[...], session, [])
  }

  private static func read(_ keys: ArraySlice<String>, _ session: Int64, _ read: [String?])
    -> TransactionFlow
  {
    guard let key = keys.first else { return .done(read) }
    return .rows(RoomStateSQL.value, [.integer(session), .text(key)]) { rows in
      Self.read(keys.dropFirst(), session, read + [rows.first?.text(0)])
    }
  }
}
