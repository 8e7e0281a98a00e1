import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// Widths come from the C library, which needs a UTF-8 locale (as `qna` sets at start).
let utf8Locale: Bool = setlocale(LC_ALL, "C.UTF-8") != nil

let connectionID = UUID(uuidString: "1A2B3C4D-0000-4000-8000-0000000000C0")!

/// A state as the engine builds it, by applying events to the reducer (TestSupport's
/// driver), a hundred seconds into the clock; connected, it shows `connectionID`.
func onScreen(now: Duration = .seconds(100), maxLength: Int = 1000) -> StateDriver {
  #expect(utf8Locale)
  return StateDriver(configuration: QnAConfiguration(maxQuestionLength: maxLength), now: now)
}

extension StateDriver {
  func model(
    rows: Int = 12, columns: Int = 60, colors: Bool = true,
    url: String = "ws://127.0.0.1:8080/socket", screenReader: Bool = false
  ) -> TerminalModel {
    var model = TerminalModel(
      options: .init(
        url: url, colors: colors, maxLength: state.configuration.maxQuestionLength,
        screenReader: screenReader),
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
