#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The room as this client knows it (extension `room`): every published question with its
/// votes, the question being answered now, and this attendee's own votes.
public struct Room: Sendable, Equatable {
  /// Whether the current server has the room (its handshake said so).
  public internal(set) var isAvailable = false
  /// Extension `counts`: the server sends the compact room, which this client asks for.
  var isCompact = false
  /// Extension `counts`: each question's number in the room, as the server gave it.
  var numbers: [Int: UUID] = [:]
  /// The room came from a compact snapshot (numbered): a compact catch-up can follow it. One
  /// from a server without `counts` is taken whole again from one that has it.
  var numbered = false
  /// A compact snapshot arrived and its `roomOwn` has not: its lines are held until then.
  var awaitingOwn = false
  /// A compact snapshot arrived and its `roomOwn` has not: this attendee's own questions and
  /// votes are not marked yet, so a question it voted for reads as not voted meanwhile.
  public var awaitsOwnMarks: Bool { awaitingOwn }
  /// The room's sequence number this client is at; `nil` until a whole snapshot arrived.
  public internal(set) var seq: Int?
  /// Which room `seq` counts in.
  var epoch: UUID?
  public internal(set) var questions: [UUID: RoomQuestion] = [:]
  /// The question being answered now.
  public internal(set) var highlighted: UUID?
  /// Extension `announcements`: the presenter's banner for the room, if any.
  public internal(set) var announcement: Announcement?
  /// Extension `queue`: the next questions, in order, and whether the room sees them.
  public internal(set) var nextUp = NextUp()
  /// Extension `labels`: the session's labels, in the order presenters added them.
  public internal(set) var labels: [String] = []
  /// Clock time each question last gained votes, for a brief highlight as it moves up.
  public internal(set) var risenAt: [UUID: Duration] = [:]
  /// This attendee's votes as the server last said.
  var myVotes: Set<UUID> = []
  /// The room sequence number at which a vote's answer settled this attendee's vote on a
  /// question: a snapshot older than that does not undo it.
  var voteSettledAt: [UUID: Int] = [:]
  /// Votes typed and not yet answered by the server, by question: the latest intent wins.
  var pendingVotes: [UUID: PendingVote] = [:]
  /// Extension `polls`: the session's polls and this attendee's answers.
  public internal(set) var polls = RoomPolls()
  /// A snapshot arriving page by page.
  package var assembling: Assembly?
  /// When a catch-up was asked for after a gap (deltas past the gap wait for it).
  var catchUpAskedAt: Duration?
  /// The newest sequence number any delta reached, applied or set aside after a gap.
  var newestSeen = 0
  /// This connection has introduced the attendee: votes may go.
  var joined = false
  /// Extension `identity`: the server had no identity for this attendee yet and said when
  /// to join again.
  var joinAgainAt: Duration?
  /// Extension `identityWork`: what a new identity costs on this connection, when the
  /// server named a price a client can pay; whether this connection sent work already, and
  /// whether the server asked for work though this client has a credential (it did not know
  /// it).
  var identityWork: IdentityWork?
  var workSent = false
  var workAsked = false

  package struct Assembly: Sendable, Equatable {
    var seq: Int
    var parts: Int
    var pages: [Int: [RoomQuestion]] = [:]
    var highlighted: UUID?
    var epoch: UUID
    var announcement: Announcement?
    var nextUp: NextUp?
    var labels: [String]?
    /// Extension `polls`: the polls of the pages so far.
    var polls: [RoomPoll] = []
    /// Questions and text bytes kept so far: the bounds hold while pages arrive, not after.
    package var count = 0
    package var textBytes = 0
  }

  struct PendingVote: Sendable, Equatable {
    var up: Bool
    var token: UUID
    /// On the wire and not answered yet.
    var sent = false
    /// The server asked to wait until this clock time.
    var notBefore: Duration?
  }

  /// The votes the server has not answered yet, as a file keeps them between runs.
  public var keptVotes: [KeptVote] {
    pendingVotes.map { KeptVote(question: $0.key, up: $0.value.up, token: $0.value.token) }
      .sorted { $0.token.uuidString < $1.token.uuidString }
  }

  /// Size at which `risenAt` next forgets old rises (amortized: it doubles).
  private var risePruneSize = 64

  /// Questions a room may hold; a hostile server cannot grow it past this.
  package static let maxQuestions = 100_000
  /// Text (questions, answers, names) a room may hold, in UTF-8 bytes: with `maxQuestions`,
  /// what bounds a hostile server's room in memory. A real room of 100,000 questions of
  /// 300 characters fits.
  package static let maxTextBytes = 64 << 20
  /// Text bytes the room holds now.
  package var textBytes = 0

  static func textBytes(of question: RoomQuestion) -> Int {
    question.content.utf8.count + (question.answer?.utf8.count ?? 0)
      + (question.name?.utf8.count ?? 0)
      + (question.flagged?.reduce(0) { $0 + $1.utf8.count + 1 } ?? 0)
      + (question.label?.utf8.count ?? 0)
  }
  /// How long a catch-up may take before a new gap asks again.
  static let catchUpPatience = Duration.seconds(5)
  /// How long a rise is remembered: longer than any front end marks it.
  static let riseMemory = Duration.seconds(10)

  /// Whether `question` (new, or replacing the one with its id) fits the room's bounds; if it
  /// does, its text is counted in (the caller then stores it). A hostile server's endless
  /// room is cut here.
  mutating func admit(_ question: RoomQuestion) -> Bool {
    let old = questions[question.id]
    let growth = Self.textBytes(of: question) - (old.map(Self.textBytes) ?? 0)
    guard old != nil || questions.count < Self.maxQuestions, textBytes + growth <= Self.maxTextBytes
    else { return false }
    textBytes += growth
    return true
  }

  /// Remembers the numbers of these questions (extension `counts`), within the room's bounds.
  mutating func learnNumbers(_ questions: [RoomQuestion]) {
    for question in questions {
      guard let number = question.n, numbers.count < Self.maxQuestions || numbers[number] != nil
      else { continue }
      numbers[number] = question.id
    }
  }

  /// `id` gained votes at `now`.
  mutating func rose(_ id: UUID, at now: Duration) {
    risenAt[id] = now
    guard risenAt.count >= risePruneSize else { return }
    risenAt = risenAt.filter { $0.value + Self.riseMemory > now }
    risePruneSize = max(64, risenAt.count * 2)
  }
}

/// A vote typed and not answered by the server yet: kept on disk like a question, so that
/// quitting while offline loses none (its token makes a resend count once).
public struct KeptVote: Sendable, Hashable, Codable {
  public var question: UUID
  public var up: Bool
  public var token: UUID

  public init(question: UUID, up: Bool, token: UUID) {
    self.question = question
    self.up = up
    self.token = token
  }
}

/// One question as the attendee sees it in the room view.
public struct RoomEntry: Sendable, Hashable, Identifiable {
  public var question: RoomQuestion
  public var mine: Bool
  public var voted: Bool
  public var highlighted: Bool
  /// Extension `queue`: its place among the next questions (1 is next), when it has one.
  public var nextUp: Int?
  /// A vote typed here that the server has not yet answered.
  public var votePending: Bool

  public init(
    question: RoomQuestion, mine: Bool = false, voted: Bool = false, highlighted: Bool = false,
    votePending: Bool = false, nextUp: Int? = nil
  ) {
    self.nextUp = nextUp
    self.question = question
    self.mine = mine
    self.voted = voted
    self.highlighted = highlighted
    self.votePending = votePending
  }

  public var id: UUID { question.id }
  /// Where the presenter has it (extension `lifecycle`).
  public var state: QuestionState { question.lifecycle }
  /// The presenter's answer, when it has text.
  public var answer: String? { question.answer }
  /// The count shown: the server's, with a vote typed offline already counted.
  public var votes: Int { question.votes }
}

/// How the room view is sorted.
public enum RoomOrder: Sendable, Hashable {
  /// Unanswered first, most votes first (then oldest first); answered ones sunk below.
  case popular
  /// Newest first.
  case recent
}
