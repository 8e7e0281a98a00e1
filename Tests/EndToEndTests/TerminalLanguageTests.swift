import Foundation
import TestSupport
import Testing

/// `qna` in German, Spanish and Polish, as `LANG` chooses (the locales `make test`
/// generates), in tmux against `qna-server`: four questions with 1, 2, 5 and 22 votes show
/// each language's plural forms (Polish has three); a language without a catalogue, or the
/// C locale, is English. The catalogues are the ones this checkout's build compiled.
@Suite("qna in a terminal: languages", .serialized)
struct TerminalLanguageTests {
  typealias UI = TerminalUITests

  struct Expected: Sendable, CustomTestStringConvertible {
    var lang: String
    /// The four questions' vote counts in words (screen-reader mode), 1, 2, 5 and 22.
    var votes: [String]
    /// The footer's count of the room, the input line's prompt, the help's first line.
    var room: String
    var prompt: String
    var help: String

    var testDescription: String { lang }
  }

  static let languages = [
    Expected(
      lang: "de_DE.UTF-8", votes: ["1 Stimme", "2 Stimmen", "5 Stimmen", "22 Stimmen"],
      room: "4 Fragen im Raum", prompt: "Frage stellen:", help: "Enter: eingegebene Frage stellen"),
    Expected(
      lang: "es_ES.UTF-8", votes: ["1 voto", "2 votos", "5 votos", "22 votos"],
      room: "4 preguntas en la sala", prompt: "Haz una pregunta:",
      help: "Enter: enviar la pregunta escrita"),
    Expected(
      lang: "pl_PL.UTF-8", votes: ["1 głos", "2 głosy", "5 głosów", "22 głosy"],
      room: "4 pytania w sali", prompt: "Zadaj pytanie:", help: "Enter: zadaj wpisane pytanie"),
  ]

  static let english = Expected(
    lang: "C.UTF-8", votes: ["1 vote", "2 votes", "5 votes", "22 votes"],
    room: "4 questions in the room", prompt: "Ask a question:",
    help: "Enter: ask the question typed")

  /// Starts a server whose four questions have 1, 2, 5 and 22 votes.
  static func server() async throws -> QnAServerProcess {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    #expect(try await server.http("POST", "/control/room/seed?n=4").status == 200)
    let questions = try await server.questions()
    for (question, votes) in zip(questions, [1, 2, 5, 22]) {
      let id = try #require(question["id"] as? String)
      #expect(
        try await server.http("POST", "/control/room/votes?question=\(id)&n=\(votes)").status == 200
      )
    }
    return server
  }

  /// qna in tmux with exactly `environment`'s locale variables (the others emptied: tmux
  /// passes the test's own environment on).
  static func terminal(_ environment: [String: String]) throws -> TmuxSession {
    let state = HeadlessProcess.freshDirectory()
    let locale = ["LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""]
      .merging(environment) { $1 }
    return try TmuxSession(
      columns: 100, rows: 24,
      environment: locale.merging(["XDG_STATE_HOME": state.path]) { $1 })
  }

  /// Runs qna --screen-reader (votes in words) in `environment` and expects `expected`'s
  /// words: the four counts, the footer, the prompt, the help's first key.
  static func expect(
    _ expected: Expected, environment: [String: String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let server = try await Self.server()
    defer { server.stop() }
    let terminal = try Self.terminal(environment)
    defer { terminal.kill() }
    try terminal.run(
      "'\(HeadlessProcess.qnaPath)' --url \(server.url) --screen-reader; echo \"EXIT=$?\"")
    let screen = try await terminal.waitFor("the room in \(environment)") { screen in
      expected.votes.allSatisfy { count in
        UI.lines(screen).contains { $0.hasPrefix(" \(count):") || $0.hasPrefix(" \(count),") }
      }
    }
    #expect(screen.contains(expected.room), "\(screen)", sourceLocation: sourceLocation)
    #expect(screen.contains(expected.prompt), "\(screen)", sourceLocation: sourceLocation)
    try terminal.press("F1")
    let help = try await terminal.waitFor("the help") { $0.contains(expected.help) }
    #expect(!help.contains("Seeded question 1"), "the help covers the list")
    try terminal.press("Escape")
    try terminal.press("C-c")
    try await terminal.waitFor("qna ended") { $0.contains("EXIT=0") }
  }

  @Test(arguments: languages)
  func eachLanguageWithItsPluralForms(_ expected: Expected) async throws {
    try await Self.expect(expected, environment: ["LANG": expected.lang])
  }

  @Test func withoutACatalogueOrALocaleItIsEnglish() async throws {
    // A language without a catalogue, first in LANGUAGE, in a locale that has one.
    try await Self.expect(Self.english, environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": "fr"])
    // A locale the system has not generated (of a language with a catalogue): qna falls back
    // to C.UTF-8, in English.
    try await Self.expect(Self.english, environment: ["LANG": "de_CH.UTF-8"])
    try await Self.expect(Self.english, environment: ["LANG": "C.UTF-8"])
  }
}
