import Foundation
import NIOCore
import QnA
import QnAGuards
import QnARoom
import QnAStore
import QnAStoreLocation

/// Everything `qna-server` can be told, with the reference back end's defaults.
public struct ServerConfiguration: Sendable {
  public var host = "127.0.0.1"
  /// 0 picks a free port.
  public var port = 8080
  /// `--db`: an SQLite file, `:memory:`, or a `postgres://` URL (`StoreLocation`).
  public var database = StoreLocation.defaultPath
  /// How long, after SIGTERM, the instance stays up unready (`/readyz` 503, new sockets
  /// refused with 503) before it closes its sockets with 1001: time for a balancer that
  /// polls `/readyz` to stop sending people here (`--shutdown-delay`).
  public var shutdownDelay: Duration = .zero
  /// PostgreSQL's pool size and each call's time limit (`--db-pool`, `--db-call-limit`).
  public var databaseOptions = StoreOptions()
  /// When set, the presenter page, the answer routes, the API and the controls require it.
  public var adminToken: String?
  /// Bind to a non-loopback address without an admin token.
  public var allowPublic = false
  /// Largest WebSocket message (and frame) accepted; larger ones close the socket with 1009.
  public var maxMessageSize = 16 * 1024
  /// Longest question, in characters.
  public var maxQuestionLength = 1000
  /// Questions one attendee (`PersonBudgets`) may ask at once, refilled at that many per
  /// `rateWindow`: an
  /// attendee's backlog of 50 goes through in 15 s. Over it a question is refused with
  /// `retryAfter`, and the client sends it again then: nothing is lost.
  public var rateLimit = 20
  public var rateWindow: Duration = .seconds(10)
  /// Votes one attendee may cast (or take back) at once, refilled at that many per
  /// `rateWindow`: more than anyone clicks, fewer than a script that floods.
  public var voteRateLimit = 50
  /// New attendees (credentials issued by extension `identity`) one client address may get
  /// without work (extension `identityWork`) at once, refilled at that many per
  /// `newAttendeeWindow`; past it a join sees the room and gets its identity later (`joined`
  /// with `retryAfter`, and the price in work). The lane of clients that cannot pay: the
  /// crowd's pages and `qna` pay, so it stays small. Attendees coming back with their
  /// credential take none; loopback and trusted proxies themselves are not counted.
  public var newAttendeeRateLimit = 10
  public var newAttendeeWindow: Duration = .seconds(60)
  /// Leading zero bits of each of `IdentityWork.standard.count` hashes a new identity costs
  /// on a counted address (0: no price, every new identity from `newAttendeeRateLimit`).
  public var identityWorkBits = IdentityWork.standard.bits
  /// How long the room's changes are gathered into one delta after the first goes out:
  /// 2,000 attendees voting then cost one broadcast per window, not one per vote.
  public var roomWindow: Duration = .milliseconds(100)
  /// Broadcasts spaced by what writing them costs (`FanOutCost`); off only for the
  /// benchmark's baseline (`fixed-window`).
  public var broadcastsSpacedByCost = true
  /// Work a connection may cause without asking anything new (resends of stored questions,
  /// the ids of `resume`), per second; past it, its messages are served that much later.
  public var lookupRate = 1000
  public var maxConnections = 10_000
  /// Origins besides the server's own whose pages may open `/socket` and post to the
  /// presenter routes (`scheme://host[:port]`).
  public var allowedOrigins: [String] = []
  /// Reverse proxies in front of this server (IP addresses): their `X-Forwarded-For` and
  /// `X-Forwarded-Proto` are believed, and they are exempt from the per-address cap.
  public var trustedProxies: [String] = []
  /// Where people reach the server (`https://qna.example.org`), for join addresses and their
  /// QR codes; `nil`: the address a request reached (a trusted proxy's `X-Forwarded-Proto`
  /// and `X-Forwarded-Host`, else its `Host`).
  public var publicURL: String?

  /// A `--public-url` as the server keeps it (no slash at the end), `nil` when it is not
  /// `http(s)://HOST[:PORT]`.
  public static func validPublicURL(_ text: String) -> String? {
    JoinAddress.validPublicURL(text)
  }
  /// Time a new connection has to send its first whole request head (slowloris).
  public var headerTimeout: Duration = .seconds(10)
  /// An HTTP connection with nothing going on is closed after this long.
  public var idleTimeout: Duration = .seconds(60)
  /// A connection that reads nothing of what the server writes is closed after this long.
  public var writeStallTimeout: Duration = .seconds(30)
  /// HTTP connections (not upgraded to a WebSocket) one address may hold; loopback and
  /// trusted proxies exempt, since behind them every attendee shares one address.
  public var maxHTTPConnectionsPerAddress = 64
  /// How long a presenter's login (the page's cookie) lasts.
  public var loginLifetime: Duration = .seconds(12 * 3600)
  /// Bytes queued for one attendee's socket before it is dropped as too far behind.
  public var sendQueueLimit = 1 << 20
  /// Bytes queued for all sockets together: past it, a socket that would add more is
  /// dropped, so that thousands of attendees who stopped reading cannot fill the memory.
  public var sendQueueTotalLimit = 256 << 20
  /// The server pings each socket this often and drops it without a pong by the next ping,
  /// so sockets of attendees who vanished (sleep, roaming) do not pile up. `nil`: never
  /// ping, as the existing back ends. Default 60 s.
  public var pingInterval: Duration? = .seconds(60)
  /// permessage-deflate (RFC 7692) for clients that offer it, with its limit applied to the
  /// inflated message. Each socket's zlib state costs memory: see `deflateWindowBits`.
  public var deflate = true
  /// The server's compression window, 2^N bytes (9–15), and whether it forgets it after each
  /// message (zlib state then lives only while a message is compressed). Chosen from RSS
  /// per 1,000 sockets (docs/benchmarks.md) for a 10,000-attendee room.
  public var deflateWindowBits = 12
  public var deflateNoContextTakeover = true
  /// Votes read on their socket's event loop and answered from their batch (`LoopVotes`);
  /// `false`: through the socket's task, as before, the benchmarks' baseline
  /// (`ServerBenchmarks storm`), never a server's setting.
  public var votesOnLoop = true
  /// zlib's memLevel (1–9) for the server's compressor: its hash tables, 2^(N+9) bytes.
  public var deflateMemoryLevel = 4
  /// zlib's compression level (1 fastest … 9 smallest). Every socket compresses the room's
  /// deltas for itself, so the level is paid once per attendee: chosen from the room's
  /// server CPU against bytes per attendee (docs/benchmarks.md).
  public var deflateLevel = 1
  /// The room as it was before it shared its work, kept as the benchmarks' baseline: each
  /// socket's messages go through hummingbird-websocket, framed and compressed for that
  /// socket alone (with its own zlib state), and the compact room (`counts`) is not
  /// announced.
  public var legacyBroadcast = false
  /// New questions wait in review until a presenter approves them: only their askers and the
  /// presenters see them until then.
  public var moderation = false
  /// Word lists every session's filter has, by name (`--word-list NAME=FILE`).
  public var wordLists: [String: [String]] = [:]
  /// Project extensions (client tokens echoed and deduplicated); off to behave exactly as
  /// the existing back ends.
  public var extensions = true
  /// Fault injection and test controls; `nil` unless `--mock`.
  public var mock: MockConfiguration?

  public init() {}

  /// Whether `host` is a loopback address (safe without an admin token).
  public var bindsLoopbackOnly: Bool { LoopbackHost.isLoopback(bindAddress: host) }

  /// TCP connections of every kind the server holds at most: the attendees' sockets plus
  /// room for the presenter, tools and connections still sending their first request.
  var maxOpenConnections: Int { maxConnections + 1024 }
}

/// What `--mock` adds: answers on a timer, refusals by pattern, slow sends, and the
/// `/control` routes.
public struct MockConfiguration: Sendable {
  /// Each question is answered after a delay drawn uniformly from this range.
  public var autoAnswerAfter: ClosedRange<Duration>?
  /// A regular expression: matching questions get a failure response.
  public var reject: String?
  /// Delay before every outgoing WebSocket message.
  public var latency: Duration?

  public init(
    autoAnswerAfter: ClosedRange<Duration>? = nil, reject: String? = nil,
    latency: Duration? = nil
  ) {
    self.autoAnswerAfter = autoAnswerAfter
    self.reject = reject
    self.latency = latency
  }
}

extension ServerConfiguration {
  /// A trusted proxy's address as connections report it (`::1`, `10.0.0.7`), or nil when
  /// `text` is no IP address: a name or a range would never match, silently.
  public static func proxyAddress(_ text: String) -> String? {
    (try? SocketAddress(ipAddress: text, port: 0))?.ipAddress
  }
}

extension ServerConfiguration {
  /// What the room needs of these settings.
  var roomSettings: RoomSettings {
    var settings = RoomSettings()
    settings.extensions = extensions
    settings.moderation = moderation
    settings.maxQuestionLength = maxQuestionLength
    settings.maxMessageSize = maxMessageSize
    settings.window = roomWindow
    settings.spacedByCost = broadcastsSpacedByCost
    settings.newAttendeesPerAddress = newAttendeeRateLimit
    settings.newAttendeeWindow = newAttendeeWindow
    settings.identityWork =
      identityWorkBits > 0
      ? IdentityWork(bits: identityWorkBits, count: IdentityWork.standard.count) : nil
    settings.compactRoom = !legacyBroadcast
    settings.questionsPerPerson = rateLimit
    settings.votesPerPerson = voteRateLimit
    settings.personWindow = rateWindow
    settings.formQuestionsPerAddress = rateLimit
    settings.formQuestionWindow = rateWindow
    settings.wordLists = wordLists
    return settings
  }
}

extension ServerConfiguration {
  /// The most entries the server's lists have together.
  public static let maxWordListEntries = WordFilter.maxEntries
  /// The largest word list file read.
  public static let maxWordListBytes = WordListText.maxBytes

  /// A word list file's entries, or its problems in words.
  public static func parseWordList(_ text: String) -> Result<[String], WordListText.ListProblem> {
    WordListText.parse(Substring(text))
  }
}
