/// Desktop notifications through the terminal (`--notify`): an escape sequence the terminal
/// turns into a notification of the desktop's, so that someone in another window learns that
/// their question was answered. No standard exists: iTerm2 and Windows Terminal read OSC 9,
/// urxvt, VTE (GNOME Terminal), foot, WezTerm and Ghostty OSC 777, kitty OSC 99; each is
/// chosen from the environment the terminal sets. Inside tmux a sequence reaches the terminal
/// only wrapped for `allow-passthrough`, and only when that option is on; otherwise tmux would
/// swallow it, so nothing is sent.
public struct DesktopNotifier: Sendable, Equatable {
  public enum Sequence: Sendable, Equatable {
    /// `OSC 9 ; text BEL`
    case osc9
    /// `OSC 777 ; notify ; title ; body BEL`
    case osc777
    /// `OSC 99 ; metadata ; payload ST`
    case osc99
  }

  public var kind: Sequence
  /// Wrapped in tmux's passthrough (`DCS tmux; … ST`, each ESC doubled).
  public var throughTmux: Bool

  /// The longest text sent: a notification is a glance, and a terminal's OSC buffer is finite.
  public static let maximumLength = 200

  public init(kind: Sequence, throughTmux: Bool) {
    self.kind = kind
    self.throughTmux = throughTmux
  }

  /// The notifier for the terminal the environment describes; `nil` inside tmux unless
  /// `tmuxPassesThrough` says its `allow-passthrough` is on (asked only inside tmux).
  public static func forTerminal(
    environment: [String: String], tmuxPassesThrough: () -> Bool
  ) -> DesktopNotifier? {
    let insideTmux = !(environment["TMUX"] ?? "").isEmpty
    if insideTmux, !tmuxPassesThrough() { return nil }
    let term = environment["TERM"] ?? ""
    let program = environment["TERM_PROGRAM"] ?? ""
    let chosen: Sequence
    if !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty" {
      chosen = .osc99
    } else if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2"
      || !(environment["WT_SESSION"] ?? "").isEmpty
    {
      chosen = .osc9
    } else if !(environment["VTE_VERSION"] ?? "").isEmpty || program == "WezTerm"
      || program == "ghostty" || term.hasPrefix("rxvt") || term.hasPrefix("foot")
    {
      chosen = .osc777
    } else {
      // Unknown: OSC 9, which the most terminals read; one that reads no such sequence
      // ignores it (ECMA-48 lets a terminal discard an OSC it does not know).
      chosen = .osc9
    }
    return DesktopNotifier(kind: chosen, throughTmux: insideTmux)
  }

  /// The bytes that show `text` (from the network: sanitized, shortened, and kept from
  /// ending the sequence or splitting its fields).
  public func sequence(title: String, body: String) -> [UInt8] {
    let title = Self.safe(title)
    let body = Self.safe(body)
    let escape = "\u{1B}"
    let inner: String
    switch kind {
    // "qna: " first: Windows Terminal and ConEmu read "9;digit;" as a progress report.
    case .osc9: inner = "\(escape)]9;qna: \(title): \(body)\u{7}"
    case .osc777:
      inner = "\(escape)]777;notify;\(title.replacing(";", with: ","));\(body)\u{7}"
    // One part, no id: kitty would replace a notification with the next of the same id.
    case .osc99: inner = "\(escape)]99;;\(title): \(body)\(escape)\\"
    }
    guard throughTmux else { return Array(inner.utf8) }
    let doubled = inner.replacing(escape, with: escape + escape)
    return Array("\(escape)Ptmux;\(doubled)\(escape)\\".utf8)
  }

  /// Escaped as the screen escapes it (no control character, so nothing ends the sequence
  /// early), on one line, at most `maximumLength` characters and `maximumBytes` bytes (one
  /// character can hold many scalars).
  static func safe(_ text: String) -> String {
    let shown = Sanitizer.forScreen(text)
    guard shown.count > maximumLength || shown.utf8.count > maximumBytes else { return shown }
    var kept = ""
    for character in shown {
      guard kept.count < maximumLength - 1,
        kept.utf8.count + character.utf8.count <= maximumBytes - 3
      else { break }
      kept.append(character)
    }
    return kept + "…"
  }

  /// The most bytes of one text sent.
  public static let maximumBytes = 512
}
