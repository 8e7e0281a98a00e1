import Foundation
import QnA
import QnAStore
import QnAStoreLocation

/// The session's export of 10,000 questions from a database file, in each format, against
/// the baseline of reading the same rows (what any export must do), best of five runs.
enum ExportBench {
  static let count = 10_000

  static func run() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-export-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try StoreLocation.open(directory.appendingPathComponent("qna.sqlite").path)
    let states: [QuestionState] = [.review, .live, .live, .dismissed]
    try await store.seed(
      (0..<count).map { index in
        StoredQuestion(
          id: UUID(), content: "Question \(index), with \"quotes\", commas and é",
          answered: index.isMultiple(of: 3), askedFrom: UUID(),
          createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)),
          attendee: UUID(), votes: index % 50, state: states[index % 4],
          answer: index.isMultiple(of: 6) ? "An answer" : nil)
      })
    emit("\n## Export of \(count) questions (database file, best of 5)\n")
    emit("| what | time, ms | ratio to reading the rows |")
    emit("|---|---:|---:|")
    let read = try await best { _ = try await store.all() }
    emit("| baseline: read every row | \(milliseconds(read)) | 1.00× |")
    for format in ExportFormat.allCases {
      let time = try await best { _ = Export.render(try await store.export(), as: format) }
      emit(
        "| export as \(format.rawValue) | \(milliseconds(time)) | \(String(format: "%.2f", time / read))× |"
      )
    }
  }

  static func best(_ body: () async throws -> Void) async throws -> Duration {
    var fastest = Duration.seconds(3600)
    for _ in 0..<5 {
      let start = ContinuousClock.now
      try await body()
      fastest = min(fastest, ContinuousClock.now - start)
    }
    return fastest
  }
}
