import QnATerminal
import Testing

/// `--notify`: which sequence for which terminal, and text from the network kept from
/// ending a sequence early or reaching the terminal raw.
@Suite("Desktop notifications through the terminal")
struct DesktopNotifierTests {
  init() { #expect(utf8Locale) }

  static func chosen(_ environment: [String: String], passthrough: Bool = false)
    -> DesktopNotifier?
  {
    DesktopNotifier.forTerminal(environment: environment, tmuxPassesThrough: { passthrough })
  }

  @Test func eachTerminalGetsTheSequenceItReads() {
    #expect(Self.chosen(["TERM_PROGRAM": "iTerm.app"])?.kind == .osc9)
    #expect(Self.chosen(["WT_SESSION": "1f2e"])?.kind == .osc9)
    #expect(Self.chosen(["TERM": "xterm-kitty"])?.kind == .osc99)
    #expect(Self.chosen(["TERM": "xterm-256color", "VTE_VERSION": "7600"])?.kind == .osc777)
    #expect(Self.chosen(["TERM": "foot"])?.kind == .osc777)
    #expect(Self.chosen(["TERM_PROGRAM": "WezTerm"])?.kind == .osc777)
    #expect(Self.chosen(["TERM": "xterm-256color"])?.kind == .osc9, "unknown: OSC 9")
    #expect(Self.chosen(["TERM": "xterm-256color"])?.throughTmux == false)
  }

  @Test func insideTmuxOnlyWithPassthroughAndThenWrapped() {
    let tmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
    #expect(Self.chosen(tmux, passthrough: false) == nil)
    let notifier = Self.chosen(tmux, passthrough: true)
    #expect(notifier == DesktopNotifier(kind: .osc9, throughTmux: true))
    let bytes = String(decoding: notifier!.sequence(title: "T", body: "B"), as: UTF8.self)
    #expect(bytes == "\u{1B}Ptmux;\u{1B}\u{1B}]9;qna: T: B\u{7}\u{1B}\\")
  }

  @Test func theSequencesAsTerminalsReadThem() {
    func text(_ kind: DesktopNotifier.Sequence, _ title: String, _ body: String) -> String {
      String(
        decoding: DesktopNotifier(kind: kind, throughTmux: false).sequence(
          title: title, body: body),
        as: UTF8.self)
    }
    #expect(text(.osc9, "Answered", "Why?") == "\u{1B}]9;qna: Answered: Why?\u{7}")
    #expect(
      text(.osc777, "A; B", "Why; now?") == "\u{1B}]777;notify;A, B;Why; now?\u{7}",
      "the title's semicolon would start the body")
    #expect(text(.osc99, "Answered", "Why?") == "\u{1B}]99;;Answered: Why?\u{1B}\\")
  }

  @Test(arguments: [DesktopNotifier.Sequence.osc9, .osc777, .osc99], [false, true])
  func textFromTheNetworkCannotEndTheSequenceOrRunLong(
    kind: DesktopNotifier.Sequence, throughTmux: Bool
  ) {
    let notifier = DesktopNotifier(kind: kind, throughTmux: throughTmux)
    let hostile = "end\u{7}\u{1B}]0;title\u{1B}\\\u{9C}\u{202E}x"
    let bytes = notifier.sequence(title: "Answered", body: hostile)
    let clean = notifier.sequence(title: "Answered", body: "endx")
    // The hostile text adds no control byte to what a plain one gives: no BEL, ESC or ST.
    for control: UInt8 in [0x07, 0x1B] {
      #expect(bytes.filter { $0 == control }.count == clean.filter { $0 == control }.count)
    }
    #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{9C}"))
    // Long text, and one character of ten thousand scalars, are cut by characters and bytes.
    let long = notifier.sequence(title: "T", body: String(repeating: "x", count: 5000))
    let stacked = notifier.sequence(
      title: "T", body: "a" + String(repeating: "\u{301}", count: 10_000))
    for cut in [long, stacked] {
      #expect(cut.count < DesktopNotifier.maximumBytes + 60, "\(cut.count) bytes")
    }
  }
}
