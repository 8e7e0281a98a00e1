// libFuzzer entry for the RFC 6455 core, compiled into one module with Sources/RFC6455 and
// the tests' SplitMix64 (see `make fuzz`). The first input byte picks a target; the rest is
// the peer's bytes. Beyond "no crash", each target checks properties and traps when one
// breaks. The generator is deterministic: fuzz runs must be reproducible from the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  guard let selector = input.first else { return 0 }
  let body = Array(input.dropFirst())
  let pieceSize = Int(selector >> 2) % 9 + 1
  switch selector & 3 {
  case 0: fuzzFrameDecoder(body, role: .client, pieceSize: pieceSize)
  case 1: fuzzFrameDecoder(body, role: .server, pieceSize: pieceSize)
  case 2: fuzzHandshakeParser(body, pieceSize: pieceSize)
  default: fuzzConnection(body, pieceSize: pieceSize)
  }
  return 0
}

/// Chunking must not change what is decoded, nor which error stops it.
private func fuzzFrameDecoder(_ bytes: [UInt8], role: FrameDecoder.Role, pieceSize: Int) {
  let whole = decodeFrames(bytes, role: role, pieceSize: max(1, bytes.count), maxMessageSize: 2048)
  let pieces = decodeFrames(bytes, role: role, pieceSize: pieceSize, maxMessageSize: 2048)
  guard whole == pieces else { fatalError("chunking changed the result: \(whole) vs \(pieces)") }
  for case .message(let message) in whole.outputs where message.kind == .text {
    guard String(validating: message.data, as: UTF8.self) != nil else {
      fatalError("invalid UTF-8 delivered as text")
    }
  }
}

private func fuzzHandshakeParser(_ bytes: [UInt8], pieceSize: Int) {
  var random = SplitMix64(seed: 1)
  guard let url = try? WebSocketURL("ws://fuzz.example:8080/socket"),
    let request = try? HandshakeRequest(
      url: url, options: HandshakeOptions(subprotocols: ["chat"]), random: &random)
  else { fatalError("fixed request must build") }
  var parser = HandshakeResponseParser(maxHeaderBlockSize: 1024)
  var start = 0
  while start < bytes.count {
    let end = min(bytes.count, start + pieceSize)
    let result = bytes[start..<end].withUnsafeBytes { chunk in
      Result { () throws(HandshakeError) in try parser.parse(chunk) }
    }
    switch result {
    case .failure: return
    case .success(nil): start = end
    case .success(let parsed?):
      guard parsed.consumed >= 0, parsed.consumed <= end - start else {
        fatalError("consumed \(parsed.consumed) of a \(end - start)-byte chunk")
      }
      _ = try? request.validate(parsed.head)
      return
    }
  }
}

/// Drives a whole connection past a valid handshake; `.closed` must come once, and last.
private func fuzzConnection(_ bytes: [UInt8], pieceSize: Int) {
  guard let url = try? WebSocketURL("ws://fuzz.example/socket"),
    var connection = try? ClientConnection(
      url: url, configuration: Configuration(maxMessageSize: 4096), random: SplitMix64(seed: 2))
  else { fatalError("fixed connection must build") }
  let accept = connection.request.expectedAccept
  let response = Array(
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
      .utf8)
  var events = connection.receive(response, now: .zero)
  var start = 0
  var step = 0
  while start < bytes.count {
    let end = min(bytes.count, start + pieceSize)
    events += connection.receive(Array(bytes[start..<end]), now: .milliseconds(step))
    step += 1
    if step % 5 == 0 { try? connection.send(text: "echo \(step)") }
    _ = connection.takeOutbound()
    start = end
  }
  _ = try? connection.close(code: .normalClosure, reason: "done", now: .milliseconds(step))
  events += connection.handleDeadline(now: .seconds(3600))
  events += connection.transportClosed(now: .seconds(3601))
  let closedCount = events.filter { if case .closed = $0 { true } else { false } }.count
  guard closedCount == 1, case .closed = events.last else {
    fatalError("expected exactly one .closed, last: \(events)")
  }
}
