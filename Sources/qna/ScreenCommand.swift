import ArgumentParser
import CommandLineValues
import QRCode
import QnA
import QnAClient
import QnATerminal
import RFC6455

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `qna screen [CODE]`: the room for a projector, in the terminal — the question being
/// answered, the next most-voted ones, how many are in the room, and the join code with the
/// attendee page's address and its QR code. It only watches: no token, no identity.
struct ScreenCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna screen"),
    abstract:
      "The room for a projector: the question being answered, what is next, and a QR code to join.",
    discussion: """
      With a join code, that session's room; without one, the server's default room. The QR \
      code holds the attendee page's address on the server --url names (ws:// becomes http://, \
      wss:// https://); give --join-url when people reach the server at another address. \
      q, Esc or Ctrl-C ends it.
      """,
    version: ProjectVersion.current)

  @Argument(help: "A session's join code, or its address (http://HOST:PORT/s/CODE/).")
  var code: String?
  @Option(help: "The server (default: $QNA_URL, else ws://127.0.0.1:8080).") var url: String?
  @Option(
    help: """
      The attendee page's address as people open it, when it is not on --url's server \
      (https://qna.example.org/s/CODE/): the QR code holds it as given.
      """)
  var joinURL: String?
  @Flag(help: "Bold and reverse instead of colours (also when NO_COLOR is set).")
  var noColor = false
  @Option(help: "The screen's log (default $XDG_STATE_HOME/qna/qna.log).")
  var logFile: String?
  @OptionGroup var proxyOptions: ProxyOptions

  func run() async throws {
    Catalogue.start()
    let base = url ?? ProcessInfo.processInfo.environment["QNA_URL"] ?? "ws://127.0.0.1:8080"
    var canonical: String?
    var socket = Self.defaultRoomSocket(base)
    if let code {
      guard let session = JoinCommand.session(code, server: base) else {
        throw ValidationError(
          Catalogue.format(
            tr("'%s' is not a join code: 6 letters and digits (no 0, 1, I or O)"), code))
      }
      (canonical, socket) = (session.code, session.socket)
    }
    // A pasted address is where people join (a prefix kept): the QR code shows it.
    let linked = code.flatMap(JoinCode.link).map { Self.pageAddress(socket: $0.socket) }
    let target: WebSocketURL
    do {
      target = try WebSocketURL(socket)
    } catch {
      throw ValidationError("\(error)")
    }
    let address = joinURL ?? linked ?? Self.joinAddress(server: target, code: canonical)
    var client = EngineConfiguration.defaultClient
    client.proxy = try proxyOptions.settings()
    if let canonical {
      ServerCheck.requireSession(
        await ServerCheck.probe(target, client: client), code: canonical, url: target,
        closedIsFine: true)
    }
    var state = QnAConfiguration(expectsRoom: true)
    state.screen = true
    // A screen keeps nothing: no questions, no identity.
    let configuration = EngineConfiguration(client: client, state: state)
    var options = TerminalFrontEnd.Options(
      colors: QnACommand.colors(noColor: noColor), bell: false, mouse: false)
    options.projector = ProjectorScreen(joining: address, code: canonical)
    try await QnACommand.runTerminal(
      url: target, configuration: configuration, logFile: logFile, options: options)
  }

  /// A server's address alone (`ws://host:port`, no path) names its default room's socket;
  /// a URL with a path is taken as it is.
  static func defaultRoomSocket(_ url: String) -> String {
    guard let schemeEnd = url.firstRange(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" }
    let path = rest.dropFirst(authority.count)
    guard path.isEmpty || path == "/" else { return url }
    return url[..<schemeEnd.upperBound] + authority + "/socket"
  }

  /// The attendee page a session's socket belongs to: `wss://H/P/s/CODE/socket` is
  /// `https://H/P/s/CODE/`.
  static func pageAddress(socket: String) -> String {
    let page = socket.hasSuffix("/socket") ? String(socket.dropLast("socket".count)) : socket
    if page.hasPrefix("wss://") { return "https://" + page.dropFirst("wss://".count) }
    if page.hasPrefix("ws://") { return "http://" + page.dropFirst("ws://".count) }
    return page
  }

  /// The attendee page on the server a socket URL names: `/s/CODE/`, or `/room/`.
  static func joinAddress(server: WebSocketURL, code: String?) -> String {
    let scheme = server.isSecure ? "https" : "http"
    let host = server.isIPv6Literal ? "[\(server.host)]" : server.host
    let port = server.port == server.defaultPort ? "" : ":\(server.port)"
    return "\(scheme)://\(host)\(port)" + (code.map { "/s/\($0)/" } ?? "/room/")
  }
}

extension ProjectorScreen {
  /// Where to join, with the address's QR code in half blocks (none for one too long).
  init(joining address: String, code: String?) {
    self.init(
      joinAddress: address, code: code, qr: (try? QRCode(text: address))?.halfBlockLines() ?? [])
  }
}
