import QnA
import Testing

/// What makes a poll and an answer acceptable, and how answers count: the same rules on
/// both ends.
@Suite("qna: poll rules")
struct PollRulesTests {
  let choice = PollSpec(kind: .single, prompt: "Tabs or spaces?", options: ["Tabs", "Spaces"])

  @Test func aPlainPollOfEachKindIsAccepted() {
    let specs = [
      choice,
      PollSpec(kind: .multiple, prompt: "Which?", options: ["A", "B", "C"], max: 2),
      PollSpec(kind: .rating, prompt: "How was it?"),
      PollSpec(kind: .rating, prompt: "Slide", scale: PollScale(min: 0, max: 100)),
      PollSpec(kind: .ranking, prompt: "Order", options: ["A", "B", "C"]),
      PollSpec(kind: .words, prompt: "One word?"),
      PollSpec(kind: .single, prompt: "2+2?", options: ["3", "4"], correct: [1], timeLimit: 30),
    ]
    for spec in specs { #expect(PollRules.problem(with: spec) == nil, "\(spec)") }
  }

  @Test func hostileSpecsAreRefusedInWords() {
    let many = PollSpec(
      kind: .single, prompt: "Pick", options: (0..<1000).map { "Option \($0)" })
    #expect(PollRules.problem(with: many) == "A poll has at most 20 options.")
    let long = PollSpec(
      kind: .single, prompt: "Pick", options: [String(repeating: "x", count: 10_000), "B"])
    #expect(PollRules.problem(with: long) == "An option has at most 120 characters.")
    let bidi = PollSpec(kind: .single, prompt: "Pick\u{202E}gnp.exe", options: ["A", "B"])
    #expect(PollRules.problem(with: bidi)?.contains("bidi") == true)
    let lines = PollSpec(kind: .single, prompt: "Pick", options: ["A\nB", "C"])
    #expect(PollRules.problem(with: lines)?.contains("one line") == true)
    let twice = PollSpec(kind: .single, prompt: "Pick", options: ["A", "a"])
    #expect(PollRules.problem(with: twice) == "Each option is there once.")
    let lonely = PollSpec(kind: .single, prompt: "Pick", options: ["A"])
    #expect(PollRules.problem(with: lonely) != nil)
    let scale = PollSpec(kind: .rating, prompt: "Rate", scale: PollScale(min: 5, max: 1))
    #expect(PollRules.problem(with: scale) != nil)
    let wrongQuiz = PollSpec(kind: .single, prompt: "Q", options: ["A", "B"], correct: [0, 1])
    #expect(PollRules.problem(with: wrongQuiz) == "A single choice quiz has one correct option.")
    let limitNoQuiz = PollSpec(kind: .single, prompt: "Q", options: ["A", "B"], timeLimit: 10)
    #expect(PollRules.problem(with: limitNoQuiz) != nil)
  }

  @Test func answersNamingNoOptionOrTooManyAreRefused() {
    let multiple = PollSpec(kind: .multiple, prompt: "Which?", options: ["A", "B", "C"], max: 2)
    func accepted(_ value: PollValue, _ spec: PollSpec) -> PollValue? {
      try? PollRules.accepted(value, for: spec, fold: { $0 }).get()
    }
    #expect(accepted(PollValue(choices: [1]), choice) == PollValue(choices: [1]))
    #expect(accepted(PollValue(choices: [2]), choice) == nil)
    #expect(accepted(PollValue(choices: [-1]), choice) == nil)
    #expect(accepted(PollValue(choices: [0, 1]), choice) == nil)
    #expect(accepted(PollValue(rating: 1), choice) == nil)
    #expect(accepted(PollValue(choices: [2, 0]), multiple) == PollValue(choices: [0, 2]))
    #expect(accepted(PollValue(choices: [0, 1, 2]), multiple) == nil)
    #expect(accepted(PollValue(choices: [0, 0]), multiple) == nil)
    let ranking = PollSpec(kind: .ranking, prompt: "Order", options: ["A", "B", "C"])
    #expect(accepted(PollValue(choices: [2, 0, 1]), ranking) == PollValue(choices: [2, 0, 1]))
    #expect(accepted(PollValue(choices: [2, 0]), ranking) == nil)
    let rating = PollSpec(kind: .rating, prompt: "Rate")
    #expect(accepted(PollValue(rating: 5), rating) == PollValue(rating: 5))
    #expect(accepted(PollValue(rating: 6), rating) == nil)
    #expect(accepted(PollValue(rating: 0), rating) == nil)
    let words = PollSpec(kind: .words, prompt: "Words")
    #expect(accepted(PollValue(words: ["a", "b", "c", "d"]), words) == nil)
    #expect(accepted(PollValue(words: ["a", "a"]), words) == PollValue(words: ["a"]))
  }

  /// Slido's ranking: with N options, first place earns N points, last 1.
  @Test func aRankingEarnsPointsByPlace() {
    let ranking = PollSpec(kind: .ranking, prompt: "Order", options: ["A", "B", "C"])
    let weights = PollRules.weights(of: PollValue(choices: [2, 0, 1]), for: ranking)
    #expect(weights.map(\.key) == ["", "2", "0", "1"])
    #expect(weights.map(\.weight) == [1, 3, 2, 1])
    let results = PollRules.results(["": 2, "0": 5, "1": 2, "2": 5], for: ranking)
    #expect(results == PollResults(answers: 2, counts: [5, 2, 5]))
  }

  @Test func aRatingCountsByPlaceOnItsScale() {
    let slider = PollSpec(kind: .rating, prompt: "Slide", scale: PollScale(min: 0, max: 100))
    #expect(PollRules.weights(of: PollValue(rating: 100), for: slider).last?.key == "100")
    let results = PollRules.results(["": 1, "100": 1], for: slider)
    #expect(results.counts?.count == 101)
    #expect(results.counts?.last == 1)
  }

  /// The top words, most counted first, ties in alphabetical order, at most `topWords`.
  @Test func aWordCloudCarriesItsTopWordsOnly() {
    let words = PollSpec(kind: .words, prompt: "Words")
    var counts: [String: Int] = ["": 500]
    for index in 0..<500 { counts["w\(index)"] = index % 7 }
    counts["swift"] = 99
    counts["rust"] = 99
    let results = PollRules.results(counts, for: words)
    #expect(results.words?.count == PollRules.topWords)
    #expect(results.words?.prefix(2).map(\.text) == ["rust", "swift"])
    #expect(results.words?.allSatisfy { $0.count > 0 } == true)
    #expect(results.answers == 500)
  }

  /// An open text's answer, cleaned as both ends clean it: one line, nothing invisible (the
  /// Hangul fillers included), the joiners emoji are spelled with kept, bounded.
  @Test func anOpenTextsAnswerIsCleaned() {
    #expect(PollRules.cleanText("  More \u{202E} live\n\tdemos ") == "More live demos")
    #expect(PollRules.cleanText("id\u{3164}iot\u{200B}") == "idiot")
    #expect(PollRules.cleanText("\u{1F469}\u{200D}\u{1F4BB}") == "\u{1F469}\u{200D}\u{1F4BB}")
    for nothing in ["", "  ", "\u{200B}\u{202E}", "\u{3164}", "\n\t"] {
      #expect(PollRules.cleanText(nothing) == nil)
    }
    #expect(PollRules.cleanText(String(repeating: "x", count: 140)) != nil)
    #expect(PollRules.cleanText(String(repeating: "x", count: 141)) == nil)
    #expect(PollRules.cleanText(String(repeating: "x", count: 100_000)) == nil)
    let spec = PollSpec(kind: .text, prompt: "Ideas?")
    let refused = PollRules.accepted(PollValue(words: ["x"]), for: spec) { $0 }
    #expect((try? refused.get()) == nil)
  }
}
