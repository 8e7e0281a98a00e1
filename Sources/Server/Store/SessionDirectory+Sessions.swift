import Foundation
import QnA

/// One talk's Q&A: a title, the join code attendees type, the presenter token that guards
/// only this session, and whether it still takes questions. The default session (`/socket`)
/// has no row: it is the tutorial's single room, id 0.
public struct SessionRecord: Sendable, Hashable, Codable {
  public static let databaseTableName = "session"
  public static let defaultID: Int64 = 0

  public var id: Int64?
  public var code: String
  public var title: String
  public var token: String
  public var open: Bool
  public var createdAt: Double
  /// The creator's idempotency key: a creation sent again under it finds this session.
  public var requestToken: String?

  package init(
    id: Int64? = nil, code: String, title: String, token: String, open: Bool,
    createdAt: Double, requestToken: String? = nil
  ) {
    self.requestToken = requestToken
    self.id = id
    self.code = code
    self.title = title
    self.token = token
    self.open = open
    self.createdAt = createdAt
  }
}

/// A session as listed: its record and how many questions it has.
public struct SessionSummary: Sendable, Hashable {
  public var session: SessionRecord
  public var questions: Int

  package init(session: SessionRecord, questions: Int) {
    self.session = session
    self.questions = questions
  }
}

extension SessionDirectory {
  /// A fresh code or token: `length` letters of the code alphabet (5 bits each).
  public static func randomLetters(
    _ length: Int, using random: inout some RandomNumberGenerator
  ) -> String {
    String((0..<length).map { _ in JoinCode.alphabet.randomElement(using: &random)! })
  }

  /// A session's title, trimmed: 1 to 200 characters on one line (`nil` otherwise).
  public static func validTitle(_ raw: String) -> String? {
    let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty, title.count <= maxTitleLength,
      !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return nil }
    return title
  }

  public static let maxTitleLength = 200
  public static let titleRule =
    "a title is 1–\(maxTitleLength) characters on one line, without control characters"

  /// Letters in a presenter token: 150 random bits.
  public static let tokenLength = 30

  /// Creates a session with a code no other session has: a code already taken is drawn
  /// again (the database's unique constraint decides, so two servers, or a server and
  /// `qna-server session create`, can never hand out the same one). With a `requestToken`
  /// (an idempotency key), a creation that timed out after it committed and is sent again
  /// finds the session it made: `created` is then false.
  public func createSession(
    title: String, at time: Date, requestToken: String? = nil,
    using random: inout some RandomNumberGenerator
  ) async throws(StoreError) -> (session: SessionRecord, created: Bool) {
    if let requestToken, let made = try await session(requestToken: requestToken) {
      return (made, false)
    }
    for _ in 0..<Self.codeAttempts {
      let record = SessionRecord(
        code: Self.randomLetters(JoinCode.length, using: &random), title: title,
        token: Self.randomLetters(Self.tokenLength, using: &random), open: true,
        createdAt: time.timeIntervalSinceReferenceDate, requestToken: requestToken)
      // A room's epoch, as the first migration makes the default session's.
      let created = try await timed {
        try await driver.perform(.insert(record, epoch: UUID()))
      }
      if let created { return (created, true) }
      // Not inserted: its code was taken, or the same key's creation won a race.
      if let requestToken, let made = try await session(requestToken: requestToken) {
        return (made, false)
      }
    }
    throw .unavailable("no free join code after \(Self.codeAttempts) draws")
  }

  /// The session created under this idempotency key, if any.
  public func session(requestToken: String) async throws(StoreError) -> SessionRecord? {
    try await timed {
      try await driver.fetch(.session(SessionSQL.byRequestToken, [.text(requestToken)]))
    }
  }

  /// An idempotency key as sessions keep it: 1–200 printable ASCII characters.
  public static func validRequestToken(_ text: String) -> String? {
    guard (1...maxRequestTokenLength).contains(text.utf8.count),
      text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    else { return nil }
    return text
  }
  public static let maxRequestTokenLength = 200

  /// Draws before giving up: with a billion codes, even a million sessions collide rarely.
  package static let codeAttempts = 32

  /// The session with this code (in any case), open or closed.
  public func session(code: String) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    return try await timed { try await driver.fetch(.session(SessionSQL.byCode, [.text(code)])) }
  }

  /// Every session, oldest first, with its number of questions.
  public func sessions() async throws(StoreError) -> [SessionSummary] {
    try await timed { try await driver.fetch(.sessions) }
  }

  /// Opens or closes the session with this code; `nil` if there is none.
  public func setSession(code: String, open: Bool) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    return try await timed { try await driver.perform(.setOpen(code: code, open)) }
  }

  /// Gives the session with this code a new presenter token (as creation draws them) and
  /// ends every login of the session, whichever token made it, in one transaction: from its
  /// commit the old token admits nobody on any instance (each reads the session's row on
  /// every lookup), and on PostgreSQL the other instances hear of it as of a close (their
  /// presenters' sockets of the session are closed). `nil` if there is no such session.
  public func rotateToken(
    code: String, at time: Date, using random: inout some RandomNumberGenerator
  ) async throws(StoreError) -> (session: SessionRecord, endedLogins: Int)? {
    guard let code = JoinCode.canonical(code) else { return nil }
    let token = Self.randomLetters(Self.tokenLength, using: &random)
    return try await timed {
      try await driver.perform(
        .rotateToken(code: code, token: token, now: time.timeIntervalSince1970))
    }
  }

  /// Deletes the session with this code and everything in it: questions, votes, the
  /// presenters' history, the room's log and state, attendees' names. `nil` if there is none.
  public func deleteSession(code: String) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    // Found first, so that the deletion waits for the session's writes on every instance.
    guard let record = try await session(code: code), let id = record.id else { return nil }
    return try await timed {
      try await driver.transact(.delete(record), writes: true, locking: id)
    }
  }
}

extension QuestionStore {
  public static let closedMessage = "This session is closed: it takes no new questions."
  public static let deletedMessage = "This session no longer exists."
}
