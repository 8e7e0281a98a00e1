import Foundation
import QnA
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import TestSupport
import Testing

/// The session's export: every question in every state, in CSV (read back by Python's `csv`
/// module, as spreadsheet users' scripts would), JSON and Markdown.
@Suite("qna-server: export", .serialized)
struct ExportTests {
  static let hostile = "=cmd|' /C calc'!A0"
  static let awkward = [
    hostile, "+1 and -1", "@SUM(A1)", "\tTabbed", "Quotes \"inside\", and commas",
    "Line one\nline two\r\nline three", "Emoji 🎉 and 日本語 and é", "| pipes | and *stars* <b>",
    "-", "", "\rCarriage return first",
  ]

  /// 1,000 questions in every state, with answers and names, some hostile.
  static func store() async throws -> (QuestionStore, [StoredQuestion]) {
    let store = try StoreLocation.open(":memory:")
    var questions: [StoredQuestion] = []
    let states: [QuestionState] = [.review, .live, .live, .dismissed]
    for index in 0..<1000 {
      let attendee = uuid(index % 7, group: 0xAA)
      var question = StoredQuestion(
        // The first ones exactly as awkward as they come (a question may start with "="),
        // the rest numbered.
        id: uuid(index, group: 0xE1),
        content: index < awkward.count
          ? awkward[index] : "Q\(index) " + awkward[index % awkward.count],
        askedFrom: uuid(1),
        createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)),
        attendee: attendee, votes: index % 13, state: states[index % states.count])
      if index.isMultiple(of: 3) {
        question.answered = true
        question.answeredAt = question.createdAt.addingTimeInterval(60)
        question.answer = index.isMultiple(of: 6) ? awkward[(index / 3) % awkward.count] : nil
        question.answerPrivate = index.isMultiple(of: 9)
      }
      questions.append(question)
    }
    try await store.seed(questions)
    for number in 0..<7 {
      try await store.join(
        attendee: uuid(number, group: 0xAA),
        name: number == 3 ? "=HYPERLINK(\"x\")" : "Name \(number)", at: Date())
    }
    // The very first question: exactly the hostile one of the issue.
    return (store, questions)
  }

  static func expectedFields(_ question: StoredQuestion) -> [String] {
    let number = Int(question.id.uuidString.suffix(12), radix: 16)! % 7
    let name = number == 3 ? "=HYPERLINK(\"x\")" : "Name \(number)"
    return Export.fields(ExportedQuestion(question: question, name: name))
  }

  @Test func csvReadBackByPythonHasEveryFieldAndNoFormula() async throws {
    let (store, questions) = try await Self.store()
    let bytes = Export.render(try await store.export(), as: .csv)
    #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "a UTF-8 byte order mark, for spreadsheets")
    let file = HeadlessProcess.freshDirectory().appendingPathComponent("export.csv")
    try Data(bytes).write(to: file)
    let rows = try Self.python(
      """
      import csv, json, sys
      with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
          print(json.dumps(list(csv.reader(f))))
      """, file.path)
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String]])
    #expect(parsed.first == Export.columns)
    #expect(parsed.count == questions.count + 1)
    for (row, question) in zip(parsed.dropFirst(), questions) {
      #expect(row == Self.expectedFields(question).map(Export.safeCell), "\(question.content)")
      // No cell a spreadsheet would run.
      #expect(
        !row.contains { ["=", "+", "-", "@", "\t", "\r"].contains($0.first.map(String.init)) })
    }
    #expect(parsed[1][1] == "'" + Self.hostile)
    #expect(parsed[11][1] == "'\rCarriage return first")
    #expect(Export.safeCell(Self.hostile) == "'" + Self.hostile)
  }

  @Test func jsonAndMarkdownCarryEveryQuestionInEveryState() async throws {
    let (store, questions) = try await Self.store()
    let exported = try await store.export()
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(Export.render(exported, as: .json)))
        as? [[String: Any]])
    #expect(json.count == 1000)
    for (object, question) in zip(json, questions) {
      let fields = Self.expectedFields(question)
      #expect(object["id"] as? String == fields[0] && object["text"] as? String == fields[1])
      #expect(object["votes"] as? Int == question.votes && object["state"] as? String == fields[3])
      #expect(object["answer"] as? String == question.answer)
      #expect((object["answered_at"] as? String ?? "") == fields[5])
      #expect(object["asked_at"] as? String == fields[4] && object["name"] as? String == fields[7])
    }
    #expect(
      Set(json.compactMap { $0["state"] as? String }) == [
        "review", "live", "answered", "dismissed",
      ])
    let markdown = String(decoding: Export.render(exported, as: .markdown), as: UTF8.self)
    let lines = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }
    #expect(lines.count == 1001, "one row per question, whatever its text")
    #expect(!markdown.contains("<b>") && markdown.contains("\\<b\\>"))
    #expect(
      lines.allSatisfy {
        $0.replacingOccurrences(of: "\\|", with: "").split(
          separator: "|", omittingEmptySubsequences: false
        ).count == Export.columns.count + 2
      })
  }

  /// Runs a program; its stdout, or an error when it exits non-zero.
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let run = try ProgramRun(executable, arguments)
    guard run.status == 0 else { throw ExportTestError.failed(run.status) }
    return run.output
  }

  static func python(_ script: String, _ argument: String) throws -> String {
    try run("/usr/bin/python3", ["-c", script, argument])
  }

  enum ExportTestError: Error { case failed(Int32) }
}
