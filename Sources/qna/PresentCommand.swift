import ArgumentParser
import CommandLineValues
import QnA
import QnAClient
import QnATerminal
import RFC6455
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `qna present`: the presenter's console, on the same WebSocket as attendees, with the
/// admin token in an `Authorization` header (never echoed, never logged).
struct PresentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna present"),
    abstract: "The presenter's console: moderate, highlight and answer the room's questions.",
    discussion: """
      With a join code, the console of that session (`qna-server session create` prints its \
      presenter token); without one, the server's default session. \
      The token comes from --token, else $QNA_TOKEN, else (when the server wants one) a prompt \
      that does not echo; a refused token is an error before the screen is taken. Actions typed while the connection is down are kept and \
      sent once when it is back. F1 or ? lists every key.
      """,
    version: ProjectVersion.current)

  @Argument(
    help: "A session's join code, or its address: its console, with its presenter token.")
  var code: String?
  @Option(help: "The server's WebSocket URL (default: $QNA_URL, else ws://127.0.0.1:8080/socket).")
  var url: String?
  @Option(help: "The admin token, or the session's presenter token (prefer $QNA_TOKEN).")
  var token: String?
  @Option(
    help: """
      The attendee page's address as people open it, when it is not on --url's server \
      (https://qna.example.org/s/CODE/): j shows it, and its QR code, as given.
      """)
  var joinURL: String?
  @Flag(help: "Bold and reverse instead of colours (also when NO_COLOR is set).")
  var noColor = false
  @Flag(help: "Leave the mouse to the terminal (no wheel scrolling, plain text selection).")
  var noMouse = false
  @Flag(
    help: """
      For screen readers and braille displays: nothing repainted on a timer, words instead of \
      symbols, events announced in the footer (also when QNA_SCREEN_READER is set).
      """)
  var screenReader = false
  @Option(help: "The console's log (default $XDG_STATE_HOME/qna/qna.log).")
  var logFile: String?
  @OptionGroup var proxyOptions: ProxyOptions

  func run() async throws {
    Catalogue.start()
    let environment = ProcessInfo.processInfo.environment
    var base = url ?? environment["QNA_URL"] ?? "ws://127.0.0.1:8080/socket"
    // The session's canonical code, and the page a pasted address names (where people join).
    var canonical: String?
    var linked: String?
    if let code {
      guard let session = JoinCommand.session(code, server: base) else {
        Headless.fail(
          Catalogue.format(
            tr("'%s' is not a join code: 6 letters and digits (no 0, 1, I or O)"), code),
          status: .usage)
      }
      (base, canonical) = (session.socket, session.code)
      linked = JoinCode.link(code).map { ScreenCommand.pageAddress(socket: $0.socket) }
    }
    let target: WebSocketURL
    do {
      target = try WebSocketURL(Self.presenterURL(base))
    } catch {
      Headless.fail("\(error)", status: .usage)
    }
    guard TerminalFrontEnd.hasTerminal else {
      Headless.fail(TerminalFrontEnd.Failure.notATerminal.description, status: .usage)
    }
    var secret = token ?? environment["QNA_TOKEN"]
    var client = EngineConfiguration.defaultClient
    do {
      client.proxy = try proxyOptions.settings()
    } catch {
      Headless.fail("\(error)", status: .usage)
    }
    // Asked for only when the server wants one, and asked again after a wrong one.
    for attempt in 1...3 {
      client.handshake.extraHeaders =
        secret.map { $0.isEmpty ? [] : [("Authorization", "Bearer \($0)")] } ?? []
      let outcome = await ServerCheck.probe(target, client: client)
      if let canonical {
        ServerCheck.requireSession(outcome, code: canonical, url: target, closedIsFine: true)
      }
      guard case .refused(401) = outcome else { break }
      let offered = secret != nil
      guard attempt < 3,
        let typed = SecretPrompt.read(
          (offered ? tr("That token was refused.") + " " : "")
            + (code == nil ? tr("Admin token:") : tr("Presenter token:")) + " ")
      else {
        Headless.fail(
          offered
            ? tr("the server refused the admin token (HTTP 401): check --token or $QNA_TOKEN")
            : tr(
              "the server needs its admin token: give --token, set $QNA_TOKEN, or run in a terminal"
            ),
          status: .failed)
      }
      secret = typed
    }
    let configuration = EngineConfiguration(
      client: client, state: QnAConfiguration(expectsRoom: true, presenter: true))
    var options = TerminalFrontEnd.Options(
      colors: QnACommand.colors(noColor: noColor), bell: false, mouse: !noMouse,
      presenter: true, screenReader: QnACommand.screenReader(screenReader))
    let address =
      joinURL ?? linked ?? ScreenCommand.joinAddress(server: target, code: canonical)
    options.join = ProjectorScreen(joining: address, code: canonical)
    try await QnACommand.runTerminal(
      url: target, configuration: configuration, logFile: logFile, options: options)
  }

  /// The attendees' socket URL, asking for a presenter's connection.
  static func presenterURL(_ url: String) -> String {
    guard !url.contains("role=presenter") else { return url }
    return url + (url.contains("?") ? "&" : "?") + "role=presenter"
  }
}

/// A line read from the terminal without echo; `nil` when stdin is no terminal.
enum SecretPrompt {
  static func read(_ prompt: String) -> String? {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    StandardStream.error.write(prompt)
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer {
      tcsetattr(STDIN_FILENO, TCSANOW, &saved)
      StandardStream.error.write("\n")
    }
    return readLine(strippingNewline: true)
  }
}
