import CommandLineValues
import Foundation
import QnA

/// The session's polls for after the talk (extension `polls`): per poll and per option (a
/// rating's values, a ranking's points and average score, a word cloud's top words), and
/// per attendee for quizzes. CSV for spreadsheets (`scores`: the quizzes' per-attendee table),
/// JSON for tools, Markdown for notes; made safe as the questions' export is (`Export`).
public enum PollExport {
  public static let columns = [
    "poll", "kind", "question", "state", "answers", "option", "count", "share", "correct",
  ]
  public static let scoreColumns = ["attendee", "name", "score", "answered"]

  public static func render(
    _ polls: [RoomPoll], scores: [QuizScore], as format: ExportFormat, scoresOnly: Bool = false
  ) -> [UInt8] {
    switch format {
    case .csv:
      Array(
        (scoresOnly
          ? csv(scoreColumns, scores.map(scoreFields)) : csv(columns, polls.flatMap(rows))).utf8)
    case .json: json(polls, scores)
    case .markdown: Array(markdown(polls, scores).utf8)
    }
  }

  /// One row per option (or value, or word) of each poll.
  static func rows(_ poll: RoomPoll) -> [[String]] {
    let results = poll.results ?? PollResults(answers: 0)
    let answers = results.answers
    func share(_ count: Int) -> String {
      answers > 0 ? String(format: "%.1f%%", Double(count) * 100 / Double(answers)) : ""
    }
    let head = [String(poll.n), poll.kind, poll.prompt, poll.state, String(answers)]
    let correct = Set(poll.correct ?? [])
    switch poll.pollKind {
    case .words?:
      return (results.words ?? []).map { head + [$0.text, String($0.count), share($0.count), ""] }
    case .rating?:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      return (results.counts ?? []).enumerated().map { index, count in
        head + [String(scale.min + index), String(count), share(count), ""]
      }
    case .ranking?:
      // Points, and the average score (points over those who answered).
      return zip(poll.options ?? [], results.counts ?? []).enumerated().map { index, pair in
        let average = answers > 0 ? String(format: "%.2f", Double(pair.1) / Double(answers)) : ""
        return head + [pair.0, String(pair.1), average, correct.isEmpty ? "" : "\(index + 1)"]
      }
    default:
      return zip(poll.options ?? [], results.counts ?? []).enumerated().map { index, pair in
        head + [pair.0, String(pair.1), share(pair.1), correct.contains(index) ? "yes" : ""]
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
  }

  private struct Score: Encodable {
    var attendee: String
    var name: String?
    var score: Int
    var answered: Int
  }

  static func json(_ polls: [RoomPoll], _ scores: [QuizScore]) -> [UInt8] {
    let document = Document(
      polls: polls,
      scores: scores.map {
        Score(attendee: $0.attendee, name: $0.name, score: $0.score, answered: $0.answered)
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let text = String(decoding: (try? encoder.encode(document)) ?? Data("{}".utf8), as: UTF8.self)
    return Array(Export.jsonEscapingControls(text).utf8) + [0x0A]
  }

  static func markdown(_ polls: [RoomPoll], _ scores: [QuizScore]) -> String {
    var out = "# Polls\n\n\(polls.count) polls.\n"
    for poll in polls {
      out += "\n## \(poll.n). \(Export.markdownCell(poll.prompt))\n\n"
      out += "\(poll.kind), \(poll.state), \(poll.results?.answers ?? 0) answers.\n\n"
      out += "| option | count | share | correct |\n|---|---:|---:|---|\n"
      for row in rows(poll) {
        out += "| " + row.suffix(4).map(Export.markdownCell).joined(separator: " | ") + " |\n"
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
