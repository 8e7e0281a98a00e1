#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the tmux that `qna` runs in passes escape sequences through to the terminal
/// (`set -g allow-passthrough on`): asked of tmux itself, once, for `--notify`.
enum TmuxPassthrough {
  /// How long tmux has to answer: a wedged tmux server must not hold up qna's start.
  static let limit: Duration = .seconds(1)

  static func isOn() -> Bool {
    // The option as the pane sees it; tmux finds the pane from $TMUX and $TMUX_PANE.
    guard
      let text = ChildOutput.read(
        ["tmux", "display-message", "-p", "#{allow-passthrough}"], within: limit)
    else { return false }
    let value = text.filter { !$0.isWhitespace }
    // "1" (on) or "2"/"all" in newer versions; "0", "off" or nothing when it is off.
    return !["", "0", "off"].contains(value)
  }
}
