import ArgumentParser
import CommandLineValues
import Foundation
import QnA
import QnAClient
import QnATerminal
import RFC6455
import WebSocketClient

/// `qna present`: the presenter's console, on the same WebSocket as attendees, with the
/// admin token in an `Authorization` header (never echoed, never logged).
struct PresentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "qna present",
    abstract: "The presenter's console: moderate, highlight and answer the room's questions.",
    discussion: """
      The token comes from --token, else $QNA_TOKEN, else a prompt that does not echo (Enter \
      for a server without one). Actions typed while the connection is down are kept and \
      sent once when it is back. F1 or ? lists every key.
      """)

  @Option(help: "The server's WebSocket URL (default: $QNA_URL, else ws://127.0.0.1:8080/socket).")
  var url: String?
  @Option(help: "The server's admin token (prefer $QNA_TOKEN: options show in `ps`).")
  var token: String?
  @Flag(help: "Bold and reverse instead of colours (also when NO_COLOR is set).")
  var noColor = false
  @Flag(help: "Leave the mouse to the terminal (no wheel scrolling, plain text selection).")
  var noMouse = false
  @Option(help: "The console's log (default $XDG_STATE_HOME/qna/qna.log).")
  var logFile: String?

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let base = url ?? environment["QNA_URL"] ?? "ws://127.0.0.1:8080/socket"
    let target: WebSocketURL
    do {
      target = try WebSocketURL(Self.presenterURL(base))
    } catch {
      Headless.fail("\(error)", status: .usage)
    }
    guard TerminalFrontEnd.hasTerminal else {
      Headless.fail(TerminalFrontEnd.Failure.notATerminal.description, status: .usage)
    }
    let secret =
      token ?? environment["QNA_TOKEN"]
      ?? SecretPrompt.read("Admin token (Enter if the server has none): ")
    var client = EngineConfiguration.defaultClient
    if let secret, !secret.isEmpty {
      client.handshake.extraHeaders = [("Authorization", "Bearer \(secret)")]
    }
    let configuration = EngineConfiguration(
      client: client, state: QnAConfiguration(expectsRoom: true, presenter: true))
    try await QnACommand.runTerminal(
      url: target, configuration: configuration, logFile: logFile,
      options: .init(
        colors: QnACommand.colors(noColor: noColor), bell: false, mouse: !noMouse,
        presenter: true))
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
    FileHandle.standardError.write(Data(prompt.utf8))
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer {
      tcsetattr(STDIN_FILENO, TCSANOW, &saved)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    return readLine(strippingNewline: true)
  }
}
