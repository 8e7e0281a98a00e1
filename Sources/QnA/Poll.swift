#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Extension `polls` (docs/protocol-extensions.md): presenters ask the room, every screen
// shows the answer. A poll's results travel as counts, never as other attendees' answers.

/// What a poll asks for.
public enum PollKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// One of the options.
  case single
  /// Up to `max` of the options.
  case multiple
  /// A number on the poll's scale (1–5, 1–10, or a 0–100 slider).
  case rating
  /// The options in order, first to last: a place earns points as Slido counts them (with N
  /// options, first N, then N − 1, … 1), shown averaged over those who answered.
  case ranking
  /// Up to `max` short answers of a few words, counted after folding (case, accents).
  case words
  /// One line of text, moderated like questions: presenters let entries through to the room.
  case text

  /// Whether the poll's answer names its options (and a quiz may mark some correct).
  public var hasOptions: Bool { self == .single || self == .multiple || self == .ranking }
}

/// Where a poll is: prepared, taking answers, or done.
public enum PollState: String, Sendable, Hashable, Codable {
  case draft, open, closed
}

/// A rating poll's scale, both ends included.
public struct PollScale: Sendable, Hashable, Codable {
  public var min: Int
  public var max: Int

  public init(min: Int, max: Int) {
    self.min = min
    self.max = max
  }

  /// How many values it has.
  public var count: Int { max - min + 1 }
}

/// A poll as a presenter prepares it (and imports or exports it as JSON).
public struct PollSpec: Sendable, Hashable, Codable {
  public var kind: PollKind
  public var prompt: String
  /// The choice kinds' options, in order.
  public var options: [String]?
  /// `multiple`: the most options one answer may choose (absent: all); `words`: the most
  /// entries one answer may have (absent: 3).
  public var max: Int?
  /// `rating`: its scale (absent: 1–5).
  public var scale: PollScale?
  /// Quiz mode, for the choice kinds: the options that are correct (a `ranking` quiz: the
  /// right order). Presenters see it; attendees once the poll is closed and shown.
  public var correct: [Int]?
  /// Quiz mode: seconds from opening during which answers count (absent: until closed).
  public var timeLimit: Int?
  /// Quiz mode: the leaderboard names attendees by their display names (else anonymously).
  public var namedBoard: Bool?

  public init(
    kind: PollKind, prompt: String, options: [String]? = nil, max: Int? = nil,
    scale: PollScale? = nil, correct: [Int]? = nil, timeLimit: Int? = nil,
    namedBoard: Bool? = nil
  ) {
    self.kind = kind
    self.prompt = prompt
    self.options = options
    self.max = max
    self.scale = scale
    self.correct = correct
    self.timeLimit = timeLimit
    self.namedBoard = namedBoard
  }

  /// The scale a rating poll uses.
  public var ratingScale: PollScale { scale ?? PollScale(min: 1, max: 5) }

  /// How many counts its results have: one per option, or per value of the scale; none for
  /// words, which are counted by word.
  public var countSlots: Int {
    switch kind {
    case .single, .multiple, .ranking: options?.count ?? 0
    case .rating: ratingScale.count
    case .words, .text: 0
    }
  }

  /// Whether it is a quiz.
  public var isQuiz: Bool { correct != nil }
}

/// An attendee's answer to a poll: the options chosen (a ranking: all, in order), a rating,
/// a word cloud's entries, or an open text.
public struct PollValue: Sendable, Hashable, Codable {
  public var choices: [Int]?
  public var rating: Int?
  public var words: [String]?
  public var text: String?

  public init(
    choices: [Int]? = nil, rating: Int? = nil, words: [String]? = nil, text: String? = nil
  ) {
    self.choices = choices
    self.rating = rating
    self.words = words
    self.text = text
  }
}

/// One word of a word cloud, with how many answers have it.
public struct PollWord: Sendable, Hashable, Codable {
  public var text: String
  public var count: Int

  public init(text: String, count: Int) {
    self.text = text
    self.count = count
  }
}

/// A poll's results: how many answered, and the counts. `counts` has one entry per option
/// (`ranking`: the option's points) or per value of a rating's scale, lowest first; a word
/// cloud has its top words instead, most counted first; an open text its live entries,
/// newest first (and, for presenters, those waiting for review).
public struct PollResults: Sendable, Hashable, Codable {
  /// In a delta's `pollResults`: which poll (its `n`).
  public var n: Int?
  public var answers: Int
  public var counts: [Int]?
  public var words: [PollWord]?
  /// An open text's entries the room sees, each with how many gave it.
  public var texts: [PollWord]?
  /// Presenters only: an open text's entries waiting for review, oldest first, and how many
  /// wait in all.
  public var review: [PollWord]?
  public var held: Int?

  public init(
    n: Int? = nil, answers: Int, counts: [Int]? = nil, words: [PollWord]? = nil,
    texts: [PollWord]? = nil, review: [PollWord]? = nil, held: Int? = nil
  ) {
    self.n = n
    self.answers = answers
    self.counts = counts
    self.words = words
    self.texts = texts
    self.review = review
    self.held = held
  }
}

/// A poll as the room sees it.
public struct RoomPoll: Sendable, Hashable, Codable {
  public var id: UUID
  /// Its number in the session, which `pollResults` name it by.
  public var n: Int
  /// A `PollKind`, as text: a kind this client does not know is shown, not answered.
  public var kind: String
  public var prompt: String
  public var options: [String]?
  public var max: Int?
  public var scale: PollScale?
  /// A `PollState`, as text.
  public var state: String
  /// Whether attendees see its results (presenters always do).
  public var shown: Bool
  /// Quiz mode: true; its answers are in `correct` for presenters, and for attendees once
  /// it is closed and shown.
  public var quiz: Bool?
  public var correct: [Int]?
  /// Quiz mode: seconds from opening during which answers count.
  public var timeLimit: Int?
  /// Quiz mode with a time limit: when answers stop counting (set when it opens).
  public var closesAt: Date?
  public var namedBoard: Bool?
  /// Its results, where the receiver may see them.
  public var results: PollResults?
  /// Quiz mode, once closed and shown: the session's leaderboard over its closed quizzes,
  /// best first (names only where the presenter chose `namedBoard`).
  public var leaderboard: [LeaderboardEntry]?
  /// In a snapshot for one attendee: their answer.
  public var mine: PollValue?
  /// How many times presenters reset it (absent: never): when it changes, the answers
  /// are gone, the receiver's too.
  public var round: Int?

  public init(
    id: UUID, n: Int, spec: PollSpec, state: PollState, shown: Bool, closesAt: Date? = nil,
    results: PollResults? = nil
  ) {
    self.id = id
    self.n = n
    kind = spec.kind.rawValue
    prompt = spec.prompt
    options = spec.options
    max = spec.max
    scale = spec.kind == .rating ? spec.ratingScale : spec.scale
    self.state = state.rawValue
    self.shown = shown
    quiz = spec.isQuiz ? true : nil
    correct = spec.correct
    timeLimit = spec.timeLimit
    self.closesAt = closesAt
    namedBoard = spec.namedBoard
    self.results = results
  }

  public var pollKind: PollKind? { PollKind(rawValue: kind) }
  public var pollState: PollState? { PollState(rawValue: state) }

  /// The poll as a presenter prepared it (what `pollExport` writes).
  public var spec: PollSpec? {
    pollKind.map {
      PollSpec(
        kind: $0, prompt: prompt, options: options, max: max, scale: scale, correct: correct,
        timeLimit: timeLimit, namedBoard: namedBoard)
    }
  }
}

/// A place on a quiz's leaderboard.
public struct LeaderboardEntry: Sendable, Hashable, Codable {
  /// 1 for the best; attendees with the same score share a place.
  public var place: Int
  /// The attendee's display name, on a named board where they gave one.
  public var name: String?
  /// Quizzes answered right.
  public var score: Int

  public init(place: Int, name: String?, score: Int) {
    self.place = place
    self.name = name
    self.score = score
  }
}

/// An attendee's own answer, in `roomOwn` (extension `counts`): the poll's number and the
/// answer.
public struct PollMine: Sendable, Hashable, Codable {
  public var n: Int
  public var value: PollValue

  public init(n: Int, value: PollValue) {
    self.n = n
    self.value = value
  }
}
