import Foundation

/// A session's attendance over time, for its report: each minute's most attendees present
/// at once (on every instance together) and the count last seen in it, written by the head
/// count's ticks whenever attendees come or go (`PresenceSQL`), so that a minute without a
/// row kept the count its last one ended with.
package enum AttendanceSQL {
  /// Migration v15: the minutes, and each attendee who was ever in the room (counted by
  /// the head count: never a presenter or a screen).
  package static let create = [
    """
    CREATE TABLE attendance (
      session bigint NOT NULL, minute bigint NOT NULL, peak bigint NOT NULL,
      last bigint NOT NULL, PRIMARY KEY (session, minute))
    """,
    """
    CREATE TABLE attendanceSeen (
      session bigint NOT NULL, attendee text NOT NULL, PRIMARY KEY (session, attendee))
    """,
  ]

  /// Rows of (session, attendee): in the room, once however often.
  static func seen(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO attendanceSeen (session, attendee) VALUES "
        + PortableSQL.valueRows(width: 2, count: rows) + " ON CONFLICT DO NOTHING")
  }

  /// Rows of (session, minute since 1970, count, count): the minute's peak raised to the
  /// count where it is higher, its last count the count.
  static func record(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO attendance (session, minute, peak, last) VALUES "
        + PortableSQL.valueRows(width: 4, count: rows)
        + " ON CONFLICT (session, minute) DO UPDATE SET"
        + " peak = CASE WHEN excluded.peak > attendance.peak THEN excluded.peak"
        + " ELSE attendance.peak END, last = excluded.last")
  }

  /// $1 session: its minutes, in order.
  static let minutes: PortableSQL =
    "SELECT minute, peak, last FROM attendance WHERE session = $1 ORDER BY minute"
}

/// What a session's report reads besides its questions and polls: when each vote and each
/// poll answer came, and who attended.
package enum ReportSQL {
  /// $1 session: each vote's time (seconds since 2001).
  static let voteTimes: PortableSQL = """
    SELECT vote.createdAt FROM vote JOIN question ON question.id = vote.question
    WHERE question.session = $1
    """
  /// $1 session: each poll answer's time, as last given (seconds since 2001).
  static let pollAnswerTimes: PortableSQL = """
    SELECT pollAnswer.at FROM pollAnswer JOIN poll ON poll.id = pollAnswer.poll
    WHERE poll.session = $1
    """
  /// $1 session: the attendees who were ever in its room.
  static let attendees: PortableSQL =
    "SELECT COUNT(*) FROM attendanceSeen WHERE session = $1"
}
