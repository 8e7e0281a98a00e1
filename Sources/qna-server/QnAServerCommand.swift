import ArgumentParser
import CommandLineValues
import Foundation
import Logging
import QnA
import QnALogHandlers
import QnAServer
import QnAStore
import QnAStoreLocation

@main
struct QnAServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "qna-server",
    abstract: "The Q&A back end: attendee WebSockets, the presenter page, and a JSON API.",
    discussion: """
      `qna-server export` writes every question of a database (`qna-server export --help`); \
      `qna-server report CODE` writes a session's report, a page with charts \
      (`qna-server report --help`); \
      `qna-server session` creates and manages sessions with join codes \
      (`qna-server session --help`); `qna-server logout-all` ends every presenter login. \
      The first line on stdout is "listening on ws://HOST:PORT/socket". Logs go to stderr, \
      one line per event. SIGINT/SIGTERM close every socket with 1001 and exit 0. \
      Durations: 1, 0.5, 500ms, 2s, 1m.
      """,
    version: ProjectVersion.current,
    subcommands: CommandTree.isDescribing
      ? [ExportCommand.self, ReportCommand.self, SessionCommand.self, LogoutAllCommand.self]
      : [])

  /// `qna-server export …` writes a database's questions, `qna-server session …` manages
  /// sessions, `qna-server logout-all` ends presenters' logins; anything else serves.
  static func main() async {
    await dispatch(Array(CommandLine.arguments.dropFirst()))
  }

  /// `help [SUBCOMMAND…]`, which the shell completions offer, is that command's `--help`.
  static func dispatch(_ arguments: [String]) async {
    if arguments.first == "help" {
      await dispatch(Array(arguments.dropFirst()) + ["--help"])
    } else if arguments.first == "export" {
      await ExportCommand.main(Array(arguments.dropFirst()))
    } else if arguments.first == "report" {
      await ReportCommand.main(Array(arguments.dropFirst()))
    } else if arguments.first == "session" {
      await SessionCommand.main(Array(arguments.dropFirst()))
    } else if arguments.first == "logout-all" {
      await LogoutAllCommand.main(Array(arguments.dropFirst()))
    } else {
      await main(arguments)
    }
  }

  @Option(help: "Address to listen on (default \(Self.defaults.host)).") var host: String?
  @Option(help: "Port to listen on; 0 picks a free one (default \(Self.defaults.port)).")
  var port: Int?
  @Option(
    help: """
      SQLite database file, :memory:, or postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]\
      /DATABASE[?sslmode=disable|prefer|require|verify-full][&target_session_attrs=read-write] \
      for several instances on one database, hosts tried in order (default \
      \(Self.defaults.database)).
      """)
  var db: String?
  @Option(
    help: """
      PostgreSQL: the most connections this instance opens, the listening one included \
      (\(StoreOptions.poolSizes.lowerBound)–\(StoreOptions.poolSizes.upperBound), default \
      \(Self.defaults.databaseOptions.poolSize)).
      """)
  var dbPool: Int?
  @Option(
    help: """
      PostgreSQL: the longest one database call may take before it fails and its client \
      retries; its connection is then closed (1s–5m, default \
      \(DurationValue.format(Self.defaults.databaseOptions.callLimit))).
      """)
  var dbCallLimit: String?
  @Option(
    help: """
      After SIGTERM or SIGINT, stay up this long unready (/readyz 503, new sockets refused \
      with 503) before closing every socket with 1001, for a balancer that polls /readyz \
      (at most 10m, default \(DurationValue.format(Self.defaults.shutdownDelay))).
      """)
  var shutdownDelay: String?
  @Option(
    help: """
      Require this token for the presenter page, answers, API and controls (default: \
      $QNA_ADMIN_TOKEN, which other local users cannot read, unlike the command line).
      """)
  var adminToken: String?
  @Flag(help: "Listen on a non-loopback address without --admin-token.") var allowPublic = false
  @Option(
    help: """
      Largest WebSocket message, in bytes; larger: close 1009 \
      (default \(Self.defaults.maxMessageSize)).
      """)
  var maxMessageSize: String?
  @Option(
    help: "Longest question, in characters (default \(Self.defaults.maxQuestionLength)).")
  var maxQuestionLength: Int?
  @Option(
    help: """
      Questions one attendee (all sockets of an identity; an address's sockets without one, \
      together) may ask at once, refilled per --rate-window; more are refused with a time to \
      retry after (default \(Self.defaults.rateLimit)).
      """)
  var rateLimit: Int?
  @Option(
    help: """
      Time in which --rate-limit questions are allowed again \
      (default \(DurationValue.format(Self.defaults.rateWindow))).
      """)
  var rateWindow: String?
  @Option(
    help: """
      Votes one attendee (all sockets of an identity) may cast at once, refilled per \
      --rate-window; more are refused with a time to retry after \
      (default \(Self.defaults.voteRateLimit)).
      """)
  var voteRateLimit: Int?
  @Option(
    help: """
      New attendee identities one client address may be issued without work at once (clients \
      that cannot pay --identity-work-bits), refilled at that many per \
      --new-attendee-window; past it a new attendee sees the room and may vote a little \
      later (default \(Self.defaults.newAttendeeRateLimit)).
      """)
  var newAttendeeRateLimit: Int?
  @Option(
    help: """
      What a new identity costs a client behind a counted address: leading zero bits of \
      each of \(IdentityWork.standard.count) SHA-256 hashes, 1–\(IdentityWork.maxStandardBits); \
      0 for \
      no price (default \(Self.defaults.identityWorkBits)).
      """)
  var identityWorkBits: Int?
  @Option(
    help: """
      Time in which --new-attendee-rate-limit identities are issued again \
      (default \(DurationValue.format(Self.defaults.newAttendeeWindow))).
      """)
  var newAttendeeWindow: String?
  @Option(
    help:
      "Most WebSockets open at once; more: close 1013 (default \(Self.defaults.maxConnections)).")
  var maxConnections: Int?
  @Option(
    help: """
      An origin (scheme://host[:port]) besides the server's own whose pages may open /socket \
      and post to the presenter routes (repeatable).
      """)
  var allowedOrigin: [String] = []
  @Option(
    help: """
      A reverse proxy's IP address: its X-Forwarded-For, X-Forwarded-Proto and \
      X-Forwarded-Host are believed, and it is exempt from --max-http-per-address (repeatable).
      """)
  var trustedProxy: [String] = []
  @Option(
    help: """
      Where people reach this server (https://qna.example.org): the join address the pages, \
      the projector and its QR code show (default: the address each request reached).
      """)
  var publicURL: String?
  @Option(
    help: """
      Time a new connection has to send a whole request head \
      (default \(DurationValue.format(Self.defaults.headerTimeout))).
      """)
  var headerTimeout: String?
  @Option(
    name: .customLong("max-http-per-address"),
    help: """
      HTTP connections (not WebSockets) one address may hold; loopback and trusted proxies \
      exempt (default \(Self.defaults.maxHTTPConnectionsPerAddress)).
      """)
  var maxHTTPConnectionsPerAddress: Int?
  @Option(
    help: """
      Ping each socket this often, dropping it without a pong by the next; 0: never \
      (default \(DurationValue.format(Self.defaults.pingInterval ?? .zero))).
      """)
  var pingInterval: String?
  @Flag(
    help:
      "New questions wait in review until a presenter approves them; until then only their askers and the presenters see them."
  )
  var moderation = false
  @Option(
    name: .customLong("word-list"),
    help: "NAME=FILE: a word list every session's filter has, one entry per line (repeatable).")
  var wordLists: [String] = []
  @Flag(help: "Behave exactly as the existing back ends: no project extensions.")
  var noExtensions = false
  @Flag(help: "Do not accept permessage-deflate (compression, on by default).")
  var noDeflate = false
  @Option(
    help: "Compression window, 2^N bytes, 9–15 (default \(Self.defaults.deflateWindowBits)).")
  var deflateWindow: Int?
  @Flag(
    help: """
      Let clients keep their compression context between messages (each socket then keeps an \
      inflater, about 40 KB); by default they reset it after every message. The server always \
      compresses each message afresh, once for every socket.
      """)
  var deflateContextTakeover = false
  @Option(
    help: """
      Compressor memory level, 1–9: hash tables of 2^(N+9) bytes per compressor \
      (default \(Self.defaults.deflateMemoryLevel)).
      """)
  var deflateMemoryLevel: Int?
  @Option(
    help: """
      Compression level, 1 (fastest) to 9 (smallest), paid once per message \
      (default \(Self.defaults.deflateLevel)).
      """)
  var deflateLevel: Int?
  @Flag(
    help: """
      The room as before it shared its work, a baseline for benchmarks: each message framed \
      and compressed for each socket through the WebSocket library, no compact room.
      """)
  var legacyBroadcast = false
  @Flag(help: "Enable the mock controls (/control/...) and the options below.") var mock = false
  @Option(
    help:
      "With --mock: answer every question after this long, or after a random delay in MIN-MAX (e.g. 0.2s-1s)."
  )
  var autoAnswerAfter: String?
  @Option(help: "With --mock: refuse questions matching this regular expression.")
  var reject: String?
  @Option(help: "With --mock: delay every outgoing WebSocket message by this long.")
  var latency: String?
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel = "info"
  @Option(help: "Log lines as text, or as one JSON object each (json).") var logFormat = "text"

  /// The library's defaults, which the options fall back to and their help states.
  static let defaults = ServerConfiguration()

  func run() async throws {
    let configuration: ServerConfiguration
    do {
      configuration = try makeConfiguration()
    } catch {
      Self.fail("\(error)")
    }
    guard let level = Logger.Level(rawValue: logLevel) else {
      Self.fail(
        "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue)), got '\(logLevel)'")
    }
    guard let json = ["text": false, "json": true][logFormat] else {
      Self.fail("--log-format must be text or json, got '\(logFormat)'")
    }
    LoggingSystem.bootstrap { label in
      var handler: any LogHandler =
        json
        ? JSONLogHandler.standardError(label: label)
        : StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      // Escaped in JSON too: JSON leaves C1 controls (a lone CSI) as they are.
      return EscapingLogHandler(handler)
    }
    let server: QnAServerApp
    do {
      server = try QnAServerApp(configuration: configuration)
    } catch {
      Self.fail("\(error)")
    }
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    try await server.run { port in
      // Written straight to the descriptor: scripts wait for this line, so no buffering.
      FileHandle.standardOutput.write(Data("listening on ws://\(host):\(port)/socket\n".utf8))
    }
  }

  private func makeConfiguration() throws -> ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.host = host ?? configuration.host
    configuration.port = port ?? configuration.port
    configuration.database = db ?? configuration.database
    configuration.databaseOptions.poolSize = dbPool ?? configuration.databaseOptions.poolSize
    guard StoreOptions.poolSizes.contains(configuration.databaseOptions.poolSize) else {
      throw ValidationError(
        "--db-pool must be \(StoreOptions.poolSizes.lowerBound)–\(StoreOptions.poolSizes.upperBound)"
      )
    }
    configuration.shutdownDelay =
      try shutdownDelay.map(DurationValue.parse) ?? configuration.shutdownDelay
    guard configuration.shutdownDelay <= .seconds(600) else {
      throw ValidationError("--shutdown-delay must be at most 10m")
    }
    configuration.databaseOptions.callLimit =
      try dbCallLimit.map(DurationValue.parse) ?? configuration.databaseOptions.callLimit
    guard StoreOptions.callLimits.contains(configuration.databaseOptions.callLimit) else {
      throw ValidationError("--db-call-limit must be 1s–5m")
    }
    do {
      try StoreLocation.validate(configuration.database)
    } catch {
      throw ValidationError("\(error)")
    }
    configuration.adminToken =
      adminToken
      ?? ProcessInfo.processInfo.environment["QNA_ADMIN_TOKEN"].flatMap {
        $0.isEmpty ? nil : $0
      }
    configuration.allowPublic = allowPublic
    configuration.maxMessageSize =
      try maxMessageSize.map(SizeValue.parse) ?? configuration.maxMessageSize
    configuration.maxQuestionLength = maxQuestionLength ?? configuration.maxQuestionLength
    configuration.rateLimit = rateLimit ?? configuration.rateLimit
    configuration.voteRateLimit = voteRateLimit ?? configuration.voteRateLimit
    configuration.newAttendeeRateLimit = newAttendeeRateLimit ?? configuration.newAttendeeRateLimit
    configuration.newAttendeeWindow =
      try newAttendeeWindow.map(DurationValue.parse) ?? configuration.newAttendeeWindow
    configuration.identityWorkBits = identityWorkBits ?? configuration.identityWorkBits
    guard (0...IdentityWork.maxStandardBits).contains(configuration.identityWorkBits) else {
      throw ValidationError("--identity-work-bits must be 0–\(IdentityWork.maxStandardBits)")
    }
    configuration.rateWindow = try rateWindow.map(DurationValue.parse) ?? configuration.rateWindow
    configuration.maxConnections = maxConnections ?? configuration.maxConnections
    configuration.allowedOrigins = try allowedOrigin.map(Self.origin)
    configuration.trustedProxies = try trustedProxy.map { text in
      guard let address = ServerConfiguration.proxyAddress(text) else {
        throw ValidationError("--trusted-proxy '\(text)' is not an IP address (one per option)")
      }
      return address
    }
    configuration.publicURL = try publicURL.map { text in
      guard let url = ServerConfiguration.validPublicURL(text) else {
        throw ValidationError(
          "--public-url '\(text)' is not http(s)://HOST[:PORT] (no path, query or fragment)")
      }
      return url
    }
    configuration.headerTimeout =
      try headerTimeout.map(DurationValue.parse) ?? configuration.headerTimeout
    configuration.maxHTTPConnectionsPerAddress =
      maxHTTPConnectionsPerAddress ?? configuration.maxHTTPConnectionsPerAddress
    if let pingInterval {
      let ping = try DurationValue.parse(pingInterval)
      configuration.pingInterval = ping == .zero ? nil : ping
    }
    configuration.extensions = !noExtensions
    configuration.deflate = !noDeflate
    configuration.deflateWindowBits = deflateWindow ?? configuration.deflateWindowBits
    guard (9...15).contains(configuration.deflateWindowBits) else {
      throw ValidationError("--deflate-window must be 9–15")
    }
    if deflateContextTakeover { configuration.deflateNoContextTakeover = false }
    configuration.deflateMemoryLevel = deflateMemoryLevel ?? configuration.deflateMemoryLevel
    configuration.deflateLevel = deflateLevel ?? configuration.deflateLevel
    configuration.legacyBroadcast = legacyBroadcast
    guard (1...9).contains(configuration.deflateLevel) else {
      throw ValidationError("--deflate-level must be 1–9")
    }
    guard (1...9).contains(configuration.deflateMemoryLevel) else {
      throw ValidationError("--deflate-memory-level must be 1–9")
    }
    configuration.moderation = moderation
    configuration.wordLists = try Self.wordLists(wordLists)
    guard (0...65535).contains(configuration.port) else {
      throw ValidationError("--port must be 0–65535")
    }
    let positive: [(String, Bool)] = [
      ("--max-question-length", configuration.maxQuestionLength > 0),
      ("--rate-limit", configuration.rateLimit > 0),
      ("--vote-rate-limit", configuration.voteRateLimit > 0),
      ("--new-attendee-rate-limit", configuration.newAttendeeRateLimit > 0),
      ("--new-attendee-window", configuration.newAttendeeWindow > .zero),
      ("--max-connections", configuration.maxConnections > 0),
      ("--max-http-per-address", configuration.maxHTTPConnectionsPerAddress > 0),
      ("--header-timeout", configuration.headerTimeout > .zero),
      ("--rate-window", configuration.rateWindow > .zero),
    ]
    if let (option, _) = positive.first(where: { !$0.1 }) {
      throw ValidationError("\(option) must be more than 0")
    }
    guard configuration.maxMessageSize >= 125 else {
      throw ValidationError("--max-message-size must be at least 125")
    }
    if mock {
      configuration.mock = MockConfiguration(
        autoAnswerAfter: try autoAnswerAfter.map(Self.parseRange), reject: reject,
        latency: try latency.map(DurationValue.parse))
    } else if autoAnswerAfter != nil || reject != nil || latency != nil {
      throw ValidationError("--auto-answer-after, --reject and --latency need --mock")
    }
    return configuration
  }
}
