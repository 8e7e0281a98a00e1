import Foundation
import QnA

/// Extension `polls`' tables and statements, written once for both databases: a poll's row
/// (its spec as JSON), one answer per attendee per poll, and the counts kept as counts
/// (`PollRules.weights`), changed by difference as answers come and change.
package enum PollSQL {
  /// Migration v12. SQLite reads the type names by affinity (INTEGER, TEXT, REAL).
  package static let create = [
    """
    CREATE TABLE poll (
      id text PRIMARY KEY, session bigint NOT NULL, n integer NOT NULL, spec text NOT NULL,
      state text NOT NULL, shown integer NOT NULL DEFAULT 0,
      createdAt double precision NOT NULL, openedAt double precision,
      closesAt double precision)
    """,
    "CREATE UNIQUE INDEX poll_number ON poll (session, n)",
    """
    CREATE TABLE pollAnswer (
      poll text NOT NULL, attendee text NOT NULL, value text NOT NULL, token text NOT NULL,
      at double precision NOT NULL, PRIMARY KEY (poll, attendee))
    """,
    "CREATE INDEX pollAnswer_attendee ON pollAnswer (attendee)",
    """
    CREATE TABLE pollCount (
      poll text NOT NULL, key text NOT NULL, count bigint NOT NULL, PRIMARY KEY (poll, key))
    """,
    // A word cloud's top words, read in order from the index however many words it has.
    "CREATE INDEX pollCount_top ON pollCount (poll, count DESC, key)",
  ]
  /// Migration v13: how many times each poll was reset (clients forget their answer when it
  /// changes).
  package static let addRound = ["ALTER TABLE poll ADD COLUMN round integer NOT NULL DEFAULT 0"]

  /// Migration v14: an open text's entries (one per distinct answer), each with its
  /// moderation state (`PollTextState`) and when it was first given.
  package static let addTexts = [
    """
    CREATE TABLE pollText (
      poll text NOT NULL, key text NOT NULL, state text NOT NULL, at double precision NOT NULL,
      PRIMARY KEY (poll, key))
    """,
    // An open text's entries by state, in the order given.
    "CREATE INDEX pollText_recent ON pollText (poll, state, at)",
  ]

  /// The room's value that keeps the session's last poll number.
  static let lastNumberKey = "pollNumber"

  static let columns = "id, n, spec, state, shown, closesAt, session, round"
  /// $1 session: its polls, in order.
  static let all = PortableSQL("SELECT \(columns) FROM poll WHERE session = $1 ORDER BY n")
  /// $1 id.
  static let byID = PortableSQL("SELECT \(columns) FROM poll WHERE id = $1")
  /// Rows of (session, id).
  static func byIDs(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT \(columns) FROM poll WHERE", by: ["session", "id"], rows: rows,
      indexed: ["id", "session"])
  }
  /// $1 session: how many polls, how many open, the highest number.
  static let tally: PortableSQL = """
    SELECT COUNT(*), COALESCE(SUM(CASE WHEN state = 'open' THEN 1 ELSE 0 END), 0),
    COALESCE(MAX(n), 0) FROM poll WHERE session = $1
    """
  /// $1 id, $2 session, $3 n, $4 spec, $5 createdAt.
  static let insert: PortableSQL = """
    INSERT INTO poll (id, session, n, spec, state, shown, createdAt)
    VALUES ($1, $2, $3, $4, 'draft', 0, $5) ON CONFLICT (id) DO NOTHING
    """
  /// $1 id, $2 spec.
  static let update: PortableSQL = "UPDATE poll SET spec = $2 WHERE id = $1"
  /// $1 id, $2 openedAt, $3 closesAt.
  static let open: PortableSQL =
    "UPDATE poll SET state = 'open', openedAt = $2, closesAt = $3 WHERE id = $1"
  /// $1 id: one more reset.
  static let nextRound: PortableSQL = "UPDATE poll SET round = round + 1 WHERE id = $1"
  /// $1 id.
  static let close: PortableSQL = "UPDATE poll SET state = 'closed' WHERE id = $1"
  /// $1 id, $2 shown (0 or 1).
  static let show: PortableSQL = "UPDATE poll SET shown = $2 WHERE id = $1"
  /// $1 id.
  static let delete: PortableSQL = "DELETE FROM poll WHERE id = $1"
  static let deleteAnswers: PortableSQL = "DELETE FROM pollAnswer WHERE poll = $1"
  static let deleteCounts: PortableSQL = "DELETE FROM pollCount WHERE poll = $1"
  static let deleteTexts: PortableSQL = "DELETE FROM pollText WHERE poll = $1"

  /// Rows of (poll, key, state, at): entries given for the first time; one given before
  /// keeps its state.
  static func putTexts(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO pollText (poll, key, state, at) VALUES "
        + PortableSQL.valueRows(width: 4, count: rows) + " ON CONFLICT (poll, key) DO NOTHING")
  }
  /// Rows of (poll, key): entries no one gives any more, gone (a dismissed one stays
  /// dismissed), so that an open text keeps about one entry per attendee however often
  /// answers change.
  static func releaseTexts(rows: Int) -> PortableSQL {
    .keyed(
      "DELETE FROM pollText WHERE state <> 'dismissed' AND NOT EXISTS (SELECT 1 FROM pollCount"
        + " WHERE pollCount.poll = pollText.poll AND pollCount.key = pollText.key) AND",
      by: ["poll", "key"], rows: rows)
  }
  /// $1 poll, $2 key: the entry's state, and whether anyone gives it now.
  static let textState: PortableSQL = """
    SELECT pollText.state, COALESCE(pollCount.count, 0) FROM pollText
    LEFT JOIN pollCount ON pollCount.poll = pollText.poll AND pollCount.key = pollText.key
    WHERE pollText.poll = $1 AND pollText.key = $2
    """
  /// $1 poll, $2 key, $3 state.
  static let setTextState: PortableSQL =
    "UPDATE pollText SET state = $3 WHERE poll = $1 AND key = $2"
  /// $1 poll, $2 how many: the live entries anyone gives now, the most given first, then
  /// the newest (a few attendees changing their answers cannot keep the room's answer off
  /// the list), with their counts.
  static let liveTexts: PortableSQL = """
    SELECT pollText.key, pollCount.count FROM pollText
    JOIN pollCount ON pollCount.poll = pollText.poll AND pollCount.key = pollText.key
    WHERE pollText.poll = $1 AND pollText.state = 'live' AND pollCount.count > 0
    ORDER BY pollCount.count DESC, pollText.at DESC, pollText.key LIMIT $2
    """
  /// $1 poll, $2 how many: the oldest entries waiting for review.
  static let waitingTexts: PortableSQL = """
    SELECT pollText.key, pollCount.count FROM pollText
    JOIN pollCount ON pollCount.poll = pollText.poll AND pollCount.key = pollText.key
    WHERE pollText.poll = $1 AND pollText.state = 'review' AND pollCount.count > 0
    ORDER BY pollText.at, pollText.key LIMIT $2
    """
  /// $1 session: every open text's entries anyone gives, each poll's in the order given.
  static let allTexts: PortableSQL = """
    SELECT pollText.poll, pollText.key, pollCount.count, pollText.state FROM pollText
    JOIN pollCount ON pollCount.poll = pollText.poll AND pollCount.key = pollText.key
    JOIN poll ON poll.id = pollText.poll
    WHERE poll.session = $1 AND pollCount.count > 0 ORDER BY pollText.poll, pollText.at
    """
  /// $1 poll: how many entries wait for review.
  static let heldTexts: PortableSQL = """
    SELECT COUNT(*) FROM pollText
    JOIN pollCount ON pollCount.poll = pollText.poll AND pollCount.key = pollText.key
    WHERE pollText.poll = $1 AND pollText.state = 'review' AND pollCount.count > 0
    """

  /// Rows of (poll, attendee): their answers, each with its recent tokens (`PollTally`).
  static func answers(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT poll, attendee, value, token FROM pollAnswer WHERE", by: ["poll", "attendee"],
      rows: rows)
  }
  /// $1 attendee: its answers, to every poll.
  static let answersOf: PortableSQL = "SELECT poll, value FROM pollAnswer WHERE attendee = $1"
  /// Rows of (poll, attendee, value, token, at): each answer, new or changed.
  static func putAnswers(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO pollAnswer (poll, attendee, value, token, at) VALUES "
        + PortableSQL.valueRows(width: 5, count: rows)
        + " ON CONFLICT (poll, attendee) DO UPDATE SET value = excluded.value,"
        + " token = excluded.token, at = excluded.at")
  }
  /// Rows of (poll, key, difference): each count moved by its difference.
  static func addCounts(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO pollCount (poll, key, count) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows)
        + " ON CONFLICT (poll, key) DO UPDATE SET count = pollCount.count + excluded.count")
  }
  /// Rows of poll ids: their counts that answers moved back to nothing (a changed word
  /// cloud's old words), gone (a count not there reads as none).
  static func deleteEmptyCounts(rows: Int) -> PortableSQL {
    .keyed("DELETE FROM pollCount WHERE count = 0 AND", by: ["poll"], rows: rows)
  }
  /// Rows of poll ids: every count of those polls (a choice poll or a rating: one per option
  /// or value, and the answers).
  static func counts(rows: Int) -> PortableSQL {
    .keyed("SELECT poll, key, count FROM pollCount WHERE", by: ["poll"], rows: rows)
  }
  /// $1 poll, $2 how many: a word cloud's most counted words, from the index.
  static let topWords: PortableSQL = """
    SELECT key, count FROM pollCount WHERE poll = $1 AND key <> '' AND count > 0
    ORDER BY count DESC, key LIMIT $2
    """
  /// $1 poll: how many answered.
  static let answerCount: PortableSQL = "SELECT count FROM pollCount WHERE poll = $1 AND key = ''"
  /// $1 session, $2 poll, $3 kind: the room's log.
  static let log: PortableSQL =
    "INSERT INTO roomLog (session, question, kind) VALUES ($1, $2, $3)"
  /// Rows of (session, poll, kind).
  static func logs(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO roomLog (session, question, kind) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows))
  }
}

/// Where an open text's entry stands: in the room, waiting for presenters, or kept out.
package enum PollTextState: String, Sendable {
  case live, review, dismissed
}

/// A poll's row.
package struct PollRecord: Sendable, Hashable {
  package var id: String
  package var n: Int
  package var spec: PollSpec
  package var state: PollState
  package var shown: Bool
  package var closesAt: Double?
  package var session: Int64
  /// How many times it was reset.
  package var round: Int

  /// The row as `PollSQL.columns` reads it; `nil` for one no reader can make sense of.
  init?(_ row: SQLRow) {
    guard let id = row.text(0), let n = row.int(1), let specText = row.text(2),
      let spec = PollCodec.spec(specText), let state = row.text(3).flatMap(PollState.init),
      let session = row.integer(6)
    else { return nil }
    self.id = id
    self.n = n
    self.spec = spec
    self.state = state
    shown = row.bool(4) ?? false
    closesAt = row.real(5)
    self.session = session
    round = row.int(7) ?? 0
  }

  /// Whether it takes answers at `time`: open, and within its time limit.
  package func takesAnswers(at time: Date) -> Bool {
    state == .open && (closesAt.map { time.timeIntervalSinceReferenceDate <= $0 } ?? true)
  }

  /// As the room sees it: a presenter whole; an attendee no draft, results only once shown,
  /// a quiz's correct options once closed and shown.
  package func roomPoll(results: PollResults?, presenter: Bool) -> RoomPoll? {
    guard presenter || state != .draft, let uuid = UUID(text: id) else { return nil }
    var poll = RoomPoll(
      id: uuid, n: n, spec: spec, state: state, shown: shown,
      closesAt: closesAt.map(Date.init(timeIntervalSinceReferenceDate:)),
      results: presenter || shown ? results : nil)
    poll.round = round > 0 ? round : nil
    if !presenter, !(shown && state == .closed) { poll.correct = nil }
    return poll
  }
}

/// Specs and answers as the store keeps them: JSON text, keys sorted.
package enum PollCodec {
  package static func text(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
  }

  package static func spec(_ text: String) -> PollSpec? {
    try? JSONDecoder().decode(PollSpec.self, from: Data(text.utf8))
  }

  package static func value(_ text: String) -> PollValue? {
    try? JSONDecoder().decode(PollValue.self, from: Data(text.utf8))
  }
}
