import Foundation
import TestSupport
import Testing

/// Questions in other scripts, through the server and the room onto a terminal: Arabic and
/// Hebrew with their ordinary direction marks, mixed with Latin, Japanese, emoji; the marks
/// are dropped without noise, every embedding, override and isolate stays escaped. In tmux.
@Suite("qna in a terminal: other scripts", .serialized)
struct TerminalScriptsTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  static let arabic = "\u{061C}متى يصدر الإصدار القادم؟\u{200F}"
  static let hebrew = "מתי תצא הגרסה הבאה?\u{200F}"
  static let mixed = "Does v2 support العربية\u{200E} and עברית\u{200E} in search?"
  static let japanese = "日本語の質問はできますか？"
  static let emoji = "Emoji 🎉 👩‍💻 and e\u{301}"
  /// Trojan-source style: an override that would show "exe.txt" as "txt.exe".
  static let spoof =
    "Open report\u{202E}txt.exe and \u{2067}isolated\u{2069} \u{202B}embedded\u{202C}"

  @Test func rightToLeftMixedWideAndEmojiQuestionsShowWithoutNoiseAndSpoofingStaysEscaped()
    async throws
  {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let questions = [Self.arabic, Self.hebrew, Self.mixed, Self.japanese, Self.emoji, Self.spoof]
    let asker = try HeadlessProcess(
      ["--no-persist", "--url", server.url, "--exit-after-send", "--no-stdin"]
        + questions.flatMap { ["--ask", $0] })
    #expect(await asker.exitStatus() == 0)
    // Stored as sent, marks and all.
    let stored = try await server.questions().compactMap { $0["content"] as? String }
    #expect(Set(stored) == Set(questions))

    let state = HeadlessProcess.freshDirectory()
    let terminal = try Room.terminal(state)
    defer { terminal.kill() }
    try UI.startClient(in: terminal, url: server.url, state: state, view: nil)
    let screen = try await terminal.waitFor("every question in the room") {
      $0.contains("● connected") && $0.contains("日本語の質問") && $0.contains("Open report")
    }
    // The marks are dropped on the screen: none reaches the terminal, none shows escaped.
    #expect(!screen.unicodeScalars.contains { [0x200E, 0x200F, 0x061C].contains($0.value) })
    let text = screen
    for plain in ["متى يصدر الإصدار القادم؟", "מתי תצא הגרסה הבאה?", "Does v2 support العربية and"]
    {
      #expect(text.contains(plain), "\(plain) in \(screen)")
    }
    #expect(text.contains("日本語の質問はできますか？") && text.contains("🎉 👩‍💻"))
    #expect(!screen.contains("\\u{200F}") && !screen.contains("\\u{200E}"), "\(screen)")
    #expect(!screen.contains("\\u{61C}") && !screen.contains("\\u{061C}"), "\(screen)")
    let spoofLine = try #require(Room.line(screen, "Open report"))
    for escaped in ["\\u{202E}", "\\u{2067}", "\\u{2069}", "\\u{202B}", "\\u{202C}"] {
      #expect(spoofLine.contains(escaped), "\(escaped) in \(spoofLine)")
    }
    // Each question's votes stay in their column, whatever the script after them.
    for needle in ["日本語の質問", "Open report", "Emoji", "Does v2", "מתי", "متى"] {
      #expect(Room.line(screen, needle)?.hasPrefix(" ▲ 0") == true, "\(needle): \(screen)")
    }
    try terminal.press("C-c")
  }
}
