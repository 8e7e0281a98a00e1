import CommandLineValues
import Foundation
import QnA
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStoreSQLite
import Synchronization
import TestSupport
import Testing

/// What attendees typed, stored as typed, made safe at every output; the files that hold
/// presenter tokens, their owner's alone; and logins that no other presenter can push out.
@Suite("Output hygiene and logins", .serialized)
struct OutputHygieneTests {
  static let hostile = "\u{1B}]52;c;ZXZpbA==\u{7}evil\u{202E}fdp.exe\u{200B}\u{FEFF}\u{85}"

  static func exported(_ content: String, as format: ExportFormat) -> String {
    let question = StoredQuestion(
      id: uuid(1), content: content, askedFrom: uuid(2),
      createdAt: Date(timeIntervalSinceReferenceDate: 0))
    return String(
      decoding: Export.render([ExportedQuestion(question: question, name: content)], as: format),
      as: UTF8.self)
  }

  @Test(arguments: ExportFormat.allCases)
  func noExportCarriesARawControlOrBidiCharacter(_ format: ExportFormat) throws {
    let text = Self.exported(Self.hostile, as: format)
    // The CSV's own byte order mark is the file's, first; none may come from a question.
    let body = format == .csv ? String(text.dropFirst()) : text
    #expect(
      !body.unicodeScalars.contains { PrintableText.isControl($0) && $0 != "\n" && $0 != "\r" })
    #expect(body.contains("evil"))
    if format == .json {
      // The same strings for a tool: the escapes decode to what the attendee typed.
      let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
      #expect(rows?.first?["text"] as? String == Self.hostile)
    }
  }

  @Test(arguments: [" =1+1", "\u{FF1D}1+1", "  @SUM(A1)", "\u{FF0B}1", "-2", "\t=x"])
  func aFormulaBehindSpacesOrInFullWidthIsQuoted(_ cell: String) {
    #expect(Export.safeCell(cell).hasPrefix("'"), "\(cell)")
  }

  @Test func anOrdinaryCellIsLeftAlone() {
    #expect(Export.safeCell("What is 1+1?") == "What is 1+1?")
    #expect(Export.safeCell(" x = y") == " x = y")
  }

  @Test func theDatabaseAndItsSideFilesAreTheOwnersAloneWhateverTheUmask() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let path = directory.appendingPathComponent("qna.sqlite").path
    let previous = umask(0o022)
    defer { umask(previous) }
    let store = try SQLiteDriver(path: path)
    _ = try await store.perform(
      .insert(
        StoredQuestion(
          id: uuid(1), content: "Why?", askedFrom: uuid(2),
          createdAt: Date(timeIntervalSinceReferenceDate: 0)),
        session: SessionRecord.defaultID))
    for file in [path, path + "-wal", path + "-shm"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: file)
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
      #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
    }
  }

  @Test func onePresenterLoggingInAgainAndAgainLogsNobodyElseOut() async throws {
    let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    let count = Mutex(0)
    let store = try StoreLocation.open(":memory:")
    let logins = PresenterLogins(
      lifetime: .seconds(3600), store: store, now: { clock.withLock { $0 } },
      makeID: {
        count.withLock { $0 += 1 }
        return uuid(count.withLock { $0 }, group: 0x1061)
      })
    // Every login here made with the token that admits to its scope.
    let adminToken = "admin-token-0123"
    func token(_ session: Int64) -> String { "session-token-\(session)" }
    func valid(_ id: String, for session: Int64? = nil) async -> Bool {
      await logins.isValid(
        id, for: session, adminToken: adminToken, sessionToken: session.map(token))
    }
    let admin = try await logins.create(token: adminToken)
    let other = try await logins.create(scope: 2, token: token(2))
    for _ in 0..<150 {
      clock.withLock { $0 += 0.001 }
      _ = try await logins.create(scope: 1, token: token(1))
    }
    #expect(await valid(admin), "the admin's login stays")
    #expect(await valid(other, for: 2), "another session's login stays")
    let latest = try await logins.create(scope: 1, token: token(1))
    #expect(await valid(latest, for: 1))
    #expect(await !valid(latest, for: 2), "a session's login opens that session only")
    #expect(await valid(admin, for: 2), "the admin's opens all")
    // Expiry and logout, by the database's record: what every instance reads.
    await logins.end(other)
    #expect(await !valid(other, for: 2))
    clock.withLock { $0 += 3601 }
    #expect(await !valid(admin), "expired")
    #expect(await !valid("not-a-login"))
  }

  /// A login admits only while the token that made it admits to its scope: the admin's
  /// while the admin token is the one it was made with, a session's while its own token
  /// (or the admin token, if the admin made it) is.
  @Test func aLoginEndsWhenTheTokenThatMadeItChanges() async throws {
    let store = try StoreLocation.open(":memory:")
    let logins = PresenterLogins(
      lifetime: .seconds(3600), store: store, now: { Date() }, makeID: { UUID() })
    let (adminA, adminB) = ("admin-token-A-0123", "admin-token-B-0123")
    let (own1, own2) = ("session-token-1", "session-token-2")
    func admits(_ id: String, to session: Int64? = nil, admin: String?, own: String? = nil)
      async -> Bool
    {
      await logins.isValid(id, for: session, adminToken: admin, sessionToken: own)
    }
    let admin = try await logins.create(token: adminA)
    let byOwnToken = try await logins.create(scope: 7, token: own1)
    let byAdmin = try await logins.create(scope: 7, token: adminA)
    // As made.
    #expect(await admits(admin, admin: adminA))
    #expect(await admits(byOwnToken, to: 7, admin: adminA, own: own1))
    #expect(await admits(byAdmin, to: 7, admin: adminA, own: own1))
    // The server restarted with another admin token: the logins the old one made end; a
    // session's made with its own token stays.
    #expect(await !admits(admin, admin: adminB))
    #expect(await !admits(admin, to: 7, admin: adminB, own: own1))
    #expect(await !admits(byAdmin, to: 7, admin: adminB, own: own1))
    #expect(await admits(byOwnToken, to: 7, admin: adminB, own: own1))
    // The session's token changed: the login made with the old one ends, the admin's stays.
    #expect(await !admits(byOwnToken, to: 7, admin: adminA, own: own2))
    #expect(await admits(byAdmin, to: 7, admin: adminA, own: own2))
    // No admin token (a loopback server): only a session's own token backs its logins.
    #expect(await !admits(admin, admin: nil))
    #expect(await admits(byOwnToken, to: 7, admin: nil, own: own1))
    // What the database keeps is not the token, and differs from login to login.
    let kept = try #require(
      try await store.directory.login(digest: PresenterLogins.digest(byAdmin), now: Date()))
    #expect(!kept.credential.contains(adminA) && kept.credential.count == 64)
    let other = try #require(
      try await store.directory.login(digest: PresenterLogins.digest(admin), now: Date()))
    #expect(other.credential != kept.credential, "keyed by each login's own id")
  }
}
