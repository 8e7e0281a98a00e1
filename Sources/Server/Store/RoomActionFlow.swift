import Foundation

/// A presenter's action on the room as one flow for both databases: what it reads, what the
/// rules make of that, and what it writes. The flows are the store's (beside each action's
/// method); a driver only runs one (`StoreDriver.roomAction`), in a transaction of its own
/// kind, under the action's token (`transaction`), so that a new action on the room needs no
/// driver code.
package indirect enum RoomActionFlow: Sendable {
  /// Reads these values of the room's state (`RoomStateSQL`), and goes on with them, in
  /// the same order.
  case read([String], then: @Sendable ([String?]) -> RoomActionFlow)
  /// Reads which of these questions are live and unanswered, and goes on with them.
  case openQuestions([UUID], then: @Sendable (Set<UUID>) -> RoomActionFlow)
  /// Reads what the rules need beyond the room's state (a word list's entries), and goes on.
  case transaction(TransactionFlow<RoomActionFlow>)
  /// Writes these, in order: the room changed.
  case write([RoomWrite])
  /// The room is already so: nothing written but the token.
  case unchanged
  /// Nothing kept, not even the token.
  case refused(String)
}

/// One write of a room action.
package enum RoomWrite: Sendable, Equatable {
  /// A value of the room's state (`nil` clears it).
  case state(String, String?)
  /// A row in the room's log: attendees' rooms show the change, and on PostgreSQL it tells
  /// the other instances.
  case log(UUID?, RoomChange)
  /// Tells the other instances without a log row (attendees see nothing of it); nothing to
  /// tell on SQLite, which no other instance shares.
  case tellOthers(RoomChange)
  /// A statement of the action's own (a word list's entries).
  case run(PortableSQL, [SQLValue])
  /// A statement of the action's own, for each of these values.
  case runEach(PortableSQL, [[SQLValue]])
}

extension RoomActionFlow {
  /// The flow run in memory against the room's values by key (`state`) and its live,
  /// unanswered questions (`open`): what it would write, `nil` when the room is already so.
  /// For tests; the drivers run it in their transactions.
  package func run(state: [String: String], open: Set<UUID> = [])
    -> Result<[RoomWrite]?, StoreRules.ActionRefusal>
  {
    var step = self
    while true {
      switch step {
      case .read(let keys, let then): step = then(keys.map { state[$0] })
      case .openQuestions(let ids, let then): step = then(open.intersection(ids))
      case .transaction:
        return .failure(StoreRules.ActionRefusal("this flow reads SQL: it runs in a database"))
      case .write(let writes): return .success(writes)
      case .unchanged: return .success(nil)
      case .refused(let reason): return .failure(StoreRules.ActionRefusal(reason))
      }
    }
  }
}
