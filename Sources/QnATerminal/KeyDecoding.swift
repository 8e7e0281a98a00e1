import CNcurses

/// ncurses key codes and characters to `Key`s.
enum KeyDecoding {
  static func functionKey(_ code: Int32, wheel: () -> Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    case KEY_ENTER: return .enter
    case KEY_RESIZE: return .resize
    case KEY_MOUSE:
      switch wheel() {
      case -1: return .wheelUp
      case 1: return .wheelDown
      default: return nil
      }
    case Int32(QNA_KEY_PASTE_START): return .pasteStart
    case Int32(QNA_KEY_PASTE_END): return .pasteEnd
    case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
    default: return nil
    }
  }

  /// A character typed (not a function key): controls by name, printable text as text.
  static func character(_ value: UInt32) -> Key? {
    switch value {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x08, 0x7F: return .backspace
    case 0x01...0x1A:
      return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
    case 0x00, 0x1B...0x1F, 0x80...0x9F: return nil
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .text(String(Character(scalar)))
    }
  }
}
