/// A session's word lists, ready to match questions against: each entry a word or a phrase,
/// matched whole (so "Scunthorpe" does not match a word inside it), case, accents and common
/// letter substitutions ignored (`WordFolding`). Matching a question costs a few lookups per
/// word, whatever the lists' size: one-word entries by their readings in one table, phrases
/// in a tree of words.
package struct WordFilter: Sendable {
  /// Entries of one word, by each folded reading: the entry as its list has it.
  private var words: [String: String] = [:]
  /// Entries of several words, as a tree: each node's children by the next word's reading;
  /// node 0 is the root.
  private var nodes: [PhraseNode] = [PhraseNode()]
  /// Entries kept.
  package private(set) var count = 0

  private struct PhraseNode: Sendable {
    var children: [String: Int] = [:]
    /// The phrase that ends here.
    var entry: String?
  }

  /// The most entries a session's lists hold together.
  package static let maxEntries = 20_000
  /// The longest entry, in characters.
  package static let maxEntryLength = 64
  /// The most words an entry (a phrase) has.
  package static let maxPhraseWords = 8
  /// The most matches told for one question.
  package static let maxMatchesTold = 5
  /// Runs of single letters ("f u c k", "f.u.c.k") are read as one word too, up to this
  /// many letters.
  static let maxSpelledRun = 24
  /// Phrases followed at once from one word of a question: a bound on the work per word.
  static let maxActivePhrases = 16

  package init(entries: some Sequence<String>) {
    for entry in entries { add(entry) }
  }

  package var isEmpty: Bool { count == 0 }

  private mutating func add(_ entry: String) {
    let tokens = WordFolding.tokens(entry)
    guard !tokens.isEmpty, tokens.count <= Self.maxPhraseWords,
      tokens.allSatisfy({ $0.count <= WordFolding.maxWordLength })
    else { return }
    count += 1
    add(entry, as: tokens)
    // An entry in another script also as its look-alikes read as Latin letters: a question
    // that disguises it with Latin ones ("дурaк", a Latin a) folds to that reading.
    let latin = WordFolding.tokens(entry, readingLookalikes: true)
    if latin != tokens { add(entry, as: latin) }
  }

  /// `entry`, folded into `tokens`, under each of its readings.
  private mutating func add(_ entry: String, as tokens: [String]) {
    // An entry's signs are letters (its edges are no punctuation): "@ss" is "ass" only.
    let readings = tokens.map(WordFolding.substituted)
    if readings.count == 1 {
      for reading in readings[0] where words[reading] == nil { words[reading] = entry }
      return
    }
    // A phrase: every reading of its first word; the first reading of the others (signs
    // inside a phrase's later words are rare), so that an entry makes at most 8 paths.
    for first in readings[0] {
      var node = child(of: 0, first)
      for word in readings.dropFirst() { node = child(of: node, word[0]) }
      if nodes[node].entry == nil { nodes[node].entry = entry }
    }
  }

  private mutating func child(of node: Int, _ word: String) -> Int {
    if let next = nodes[node].children[word] { return next }
    nodes.append(PhraseNode())
    nodes[node].children[word] = nodes.count - 1
    return nodes.count - 1
  }

  /// The entries `text` contains, each once, in the order they occur, at most
  /// `maxMatchesTold`.
  package func matches(_ text: String) -> [String] {
    guard !isEmpty else { return [] }
    let tokens = WordFolding.tokens(text)
    let readings = tokens.map(WordFolding.readings)
    var found: [String] = []
    func note(_ entry: String) {
      if !found.contains(entry) { found.append(entry) }
    }
    for index in readings.indices where found.count < Self.maxMatchesTold {
      for reading in readings[index] {
        if let entry = words[reading] { note(entry) }
      }
      followPhrases(from: index, readings, note)
    }
    for run in Self.spelledRuns(tokens) where found.count < Self.maxMatchesTold {
      for start in run.indices {
        var word = ""
        for end in start..<min(run.count, start + Self.maxSpelledRun) {
          word += run[end]
          if end - start >= 2, let entry = words[word] { note(entry) }
        }
      }
    }
    return Array(found.prefix(Self.maxMatchesTold))
  }

  /// The phrases that start at word `start`: down the tree, word by word, a bounded number
  /// of paths at once.
  private func followPhrases(
    from start: Int, _ readings: [[String]], _ note: (String) -> Void
  ) {
    guard nodes.count > 1 else { return }
    var active = [0]
    for index in start..<min(readings.count, start + Self.maxPhraseWords) {
      var next: [Int] = []
      for node in active {
        for reading in readings[index] {
          guard let child = nodes[node].children[reading], !next.contains(child) else {
            continue
          }
          if let entry = nodes[child].entry { note(entry) }
          if next.count < Self.maxActivePhrases { next.append(child) }
        }
      }
      if next.isEmpty { return }
      active = next
    }
  }

  /// Runs of three or more one-letter words, each letter as read.
  private static func spelledRuns(_ tokens: [String]) -> [[String]] {
    var runs: [[String]] = []
    var current: [String] = []
    for token in tokens + [""] {
      if token.count == 1, let reading = WordFolding.substituted(token).first {
        current.append(reading)
      } else {
        if current.count >= 3 { runs.append(current) }
        current = []
      }
    }
    return runs
  }

  /// Why `entry` cannot be in a list, in words, or nil: a word or a phrase of letters,
  /// digits, spaces, apostrophes and hyphens (and the signs that stand for letters), not a
  /// pattern.
  package static func problem(with entry: String) -> String? {
    if entry.count > maxEntryLength {
      return "An entry is at most \(maxEntryLength) characters: “\(entry.prefix(20))…”."
    }
    let allowed = entry.allSatisfy { character in
      character.isLetter || character.isNumber || character == " " || character == "'"
        || character == "’" || character == "-"
        || WordFolding.substitutes[character] != nil
        || character.unicodeScalars.allSatisfy {
          $0.properties.generalCategory == .nonspacingMark
        }
    }
    guard allowed else {
      return "Entries are words or phrases, not patterns: “\(entry)” has other characters."
    }
    let words = WordFolding.tokens(entry)
    if words.isEmpty { return "“\(entry)” has no word in it." }
    if words.count > maxPhraseWords {
      return "A phrase is at most \(maxPhraseWords) words: “\(entry.prefix(20))…”."
    }
    if words.contains(where: { $0.count > WordFolding.maxWordLength }) {
      return "“\(entry.prefix(20))…” has a word too long once its letters are spelled out."
    }
    return nil
  }
}
