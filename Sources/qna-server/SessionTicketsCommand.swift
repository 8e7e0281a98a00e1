import ArgumentParser
import CommandLineValues
import Foundation
import QnA
import QnAServer
import QnAStore

extension SessionCommand {
  /// `qna-server session tickets CODE --count N`: personal tickets (extension `tickets`).
  struct Tickets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: """
        Issue personal tickets for a session, which from then on admits new attendees only \
        with one: print each ticket and its join link, one per line.
        """,
      discussion: """
        One ticket is one attendee: it holds the identity its first join gets (votes, \
        questions, the head count), and gives it back to a second device or a lost browser \
        storage. Attendees who joined before keep their identity. Hand each person one (a \
        badge's QR code, an e-mail): the link carries the ticket in its fragment \
        (#ticket=…), which browsers never send to a server. `qna join LINK` takes the \
        link too. The database keeps only the tickets' digests: this is the one time they \
        are printed. Without --count, prints how many the session has and how many are \
        used.
        """)
    @Argument(help: "The session's code (any case).") var code: String
    @Option(
      help: "How many tickets to issue (1–\(QuestionStore.maxTicketsPerIssue)).")
    var count: Int?
    @Option(
      help: """
        Where people reach the server, as its --public-url (default \
        \(Create.defaultURL)).
        """)
    var publicURL: String?
    @OptionGroup var database: Database

    func run() async throws {
      guard let origin = ServerConfiguration.validPublicURL(publicURL ?? Create.defaultURL)
      else {
        throw ValidationError(
          "--public-url '\(publicURL ?? "")' is not http(s)://HOST[:PORT] (no path, query or fragment)"
        )
      }
      if let count, !(1...QuestionStore.maxTicketsPerIssue).contains(count) {
        throw ValidationError("--count is 1–\(QuestionStore.maxTicketsPerIssue)")
      }
      let store = await database.open()
      guard
        let session = try await SessionCommand.run({ try await store.directory.session(code: code) }
        ),
        let id = session.id
      else {
        SessionCommand.fail("there is no session \(code)", status: 1)
      }
      let scoped = store.session(id)
      guard let count else {
        let counts = try await SessionCommand.run { try await scoped.ticketCounts() }
        print("tickets: \(counts.issued) issued, \(counts.used) used")
        return
      }
      var random = SystemRandomNumberGenerator()
      let tickets = try await SessionCommand.run {
        try await scoped.issueTickets(count, at: Date(), using: &random)
      }
      let join = "\(origin)/s/\(session.code)/"
      for ticket in tickets {
        print("\(Ticket.grouped(ticket)) \(Ticket.link(join, ticket: ticket))")
      }
      FileHandle.standardError.write(
        Data(
          "qna-server: session \(session.code) admits new attendees only by ticket now\n".utf8))
    }
  }
}
