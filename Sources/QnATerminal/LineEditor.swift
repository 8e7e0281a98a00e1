/// The input line: a buffer and a cursor, changed only by named operations (readline's).
/// Pure; positions count characters (grapheme clusters), never bytes.
public struct LineEditor: Sendable, Equatable {
  public private(set) var characters: [Character] = []
  /// 0...characters.count.
  public private(set) var cursor = 0

  public init(_ text: String = "", cursor: Int? = nil) {
    characters = Array(text)
    self.cursor = min(max(0, cursor ?? characters.count), characters.count)
  }

  public var text: String { String(characters) }
  public var isEmpty: Bool { characters.isEmpty }

  public mutating func insert(_ text: String) {
    // Through a String, so that a typed combining mark joins the character before it.
    let before = Array(String(characters[..<cursor]) + text)
    characters = before + characters[cursor...]
    cursor = before.count
  }

  public mutating func moveLeft() { cursor = max(0, cursor - 1) }
  public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
  public mutating func moveToStart() { cursor = 0 }
  public mutating func moveToEnd() { cursor = characters.count }

  /// Alt-B: to the start of this or the previous word.
  public mutating func moveWordLeft() { cursor = wordStart(before: cursor) }

  /// Alt-F: to the end of this or the next word.
  public mutating func moveWordRight() {
    var index = cursor
    while index < characters.count, !isWord(characters[index]) { index += 1 }
    while index < characters.count, isWord(characters[index]) { index += 1 }
    cursor = index
  }

  public mutating func deleteBackward() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  public mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Ctrl-U.
  public mutating func deleteToStart() {
    characters.removeSubrange(0..<cursor)
    cursor = 0
  }

  /// Ctrl-K.
  public mutating func deleteToEnd() { characters.removeSubrange(cursor...) }

  /// Ctrl-W: the word before the cursor, and the spaces after it.
  public mutating func deleteWordBackward() {
    let start = wordStart(before: cursor)
    characters.removeSubrange(start..<cursor)
    cursor = start
  }

  public mutating func replace(with text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  private func wordStart(before position: Int) -> Int {
    var index = position
    while index > 0, !isWord(characters[index - 1]) { index -= 1 }
    while index > 0, isWord(characters[index - 1]) { index -= 1 }
    return index
  }

  private func isWord(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}

/// Questions asked in this run, for Ctrl-P / Ctrl-N; the line being typed is kept while
/// browsing.
public struct InputHistory: Sendable, Equatable {
  public private(set) var entries: [String] = []
  /// Index into `entries` while browsing, `nil` while editing a new line.
  private var position: Int?
  private var draft = ""
  private let limit: Int

  public init(limit: Int = 500) { self.limit = limit }

  public mutating func record(_ line: String) {
    if entries.last != line { entries.append(line) }
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
    position = nil
  }

  /// The older entry to show, or `nil` at the oldest.
  public mutating func previous(current: String) -> String? {
    guard !entries.isEmpty else { return nil }
    let index: Int
    if let position {
      guard position > 0 else { return nil }
      index = position - 1
    } else {
      draft = current
      index = entries.count - 1
    }
    position = index
    return entries[index]
  }

  /// The newer entry to show (the draft after the newest), or `nil` when not browsing.
  public mutating func next() -> String? {
    guard let position else { return nil }
    if position + 1 < entries.count {
      self.position = position + 1
      return entries[position + 1]
    }
    self.position = nil
    return draft
  }
}
