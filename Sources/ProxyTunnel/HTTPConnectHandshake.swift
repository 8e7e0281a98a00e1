/// `CONNECT host:port HTTP/1.1` (RFC 9110 §9.3.6) and the proxy's answer: any 2xx opens the
/// tunnel; anything else is a refusal carrying the status and reason.
public struct HTTPConnectHandshake: ProxyHandshake {
  /// An answer's status line and headers must end within this many bytes.
  public static let answerLimit = 16 * 1024

  private let request: [UInt8]
  private var answer: [UInt8] = []

  /// `authorization` is a whole `Proxy-Authorization` value (`Basic …`).
  public init(host: String, port: Int, authorization: String?) throws(ProxyError) {
    guard
      HostPort.parse(Substring(HostPort.format(host: host, port: port)), defaultPort: nil)
        != nil
    else { throw .unsupportedRequest("cannot ask a proxy for the host \(host.debugDescription)") }
    let target = HostPort.format(host: host, port: port)
    var text = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
    if let authorization {
      guard !authorization.contains(where: { $0 == "\r" || $0 == "\n" }) else {
        throw .unsupportedRequest("the proxy credentials contain a line break")
      }
      text += "Proxy-Authorization: \(authorization)\r\n"
    }
    request = Array((text + "\r\n").utf8)
  }

  public mutating func start() -> [UInt8] { request }

  public mutating func receive(_ bytes: some Collection<UInt8>) throws(ProxyError) -> ProxyStep {
    let searchFrom = max(0, answer.count - 3)
    answer.append(contentsOf: bytes)
    guard let end = Self.endOfHeaders(in: answer, from: searchFrom) else {
      if answer.count > Self.answerLimit { throw .answerTooLong(limit: Self.answerLimit) }
      // A status line that is already wrong need not wait for the rest.
      if let lineEnd = answer.firstIndex(of: UInt8(ascii: "\n")) {
        _ = try Self.status(of: answer[..<lineEnd])
      }
      return .waiting
    }
    if end > Self.answerLimit { throw .answerTooLong(limit: Self.answerLimit) }
    let lineEnd = answer.firstIndex(of: UInt8(ascii: "\n")) ?? end
    let (status, reason) = try Self.status(of: answer[..<lineEnd])
    guard (200..<300).contains(status) else { throw .refused(status: status, reason: reason) }
    return .established(leftover: Array(answer[end...]))
  }

  /// Just past the blank line that ends the headers (CRLF CRLF, or bare LF LF).
  private static func endOfHeaders(in bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"),
          bytes[index + 2] == UInt8(ascii: "\n")
        {
          return index + 3
        }
      }
      index += 1
    }
    return nil
  }

  /// `HTTP/1.1 407 Proxy Authentication Required` → (407, "Proxy Authentication Required").
  private static func status(of line: ArraySlice<UInt8>) throws(ProxyError) -> (Int, String) {
    var line = line
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    let text = String(decoding: line, as: UTF8.self)
    let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
      parts[1].count == 3, parts[1].allSatisfy(\.isASCIIDigit), let status = Int(parts[1])
    else { throw .malformed("not an HTTP status line: \(Self.printable(text))") }
    let reason = parts.count > 2 ? String(parts[2]) : ""
    return (status, Self.printable(reason))
  }

  /// At most 80 characters, with control characters escaped: a proxy's words reach a terminal.
  static func printable(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars.prefix(80) {
      if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
        shown += scalar.escaped(asASCII: true)
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }
}
