import ArgumentParser
import CommandLineValues
import ProxyTunnel
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

@main
struct QnACommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "qna",
    abstract: "Ask questions at a live conference Q&A and see them answered.",
    discussion: """
      Without --headless, a full-screen terminal UI: type a question and press Enter; F1 or ? \
      lists every key. Logs go to --log-file, never to the screen. \
      `qna join CODE` joins a session by its code (`qna join --help`); \
      `qna present` is the presenter's console (`qna present --help`); \
      `qna screen` shows the room on a projector, with a QR code to join (`qna screen --help`). \
      With --headless, questions come from --ask and stdin lines, and every state change is \
      printed as one JSON object per line (docs/headless.md has the schema). Exit status: 0 \
      done, 1 a question failed or the connection ended for good, 5 timed out, 64 bad usage. \
      Durations: 1, 0.5, 500ms, 2s, 1m.
      """,
    version: ProjectVersion.current,
    subcommands: CommandTree.isDescribing
      ? [JoinCommand.self, PresentCommand.self, ScreenCommand.self] : [])

  /// `qna present …` is the presenter's console, `qna join CODE …` the attendee's client in
  /// a session; anything else is the attendee's client,
  /// with every flag it had (dispatched here, so that the two never share an option).
  static func main() async {
    await dispatch(Array(CommandLine.arguments.dropFirst()))
  }

  /// `help [SUBCOMMAND]`, which the shell completions offer, is that command's `--help`.
  static func dispatch(_ arguments: [String]) async {
    if arguments.first == "help" {
      await dispatch(Array(arguments.dropFirst()) + ["--help"])
    } else if arguments.first == "present" {
      await PresentCommand.main(Array(arguments.dropFirst()))
    } else if arguments.first == "screen" {
      await ScreenCommand.main(Array(arguments.dropFirst()))
    } else if arguments.first == "join" {
      await JoinCommand.main(Array(arguments.dropFirst()))
    } else {
      await main(arguments)
    }
  }

  @Flag(help: "No terminal UI: JSON lines on stdout, for scripts.") var headless = false
  @Option(help: "The server's WebSocket URL (default: $QNA_URL, else ws://127.0.0.1:8080/socket).")
  var url: String?
  @Option(help: "A question to ask (repeatable).") var ask: [String] = []
  @Flag(help: "Read questions from stdin after the --ask ones (without --ask, it always is).")
  var stdin = false
  @Flag(help: "Do not read questions from stdin.") var noStdin = false
  @Flag(help: "Exit 0 once every question asked is answered (1 if one is refused for good).")
  var waitAnswered = false
  @Flag(help: "Exit 0 once the server has stored every question asked (1 if one is refused).")
  var exitAfterSend = false
  @Flag(help: "Headless: print the room's questions as `room` lines (servers with the room).")
  var room = false
  @Option(help: "Headless: vote for the room's question with this id (repeatable).")
  var vote: [String] = []

  @Option(
    help: ArgumentHelp(
      "Headless: answer the poll with this id (repeatable): ID=2 (option numbers from 1, 1,3 for several, 3,1,2 for a ranking), ID=4 (a rating), ID=\"swift, fast\" (a word cloud), ID=\"More demos, please\" (an open text: the whole line).",
      valueName: "ID=CHOICE"))
  var poll: [String] = []
  @Option(help: "A name shown with your questions in the room (anonymous without one).")
  var name: String?
  @Option(help: "Ask under this label of the session (a topic or a speaker; Alt-L picks another).")
  var label: String?
  @Option(
    help: """
      Your personal ticket, where the session admits attendees by ticket (XXXX-XXXX-XXXX-XXXX; \
      `qna join LINK` takes it from the link).
      """)
  var ticket: String?
  @Flag(help: "Ask again the refused questions an earlier run kept.") var retryFailed = false
  @Flag(help: "Drop the refused questions an earlier run kept.") var discardFailed = false
  @Option(help: "Give up after this long, exiting 5.") var timeout: String?
  @Option(
    help: """
      Keep-alive ping interval, or 0 for none \
      (default \(DurationValue.format(Self.client.pingInterval ?? .zero))).
      """)
  var pingInterval: String?
  @Option(
    help: """
      Declare the connection dead without a pong this long \
      (default \(DurationValue.format(Self.client.pingTimeout))).
      """)
  var pingTimeout: String?
  @Option(
    help: """
      Give up a connection attempt after this long \
      (default \(DurationValue.format(Self.client.connectTimeout))).
      """)
  var connectTimeout: String?
  @Flag(help: "Do not reconnect after the connection drops.") var noReconnect = false
  @Option(
    help: """
      Longest wait between reconnect attempts, the backoff's cap \
      (default \(DurationValue.format(ReconnectPolicy().maximumDelay))).
      """)
  var maxBackoff: String?
  @Option(
    help: "Longest question, in characters (default \(QnAConfiguration().maxQuestionLength)).")
  var maxLength: Int?
  @Flag(help: "Send questions as text frames instead of binary.") var text = false
  @Flag(help: "Do not offer permessage-deflate (compression, on by default).") var noDeflate = false
  @OptionGroup var proxyOptions: ProxyOptions
  @Flag(help: "Log details (ignored messages, resends) on stderr.") var verbose = false
  @Option(help: "Where unsent questions are kept between runs (default $XDG_STATE_HOME/qna).")
  var stateDir: String?
  @Flag(help: "Keep unsent questions in memory only.") var noPersist = false
  @Flag(
    help: "Ring the terminal bell when a question of yours is answered or being answered now.")
  var bell = false
  @Flag(
    help: """
      A desktop notification through the terminal (OSC 9, 777 or 99, chosen from $TERM and \
      $TERM_PROGRAM) when a question of yours is answered or being answered now; inside tmux \
      only with `set -g allow-passthrough on`.
      """)
  var notify = false
  @Option(
    help: """
      The list shown first: room (everyone's questions, on servers that have the room) or \
      mine (your own). Tab switches.
      """)
  var view: StartView = .room
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
  @Option(help: "The terminal UI's log (default $XDG_STATE_HOME/qna/qna.log).")
  var logFile: String?

  func run() async throws {
    Catalogue.start()
    let target: WebSocketURL
    var configuration: EngineConfiguration
    let deadline: Duration?
    let votes: [UUID]
    let polls: [PollChoice]
    do {
      target = try WebSocketURL(
        url ?? ProcessInfo.processInfo.environment["QNA_URL"] ?? "ws://127.0.0.1:8080/socket")
      configuration = try makeConfiguration(url: target.description)
      deadline = try timeout.map(DurationValue.parse)
      votes = try vote.map { id in
        guard let uuid = UUID(uuidString: id) else {
          throw ValidationError("--vote needs a question id, got '\(id)'")
        }
        return uuid
      }
      polls = try poll.map { argument in
        guard let choice = PollChoice(argument: argument) else {
          throw ValidationError("--poll needs ID=CHOICE (a poll's id), got '\(argument)'")
        }
        return choice
      }
    } catch {
      Headless.fail("\(error)", status: .usage)
    }
    // The terminal UI shows the room; headless mode only with --room.
    configuration.state.expectsRoom = !headless || room || !poll.isEmpty
    guard headless else {
      try await runTerminal(url: target, configuration: configuration)
      return
    }
    let options = Headless.Options(
      // With --ask, stdin is left alone unless --stdin says otherwise: a script's inherited
      // stdin may never reach end of file, and --wait-answered would wait for it forever.
      asks: ask, readsStdin: !noStdin && (ask.isEmpty || stdin),
      waitAnswered: waitAnswered, exitAfterSend: exitAfterSend, room: room, votes: votes,
      polls: polls, timeout: deadline, verbose: verbose)
    let status = await Headless(url: target, configuration: configuration, options: options).run()
    if status != .success { throw ExitCode(status.rawValue) }
  }

  private func runTerminal(url: WebSocketURL, configuration: EngineConfiguration) async throws {
    try await Self.runTerminal(
      url: url, configuration: configuration, logFile: logFile,
      options: .init(
        colors: Self.colors(noColor: noColor), bell: bell, mouse: !noMouse,
        view: view == .mine ? .mine : .room,
        notifier: notify
          ? DesktopNotifier.forTerminal(
            environment: ProcessInfo.processInfo.environment,
            tmuxPassesThrough: TmuxPassthrough.isOn) : nil,
        screenReader: Self.screenReader(screenReader)))
  }

  /// `--screen-reader`, or `QNA_SCREEN_READER` set to anything but empty, 0, no or false.
  static func screenReader(_ flag: Bool) -> Bool {
    let value = ProcessInfo.processInfo.environment["QNA_SCREEN_READER"]?.lowercased() ?? ""
    return flag || !["", "0", "no", "false"].contains(value)
  }

  /// Colours unless `--no-color` or `NO_COLOR`.
  static func colors(noColor: Bool) -> Bool {
    !noColor && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }

  /// The terminal UI, attendee's or presenter's, until the user quits.
  static func runTerminal(
    url: WebSocketURL, configuration: EngineConfiguration, logFile: String?,
    options: TerminalFrontEnd.Options
  ) async throws {
    guard TerminalFrontEnd.hasTerminal else {
      Headless.fail(TerminalFrontEnd.Failure.notATerminal.description, status: .usage)
    }
    // Before ncurses and wcwidth: without a UTF-8 locale, wide text is garbage.
    setlocale(LC_ALL, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8"
      && setlocale(LC_ALL, "C.UTF-8") == nil
    {
      Headless.fail(
        "the terminal UI needs a UTF-8 locale (set LANG, e.g. LANG=C.UTF-8), or use --headless",
        status: .usage)
    }
    let log: LogFile
    do {
      log = try LogFile(
        path: logFile
          ?? PendingQuestionsFile.defaultDirectory().appendingPathComponent("qna.log").path,
        ownsDirectory: logFile == nil)
    } catch {
      Headless.fail(error.description, status: .usage)
    }
    Catalogue.bind()
    log.write("qna starting: \(url)")
    let clock = SystemClock()
    let engine = QnAEngine(
      url: url, configuration: configuration, clock: clock, log: { log.write($0) })
    do {
      let signal = try await TerminalFrontEnd.run(
        engine: engine, clock: clock, log: log, options: options)
      log.write("qna stopped" + (signal.map { " by signal \($0)" } ?? ""))
      if let signal { throw ExitCode(128 + signal) }
    } catch let failure as TerminalFrontEnd.Failure {
      log.write("fatal: \(failure)")
      Headless.fail(failure.description, status: .failed)
    }
  }

  /// The engine's client defaults, which the options fall back to and their help states.
  static let client = EngineConfiguration.defaultClient

  private func makeConfiguration(url: String) throws -> EngineConfiguration {
    var state = QnAConfiguration()
    if let ticket {
      guard let canonical = Ticket.canonical(ticket) else {
        throw ValidationError(
          "--ticket '\(ticket)' is not a ticket: 16 letters and digits (no 0, 1, I or O)")
      }
      state.ticket = canonical
    }
    state.maxQuestionLength = maxLength ?? state.maxQuestionLength
    guard state.maxQuestionLength > 0 else {
      throw ValidationError("--max-length must be positive")
    }
    guard !(retryFailed && discardFailed) else {
      throw ValidationError("--retry-failed and --discard-failed exclude each other")
    }
    var client = Self.client
    if let connectTimeout {
      client.connectTimeout = try DurationValue.parse(
        connectTimeout, atLeast: .milliseconds(1), option: "--connect-timeout")
      client.handshakeTimeout = client.connectTimeout
    }
    if let pingInterval {
      let interval = try DurationValue.parse(pingInterval)
      client.pingInterval = interval == .zero ? nil : interval
    }
    if let pingTimeout {
      client.pingTimeout = try DurationValue.parse(
        pingTimeout, atLeast: .milliseconds(1), option: "--ping-timeout")
    }
    if noDeflate { client.handshake.deflate = nil }
    client.proxy = try proxyOptions.settings()
    if noReconnect {
      client.reconnect = nil
    } else if let maxBackoff {
      client.reconnect?.maximumDelay = try DurationValue.parse(
        maxBackoff, atLeast: .milliseconds(100), option: "--max-backoff")
    }
    let directory =
      stateDir.map { URL(fileURLWithPath: $0) }
      ?? PendingQuestionsFile.defaultDirectory()
    return EngineConfiguration(
      client: client, state: state, sendsBinary: !text,
      pendingFile: noPersist
        ? nil
        : PendingQuestionsFile(
          directory: directory, serverURL: url, ownsDirectory: stateDir == nil),
      keptRefusals: retryFailed ? .retry : discardFailed ? .discard : .keep,
      attendeeFile: noPersist
        ? nil : AttendeeFile(directory: directory, serverURL: url, ownsDirectory: stateDir == nil),
      attendeeName: name, askLabel: label)
  }
}

/// `--view`'s values.
enum StartView: String, ExpressibleByArgument, CaseIterable {
  case room, mine
}
