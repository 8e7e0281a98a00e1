import Foundation
import QnA

/// The sessions' word filters, written once for both databases: the statements, and the
/// flows that run them (`ModerationStore+Filters`).
package enum FilterSQL {
  /// $1 session.
  static let lists: PortableSQL =
    "SELECT list, entry FROM filterWord WHERE session = $1 ORDER BY list, entry"
  /// $1 session.
  static let silenced: PortableSQL = "SELECT attendee FROM silenced WHERE session = $1"
  /// $1 session, $2 list.
  static let entries: PortableSQL = "SELECT entry FROM filterWord WHERE session = $1 AND list = $2"
  /// $1 session, $2 list: the entries and lists of every other list.
  static let others: PortableSQL = """
    SELECT COUNT(*), COUNT(DISTINCT list) FROM filterWord WHERE session = $1 AND list <> $2
    """
  /// $1 session, $2 list.
  static let clear: PortableSQL = "DELETE FROM filterWord WHERE session = $1 AND list = $2"
  /// $1 session, $2 list, $3 entry.
  static let remove: PortableSQL =
    "DELETE FROM filterWord WHERE session = $1 AND list = $2 AND entry = $3"
  /// Rows of (session, list, entry); an entry already there stays as it is.
  static func add(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO filterWord (session, list, entry) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows) + " ON CONFLICT DO NOTHING")
  }
}

extension TransactionFlow where Output == FilterSettings {
  /// The session's lists, what a match does, and whom the presenters silenced.
  package static func filterSettings(session: Int64) -> TransactionFlow {
    .rows(FilterSQL.lists, [.integer(session)]) { rows in
      var read: [String: [String]] = [:]
      for row in rows {
        if let list = row.text(0), let entry = row.text(1) {
          read[list, default: []].append(entry)
        }
      }
      let lists = read
      return .rows(RoomStateSQL.value, [.integer(session), "filterMode"]) { mode in
        .rows(FilterSQL.silenced, [.integer(session)]) { silenced in
          .done(
            FilterSettings(
              lists: lists,
              mode: mode.first?.text(0).flatMap(FilterMode.init(rawValue:)) ?? .review,
              silenced: Set(silenced.compactMap { $0.text(0).flatMap(UUID.init(text:)) })))
        }
      }
    }
  }
}

extension RoomActionFlow {
  /// A word list changed, unless it would take the session past `maxEntries` entries or
  /// `ModerationStore.maxFilterLists` lists. The other instances are told; attendees see
  /// nothing of it.
  package static func filterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, session: Int64
  ) -> RoomActionFlow {
    let list: [SQLValue] = [.integer(session), .text(name)]
    return .transaction(
      .rows(FilterSQL.entries, list) { own in
        .rows(FilterSQL.others, list) { others in
          if let refusal = StoreRules.filterListRefusal(
            entries: StoreRules.entriesAfter(change, own: own.compactMap { $0.text(0) }),
            otherEntries: others.first?.int(0) ?? 0, otherLists: others.first?.int(1) ?? 0,
            maxEntries: maxEntries)
          {
            return .done(.refused(refusal))
          }
          var writes: [RoomWrite] = change.replacing ? [.run(FilterSQL.clear, list)] : []
          writes.append(.runEach(FilterSQL.remove, change.removing.map { list + [.text($0)] }))
          // A whole list of thousands is a few statements, not thousands.
          writes += PortableSQL.batches(
            of: change.adding.map { list + [.text($0)] }, FilterSQL.add(rows:)
          )
          .map { .runEach($0.statement, $0.values) }
          writes.append(.tellOthers(.filter))
          return .done(.write(writes))
        }
      })
  }

}
