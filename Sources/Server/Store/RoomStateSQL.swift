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
  /// The room's values under `keys`, in order (`nil` for one never set), from one read of
  /// them all (`RoomState`).
  package static func roomState(_ keys: [String], session: Int64) -> TransactionFlow {
    TransactionFlow<RoomState>.roomState(session: session).then { state in
      .done(keys.map { state.values[$0] })
    }
  }
}
