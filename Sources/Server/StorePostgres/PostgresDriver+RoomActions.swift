import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The presenters' actions on the room in PostgreSQL: under the session's lock, each with
/// its log row and its token.
extension PostgresDriver {
  package func announcement(session: Int64) async throws(StoreError) -> Announcement? {
    try await read { [logger] connection in
      StoreRules.announcement(
        from: try await Self.roomState(connection, session, "announcement", logger: logger))
    }
  }

}

/// The sessions' word filters in PostgreSQL: under the session's lock; a change is told to
/// the other instances by a notice (no log row: attendees see nothing of it).
extension PostgresDriver {
  package func filterSettings(session: Int64) async throws(StoreError) -> FilterSettings {
    try await read { [logger] connection in
      var lists: [String: [String]] = [:]
      for try await (list, entry) in try await connection.query(
        "SELECT list, entry FROM filterWord WHERE session = \(session) ORDER BY list, entry",
        logger: logger
      ).decode((String, String).self) {
        lists[list, default: []].append(entry)
      }
      let mode = try await Self.roomState(connection, session, "filterMode", logger: logger)
        .flatMap(FilterMode.init(rawValue:))
      var silenced: Set<UUID> = []
      for try await attendee in try await connection.query(
        "SELECT attendee FROM silenced WHERE session = \(session)", logger: logger
      ).decode(String.self) {
        if let id = UUID(uuidString: attendee) { silenced.insert(id) }
      }
      return FilterSettings(lists: lists, mode: mode ?? .review, silenced: silenced)
    }
  }

  package func changeFilterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    let (action, text) = StoreRules.filterListAction(name, change)
    return try await roomAction(action, text: text, token: token, at: time, session: session) {
      [logger] connection in
      var own: [String] = []
      for try await entry in try await connection.query(
        "SELECT entry FROM filterWord WHERE session = \(session) AND list = \(name)",
        logger: logger
      ).decode(String.self) {
        own.append(entry)
      }
      var others = (entries: 0, lists: 0)
      for try await (count, lists) in try await connection.query(
        """
        SELECT COUNT(*)::bigint, COUNT(DISTINCT list)::bigint FROM filterWord
        WHERE session = \(session) AND list <> \(name)
        """, logger: logger
      ).decode((Int, Int).self) {
        others = (count, lists)
      }
      if let refusal = StoreRules.filterListRefusal(
        entries: StoreRules.entriesAfter(change, own: own), otherEntries: others.entries,
        otherLists: others.lists, maxEntries: maxEntries)
      {
        return .refused(refusal)
      }
      if change.replacing {
        try await connection.query(
          "DELETE FROM filterWord WHERE session = \(session) AND list = \(name)",
          logger: logger)
      }
      try await connection.query(
        """
        DELETE FROM filterWord
        WHERE session = \(session) AND list = \(name) AND entry = ANY(\(change.removing))
        """, logger: logger)
      // One statement for the whole list, however long.
      try await connection.query(
        """
        INSERT INTO filterWord (session, list, entry)
        SELECT \(session), \(name), entry FROM unnest(\(change.adding)::text[]) AS entry
        ON CONFLICT DO NOTHING
        """, logger: logger)
      return .done(changed: true)
    }
  }

  /// Runs a room action's flow (the store's `RoomActionFlow`) in one transaction on the
  /// session's lock.
  package func roomAction(
    _ flow: RoomActionFlow, action: String, text: String?, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    // The flow's own log rows and notices tell the other instances.
    try await roomAction(action, text: text, token: token, at: time, session: session, notice: nil)
    { [logger] connection in
      var step = flow
      while true {
        switch step {
        case .read(let keys, let then):
          var values: [String?] = []
          for key in keys {
            values.append(try await Self.roomState(connection, session, key, logger: logger))
          }
          step = then(values)
        case .openQuestions(let ids, let then):
          step = then(try await Self.openQuestions(ids, connection, session, logger: logger))
        case .unchanged: return .done(changed: false)
        case .refused(let reason): return .refused(reason)
        case .write(let writes):
          for write in writes {
            switch write {
            case .state(let key, let value):
              try await Self.setRoomState(connection, session, key, value, logger: logger)
            case .log(let question, let kind):
              try await self.logChange(connection, session, question, kind)
            case .tellOthers(let kind): try await self.announce(connection, session, nil, kind)
            }
          }
          return .done(changed: true)
        }
      }
    }
  }

  /// Which of these questions are live and unanswered.
  static func openQuestions(
    _ ids: [UUID], _ connection: PostgresConnection, _ session: Int64, logger: Logger
  ) async throws -> Set<UUID> {
    let records = try await records(
      connection.query(
        """
        SELECT \(unescaped: selected) FROM question
        WHERE session = \(session) AND id = ANY(\(ids.map(\.uuidString)))
        """, logger: logger))
    return Set(
      records.filter { $0.state == QuestionState.live.rawValue && !$0.answered }
        .compactMap { UUID(uuidString: $0.id) })
  }

  /// A room action under its token, in one transaction on the session's lock: a token seen
  /// before does nothing (refused when it named another action); `body` makes the change,
  /// or says why not; a change is told to every instance by `notice`.
  func roomAction(
    _ action: String, text: String?, token: UUID, at time: Date, session: Int64,
    notice: RoomChange? = .filter,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> RoomActionStep
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await write(session) { [logger] connection in
      try await Self.requireExists(connection, session, logger: logger)
      for try await (seenAction, seenText) in try await connection.query(
        "SELECT action, text FROM roomAction WHERE token = \(token.uuidString)", logger: logger
      ).decode((String, String?).self) {
        return QuestionStore.RoomActionOutcome(
          changed: false,
          refusal: StoreRules.repeatRefusal(
            seenAction: seenAction, seenText: seenText, action: action, text: text))
      }
      // A token names one action, whichever table keeps it.
      for try await _ in try await connection.query(
        "SELECT 1 FROM transition WHERE token = \(token.uuidString)", logger: logger
      ) {
        return QuestionStore.RoomActionOutcome(
          changed: false, refusal: "That token was used for another action.")
      }
      let changed: Bool
      switch try await body(connection) {
      case .refused(let refusal):
        return QuestionStore.RoomActionOutcome(changed: false, refusal: refusal)
      case .done(let done): changed = done
      }
      try await connection.query(
        """
        INSERT INTO roomAction (token, session, action, at, text)
        VALUES (\(token.uuidString), \(session), \(action), \(time.timeIntervalSinceReferenceDate),
          \(text))
        """, logger: logger)
      if changed, let notice { try await self.announce(connection, session, nil, notice) }
      return QuestionStore.RoomActionOutcome(changed: changed)
    }
  }
}

/// The "next up" queue in PostgreSQL (extension `queue`); its actions are `RoomActionFlow.queue`,
/// whose log rows tell the other instances.
extension PostgresDriver {
  package func nextUp(session: Int64) async throws(StoreError) -> NextUp {
    try await read { [logger] connection in
      try await Self.nextUp(connection, session, presenter: true, logger: logger)
    }
  }
}
