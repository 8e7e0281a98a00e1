import CommandLineValues
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
/// name, flagged (the word filter's matches, `; ` between them), original (the text as
/// asked, when a presenter edited it), starred (`yes` or empty; JSON: a boolean), label;
/// times ISO 8601 in UTC. What attendees typed is stored as typed and made safe here,
/// for each format (`PrintableText`): escapes and bidi controls never reach a terminal that
/// shows the file, nor a formula a spreadsheet.
public enum Export {
  public static let columns = [
    "id", "text", "votes", "state", "asked_at", "answered_at", "answer", "name", "flagged",
    "original", "starred", "label",
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
      question.id.text, question.content, String(question.votes),
      question.publicState.rawValue, timestamp(question.createdAt),
      question.answeredAt.map(timestamp) ?? "", question.answer ?? "", entry.name ?? "",
      question.flagged.joined(separator: "; "), question.original ?? "",
      question.starred ? "yes" : "", question.label ?? "",
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
      out +=
        fields(entry).map { quoted(safeCell(PrintableText.escapedKeepingLines($0))) }
        .joined(separator: ",") + "\r\n"
    }
    return out
  }

  /// A cell a spreadsheet would run as a formula gets a leading `'`, which spreadsheets show
  /// as text: one starting with `=`, `+`, `-` or `@` (or their full-width forms, which some
  /// spreadsheets read the same), after any spaces, or with a tab or carriage return.
  package static func safeCell(_ text: String) -> String {
    guard let first = text.unicodeScalars.first else { return text }
    if first == "\t" || first == "\r" { return "'" + text }
    let start = text.unicodeScalars.first { !$0.properties.isWhitespace }
    guard let start, formulaStarts.contains(start) else { return text }
    return "'" + text
  }

  static let formulaStarts: Set<Unicode.Scalar> = [
    "=", "+", "-", "@", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}",
  ]

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
    package var flagged: [String]
    package var original: String?
    package var starred: Bool
    package var label: String?

    package enum CodingKeys: String, CodingKey {
      case id, text, votes, state, answer, name, flagged, original, starred, label
      case askedAt = "asked_at"
      case answeredAt = "answered_at"
    }
  }

  package static func json(_ questions: [ExportedQuestion]) -> [UInt8] {
    let rows = questions.map { entry in
      let question = entry.question
      return Row(
        id: question.id.text, text: question.content, votes: question.votes,
        state: question.publicState.rawValue, askedAt: timestamp(question.createdAt),
        answeredAt: question.answeredAt.map(timestamp), answer: question.answer,
        name: entry.name, flagged: question.flagged, original: question.original,
        starred: question.starred, label: question.label)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let text = String(decoding: (try? encoder.encode(rows)) ?? Data("[]".utf8), as: UTF8.self)
    return Array(jsonEscapingControls(text).utf8) + [0x0A]
  }

  /// What the sanitizer picks and JSON's own escaping leaves raw (C1 controls, bidi
  /// controls, invisible characters), as `\uXXXX`: a tool reads the same strings, a terminal
  /// shows no raw control. The encoder escaped every C0 control already; the line breaks
  /// left are its own formatting.
  package static func jsonEscapingControls(_ json: String) -> String {
    var out = ""
    out.reserveCapacity(json.utf8.count)
    for scalar in json.unicodeScalars {
      if scalar.value >= 0x7F, PrintableText.isControl(scalar) {
        out += PrintableText.jsonEscape(scalar)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
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
    for character in PrintableText.escapedKeepingLines(text) {
      switch character {
      case "\\", "|", "*", "_", "`", "[", "]", "<", ">", "#", "!": out += "\\\(character)"
      case "\r\n", "\n", "\r": out += "<br>"
      default: out.append(character)
      }
    }
    return out
  }
}
