import Foundation
import PostgresNIO
import QnAStore

/// The schema's migrations in PostgreSQL: the same steps, under the same names, as
/// `SQLiteDriver.migrator`, to the same tables and columns. Where SQLite has an implicit
/// `rowid` (the order of insertion, which pages and exports sort by), PostgreSQL has a
/// column of that name. Each step runs once, in the transaction that records it; instances
/// starting together take turns on a lock.
package enum PostgresSchema {
  package static let steps: [(name: String, sql: [String])] = [
    (
      "v1: questions",
      [
        """
        CREATE TABLE question (
          id text PRIMARY KEY, content text NOT NULL, answered boolean NOT NULL DEFAULT false,
          askedFrom text NOT NULL, createdAt double precision NOT NULL, token text UNIQUE,
          rowid bigserial NOT NULL)
        """,
        "CREATE INDEX question_on_createdAt ON question (createdAt)",
      ]
    ),
    (
      "v2: room",
      [
        "ALTER TABLE question ADD COLUMN attendee text",
        "ALTER TABLE question ADD COLUMN votes bigint NOT NULL DEFAULT 0",
        "CREATE TABLE attendee (id text PRIMARY KEY, name text, firstSeen double precision NOT NULL)",
        """
        CREATE TABLE vote (
          attendee text NOT NULL,
          question text NOT NULL REFERENCES question (id) ON DELETE CASCADE,
          createdAt double precision NOT NULL, PRIMARY KEY (attendee, question))
        """,
        "CREATE INDEX vote_on_question ON vote (question)",
        "CREATE TABLE roomLog (seq bigserial PRIMARY KEY, question text, kind text NOT NULL)",
        "CREATE TABLE roomState (key text PRIMARY KEY, value text)",
        "INSERT INTO roomState (key, value) VALUES ('epoch', upper(gen_random_uuid()::text))",
      ]
    ),
    (
      "v3: lifecycle",
      [
        "ALTER TABLE question ADD COLUMN state text NOT NULL DEFAULT 'live'",
        "ALTER TABLE question ADD COLUMN answer text",
        "ALTER TABLE question ADD COLUMN answerPrivate boolean NOT NULL DEFAULT false",
        "ALTER TABLE question ADD COLUMN answeredAt double precision",
        "ALTER TABLE question ADD COLUMN published boolean NOT NULL DEFAULT true",
        """
        CREATE TABLE transition (
          token text PRIMARY KEY,
          question text NOT NULL REFERENCES question (id) ON DELETE CASCADE,
          action text NOT NULL, at double precision NOT NULL, text text,
          rowid bigserial NOT NULL)
        """,
        "CREATE INDEX transition_on_question ON transition (question)",
      ]
    ),
    (
      "v4: sessions",
      [
        """
        CREATE TABLE session (
          id bigserial PRIMARY KEY, code text NOT NULL UNIQUE, title text NOT NULL,
          token text NOT NULL, open boolean NOT NULL DEFAULT true,
          createdAt double precision NOT NULL)
        """,
        "ALTER TABLE question ADD COLUMN session bigint NOT NULL DEFAULT 0",
        "ALTER TABLE roomLog ADD COLUMN session bigint NOT NULL DEFAULT 0",
        "CREATE INDEX question_session ON question (session, createdAt)",
        "CREATE INDEX roomLog_session ON roomLog (session, seq)",
        "ALTER TABLE roomState ADD COLUMN session bigint NOT NULL DEFAULT 0",
        "ALTER TABLE roomState DROP CONSTRAINT roomState_pkey",
        "ALTER TABLE roomState ADD PRIMARY KEY (session, key)",
        "ALTER TABLE attendee ADD COLUMN session bigint NOT NULL DEFAULT 0",
        "ALTER TABLE attendee DROP CONSTRAINT attendee_pkey",
        "ALTER TABLE attendee ADD PRIMARY KEY (session, id)",
      ]
    ),
    (
      "v5: identity",
      [
        "ALTER TABLE attendee ADD COLUMN credential text",
        "ALTER TABLE attendee ADD COLUMN credentialProved boolean NOT NULL DEFAULT false",
        "CREATE INDEX question_on_attendee ON question (session, attendee)",
      ]
    ),
    (
      "v6: operations",
      [
        "ALTER TABLE session ADD COLUMN requestToken text",
        "CREATE UNIQUE INDEX session_requestToken ON session (requestToken)",
        """
        CREATE TABLE presenterLogin (
          digest text PRIMARY KEY, scope bigint NOT NULL, expiresAt double precision NOT NULL)
        """,
        "CREATE INDEX presenterLogin_scope ON presenterLogin (scope, expiresAt)",
        """
        CREATE TABLE wrongGuess (
          key text PRIMARY KEY, failures bigint NOT NULL, nextTurn double precision NOT NULL,
          lastAt double precision NOT NULL)
        """,
        "CREATE INDEX wrongGuess_lastAt ON wrongGuess (lastAt)",
      ]
    ),
    (
      "v7: toolkit",
      [
        "ALTER TABLE question ADD COLUMN flagged text",
        "ALTER TABLE question ADD COLUMN original text",
        "ALTER TABLE question ADD COLUMN starred boolean NOT NULL DEFAULT false",
        """
        CREATE TABLE silenced (
          session bigint NOT NULL, attendee text NOT NULL, at double precision NOT NULL,
          PRIMARY KEY (session, attendee))
        """,
        """
        CREATE TABLE roomAction (
          token text PRIMARY KEY, session bigint NOT NULL, action text NOT NULL,
          at double precision NOT NULL, text text, rowid bigserial NOT NULL)
        """,
        "CREATE INDEX roomAction_session ON roomAction (session, at)",
        """
        CREATE TABLE filterWord (
          session bigint NOT NULL, list text NOT NULL, entry text NOT NULL,
          PRIMARY KEY (session, list, entry))
        """,
      ]
    ),
    ("v8: labels", ["ALTER TABLE question ADD COLUMN label text"]),
    // Each login remembers the digest of the token that made it; the logins made before
    // cannot say which, so they end here (their presenters log in again). The default is for
    // an older instance still writing during a rolling upgrade: '' matches no token's digest.
    (
      "v9: login credentials",
      [
        "DELETE FROM presenterLogin",
        "ALTER TABLE presenterLogin ADD COLUMN credential text NOT NULL DEFAULT ''",
      ]
    ),
    // The head count: which instance has which attendee in which session's room, until when
    // (a killed instance's rows lapse on their own).
    (
      "v10: presence",
      [
        """
        CREATE TABLE presence (
          session bigint NOT NULL, attendee text NOT NULL, instance text NOT NULL,
          expiresAt double precision NOT NULL, PRIMARY KEY (session, attendee, instance))
        """,
        "CREATE INDEX presence_instance ON presence (instance)",
      ]
    ),
    // Personal tickets, for sessions that admit new attendees only by one.
    ("v11: tickets", [TicketSQL.create]),
    // Polls, their answers and their counts.
    ("v12: polls", PollSQL.create),
    // A poll's resets, which tell clients to forget their answer.
    ("v13: poll rounds", PollSQL.addRound),
    // Open text polls' entries, moderated like questions.
    ("v14: poll texts", PollSQL.addTexts),
    // Each session's attendance by the minute, for its report.
    ("v15: attendance", AttendanceSQL.create),
  ]

  /// The lock instances take turns on while migrating (two 32-bit keys: a space apart from
  /// the sessions' 64-bit ones).
  package static let migrationLock: (Int32, Int32) = (0x716E_61, 1)

  package static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
    try await connection.query(
      "SELECT pg_advisory_xact_lock(\(migrationLock.0), \(migrationLock.1))", logger: logger)
    try await connection.query(
      "CREATE TABLE IF NOT EXISTS qna_migrations (name text PRIMARY KEY)", logger: logger)
    var done: Set<String> = []
    for try await name in try await connection.query(
      "SELECT name FROM qna_migrations", logger: logger
    ).decode(String.self) {
      done.insert(name)
    }
    for step in steps where !done.contains(step.name) {
      for statement in step.sql {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
      }
      try await connection.query(
        "INSERT INTO qna_migrations (name) VALUES (\(step.name))", logger: logger)
      logger.info("database migrated: \(step.name)")
    }
  }
}
