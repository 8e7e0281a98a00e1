import Foundation
import QnA

/// What `GET /api/export` and `qna-server export` can write.
public enum ExportFormat: String, Sendable, CaseIterable {
  case csv, json, markdown

  package var contentType: String {
    switch self {
    case .csv: "text/csv; charset=utf-8"
    case .json: "application/json"
    case .markdown: "text/markdown; charset=utf-8"
    }
  }

  package var fileExtension: String { self == .markdown ? "md" : rawValue }
}

/// One question as the export has it.
public struct ExportedQuestion: Sendable, Hashable {
  public var question: StoredQuestion
  /// The asker's display name, when they gave one.
  public var name: String?

  package init(question: StoredQuestion, name: String?) {
    self.question = question
    self.name = name
  }
}

/// Every question in every state, for after the session: CSV for spreadsheets, JSON for
/// tools, Markdown for notes. Columns: id, text, votes, state, asked_at, answered_at, answer,
/// name; times ISO 8601 in UTC.
public enum Export {
  public static let columns = [
    "id", "text", "votes", "state", "asked_at", "answered_at", "answer", "name",
  ]

  public static func render(_ questions: [ExportedQuestion], as format: ExportFormat) -> [UInt8] {
    switch format {
    case .csv: Array(csv(questions).utf8)
    case .json: json(questions)
    case .markdown: Array(markdown(questions).utf8)
    }
  }

  package static func fields(_ entry: ExportedQuestion) -> [String] {
    let question = entry.question
    return [
      question.id.uuidString, question.content, String(question.votes),
      question.publicState.rawValue, timestamp(question.createdAt),
      question.answeredAt.map(timestamp) ?? "", question.answer ?? "", entry.name ?? "",
    ]
  }

  private static func timestamp(_ date: Date) -> String {
    date.formatted(TimestampFormat.iso8601)
  }

  // MARK: CSV

  /// RFC 4180, every field quoted, CRLF line ends, with a UTF-8 byte order mark first: without it, spreadsheet
  /// programs read the file in the system's legacy encoding and garble every non-ASCII
  /// character.
  package static func csv(_ questions: [ExportedQuestion]) -> String {
    var out = "\u{FEFF}" + columns.joined(separator: ",") + "\r\n"
    for entry in questions {
      out += fields(entry).map { quoted(safeCell($0)) }.joined(separator: ",") + "\r\n"
    }
    return out
  }

  /// A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or
  /// a carriage return) gets a leading `'`, which spreadsheets show as text.
  package static func safeCell(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first)
    else { return text }
    return "'" + text
  }

  /// Every field quoted: a spreadsheet set to another separator (`;` in many locales) would
  /// otherwise split an unquoted field there, and the part after it could start a formula.
  private static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  // MARK: JSON

  private struct Row: Encodable {
    package var id: String
    package var text: String
    package var votes: Int
    package var state: String
    package var askedAt: String
    package var answeredAt: String?
    package var answer: String?
    package var name: String?

    package enum CodingKeys: String, CodingKey {
      case id, text, votes, state, answer, name
      case askedAt = "asked_at"
      case answeredAt = "answered_at"
    }
  }

  package static func json(_ questions: [ExportedQuestion]) -> [UInt8] {
    let rows = questions.map { entry in
      let question = entry.question
      return Row(
        id: question.id.uuidString, text: question.content, votes: question.votes,
        state: question.publicState.rawValue, askedAt: timestamp(question.createdAt),
        answeredAt: question.answeredAt.map(timestamp), answer: question.answer,
        name: entry.name)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array((try? encoder.encode(rows)) ?? Data("[]".utf8)) + [0x0A]
  }

  // MARK: Markdown

  /// A table; pipes, backslashes and markup characters escaped, line breaks as `<br>`, so a
  /// question cannot break out of its cell or inject HTML.
  package static func markdown(_ questions: [ExportedQuestion]) -> String {
    var out = "# Questions\n\n\(questions.count) questions.\n\n"
    out += "| " + columns.joined(separator: " | ") + " |\n"
    out += "|" + String(repeating: "---|", count: columns.count) + "\n"
    for entry in questions {
      out += "| " + fields(entry).map(markdownCell).joined(separator: " | ") + " |\n"
    }
    return out
  }

  package static func markdownCell(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\", "|", "*", "_", "`", "[", "]", "<", ">", "#", "!": out += "\\\(character)"
      case "\r\n", "\n", "\r": out += "<br>"
      default: out.append(character)
      }
    }
    return out
  }
}
