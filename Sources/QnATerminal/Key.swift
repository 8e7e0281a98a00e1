/// A key press (or other input) as the model understands it, whatever the terminal sent.
public enum Key: Sendable, Hashable {
  /// Printable text (one character, or a pasted run).
  case text(String)
  /// Ctrl and a letter: `.control("a")` for Ctrl-A.
  case control(Character)
  /// Alt (or Esc then) a character.
  case alt(Character)
  case up, down, left, right
  case home, end, pageUp, pageDown
  case backspace, delete, enter, tab, escape
  case function(Int)
  case wheelUp, wheelDown
  case pasteStart, pasteEnd
  case resize
}
