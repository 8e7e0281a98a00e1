import Foundation
import QnAServer

/// A question against the session's word filter: the server's matcher (a lookup per reading
/// of each word, whatever the list's size) beside the baseline of checking every entry
/// against the question's words, for lists of 10 and 10,000 entries. Time per question, best
/// of 5 runs over the same 1,000 questions.
enum FilterBench {
  static let questions = (0..<1_000).map { index in
    "Question \(index): how does the new release handle caching, retries and the c@che"
      + " invalidation we saw in production last week, and what would you do differently?"
  }

  static func run() {
    emit("\n## A question against a word list (time per question, best of 5)\n")
    emit("| list | baseline: every entry, µs | ours, µs | ratio (ours / baseline) |")
    emit("|---|---:|---:|---:|")
    for size in [10, 10_000] {
      let entries = (0..<size).map { "entry\($0)" } + ["darn"]
      let filter = QuestionFilter(entries: entries)
      let lowered = entries.map { $0.lowercased() }
      var found = 0
      let ours = best {
        for question in questions { found += filter.matches(question).count }
      }
      let baseline = best {
        for question in questions {
          let words = Set(
            question.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
          found += lowered.filter { words.contains($0) }.count
        }
      }
      let perQuestion = { (time: Duration) in
        String(format: "%.2f", time / .microseconds(1) / Double(questions.count))
      }
      emit(
        "| \(size) entries | \(perQuestion(baseline)) | \(perQuestion(ours)) | \(String(format: "%.3f", ours / baseline))× |"
      )
      if found < 0 { emit("") }  // keeps the work from being optimised away
    }
    let entries = (0..<10_000).map { "entry\($0)" }
    let load = best { _ = QuestionFilter(entries: entries) }
    emit(
      "\nMaking the matcher from 10,000 entries (once per change of the lists): \(milliseconds(load)) ms."
    )
  }

  static func best(_ body: () -> Void) -> Duration {
    var fastest = Duration.seconds(3600)
    for _ in 0..<5 {
      let start = ContinuousClock.now
      body()
      fastest = min(fastest, ContinuousClock.now - start)
    }
    return fastest
  }
}
