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

  package func announce(_ text: String?, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    // Its log row tells the other instances (a notice of its own would be one too many).
    try await roomAction(
      PresenterActionKind.announce.rawValue, text: text, token: token, at: time, session: session,
      notice: nil
    ) { [logger] connection in
      let step = StoreRules.announce(
        text, over: try await Self.roomState(connection, session, "announcement", logger: logger),
        at: time)
      guard case .some(let value) = step else { return .done(changed: false) }
      try await Self.setRoomState(connection, session, "announcement", value, logger: logger)
      try await self.logChange(connection, session, nil, .announcement)
      return .done(changed: true)
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

  package func setFilterMode(_ mode: FilterMode, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    let (action, text) = StoreRules.filterModeAction(mode)
    return try await roomAction(action, text: text, token: token, at: time, session: session) {
      [logger] connection in
      try await Self.setRoomState(connection, session, "filterMode", mode.rawValue, logger: logger)
      return .done(changed: true)
    }
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

/// The "next up" queue's actions on the room in PostgreSQL (extension `queue`): their log
/// rows tell the other instances.
extension PostgresDriver {
  package func nextUp(session: Int64) async throws(StoreError) -> NextUp {
    try await read { [logger] connection in
      try await Self.nextUp(connection, session, presenter: true, logger: logger)
    }
  }

  package func queueAction(_ kind: PresenterActionKind, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    try await roomAction(
      kind.rawValue, text: nil, token: token, at: time, session: session, notice: nil
    ) { [logger] connection in
      switch kind {
      case .next:
        let queue = StoreRules.queue(
          from: try await Self.roomState(connection, session, "queue", logger: logger))
        let records = try await Self.records(
          connection.query(
            """
            SELECT \(unescaped: Self.selected) FROM question
            WHERE session = \(session) AND id = ANY(\(queue.map(\.uuidString)))
            """, logger: logger))
        let open = records.filter { $0.state == QuestionState.live.rawValue && !$0.answered }
          .compactMap { UUID(uuidString: $0.id) }
        guard let (question, rest) = StoreRules.next(queue: queue, open: Set(open)) else {
          return .refused("Nothing is next up: the queue has no open question.")
        }
        try await Self.setRoomState(
          connection, session, "highlighted", question.uuidString, logger: logger)
        try await self.logChange(connection, session, question, .highlight)
        try await self.setQueue(connection, session, rest)
        return .done(changed: true)
      case .showQueue, .hideQueue:
        let shown = kind == .showQueue
        let now = try await Self.roomState(connection, session, "queueShown", logger: logger)
        guard (now == "1") != shown else { return .done(changed: false) }
        try await Self.setRoomState(
          connection, session, "queueShown", shown ? "1" : "0", logger: logger)
        try await self.logChange(connection, session, nil, .queue)
        return .done(changed: true)
      default: return .refused("That is no action on the queue.")
      }
    }
  }
}
