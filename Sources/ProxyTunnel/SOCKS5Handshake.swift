/// SOCKS5 (RFC 1928) with no authentication or a user name and password (RFC 1929). The
/// destination goes as an IP address when it is a literal, else as a name for the proxy
/// to resolve (which `socks5h://` means, and `socks5://` does here too: a name that only the
/// proxy's side can resolve still works, and nothing is looked up around the proxy).
public struct SOCKS5Handshake: ProxyHandshake {
  private enum Stage {
    case method, authentication, reply, done
  }

  private let connectRequest: [UInt8]
  private let credentials: ProxyCredentials?
  private var stage = Stage.method
  private var buffer: [UInt8] = []

  public init(host: String, port: Int, credentials: ProxyCredentials?) throws(ProxyError) {
    guard (1...65535).contains(port) else { throw .unsupportedRequest("bad port \(port)") }
    var request: [UInt8] = [0x05, 0x01, 0x00]
    if let ipv4 = IPv4.bytes(host) {
      request += [0x01] + ipv4
    } else if let ipv6 = IPv6.bytes(host) {
      request += [0x04] + ipv6
    } else {
      let name = Array(host.utf8)
      guard (1...255).contains(name.count) else {
        throw .unsupportedRequest("a SOCKS5 host name is 1 to 255 bytes, not \(name.count)")
      }
      request += [0x03, UInt8(name.count)] + name
    }
    request += [UInt8(port >> 8), UInt8(port & 0xFF)]
    connectRequest = request
    if let credentials {
      guard (1...255).contains(credentials.username.utf8.count),
        credentials.password.utf8.count <= 255
      else {
        throw .unsupportedRequest(
          "SOCKS5 credentials are at most 255 bytes each, user name not empty")
      }
    }
    self.credentials = credentials
  }

  /// The greeting: no authentication, and user name/password when there are credentials.
  public mutating func start() -> [UInt8] {
    credentials == nil ? [0x05, 0x01, 0x00] : [0x05, 0x02, 0x00, 0x02]
  }

  public mutating func receive(_ bytes: some Collection<UInt8>) throws(ProxyError) -> ProxyStep {
    buffer.append(contentsOf: bytes)
    switch stage {
    case .method:
      guard buffer.count >= 2 else { return .waiting }
      guard buffer[0] == 0x05 else { throw .malformed("SOCKS version \(buffer[0]), not 5") }
      let toSend: [UInt8]
      switch buffer[1] {
      case 0x00:
        toSend = connectRequest
        stage = .reply
      case 0x02 where credentials != nil:
        toSend = authenticationRequest()
        stage = .authentication
      case 0xFF: throw .socksNoAcceptableMethod
      case let method: throw .malformed("SOCKS5 method \(method) was not offered")
      }
      return try sending(toSend, after: 2)
    case .authentication:
      guard buffer.count >= 2 else { return .waiting }
      guard buffer[0] == 0x01 else {
        throw .malformed("authentication version \(buffer[0]), not 1")
      }
      guard buffer[1] == 0x00 else { throw .socksAuthenticationFailed }
      stage = .reply
      return try sending(connectRequest, after: 2)
    case .reply:
      // A refusal is judged as soon as it is read; some proxies close right after it.
      guard buffer.count >= 2 else { return .waiting }
      guard buffer[0] == 0x05 else { throw .malformed("SOCKS version \(buffer[0]), not 5") }
      guard buffer[1] == 0x00 else { throw .socksRefused(code: buffer[1]) }
      guard buffer.count >= 5 else { return .waiting }
      let addressLength: Int
      switch buffer[3] {
      case 0x01: addressLength = 4
      case 0x04: addressLength = 16
      case 0x03: addressLength = 1 + Int(buffer[4])
      case let type: throw .malformed("SOCKS5 address type \(type)")
      }
      let length = 4 + addressLength + 2
      guard buffer.count >= length else { return .waiting }
      stage = .done
      let leftover = Array(buffer[length...])
      buffer = []
      return .established(leftover: leftover)
    case .done:
      return .established(leftover: [])
    }
  }

  /// Drops the answer just read and sends the next request. Bytes already past that answer
  /// came before the request they would answer: not SOCKS5, whatever they say.
  private mutating func sending(_ request: [UInt8], after answerLength: Int) throws(ProxyError)
    -> ProxyStep
  {
    guard buffer.count == answerLength else {
      throw .malformed("the proxy answered a request it had not been sent")
    }
    buffer = []
    return .send(request)
  }

  /// Some proxies close instead of answering: after credentials, that is their rejection.
  public func closedEarly() -> ProxyError {
    switch stage {
    case .authentication: .socksAuthenticationFailed
    case .method where credentials == nil:
      .closedEarly(hint: "it may want a user name and password")
    default: .closedEarly(hint: nil)
    }
  }

  private func authenticationRequest() -> [UInt8] {
    guard let credentials else { return [] }
    let user = Array(credentials.username.utf8)
    let password = Array(credentials.password.utf8)
    return [0x01, UInt8(user.count)] + user + [UInt8(password.count)] + password
  }
}

/// IPv6 literals (`::1`, `fe80::1%eth0` without its zone) as the 16 bytes SOCKS5 sends.
enum IPv6 {
  static func bytes(_ text: String) -> [UInt8]? {
    let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard address.contains(":") else { return nil }
    let halves = address.parts(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    guard let head = groups(halves[0]) else { return nil }
    var result = head
    if halves.count == 2 {
      guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
      result += [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
    return result.count == 16 ? result : nil
  }

  /// `a:b:c` → 2 bytes each; a dotted IPv4 tail counts as two groups.
  private static func groups(_ text: Substring) -> [UInt8]? {
    if text.isEmpty { return [] }
    var bytes: [UInt8] = []
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    for (index, part) in parts.enumerated() {
      if index == parts.count - 1, part.contains("."), let ipv4 = IPv4.bytes(String(part)) {
        bytes += ipv4
        continue
      }
      guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit),
        let value = UInt16(part, radix: 16)
      else { return nil }
      bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
    return bytes
  }
}

extension Substring {
  func parts(separatedBy separator: String) -> [Substring] {
    var parts: [Substring] = []
    var rest = self
    while let range = rest.firstRange(of: separator) {
      parts.append(rest[..<range.lowerBound])
      rest = rest[range.upperBound...]
    }
    parts.append(rest)
    return parts
  }
}
