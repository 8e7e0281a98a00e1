import Foundation

/// A word list as a file or a request's body has it: one entry (a word or a phrase) per
/// line, blank lines and lines starting with `#` left out, spaces at either end trimmed.
public enum WordListText {
  /// The largest list text read, in bytes: the most entries at their longest, with room for
  /// comments.
  package static let maxBytes = 2 * 1024 * 1024
  /// The most problems told at once.
  static let maxProblemsTold = 10

  /// The entries of `text`, or why it is not a list, in words (the first problems, with
  /// their line numbers). More than `maxEntries` entries is refused before any is checked.
  package static func parse(_ text: Substring, maxEntries: Int = WordFilter.maxEntries)
    -> Result<[String], ListProblem>
  {
    var entries: [String] = []
    var problems: [String] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      entries.append(line)
      if entries.count > maxEntries {
        return .failure(ListProblem("A word list has at most \(maxEntries) entries."))
      }
      if problems.count < maxProblemsTold, let problem = WordFilter.problem(with: line) {
        problems.append("line \(index + 1): \(problem)")
      }
    }
    guard problems.isEmpty else {
      return .failure(ListProblem(problems.joined(separator: "\n")))
    }
    return .success(entries)
  }

  public struct ListProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}
