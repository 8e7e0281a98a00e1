import QnARoom

/// The server's word filter for tools outside it (the benchmarks): the same matching a
/// question meets when it is asked.
public struct QuestionFilter: Sendable {
  private let filter: WordFilter

  public init(entries: [String]) { filter = WordFilter(entries: entries) }

  /// The entries `text` matches, at most five.
  public func matches(_ text: String) -> [String] { filter.matches(text) }
}
