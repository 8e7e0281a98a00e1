import CommandLineValues
import Foundation
import QnA

/// What the room needs of the server's settings: the app's `ServerConfiguration` makes it.
package struct RoomSettings: Sendable {
  /// Project extensions (tokens, resume, the room, presenters' actions, sessions); off to
  /// behave exactly as the existing back ends.
  package var extensions = true
  /// New questions wait in review until a presenter approves them.
  package var moderation = false
  /// Longest question, in characters.
  package var maxQuestionLength = 1000
  /// Largest WebSocket message, announced in the handshake.
  package var maxMessageSize = 16 * 1024
  /// How long the room's changes are gathered into one delta.
  package var window: Duration = .milliseconds(100)
  /// Whether a room whose broadcasts cost more to write waits longer between them.
  package var spacedByCost = true
  /// New attendee credentials one address may be issued without work at once, refilled at
  /// this many per `newAttendeeWindow` (loopback and the trusted proxies are not counted).
  package var newAttendeesPerAddress = 10
  /// What a new identity costs a counted address's client that can pay it (extension
  /// `identityWork`); `nil`: nothing, and every new identity comes from the budget above.
  package var identityWork: IdentityWork? = .standard
  package var newAttendeeWindow: Duration = .seconds(60)
  /// The compressors every socket's frames share (`nil`: none negotiates compression here,
  /// or the library compresses per socket).
  package var deflaters: CompressorPool?
  /// Questions and votes one person (an identity, or an address's sockets without one) may
  /// make at once, refilled at that many per `personWindow` (`--rate-limit`,
  /// `--vote-rate-limit`, `--rate-window`).
  package var questionsPerPerson = 20
  package var votesPerPerson = 50
  package var personWindow: Duration = .seconds(10)
  /// Questions the attendee page's form may post from one address at once, refilled at this
  /// many per `formQuestionWindow` (`--rate-limit` per `--rate-window`, as a socket's);
  /// addresses the budgets do not tell apart (loopback, a proxy) share one bucket.
  package var formQuestionsPerAddress = 20
  package var formQuestionWindow: Duration = .seconds(10)
  /// Whether the handshake announces the compact room (extension `counts`).
  package var compactRoom = true
  /// Word lists every session's filter has, by name (`--word-list NAME=FILE`), and the
  /// matcher made of them once for all.
  package var wordLists: [String: [String]] = [:] {
    didSet { serverFilter = WordFilter(entries: wordLists.values.joined()) }
  }
  package private(set) var serverFilter = WordFilter(entries: [])

  package init() {}
}

/// Where a test server may bend the real path (`--mock`): each hook is a no-op by default,
/// and the room calls it at one place, never branching on the mock itself.
package struct RoomHooks: Sendable {
  /// A refusal for a question's text, checked before it is stored.
  package var refusal: @Sendable (_ content: String) -> String? = { _ in nil }
  /// Every message to a socket waits this long first.
  package var sendDelay: Duration?
  /// A new question was stored in `room`.
  package var questionStored: @Sendable (_ id: UUID, _ room: SessionRoom) -> Void = { _, _ in }

  package init() {}

  /// The real path: no refusals, no delays.
  package static let none = RoomHooks()
}

/// The server's view of time and identity, injected so that tests can fix them.
public struct ServerEnvironment: Sendable {
  /// Wall-clock time, for `createdAt`.
  public var now: @Sendable () -> Date
  /// Monotonic time, for the room's timers (its coalescing window, its retries).
  public var clock: any SessionClock
  /// Monotonic time, for rate limits and latency: the clock's, unless a test fixes it.
  public var uptime: @Sendable () -> Duration
  /// Fresh ids for connections and questions.
  public var makeID: @Sendable () -> UUID
  /// A number in [0, 1), for the mock's random delays.
  public var random: @Sendable () -> Double

  public init(
    now: @escaping @Sendable () -> Date = { Date() },
    clock: any SessionClock = SystemClock(),
    uptime: (@Sendable () -> Duration)? = nil,
    makeID: @escaping @Sendable () -> UUID = { UUID() },
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.now = now
    self.clock = clock
    self.uptime = uptime ?? { clock.now }
    self.makeID = makeID
    self.random = random
  }
}
