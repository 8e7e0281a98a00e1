import Foundation
import QnA
import QnAServer
import QnAStore
import TestSupport
import Testing
import WebSocketClient

/// The attendee page, its form and the projector view, over HTTP, on the server's default
/// settings unless a test says why not.
@Suite("qna-server: the attendee page, the form and the projector", .serialized)
struct AttendeePageTests {
  static let form = ["Content-Type": "application/x-www-form-urlencoded"]

  static func header(_ response: HTTPResponse, _ name: String) -> String? {
    response.headers.first { $0.key.lowercased() == name.lowercased() }?.value
  }

  @Test func theRoomsAddressIsTheAttendeesPageUnlessAPresenterAsks() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "Keynote")
    for path in ["/s/\(talk.code)/", "/s/\(talk.code.lowercased())/"] {
      let page = try await server.http("GET", path, headers: ["Accept": "text/html"])
      #expect(page.status == 200 && page.body.contains("/assets/room.js"), "\(path): \(page)")
      #expect(page.body.contains("data-socket=\"/s/\(talk.code)/socket\""))
      #expect(!page.body.contains(talk.token))
    }
    let presenter = try await server.http("GET", "/s/\(talk.code)/", headers: talk.bearer)
    #expect(presenter.status == 200 && presenter.body.contains("/assets/presenter.js"))
    // The presenter's page says where attendees join, with the QR code, never the token.
    #expect(presenter.body.contains("Attendees join at:"))
    #expect(presenter.body.contains("http://127.0.0.1:\(server.port)/s/\(talk.code)/"))
    #expect(presenter.body.contains("<svg"))
    let wrong = try await server.http(
      "GET", "/s/\(talk.code)/", headers: ["Authorization": "Bearer not-the-token-at-all"])
    #expect(wrong.status == 401)
    let room = try await server.http("GET", "/room/")
    #expect(room.status == 200 && room.body.contains("data-socket=\"/socket\""))
    #expect(try await server.http("GET", "/s/ABCDEF/").status == 404)
    for asset in [
      "/assets/room.js", "/assets/screen.js", "/assets/common.js", "/assets/room-state.js",
      "/assets/room-socket.js",
      "/assets/room.css",
    ] {
      #expect(try await server.http("GET", asset).status == 200, "\(asset)")
    }
  }

  @Test func theFormAsksOncePerTokenAndSaysWhyNot() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "Form")
    let token = UUID().uuidString
    for _ in 0..<2 {
      let posted = try await server.http(
        "POST", "/s/\(talk.code)/ask",
        body: "content=Asked+without+scripts&name=Zo%C3%AB&token=\(token)",
        headers: Self.form)
      #expect(posted.status == 303, "\(posted)")
      #expect(Self.header(posted, "Location")?.hasSuffix("/s/\(talk.code)/?asked=live") == true)
    }
    let list = try await server.http("GET", "/s/\(talk.code)/api/questions", headers: talk.bearer)
    #expect(
      list.body.components(separatedBy: "Asked without scripts").count == 2, "once: \(list.body)")
    let empty = try await server.http(
      "POST", "/s/\(talk.code)/ask", body: "content=++&token=\(UUID().uuidString)",
      headers: Self.form)
    #expect(empty.status == 400 && empty.body.contains("The question is empty."))
    let long = String(repeating: "x", count: 1001)
    let tooLong = try await server.http(
      "POST", "/s/\(talk.code)/ask", body: "content=\(long)", headers: Self.form)
    #expect(tooLong.status == 400 && tooLong.body.contains("at most 1000 characters"))
    // The refused text is kept in the form, escaped.
    let hostile = try await server.http(
      "POST", "/s/\(talk.code)/ask", body: "content=%3Cscript%3E" + long, headers: Self.form)
    #expect(hostile.body.contains("&lt;script&gt;") && !hostile.body.contains("<script>x"))
    _ = try await server.http("POST", "/api/sessions/\(talk.code)/close")
    let closed = try await server.http(
      "POST", "/s/\(talk.code)/ask", body: "content=Too+late", headers: Self.form)
    #expect(closed.status == 409 && closed.body.contains("closed"))
  }

  /// The form's question is its asker's on a later visit with scripts: the post that stored it
  /// names the attendee the form made, in a cookie the page's script reads, and a join as
  /// that attendee is issued its credential and sees the question as its own.
  @Test func theFormsQuestionIsYoursWhenTheScriptComesBack() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let token = UUID()
    let body = "content=Asked+by+the+form&token=\(token.uuidString)"
    let posted = try await server.http("POST", "/room/ask", body: body, headers: Self.form)
    #expect(posted.status == 303, "\(posted)")
    let cookie = try #require(Self.header(posted, "Set-Cookie"))
    let fields = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(fields.contains("Path=/room/") && fields.contains("SameSite=Strict"), "\(cookie)")
    #expect(!fields.contains("HttpOnly"), "the page's script reads it: \(cookie)")
    let value = try #require(fields.first?.split(separator: "=", maxSplits: 1))
    #expect(value.first == "qna-asker")
    let asker = try #require(value.last.flatMap { UUID(uuidString: String($0)) }, "\(cookie)")
    #expect(try await server.store.question(token: token)?.attendee == asker)
    // The same form again stores nothing and names nobody.
    let again = try await server.http("POST", "/room/ask", body: body, headers: Self.form)
    #expect(again.status == 303 && Self.header(again, "Set-Cookie") == nil, "\(again)")
    // The script's first join, as that attendee and without a credential.
    let member = try await RoomMember.join(server, as: asker, counts: true)
    let joined = try await member.joined()
    #expect(joined.attendee == asker && joined.credential != nil, "\(joined)")
    #expect(try await member.own().questions.map(\.content) == ["Asked by the form"])
  }

  /// The form's lane is its own (issue 46): its askers neither vote nor count, so its posts
  /// take from the address's form questions, not from the new identities sockets may have
  /// without work. The form's budget is cut to 2 (not the default 20) so that the third post
  /// meets it, and the sockets' lane to 1, so that a post taking from it would show; from an
  /// address behind a trusted proxy, because loopback is not counted.
  @Test func formPostsHaveALaneOfTheirOwn() async throws {
    let server = try await ServerUnderTest {
      $0.rateLimit = 2
      $0.newAttendeeRateLimit = 1
      $0.trustedProxies = ["127.0.0.1"]
    }
    defer { Task { await server.stop() } }
    let headers = Self.form.merging(["X-Forwarded-For": "203.0.113.9"]) { $1 }
    var statuses: [Int] = []
    for index in 0..<3 {
      let posted = try await server.http(
        "POST", "/room/ask", body: "content=Question+\(index)", headers: headers)
      statuses.append(posted.status)
      if posted.status == 429 {
        #expect(Int(Self.header(posted, "Retry-After") ?? "") ?? 0 >= 1)
        #expect(posted.body.contains("send it again in"))
      }
    }
    #expect(statuses == [303, 303, 429])
    // The sockets' lane is untouched: a socket of that address gets its identity.
    var venue = ClientConfiguration(pingInterval: nil)
    venue.handshake.extraHeaders.append(name: "X-Forwarded-For", value: "203.0.113.9")
    let member = try await RoomMember.join(server, as: UUID(), configuration: venue)
    #expect(try await member.joined().credential != nil)
    await member.socket.close()
    // Another address has its own budget.
    let other = try await server.http(
      "POST", "/room/ask", body: "content=Elsewhere",
      headers: Self.form.merging(["X-Forwarded-For": "198.51.100.4"]) { $1 })
    #expect(other.status == 303)
  }

  /// On the defaults: the form's questions per address are `--rate-limit` (20) per
  /// `--rate-window`, and addresses the budgets cannot tell apart (here loopback) share one
  /// bucket, so that nothing posts without a limit.
  @Test func formPostsHaveARateLimitEvenFromLoopback() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let limit = ServerConfiguration().rateLimit
    for index in 0..<limit {
      let posted = try await server.http(
        "POST", "/room/ask", body: "content=Q\(index)", headers: Self.form)
      #expect(posted.status == 303, "post \(index)")
    }
    let refused = try await server.http(
      "POST", "/room/ask", body: "content=One+more", headers: Self.form)
    #expect(refused.status == 429 && refused.body.contains("One more"))
  }

  @Test func theProjectorShowsWhereToJoin() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "On the big screen")
    let screen = try await server.http("GET", "/s/\(talk.code)/screen")
    let own = "http://127.0.0.1:\(server.port)/s/\(talk.code)/"
    #expect(screen.status == 200 && screen.body.contains(own), "\(screen.body)")
    #expect(screen.body.contains("<svg") && screen.body.contains("/assets/screen.js"))
    #expect(!screen.body.contains(talk.token))
    // Forwarded headers from a proxy that is not trusted are not believed.
    let forged = try await server.http(
      "GET", "/s/\(talk.code)/screen",
      headers: ["X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"])
    #expect(forged.body.contains(own) && !forged.body.contains("evil.example"))
    let room = try await server.http("GET", "/room/screen")
    #expect(room.body.contains("http://127.0.0.1:\(server.port)/room/"))
  }

  @Test func behindATrustedProxyOrAPublicURLTheAddressIsTheOnePeopleReach() async throws {
    let proxied = try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
    defer { Task { await proxied.stop() } }
    let talk = try await MadeSession.create(proxied, "Behind nginx")
    let screen = try await proxied.http(
      "GET", "/s/\(talk.code)/screen",
      headers: ["X-Forwarded-Host": "qna.example.org", "X-Forwarded-Proto": "https"])
    #expect(screen.body.contains("https://qna.example.org/s/\(talk.code)/"))
    // A page made from the request's host is no shared cache's to keep.
    #expect(screen.headers["cache-control"] == "private, no-store", "\(screen.headers)")
    // The proxy's own entry is the last: what a client sent before it is not believed.
    let appended = try await proxied.http(
      "GET", "/s/\(talk.code)/screen",
      headers: [
        "X-Forwarded-Host": "evil.example, qna.example.org",
        "X-Forwarded-Proto": "http, https",
      ])
    #expect(
      appended.body.contains("https://qna.example.org/s/\(talk.code)/")
        && !appended.body.contains("evil.example"))
    let markup = try await proxied.http(
      "GET", "/s/\(talk.code)/screen", headers: ["X-Forwarded-Host": "<b>x</b>"])
    #expect(!markup.body.contains("<b>x</b>") && markup.body.contains("http://127.0.0.1:"))
    let published = try await ServerUnderTest { $0.publicURL = "https://talks.example.org" }
    defer { Task { await published.stop() } }
    #expect(
      try await published.http("GET", "/room/screen").body.contains(
        "https://talks.example.org/room/"))
    #expect(
      ServerConfiguration.validPublicURL("https://talks.example.org/")
        == "https://talks.example.org")
    for bad in [
      "ftp://x.example", "https://x.example/path", "https://", "https://x.example?q", "x.example",
    ] {
      #expect(ServerConfiguration.validPublicURL(bad) == nil, "\(bad)")
    }
  }

  /// Extension `audience`: a screen joins uncounted, with no identity, and is told how many
  /// attendees are in the room as they come and go: each identity once, however many tabs.
  @Test func screensAreToldTheRoomsSizeAndAreNotCounted() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let screen = try Attendee(server.socketURL)
    let connection = try await screen.handshake()
    #expect(
      screen.messages.contains {
        if case .handshake(let h)? = try? $0.get() {
          h.extensions?.contains(ProtocolExtension.audience) == true
        } else {
          false
        }
      })
    try await screen.send(
      raw:
        #"{"type":"join","id":"\#(connection.uuidString)","attendee":"\#(UUID().uuidString)","screen":true,"counts":true}"#
    )
    let projector = RoomScreen(socket: screen, connection: connection)
    let alice = try await RoomMember.join(server, as: UUID())
    let bob = try await RoomMember.join(server, as: UUID())
    _ = try await alice.snapshot()
    _ = try await bob.snapshot()
    try await projector.waitForCount(2)
    // Alice opens a second tab, with her credential: still two in the room.
    let credential = try await alice.credential()
    let aliceAgain = try await RoomMember.join(server, as: alice.attendee, credential: credential)
    #expect(try await aliceAgain.joined().attendee == alice.attendee)
    #expect(try await projector.settledCount() == 2)
    await bob.socket.close()
    try await projector.waitForCount(1)
    // Her first tab closes: she is still in the room through the other.
    await alice.socket.close()
    #expect(try await projector.settledCount() == 1)
    await aliceAgain.socket.close()
    try await projector.waitForCount(0)
    #expect(
      !screen.messages.contains {
        if case .joined? = try? $0.get() { true } else { false }
      }, "a screen has no identity")
  }

  /// Extension `audience`: a socket that was refused an identity (its address's budget for
  /// new attendees spent) sees the room, and is not counted: sockets are free to open,
  /// identities are not. (Issue 46: 230 sockets from one address, 30 of them refused an
  /// identity, took the count from 1 to 231.) The budget is cut to one here, so that a few
  /// sockets spend it; the address is a forwarded one, as loopback is not counted.
  @Test func socketsWithoutAnIdentityAreNotCounted() async throws {
    let server = try await ServerUnderTest {
      $0.trustedProxies = ["127.0.0.1"]
      $0.newAttendeeRateLimit = 1
    }
    defer { Task { await server.stop() } }
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.extraHeaders.append(name: "X-Forwarded-For", value: "203.0.113.9")
    let screen = try await RoomScreen.join(server)
    let counted = try await RoomMember.join(server, as: UUID(), configuration: configuration)
    #expect(try await counted.joined().credential != nil)
    var refused: [RoomMember] = []
    for _ in 0..<5 {
      let member = try await RoomMember.join(server, as: UUID(), configuration: configuration)
      #expect(try await member.joined().attendee == nil, "refused an identity")
      _ = try await member.snapshot()
      refused.append(member)
    }
    try await screen.waitForCount(1)
    #expect(try await screen.settledCount() == 1)
    for member in refused + [counted] { await member.socket.close() }
  }
}
