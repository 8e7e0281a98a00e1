import Foundation
import QnA
import Testing

@testable import QnATerminal

/// Widths come from the C library, which needs a UTF-8 locale (as `qna` sets at start).
let utf8Locale: Bool = setlocale(LC_ALL, "C.UTF-8") != nil

/// Deterministic UUIDs: `uuid(5)` is 00000000-0000-4000-8000-000000000005.
func uuid(_ number: Int, group: Int = 0) -> UUID {
  UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", group, number))!
}

let connectionID = UUID(uuidString: "1A2B3C4D-0000-4000-8000-0000000000C0")!

/// Builds states the way the engine does: by applying events to the reducer.
struct Scenario {
  var state = QnAState()
  var next = 1

  init(now: Duration = .seconds(100), maxLength: Int = 1000) {
    #expect(utf8Locale)
    state = QnAState(configuration: QnAConfiguration(maxQuestionLength: maxLength))
    apply(.clock(now))
  }

  mutating func apply(_ event: QnAEvent) { _ = state.apply(event) }

  mutating func connect() {
    apply(.connecting(attempt: 1))
    apply(.connected)
    apply(
      .received(
        .handshake(
          Handshake(
            id: connectionID,
            extensions: [
              ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
            ]))))
  }

  /// Typed (and sent, when connected); returns the token.
  @discardableResult
  mutating func ask(_ text: String) -> UUID {
    let token = uuid(next)
    next += 1
    apply(.ask(text, token: token))
    return token
  }

  /// Confirmed by the server: unanswered. Returns the server id.
  @discardableResult
  mutating func confirm(_ token: UUID, minute: Int = 0) -> UUID {
    let serverID = uuid(Int(token.uuidString.suffix(4), radix: 16)!, group: 0x5E)
    let content = state.question(token: token)!.content
    apply(
      .received(
        .questionResponse(
          QuestionResponse(
            success: true, message: "Question created", id: serverID, answered: false,
            content: content,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(minute)),
            token: token))))
    return serverID
  }

  mutating func answer(_ serverID: UUID) {
    apply(.received(.questionAnswer(QuestionAnswer(questionId: serverID))))
  }

  /// Refused for good (without `retryAfter`), or for now (with it).
  mutating func refuse(_ token: UUID, reason: String, retryAfter: Double? = nil) {
    apply(
      .received(
        .questionResponse(
          QuestionResponse(
            success: false, message: reason, token: token, retryAfter: retryAfter))))
  }

  /// Asked, confirmed and (optionally) answered.
  @discardableResult
  mutating func asked(_ text: String, answered: Bool = false) -> UUID {
    let serverID = confirm(ask(text), minute: next)
    if answered { answer(serverID) }
    return serverID
  }

  func model(
    rows: Int = 12, columns: Int = 60, colors: Bool = true,
    url: String = "ws://127.0.0.1:8080/socket"
  ) -> TerminalModel {
    var model = TerminalModel(
      options: .init(url: url, colors: colors, maxLength: state.configuration.maxQuestionLength),
      state: state, rows: rows, columns: columns)
    model.now = state.now
    return model
  }
}

/// The frame's rows as text, with trailing blanks trimmed.
func screen(_ model: TerminalModel) -> String {
  TerminalView.render(model).grid.lines.joined(separator: "\n")
}

/// Compares a rendered screen with the expected one, printing the actual screen (to paste
/// after review) when they differ.
func expectScreen(
  _ model: TerminalModel, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let actual = screen(model)
  if actual != expected {
    print("--- actual screen ---\n\(actual)\n---------------------")
  }
  #expect(actual == expected, sourceLocation: sourceLocation)
}

extension TerminalModel {
  mutating func press(_ keys: Key...) -> [TerminalAction] {
    keys.flatMap { handle($0) }
  }

  mutating func type(_ text: String) {
    for character in text { _ = handle(.text(String(character))) }
  }
}
