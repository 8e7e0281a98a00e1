import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing

/// Extension `tickets`, end to end: `qna-server session tickets` beside a running server on
/// the same SQLite file, and attendees joining its session with, without, and with another's
/// tickets, on the server's defaults.
@Suite("qna-server: sessions that admit by ticket")
struct TicketTests {
  struct Session {
    let server: QnAServerProcess
    let path: String
    let code: String
    let directory: TemporaryDirectory

    var socket: String { "/s/\(code)/socket" }

    func issue(_ count: Int) throws -> [(ticket: String, link: String)] {
      let run = try ProgramRun(
        QnAServerProcess.path,
        ["session", "tickets", code.lowercased(), "--count", "\(count)", "--db", path])
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.errors.contains("admits new attendees only by ticket"))
      return run.output.split(separator: "\n").map { line in
        let fields = line.split(separator: " ")
        return (String(fields[0]), String(fields.last ?? ""))
      }
    }
  }

  static func session() async throws -> Session {
    let directory = try TemporaryDirectory()
    let path = directory.path("qna.sqlite")
    let server = try await QnAServerProcess(["--port", "0", "--db", path])
    let created = try ProgramRun(
      QnAServerProcess.path, ["session", "create", "Keynote", "--db", path])
    let code = String(
      try #require(
        created.output.split(separator: "\n").first { $0.hasPrefix("code: ") }?.dropFirst(6)))
    return Session(server: server, path: path, code: code, directory: directory)
  }

  static func join(
    _ session: Session, ticket: String? = nil, credential: UUID? = nil,
    as attendee: UUID = UUID()
  ) async throws -> (RoomMember, Joined) {
    let member = try await RoomMember.join(
      port: session.server.port, as: attendee, credential: credential, path: session.socket,
      ticket: ticket)
    return (member, try await member.joined())
  }

  @Test func aSessionWithTicketsAdmitsNewAttendeesOnlyByOne() async throws {
    let session = try await Self.session()
    defer { session.server.stop() }
    // Before tickets: the join code admits (loopback pays nothing).
    let early = UUID()
    let (before, admitted) = try await Self.join(session, as: early)
    let earlyCredential = try #require(admitted.credential)
    await before.socket.close()
    let tickets = try session.issue(3)
    #expect(tickets.count == 3)
    // The server took this session for one without tickets a moment ago: it reads again
    // after `ticketsRead`.
    try await Task.sleep(for: SessionRoom.ticketsRead + .milliseconds(200))
    for (ticket, link) in tickets {
      #expect(Ticket.canonical(ticket) != nil && ticket.count == 19, "\(ticket)")
      #expect(link.hasSuffix("/s/\(session.code)/#ticket=\(ticket)"), "\(link)")
      #expect(Ticket.inLink(link) == Ticket.canonical(ticket))
    }
    #expect(Set(tickets.map(\.ticket)).count == 3)
    // Without one, or with one that is not the session's: refused for good, in words.
    let (bare, refused) = try await Self.join(session)
    #expect(refused.credential == nil && refused.retryAfter == nil)
    #expect(refused.message == RoomReplies.ticketNeeded)
    // Nor does such a socket's question, nor the form without scripts.
    let token = UUID()
    try await bare.socket.ask("Anonymous?", as: bare.connection, token: token)
    let answer = try await bare.socket.waitForMessage("the refusal") {
      if case .questionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .questionResponse(let response) = answer else { return }
    #expect(!response.success && response.message == RoomReplies.ticketNeeded)
    #expect(response.retryAfter != nil, "asked again once its ticket made it an identity")
    let form = try httpRequest(
      "POST", port: session.server.port, path: "/s/\(session.code)/ask",
      body: "content=Asked+without+scripts&token=\(UUID().uuidString)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(form.body.contains("takes questions from ticket holders"), "\(form.status)")
    let (forged, unknown) = try await Self.join(session, ticket: "ABCD-EFGH-JKLM-NPQR")
    #expect(unknown.credential == nil && unknown.message == RoomReplies.unknownTicket)
    // With one, in any case and without its dashes: an identity.
    let (holder, issued) = try await Self.join(
      session, ticket: tickets[0].ticket.lowercased().replacingOccurrences(of: "-", with: ""))
    #expect(issued.credential != nil && issued.message == nil)
    // Whoever joined before keeps their identity.
    let (back, kept) = try await Self.join(session, credential: earlyCredential, as: early)
    #expect(kept.attendee == early && kept.credential == earlyCredential)
    let counts = try ProgramRun(
      QnAServerProcess.path, ["session", "tickets", session.code, "--db", session.path])
    #expect(counts.output == "tickets: 3 issued, 1 used\n", "\(counts.output)")
    for member in [bare, forged, holder, back] { await member.socket.close() }
  }

  /// A ticket is one person's weight: used again (a second device, or storage lost), it
  /// brings back the identity it holds, whose vote is already counted; two devices joining
  /// with it at once get one identity.
  @Test func aTicketUsedAgainIsTheSameAttendee() async throws {
    let session = try await Self.session()
    defer { session.server.stop() }
    let tickets = try session.issue(3)
    let (asker, _) = try await Self.join(session, ticket: tickets[2].ticket)
    let question = try await asker.socket.askedQuestion("Why?", as: asker.connection)
    let (phone, first) = try await Self.join(session, ticket: tickets[0].ticket)
    let attendee = try #require(first.attendee)
    let token = UUID()
    try await phone.vote(question, token: token)
    let voted = try await phone.voteResponse(token)
    #expect(voted.success && voted.votes == 1, "\(voted)")
    let (laptop, again) = try await Self.join(session, ticket: tickets[0].ticket)
    #expect(again.attendee == attendee && again.credential == first.credential)
    let second = UUID()
    try await laptop.vote(question, token: second)
    let response = try await laptop.voteResponse(second)
    #expect(response.votes == 1, "one person, one vote: \(response)")
    // The other ticket, twice at once: one identity between them.
    async let a = Self.join(session, ticket: tickets[1].ticket)
    async let b = Self.join(session, ticket: tickets[1].ticket)
    let (one, two) = try await (a, b)
    #expect(one.1.attendee != nil && one.1.attendee == two.1.attendee)
    #expect(one.1.credential == two.1.credential && one.1.attendee != attendee)
    for member in [asker, phone, laptop, one.0, two.0] { await member.socket.close() }
  }
}
