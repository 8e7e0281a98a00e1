#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A vote and its answer read and written without `Codable`, for the server's hot path: the
/// plain shape clients send (one flat object of `type`, `id`, `question`, `up`, `token`, each
/// once, strings without escapes). Anything else is not refused here: it is left to
/// `WireCodec`, which reads it, or says why not, as before. What this reads, `WireCodec`
/// reads the same (`VoteWireTests` holds them to it).
public enum VoteWire {
  /// The vote in `bytes`, or `nil` when they are not a vote in the plain shape.
  public static func vote(in bytes: UnsafeRawBufferPointer) -> Vote? {
    var reader = FlatObjectReader(bytes)
    var type = false
    var id: UUID?
    var question: UUID?
    var up: Bool?
    var token: UUID?
    guard reader.open() else { return nil }
    if reader.close() { return nil }
    repeat {
      guard let key = reader.key() else { return nil }
      switch key {
      case .type:
        guard !type, reader.string(equalTo: Self.voteType) else { return nil }
        type = true
      case .id:
        guard id == nil, let value = reader.uuid() else { return nil }
        id = value
      case .question:
        guard question == nil, let value = reader.uuid() else { return nil }
        question = value
      case .up:
        guard up == nil, let value = reader.bool() else { return nil }
        up = value
      case .token:
        guard token == nil, let value = reader.uuid() else { return nil }
        token = value
      }
    } while reader.comma()
    guard reader.close(), reader.atEnd, type, let id, let question, let up, let token else {
      return nil
    }
    return Vote(id: id, question: question, up: up, token: token)
  }

  /// `response` with the members `WireCodec` would write (in a fixed order), when it carries
  /// no message and no `retryAfter` (an accepted vote's answer); `nil` otherwise, for the
  /// codec to write.
  public static func encode(_ response: VoteResponse) -> [UInt8]? {
    guard response.message == nil, response.retryAfter == nil else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(200)
    out += "{\"question\":\"".utf8
    response.question.appendText(to: &out)
    out += "\",\"token\":\"".utf8
    response.token.appendText(to: &out)
    out += "\",\"success\":".utf8
    out += (response.success ? "true" : "false").utf8
    out += ",\"voted\":".utf8
    out += (response.voted ? "true" : "false").utf8
    out += ",\"votes\":".utf8
    out += String(response.votes).utf8
    if let seq = response.seq {
      out += ",\"seq\":".utf8
      out += String(seq).utf8
    }
    out += ",\"type\":\"voteResponse\"}".utf8
    return out
  }

  private static let voteType = Array("vote".utf8)
}

/// Reads one flat JSON object of the vote's keys, a token at a time; every method returns
/// `nil` or `false` at anything outside that shape, and the caller gives up.
private struct FlatObjectReader {
  enum Key { case type, id, question, up, token }

  private let bytes: UnsafeRawBufferPointer
  private var at = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var atEnd: Bool {
    mutating get {
      skipSpace()
      return at == bytes.count
    }
  }

  mutating func open() -> Bool { take(UInt8(ascii: "{")) }
  mutating func close() -> Bool { take(UInt8(ascii: "}")) }
  mutating func comma() -> Bool { take(UInt8(ascii: ",")) }

  /// A key of the vote, and the colon after it.
  mutating func key() -> Key? {
    guard let name = plainString() else { return nil }
    let key: Key? =
      switch name.count {
      case 2 where Self.equal(name, "id"): .id
      case 2 where Self.equal(name, "up"): .up
      case 4 where Self.equal(name, "type"): .type
      case 5 where Self.equal(name, "token"): .token
      case 8 where Self.equal(name, "question"): .question
      default: nil
      }
    guard let key, take(UInt8(ascii: ":")) else { return nil }
    return key
  }

  mutating func string(equalTo expected: [UInt8]) -> Bool {
    guard let value = plainString() else { return false }
    return value.elementsEqual(expected)
  }

  mutating func bool() -> Bool? {
    skipSpace()
    if matches("true") { return true }
    if matches("false") { return false }
    return nil
  }

  /// A UUID in its 36-character form, either case, as `UUID(uuidString:)` reads it.
  mutating func uuid() -> UUID? {
    guard let text = plainString(), let value = UUID.value(ofText: text) else { return nil }
    return UUID(uuid: value)
  }

  /// A string's bytes between its quotes: `nil` for one with an escape or a byte outside
  /// printable ASCII (those are the codec's to read).
  private mutating func plainString() -> Slice<UnsafeRawBufferPointer>? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = at
    while at < bytes.count {
      let byte = bytes[at]
      if byte == UInt8(ascii: "\"") {
        at += 1
        return bytes[start..<(at - 1)]
      }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
      at += 1
    }
    return nil
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard at < bytes.count, bytes[at] == byte else { return false }
    at += 1
    return true
  }

  private mutating func matches(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[at + offset] != word.utf8Start[offset] { return false }
    at += count
    return true
  }

  private mutating func skipSpace() {
    while at < bytes.count {
      switch bytes[at] {
      case 0x20, 0x09, 0x0A, 0x0D: at += 1
      default: return
      }
    }
  }

  private static func equal(_ bytes: Slice<UnsafeRawBufferPointer>, _ word: StaticString) -> Bool {
    UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
      .elementsEqual(bytes)
  }
}
