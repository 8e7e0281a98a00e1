import ArgumentParser
import CommandLineValues
import QnA
import QnAClient
import QnATerminal
import RFC6455

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `qna join CODE`: the attendee's client in a session, by its join code. Every other option
/// is the attendee client's own (`qna --help`).
struct JoinCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna join"),
    abstract: "Join a session by its code: the attendee's client in that talk's Q&A.",
    discussion: """
      The code is 6 characters, in any case (`qna-server session create` prints it). The \
      server is --url's host and port (default: $QNA_URL's, else 127.0.0.1:8080; http:// \
      and https:// are taken as ws:// and wss://); the session's socket is /s/CODE/socket \
      there. The address the server prints, the QR code holds and the projector shows \
      (http://HOST:PORT/s/CODE/) may stand for the code: its server is then the one joined; \
      a ticket's link (…/s/CODE/#ticket=…) joins with the ticket. \
      A wrong or closed code is an error (exit 1) before the screen is taken. Any other \
      option is passed to qna (`qna --help`): `qna join K7M2QX --headless --ask "Why?"`.
      """,
    version: ProjectVersion.current)

  @Argument(help: "The session's join code, or its address (http://HOST:PORT/s/CODE/).")
  var code: String
  @Option(
    help:
      "The server (its scheme, host and port count; default: $QNA_URL, else ws://127.0.0.1:8080).")
  var url: String?
  @Argument(parsing: .allUnrecognized, help: "Options for qna (`qna --help`).")
  var options: [String] = []

  func run() async throws {
    Catalogue.start()
    let base = url ?? ProcessInfo.processInfo.environment["QNA_URL"] ?? "ws://127.0.0.1:8080"
    guard let (canonical, url) = Self.session(code, server: base) else {
      throw ValidationError(
        Catalogue.format(
          tr("'%s' is not a join code: 6 letters and digits (no 0, 1, I or O)"), code))
    }
    let target: WebSocketURL
    do {
      target = try WebSocketURL(url)
    } catch {
      throw ValidationError("\(error)")
    }
    // The probe goes the way the client will: through the proxy its options choose.
    var probe = EngineConfiguration.defaultClient
    probe.proxy = try QnACommand.parse(["--url", url] + options).proxyOptions.settings()
    ServerCheck.requireSession(
      await ServerCheck.probe(target, client: probe),
      code: canonical, url: target)
    // The link's ticket (extension `tickets`), before the options (which may name one).
    let ticket = Ticket.inLink(code).map { ["--ticket", $0] } ?? []
    await QnACommand.main(["--url", url] + ticket + options)
  }

  /// The session `typed` names: a join code on `server`, or the address the server prints for
  /// it (which names its own server). `nil` when it is neither.
  static func session(_ typed: String, server: String) -> (code: String, socket: String)? {
    if let link = JoinCode.link(typed) { return link }
    return JoinCode.canonical(typed).map { ($0, sessionURL(code: $0, server: server)) }
  }

  /// The session's socket on `server`; a code that is no code yet is left for the caller to
  /// refuse, a server URL without a host is passed on for the URL parser to refuse.
  static func sessionURL(code: String, server: String) -> String {
    let canonical = JoinCode.canonical(code) ?? code
    return JoinCode.socketURL(server: server, code: canonical) ?? server
  }
}
