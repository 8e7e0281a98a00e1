import Foundation
import GRDB
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// Sessions on one server, on its default settings: what one session does never reaches
/// another, each presenter token opens its own session only, and a deleted session leaves
/// nothing behind.
@Suite("qna-server: sessions with join codes", .serialized)
struct SessionServerTests {
  static let alice = uuid(1, group: 0x5E)
  static let bob = uuid(2, group: 0x5E)
  static let carol = uuid(3, group: 0x5E)
  static let dave = uuid(4, group: 0x5E)
  static let upgrade = [
    "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
  ]

  static func entered(_ server: ServerUnderTest, _ attendee: UUID, path: String) async throws
    -> RoomMember
  {
    let member = try await RoomMember.join(server, as: attendee, path: path)
    _ = try await member.snapshot()
    return member
  }

  static func ask(_ member: RoomMember, _ content: String) async throws -> QuestionResponse {
    let before = member.socket.messages.filter {
      if case .questionResponse? = try? $0.get() { true } else { false }
    }.count
    try await member.socket.ask(content, as: member.connection, token: UUID())
    return try await member.socket.response(occurrence: before)
  }

  @Test func twoSessionsNeverSeeEachOthersQuestionsVotesHighlightsOrAnswers() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let keynote = try await MadeSession.create(server, "Keynote")
    let workshop = try await MadeSession.create(server, "Workshop")
    let alice = try await Self.entered(server, Self.alice, path: keynote.socket)
    let dave = try await Self.entered(server, Self.dave, path: keynote.socket)
    let bob = try await Self.entered(server, Self.bob, path: workshop.socket)
    let carol = try await Self.entered(server, Self.carol, path: "/socket")
    let presenter = try await PresenterMember.join(
      server, token: keynote.token, path: keynote.socket)
    _ = try await presenter.member.snapshot()

    let asked = try await Self.ask(alice, "Only for the keynote?")
    let id = try #require(asked.id)
    try await dave.vote(id)
    try await alice.waitForVotes(id, 1)
    #expect(try await presenter.act(.highlight, id).success)
    #expect(try await presenter.act(.answer, id, text: "Keynote-only answer").success)
    try await alice.waitForState(id, .answered)
    let other = try await Self.ask(bob, "Only for the workshop?")

    // On the wire, not only in a UI: nothing of one session in another's bytes.
    for (outsider, label) in [(bob, "the workshop"), (carol, "the default room")] {
      for secret in [id.uuidString, "Only for the keynote", "Keynote-only answer"] {
        #expect(!outsider.wire.contains(secret), "\(label) saw \(secret)")
      }
      #expect(!outsider.wire.contains("highlight\":\""), "\(label) saw a highlight")
    }
    #expect(!alice.wire.contains("Only for the workshop"))
    #expect(!carol.wire.contains("Only for the workshop"))
    #expect(bob.rooms.allSatisfy { $0.highlighted == nil })
    // The handshake names the session; the default room's names none.
    #expect(alice.wire.contains(#""code":"\#(keynote.code)""#))
    #expect(!carol.wire.contains(#""session""#))

    // Each session's API lists its own questions; the default one has none of theirs.
    let keynoteList = try await server.http(
      "GET", "/s/\(keynote.code)/api/questions", headers: keynote.bearer)
    #expect(keynoteList.body.contains(id.uuidString))
    #expect(!keynoteList.body.contains(try #require(other.id).uuidString))
    #expect(try await server.http("GET", "/api/questions").body == "[]")
    #expect(try await server.store.count() == 0, "the default session's store sees none")
  }

  @Test func aSessionsTokenOpensThatSessionOnlyAndTheAdminTokenOpensAll() async throws {
    let admin = PresenterMember.token
    let server = try await ServerUnderTest { $0.adminToken = admin }
    defer { Task { await server.stop() } }
    let one = try await MadeSession.create(server, "One", admin: admin)
    let two = try await MadeSession.create(server, "Two", admin: admin)
    let bearer = { (token: String) in ["Authorization": "Bearer \(token)"] }

    // Sockets: another session's token is 401 at the gate; its own and the admin's get in.
    for (path, token, status) in [
      (two.socket, one.token, 401), (one.socket, two.token, 401), ("/socket", one.token, 401),
      (two.socket, "wrong-token-0123456789", 401),
    ] {
      let response = try await server.http(
        "GET", path + "?role=presenter", headers: Self.upgrade.merging(bearer(token)) { a, _ in a })
      #expect(response.status == status, "\(path) with \(token)")
    }
    for token in [two.token, admin] {
      let presenter = try await PresenterMember.join(server, token: token, path: two.socket)
      _ = try await presenter.member.snapshot()
      let handshake = presenter.member.wire
      #expect(handshake.contains(ProtocolExtension.presenter))
    }
    // The code in any case.
    let lower = try await PresenterMember.join(
      server, token: one.token, path: "/s/\(one.code.lowercased())/socket")
    _ = try await lower.member.snapshot()

    // The API: the same rules, and the default session and the sessions' list are the admin's.
    // (A right token after wrong ones forgets them: the throttle's waits stay short.)
    // (Only the admin token forgets wrong guesses: a session's holder must not be able to
    // guess the others' tokens unthrottled.)
    for (path, token, status) in [
      ("/s/\(two.code)/api/questions", one.token, 401),
      ("/s/\(two.code)/api/questions", admin, 200),
      ("/api/questions", one.token, 401),
      ("/s/\(two.code.lowercased())/api/export", two.token, 200),
      ("/api/sessions", one.token, 401),
      ("/s/\(two.code)/api/questions", admin, 200),
      ("/s/ZZZZZZ/api/questions", admin, 404),
      ("/s/\(two.code)/api/questions", two.token, 200),
    ] {
      let response = try await server.http("GET", path, headers: bearer(token))
      #expect(response.status == status, "\(path) with \(token): \(response.body)")
    }
    let unknown = try await server.http("GET", "/s/ZZZZZZ/socket", headers: Self.upgrade)
    #expect(unknown.status == 404 && unknown.body.contains("no session ZZZZZZ"))

    // A session's login form: its cookie opens its own session, not another's.
    let login = try await server.http(
      "POST", "/s/\(one.code)/login", body: "token=\(one.token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(login.status == 303 || login.status == 302, "\(login)")
    let cookie = try #require(login.headers["set-cookie"]?.split(separator: ";").first)
    #expect(login.headers["set-cookie"]?.contains("Path=/s/\(one.code)/") == true)
    let own = try await server.http(
      "GET", "/s/\(one.code)/api/questions", headers: ["Cookie": String(cookie)])
    #expect(own.status == 200)
    // Its presenter page, live on its own socket and API; without a login, the attendees'
    // page at the same address (the login form stays at /s/CODE/login).
    let page = try await server.http(
      "GET", "/s/\(one.code)/", headers: ["Cookie": String(cookie), "Accept": "text/html"])
    #expect(page.status == 200 && page.body.contains("data-base=\"/s/\(one.code)/\""))
    #expect(page.body.contains("One — questions"))
    let anonymous = try await server.http(
      "GET", "/s/\(one.code)/", headers: ["Accept": "text/html"])
    #expect(anonymous.status == 200 && anonymous.body.contains("/assets/room.js"))
    #expect(!anonymous.body.contains("/assets/presenter.js"))
    #expect(anonymous.body.contains("href=\"/s/\(one.code)/login\""))
    let renamed = String(cookie).replacingOccurrences(of: one.code, with: two.code)
    let elsewhere = try await server.http(
      "GET", "/s/\(two.code)/api/questions", headers: ["Cookie": renamed])
    #expect(elsewhere.status == 401, "a login for one session opens no other")
    let wrongLogin = try await server.http(
      "POST", "/s/\(one.code)/login", body: "token=\(two.token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(wrongLogin.status == 401)
  }

  @Test func aClosedSessionRefusesNewQuestionsForGoodAndStaysReadable() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "Closing soon")
    let alice = try await Self.entered(server, Self.alice, path: talk.socket)
    let first = try await Self.ask(alice, "Before the end")
    #expect(first.success)
    let closed = try await server.http("POST", "/api/sessions/\(talk.code.lowercased())/close")
    #expect(closed.status == 200 && closed.body.contains(#""open":false"#), "\(closed)")
    // Extension sessionState: the attendee hears it at once, without asking anything.
    let news = try await alice.socket.waitForMessage("closed news") {
      if case .sessionNews(let news) = $0 { news.session.open == false } else { false }
    }
    #expect(
      news
        == .sessionNews(
          SessionNews(session: SessionInfo(code: talk.code, title: "Closing soon", open: false))))
    let refused = try await Self.ask(alice, "After the end")
    #expect(!refused.success && refused.retryAfter == nil, "final, not retried")
    #expect(refused.message == QuestionStore.closedMessage)
    // Still readable: the API, the export, and a new attendee's snapshot (told it is closed).
    let list = try await server.http("GET", "/s/\(talk.code)/api/questions", headers: talk.bearer)
    #expect(list.body.contains("Before the end") && !list.body.contains("After the end"))
    let export = try await server.http(
      "GET", "/s/\(talk.code)/api/export?format=json", headers: talk.bearer)
    #expect(export.status == 200 && export.body.contains("Before the end"))
    let late = try await RoomMember.join(server, as: Self.bob, path: talk.socket)
    let room = try await late.snapshot()
    #expect(room.flatMap(\.questions).map(\.content) == ["Before the end"])
    #expect(late.wire.contains(#""open":false"#))
    _ = try await server.http("POST", "/api/sessions/\(talk.code)/open")
    _ = try await alice.socket.waitForMessage("reopened news") {
      if case .sessionNews(let news) = $0 {
        news.session.open && news.deleted == nil
      } else {
        false
      }
    }
    #expect(try await Self.ask(alice, "Reopened").success)
    // Opening an open session tells nothing.
    _ = try await server.http("POST", "/api/sessions/\(talk.code)/open")
    try await Task.sleep(for: .milliseconds(300))
    let told = alice.wire.components(separatedBy: #""type":"session""#).count - 1
    #expect(told == 2, "\(alice.wire)")
  }

  @Test func deletingASessionLeavesNoRowOfItAndClosesItsSockets() async throws {
    let directory = HeadlessProcess.freshDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("qna.sqlite").path
    let server = try await ServerUnderTest { $0.database = path }
    defer { Task { await server.stop() } }
    var ids: [String: Int64] = [:]
    var members: [String: RoomMember] = [:]
    for title in ["Gone", "Kept"] {
      let talk = try await MadeSession.create(server, title)
      let asker = try await RoomMember.join(server, as: UUID(), path: talk.socket)
      _ = try await asker.snapshot()
      try await asker.socket.send(
        .join(Join(id: asker.connection, attendee: asker.attendee, name: "Ann")))
      let id = try #require(try await Self.ask(asker, "A question in \(title)").id)
      let voter = try await Self.entered(server, UUID(), path: talk.socket)
      try await voter.vote(id)
      try await asker.waitForVotes(id, 1)
      let answer = try await server.http(
        "POST", "/s/\(talk.code)/api/questions/\(id)/answer", body: #"{"text":"yes"}"#,
        headers: talk.bearer)
      #expect(answer.status == 200)
      ids[title] = try #require(try await server.store.directory.session(code: talk.code)?.id)
      members[title] = voter
      if title == "Gone" {
        let deleted = try await server.http("DELETE", "/api/sessions/\(talk.code)")
        #expect(deleted.status == 204)
        #expect(try await server.http("DELETE", "/api/sessions/\(talk.code)").status == 404)
        let gone = try await server.http("GET", talk.socket, headers: Self.upgrade)
        #expect(gone.status == 404, "its code leads nowhere now")
      }
    }
    // Its sockets were closed: their clients learn on reconnecting that it is gone.
    #expect(members["Gone"]!.wire.contains(#""deleted":true"#), "told before the close")
    #expect(!members["Kept"]!.wire.contains(#""type":"session""#))
    let disconnect = try await members["Gone"]!.socket.disconnect()
    #expect("\(disconnect)".contains("1001"), "\(disconnect)")

    let database = try DatabaseQueue(path: path)
    let (gone, kept) = (ids["Gone"]!, ids["Kept"]!)
    try await database.read { db in
      for table in ["question", "roomLog", "roomState", "attendee"] {
        let left = try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM \(table) WHERE session = ?", arguments: [gone])
        #expect(left == 0, "\(table) keeps rows of the deleted session")
        let other = try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM \(table) WHERE session = ?", arguments: [kept])
        #expect((other ?? 0) > 0, "\(table) lost the other session's rows")
      }
      // Votes and transitions have no session of their own: none is left without its question.
      for table in ["vote", "transition"] {
        let orphans = try Int.fetchOne(
          db,
          sql: "SELECT COUNT(*) FROM \(table) WHERE question NOT IN (SELECT id FROM question)")
        #expect(orphans == 0, "\(table) keeps rows of deleted questions")
        #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 > 0)
      }
      #expect(
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE id = ?", arguments: [gone])
          == 0)
    }
  }

  @Test func tenThousandSessionsGetTenThousandCodesInAnyCase() async throws {
    let store = try StoreLocation.open(":memory:")
    var random = SplitMix64(seed: 18)
    var codes: Set<String> = []
    for index in 0..<10_000 {
      let session = try await store.directory.createSession(
        title: "Talk \(index)", at: Date(), using: &random
      ).session
      #expect(JoinCode.canonical(session.code) == session.code)
      codes.insert(session.code)
    }
    #expect(codes.count == 10_000)
    let any = try #require(codes.first)
    #expect(try await store.directory.session(code: any.lowercased())?.code == any)
    #expect(try await store.directory.session(code: "O0I1L5") == nil, "look-alikes are no code")
  }

  @Test func aDatabaseFromBeforeSessionsKeepsItsQuestionsInTheDefaultSession() async throws {
    let directory = HeadlessProcess.freshDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("old.sqlite").path
    // The schema as the previous release left it, with a question, a name and a highlight.
    let old = try DatabaseQueue(path: path)
    try SQLiteDriver.migrator.migrate(old, upTo: "v3: lifecycle")
    let id = uuid(9, group: 0x5E)
    try await old.write { db in
      try db.execute(
        sql: """
          INSERT INTO question (id, content, answered, askedFrom, createdAt, attendee, votes)
          VALUES (?, 'Asked before sessions', 0, ?, 1, ?, 2)
          """,
        arguments: [id.uuidString, UUID().uuidString, Self.alice.uuidString])
      try db.execute(
        sql: "INSERT INTO attendee (id, name, firstSeen) VALUES (?, 'Alice', 1)",
        arguments: [Self.alice.uuidString])
      try db.execute(
        sql: "INSERT INTO roomState (key, value) VALUES ('highlighted', ?)",
        arguments: [id.uuidString])
    }
    let epoch = try await old.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM roomState WHERE key = 'epoch'")
    }
    try old.close()

    let store = try StoreLocation.open(path)
    #expect(try await store.all().map(\.content) == ["Asked before sessions"])
    #expect(try await store.highlighted() == id)
    #expect(try await store.roomEpoch().uuidString == epoch, "clients keep catching up")
    #expect(try await store.export().first?.name == "Alice")
    var random = SplitMix64(seed: 1)
    let fresh = try await store.directory.createSession(title: "New", at: Date(), using: &random)
      .session
    let scoped = store.session(try #require(fresh.id))
    #expect(try await scoped.count() == 0)
    #expect(try await scoped.highlighted() == nil)
  }

  @Test func theCommandLineManagesSessionsOfARunningServer() async throws {
    let directory = HeadlessProcess.freshDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", path])
    defer { server.stop() }
    let created = try ProgramRun(
      QnAServerProcess.path, ["session", "create", "Lightning talks", "--db", path])
    #expect(created.status == 0, "\(created.errors)")
    let lines = created.output.split(separator: "\n")
    #expect(lines.count == 3, "the code, the token and the join address: \(created.output)")
    #expect(lines.last?.hasPrefix("join: http://127.0.0.1:8080/s/") == true)
    let code = try #require(lines.first { $0.hasPrefix("code: ") }?.dropFirst(6))
    let token = try #require(lines.first { $0.hasPrefix("token: ") }?.dropFirst(7))
    #expect(JoinCode.canonical(String(code)) == String(code))

    // Usable at once, without a restart.
    let attendee = try Attendee("ws://127.0.0.1:\(server.port)/s/\(code.lowercased())/socket")
    let connection = try await attendee.handshake()
    try await attendee.ask("Through a code made by the command?", as: connection, token: UUID())
    #expect(try await attendee.response().success)
    let listed = try await server.http(
      "GET", "/s/\(code)/api/questions", headers: ["Authorization": "Bearer \(token)"])
    #expect(listed.body.contains("Through a code made by the command?"))

    let list = try ProgramRun(QnAServerProcess.path, ["session", "list", "--db", path])
    #expect(list.output.hasPrefix("\(code)\topen\t1\t") && list.output.contains("Lightning talks"))
    let close = try ProgramRun(
      QnAServerProcess.path, ["session", "close", String(code), "--db", path])
    #expect(close.status == 0)
    try await attendee.ask("After closing", as: connection, token: UUID())
    let refused = try await attendee.response(occurrence: 1)
    #expect(!refused.success && refused.message == QuestionStore.closedMessage)
    // SQLite has no notices: the next lookup of the code (a new socket) finds the session
    // closed behind the server's back, and the open socket is told then.
    let late = try Attendee("ws://127.0.0.1:\(server.port)/s/\(code)/socket")
    _ = try await late.handshake()
    _ = try await attendee.waitForMessage("the closed session's news") {
      if case .sessionNews(let news) = $0 { news.session.open == false } else { false }
    }
    let delete = try ProgramRun(
      QnAServerProcess.path, ["session", "delete", code.lowercased(), "--db", path])
    #expect(delete.status == 0)
    let gone = try await server.http("GET", "/s/\(code)/socket", headers: Self.upgrade)
    #expect(gone.status == 404)

    // Mistakes are one clear line and a non-zero status.
    for (arguments, status, words) in [
      (["session", "create", "  ", "--db", path], Int32(64), "title"),
      (["session", "close", "ABCDEF", "--db", path], 1, "no session ABCDEF"),
      (
        ["session", "list", "--db", directory.appendingPathComponent("none").path], 1, "no database"
      ),
    ] {
      let run = try ProgramRun(QnAServerProcess.path, arguments)
      #expect(run.status == status && run.errors.contains(words), "\(arguments): \(run.errors)")
    }
  }
}
