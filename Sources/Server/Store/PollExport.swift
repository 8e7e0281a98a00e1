import CommandLineValues
import Foundation
import QnA

/// The session's polls for after the talk (extension `polls`): per poll and per option (a
/// rating's values, a ranking's points and average score, a word cloud's top words), and
/// per attendee for quizzes, and every entry of an open text with its moderation. CSV for spreadsheets (`scores`: the quizzes' per-attendee table),
/// JSON for tools, Markdown for notes; made safe as the questions' export is (`Export`).
public enum PollExport {
  public static let columns = [
    "poll", "kind", "question", "state", "answers", "option", "count", "share", "correct",
    "moderation",
  ]
  public static let scoreColumns = ["attendee", "name", "score", "answered"]

  /// `entries`: every open text's entries, by poll id (`QuestionStore.textEntries`).
  public static func render(
    _ polls: [RoomPoll], scores: [QuizScore], entries: [UUID: [PollTextEntry]] = [:],
    as format: ExportFormat, scoresOnly: Bool = false
  ) -> [UInt8] {
    switch format {
    case .csv:
      Array(
        (scoresOnly
          ? csv(scoreColumns, scores.map(scoreFields))
          : csv(columns, polls.flatMap { rows($0, entries: entries[$0.id] ?? []) })).utf8)
    case .json: json(polls, scores, entries)
    case .markdown: Array(markdown(polls, scores, entries).utf8)
    }
  }

  /// One row per option (or value, or word, or open text's entry) of each poll.
  static func rows(_ poll: RoomPoll, entries: [PollTextEntry]) -> [[String]] {
    let results = poll.results ?? PollResults(answers: 0)
    let answers = results.answers
    func share(_ count: Int) -> String {
      answers > 0 ? String(format: "%.1f%%", Double(count) * 100 / Double(answers)) : ""
    }
    let head = [String(poll.n), poll.kind, poll.prompt, poll.state, String(answers)]
    let correct = Set(poll.correct ?? [])
    switch poll.pollKind {
    case .text?:
      return entries.map { head + [$0.text, String($0.count), share($0.count), "", $0.state] }
    case .words?:
      return (results.words ?? []).map {
        head + [$0.text, String($0.count), share($0.count), "", ""]
      }
    case .rating?:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      return (results.counts ?? []).enumerated().map { index, count in
        head + [String(scale.min + index), String(count), share(count), "", ""]
      }
    case .ranking?:
      // Points, and the average score (points over those who answered).
      return zip(poll.options ?? [], results.counts ?? []).enumerated().map { index, pair in
        let average = answers > 0 ? String(format: "%.2f", Double(pair.1) / Double(answers)) : ""
        return head + [
          pair.0, String(pair.1), average, correct.isEmpty ? "" : "\(index + 1)", "",
        ]
      }
    default:
      return zip(poll.options ?? [], results.counts ?? []).enumerated().map { index, pair in
        head + [
          pair.0, String(pair.1), share(pair.1), correct.contains(index) ? "yes" : "", "",
        ]
      }
    }
  }

  static func scoreFields(_ score: QuizScore) -> [String] {
    [score.attendee, score.name ?? "", String(score.score), String(score.answered)]
  }

  static func csv(_ columns: [String], _ rows: [[String]]) -> String {
    var out = "\u{FEFF}" + columns.joined(separator: ",") + "\r\n"
    for row in rows {
      out +=
        row.map {
          "\""
            + Export.safeCell(PrintableText.escapedKeepingLines($0))
            .replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
    return out
  }

  private struct Document: Encodable {
    var polls: [RoomPoll]
    var scores: [Score]
    /// Every open text's entries, by poll number.
    var entries: [String: [PollTextEntry]]?
  }

  private struct Score: Encodable {
    var attendee: String
    var name: String?
    var score: Int
    var answered: Int
  }

  static func json(
    _ polls: [RoomPoll], _ scores: [QuizScore], _ entries: [UUID: [PollTextEntry]]
  ) -> [UInt8] {
    var numbered: [String: [PollTextEntry]] = [:]
    for poll in polls where poll.pollKind == .text { numbered[String(poll.n)] = entries[poll.id] }
    let document = Document(
      polls: polls,
      scores: scores.map {
        Score(attendee: $0.attendee, name: $0.name, score: $0.score, answered: $0.answered)
      }, entries: numbered.isEmpty ? nil : numbered)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let text = String(decoding: (try? encoder.encode(document)) ?? Data("{}".utf8), as: UTF8.self)
    return Array(Export.jsonEscapingControls(text).utf8) + [0x0A]
  }

  static func markdown(
    _ polls: [RoomPoll], _ scores: [QuizScore], _ entries: [UUID: [PollTextEntry]]
  ) -> String {
    var out = "# Polls\n\n\(polls.count) polls.\n"
    for poll in polls {
      out += "\n## \(poll.n). \(Export.markdownCell(poll.prompt))\n\n"
      out += "\(poll.kind), \(poll.state), \(poll.results?.answers ?? 0) answers.\n\n"
      // An open text's last column is its entries' moderation; the others', correctness.
      let text = poll.pollKind == .text
      out +=
        text
        ? "| answer | count | share | moderation |\n|---|---:|---:|---|\n"
        : "| option | count | share | correct |\n|---|---:|---:|---|\n"
      for row in rows(poll, entries: entries[poll.id] ?? []) {
        let cells = [row[5], row[6], row[7], text ? row[9] : row[8]]
        out += "| " + cells.map(Export.markdownCell).joined(separator: " | ") + " |\n"
      }
    }
    if !scores.isEmpty {
      out += "\n## Quiz scores\n\n| attendee | name | score | answered |\n|---|---|---:|---:|\n"
      for score in scores {
        out += "| " + scoreFields(score).map(Export.markdownCell).joined(separator: " | ") + " |\n"
      }
    }
    return out
  }
}

/// An open text's entry for the export: its text, how many give it, and its moderation
/// (`live`, `review` or `dismissed`).
public struct PollTextEntry: Sendable, Hashable, Encodable {
  public var text: String
  public var count: Int
  public var state: String

  public init(text: String, count: Int, state: String) {
    self.text = text
    self.count = count
    self.state = state
  }
}
