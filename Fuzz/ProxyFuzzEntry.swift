// libFuzzer entry for the proxy handshakes, compiled into one module with Sources/ProxyTunnel
// (see `make fuzz`). Built twice: with -D FUZZ_SOCKS5 it fuzzes the SOCKS5 replies, else the
// HTTP CONNECT answer; each build also reads the input as a proxy URL and a no_proxy list.
// The first byte picks the piece size and, for SOCKS5, whether credentials were offered.
// Beyond "no crash": for HTTP, chunking must not change the outcome (one answer, nothing sent
// in between); for SOCKS5, whose answers follow requests, a tunnel taken as open must have
// had its CONNECT request sent.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  guard let selector = input.first else { return 0 }
  let body = Array(input.dropFirst())
  let pieceSize = Int(selector >> 1) % 7 + 1
  let pieces = outcome(body, pieceSize: pieceSize, credentials: selector & 1 == 1)
  #if FUZZ_SOCKS5
    let request: [UInt8] = [5, 1, 0, 3, 11] + Array("example.com".utf8) + [1, 187]
    if pieces.opened, !pieces.sent.ends(with: request) {
      fatalError("open without the request sent: \(pieces)")
    }
  #else
    let whole = outcome(body, pieceSize: max(1, body.count), credentials: selector & 1 == 1)
    guard whole.text == pieces.text else {
      fatalError("chunking changed the outcome: \(whole) vs \(pieces)")
    }
  #endif
  let text = String(decoding: body, as: UTF8.self)
  if let proxy = try? ProxyEndpoint(text) {
    guard (1...65535).contains(proxy.port), !proxy.host.isEmpty else {
      fatalError("accepted \(proxy)")
    }
    guard !proxy.description.contains("@") else { fatalError("credentials in \(proxy)") }
  }
  _ = NoProxyList(text).matches(host: "api.example.com", port: 443)
  return 0
}

/// What the handshake ends in, fed in pieces: what it asked to send, and how it ended.
private func outcome(_ bytes: [UInt8], pieceSize: Int, credentials: Bool) -> (
  text: String, sent: [UInt8], opened: Bool
) {
  #if FUZZ_SOCKS5
    let login = credentials ? ProxyCredentials(username: "user", password: "pw") : nil
    guard var handshake = try? SOCKS5Handshake(host: "example.com", port: 443, credentials: login)
    else { fatalError("the fixed request must build") }
  #else
    guard
      var handshake = try? HTTPConnectHandshake(
        host: "example.com", port: 443, authorization: credentials ? "Basic dTpw" : nil)
    else { fatalError("the fixed request must build") }
  #endif
  var sent = handshake.start()
  var start = 0
  while start < bytes.count {
    let piece = bytes[start..<min(bytes.count, start + pieceSize)]
    start += piece.count
    do {
      switch try handshake.receive(piece) {
      case .waiting: continue
      case .send(let more): sent += more
      case .established(let leftover):
        // What follows the answer is the tunnel's, whole: in the last piece and after it.
        return ("open \(sent) \(leftover + bytes[start...])", sent, true)
      }
    } catch {
      // What was to be sent before a failure does not matter: the tunnel is not opened. (In
      // one piece, a failure after the method's answer drops the request it would have sent.)
      return ("failed \(error)", sent, false)
    }
  }
  return ("waiting \(sent) \(handshake.closedEarly())", sent, false)
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
