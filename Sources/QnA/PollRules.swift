#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What makes a poll and an answer to it acceptable, the same on both ends (the client tells
/// its user at once, the server refuses what any client sends), and how an answer counts.
/// Every bound here keeps a poll's page and its results under a message's size whatever
/// presenters or attendees type.
public enum PollRules {
  public static let maxPromptLength = 300
  public static let maxOptions = 20
  public static let maxOptionLength = 120
  /// Bytes of a prompt or an option as UTF-8, whatever their characters.
  public static let maxTextBytes = 600
  /// A session's polls, and how many may be open at once.
  public static let maxPolls = 100
  public static let maxOpen = 10
  /// A word cloud's entries per answer, and each entry's length once folded.
  public static let maxWords = 3
  public static let maxWordLength = 24
  public static let maxWordBytes = 96
  /// The words a word cloud's results carry: the most counted, however many there are.
  public static let topWords = 50
  /// A rating's scale: from 0 or 1, up to at most 100 (a slider).
  public static let maxRating = 100
  /// An open text's answer, once cleaned.
  public static let maxTextAnswerLength = 140
  public static let maxTextAnswerBytes = 560
  /// An open text's entries its results carry (live ones; presenters' waiting ones too),
  /// at most, and their bytes together: a poll stays on one page.
  public static let topTexts = 20
  public static let maxTextResultBytes = 4000
  /// A quiz's time limit, in seconds.
  public static let timeLimits = 5...3600

  /// The key under which a poll's count of answers is kept beside its counts.
  public static let answersKey = ""

  /// A poll's spec as JSON, at most: with its results (a word cloud's top words, about 5 KB
  /// at most) and a leaderboard, a poll stays on one page under any message limit.
  public static let maxSpecBytes = 6 * 1024

  /// Why `spec` cannot be a poll, in words, or `nil` when it can.
  public static func problem(with spec: PollSpec) -> String? {
    if let problem = problemOfParts(spec) { return problem }
    if WireCodec().encodedSize(of: spec) > maxSpecBytes {
      return "A poll's text is at most \(maxSpecBytes / 1024) KiB together: shorten its options."
    }
    return nil
  }

  private static func problemOfParts(_ spec: PollSpec) -> String? {
    if let problem = lineProblem(spec.prompt, what: "The question", maxLength: maxPromptLength) {
      return problem
    }
    let options = spec.options ?? []
    if spec.kind.hasOptions {
      guard options.count >= 2 else {
        return "A \(spec.kind.rawValue) poll has two options or more."
      }
      guard options.count <= maxOptions else {
        return "A poll has at most \(maxOptions) options."
      }
      for option in options {
        if let problem = lineProblem(option, what: "An option", maxLength: maxOptionLength) {
          return problem
        }
      }
      let folded = options.map { $0.lowercased() }
      if Set(folded).count != folded.count { return "Each option is there once." }
    } else if !options.isEmpty {
      return "A \(spec.kind.rawValue) poll has no options."
    }
    switch spec.kind {
    case .multiple:
      if let max = spec.max, !(1...options.count).contains(max) {
        return "A multiple choice poll lets each attendee choose 1 to \(options.count) options."
      }
    case .words:
      if let max = spec.max, !(1...maxWords).contains(max) {
        return "A word cloud takes 1 to \(maxWords) entries from each attendee."
      }
    case .rating:
      let scale = spec.ratingScale
      guard (0...1).contains(scale.min), (scale.min + 1...maxRating).contains(scale.max) else {
        return "A rating's scale goes from 0 or 1 up to at most \(maxRating)."
      }
    case .single, .ranking, .text:
      if spec.max != nil { return "Only a multiple choice poll or a word cloud has a maximum." }
    }
    if spec.kind != .rating, spec.scale != nil { return "Only a rating has a scale." }
    return quizProblem(spec)
  }

  private static func quizProblem(_ spec: PollSpec) -> String? {
    guard let correct = spec.correct else {
      return spec.timeLimit != nil || spec.namedBoard != nil
        ? "A time limit and a leaderboard are for quizzes: mark the correct options." : nil
    }
    guard spec.kind.hasOptions else { return "Only a choice or ranking poll can be a quiz." }
    let count = spec.options?.count ?? 0
    guard !correct.isEmpty, Set(correct).count == correct.count,
      correct.allSatisfy({ (0..<count).contains($0) })
    else { return "A quiz's correct options are options of the poll, each once." }
    switch spec.kind {
    case .single where correct.count != 1: return "A single choice quiz has one correct option."
    case .multiple where correct.count > (spec.max ?? count):
      return "A quiz cannot need more options than an answer may choose."
    case .ranking where correct.count != count: return "A ranking quiz gives the whole order."
    default: break
    }
    if let limit = spec.timeLimit, !timeLimits.contains(limit) {
      return
        "A quiz's time limit is \(timeLimits.lowerBound) to \(timeLimits.upperBound) seconds."
    }
    return nil
  }

  /// Why a prompt or an option is refused: empty, too long, more than one line, or with
  /// characters that draw nothing or reorder what follows.
  static func lineProblem(_ text: String, what: String, maxLength: Int) -> String? {
    if text.count > maxLength || text.utf8.count > maxTextBytes {
      return "\(what) has at most \(maxLength) characters."
    }
    if text.unicodeScalars.contains(where: isHidden) {
      return "\(what) is one line, without control, bidi or invisible characters."
    }
    if let problem = QuestionText.problem(with: text, maxLength: maxLength) {
      return problem == .empty
        ? "\(what) is empty."
        : "\(what) has a character with more than \(QuestionText.maxScalarsPerCharacter) marks."
    }
    return nil
  }

  /// What an open text's answer drops: what `isHidden` names, and letters that draw
  /// nothing; not the zero-width joiners, which emoji sequences and Persian spell with.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\u{200C}" || scalar == "\u{200D}" { return false }
    return isHidden(scalar) || scalar.properties.isDefaultIgnorableCodePoint
  }

  /// Controls (line breaks too) and format characters (bidi marks, zero-width ones).
  static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }

  /// `value` as `spec` counts it, or why it is refused: choices in range, each once, within
  /// the maximum (a ranking: every option once); a rating on the scale; word cloud entries
  /// as `fold` reads them (`nil`: refused), each once.
  public static func accepted(
    _ value: PollValue, for spec: PollSpec, fold: (String) -> String?
  ) -> Result<PollValue, Refused> {
    let count = spec.options?.count ?? 0
    switch spec.kind {
    case .single, .multiple, .ranking:
      guard value.rating == nil, value.words == nil, let choices = value.choices else {
        return .failure(Refused("This poll's answer names its options."))
      }
      guard choices.allSatisfy({ (0..<count).contains($0) }), Set(choices).count == choices.count
      else { return .failure(Refused("That answer names options the poll does not have.")) }
      switch spec.kind {
      case .single where choices.count != 1:
        return .failure(Refused("This poll takes one option."))
      case .multiple where choices.isEmpty || choices.count > (spec.max ?? count):
        return .failure(Refused("This poll takes 1 to \(spec.max ?? count) options."))
      case .ranking where choices.count != count:
        return .failure(Refused("A ranking puts every option in order."))
      default: break
      }
      return .success(PollValue(choices: spec.kind == .multiple ? choices.sorted() : choices))
    case .rating:
      guard value.choices == nil, value.words == nil, let rating = value.rating else {
        return .failure(Refused("A rating's answer is a number."))
      }
      let scale = spec.ratingScale
      guard (scale.min...scale.max).contains(rating) else {
        return .failure(Refused("A rating is from \(scale.min) to \(scale.max)."))
      }
      return .success(PollValue(rating: rating))
    case .words:
      guard value.choices == nil, value.rating == nil, let entries = value.words else {
        return .failure(Refused("A word cloud's answer is words."))
      }
      let most = spec.max ?? maxWords
      guard entries.count <= most else {
        return .failure(Refused("A word cloud takes at most \(most) entries."))
      }
      var words: [String] = []
      for entry in entries {
        guard let word = fold(entry) else {
          return .failure(
            Refused("An entry has at most \(maxWordLength) characters, and something to read."))
        }
        if !words.contains(word) { words.append(word) }
      }
      guard !words.isEmpty else { return .failure(Refused("The answer has no words.")) }
      return .success(PollValue(words: words))
    case .text:
      guard value.choices == nil, value.rating == nil, value.words == nil, let text = value.text
      else { return .failure(Refused("This poll's answer is a line of text.")) }
      guard let cleaned = cleanText(text) else {
        return .failure(
          Refused(
            "An answer has at most \(maxTextAnswerLength) characters, and something to read."))
      }
      return .success(PollValue(text: cleaned))
    }
  }

  /// An open text's answer as it is kept and shown: controls, bidi and invisible characters
  /// off (format characters, and letters that draw nothing such as the Hangul fillers; the
  /// joiners emoji and some scripts spell with stay), runs of spaces one, spaces off both
  /// ends; `nil` when nothing is left, it is too long, or a character has too many marks.
  /// Past eight times the most bytes, its length alone refuses it (a long answer costs no
  /// more than its first bytes). The server also composes it (NFC, `PollWords.composed`), so
  /// that two spellings of one text are one entry.
  public static func cleanText(_ text: String) -> String? {
    guard text.utf8.count <= maxTextAnswerBytes * 8 else { return nil }
    var cleaned = ""
    var space = false
    for scalar in text.unicodeScalars where !isInvisible(scalar) || scalar.properties.isWhitespace {
      if scalar.properties.isWhitespace {
        space = !cleaned.isEmpty
        continue
      }
      if space { cleaned.unicodeScalars.append(" ") }
      space = false
      cleaned.unicodeScalars.append(scalar)
    }
    guard !cleaned.isEmpty, cleaned.count <= maxTextAnswerLength,
      cleaned.utf8.count <= maxTextAnswerBytes,
      QuestionText.problem(with: cleaned, maxLength: maxTextAnswerLength) == nil
    else { return nil }
    return cleaned
  }

  /// What an accepted answer adds to its poll's counts, by key: each option chosen (a
  /// ranking's option, its place's points: N for first … 1 for last), the rating's place on
  /// the scale, each word; and one to the answers (`answersKey`).
  public static func weights(of value: PollValue, for spec: PollSpec) -> [(
    key: String, weight: Int
  )] {
    var weights: [(String, Int)] = [(answersKey, 1)]
    switch spec.kind {
    case .single, .multiple: weights += (value.choices ?? []).map { (String($0), 1) }
    case .ranking:
      let choices = value.choices ?? []
      weights += choices.enumerated().map { place, option in (String(option), choices.count - place)
      }
    case .rating:
      if let rating = value.rating { weights.append((String(rating - spec.ratingScale.min), 1)) }
    case .words: weights += (value.words ?? []).map { ($0, 1) }
    case .text: if let text = value.text { weights.append((text, 1)) }
    }
    return weights
  }

  /// The results from a poll's kept counts (keys as `weights` made them): `counts` by slot,
  /// or a word cloud's most counted words (most first, then alphabetical).
  public static func results(
    _ counts: [String: Int], for spec: PollSpec, n: Int? = nil
  ) -> PollResults {
    let answers = counts[answersKey] ?? 0
    if spec.kind == .words {
      let words = counts.filter { $0.key != answersKey && $0.value > 0 }
        .sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(topWords)
        .map { PollWord(text: $0.key, count: $0.value) }
      return PollResults(n: n, answers: answers, words: words)
    }
    let slots = (0..<spec.countSlots).map { counts[String($0)] ?? 0 }
    return PollResults(n: n, answers: answers, counts: slots)
  }

  /// An open text's entries as results carry them: the first `topTexts`, no more than
  /// `maxTextResultBytes` of text together.
  public static func textEntries(_ entries: [PollWord]) -> [PollWord] {
    var kept: [PollWord] = []
    var bytes = 0
    for entry in entries.prefix(topTexts) {
      bytes += entry.text.utf8.count
      guard bytes <= maxTextResultBytes else { break }
      kept.append(entry)
    }
    return kept
  }

  /// Whether a quiz's answer is right (as Vevox scores it, a point for each poll answered
  /// wholly right): a single choice the correct option, a multiple choice exactly the
  /// correct options, a ranking the correct order. `false` for a poll that is no quiz.
  public static func isCorrect(_ value: PollValue, for spec: PollSpec) -> Bool {
    guard let correct = spec.correct, let choices = value.choices else { return false }
    switch spec.kind {
    case .ranking: return choices == correct
    case .single, .multiple: return Set(choices) == Set(correct)
    case .rating, .words, .text: return false
    }
  }

  /// Places a leaderboard shows.
  public static let leaderboardSize = 10

  /// A refusal, in words.
  public struct Refused: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
  }
}
