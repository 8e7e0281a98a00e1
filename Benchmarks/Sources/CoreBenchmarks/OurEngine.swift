import RFC6455

/// Our side of each row: the client connection as the runtime drives it.
enum OurEngine {
  static func openConnection() -> ClientConnection {
    var connection = try! ClientConnection(url: WebSocketURL("ws://127.0.0.1:8080/socket"))
    _ = connection.takeOutbound()
    let response =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(connection.request.expectedAccept)\r\n\r\n"
    _ = connection.receive(Array(response.utf8), now: .zero)
    precondition(connection.state == .open)
    return connection
  }

  /// Decodes every read; returns the payload bytes delivered.
  static func decode(_ reads: [[UInt8]]) -> Int {
    var connection = openConnection()
    var delivered = 0
    for read in reads {
      for event in read.withUnsafeBytes({ connection.receive($0, now: .zero) }) {
        if case .message(let message) = event { delivered += message.data.count }
      }
    }
    return delivered
  }

  /// Encodes and masks `count` copies of `message`; returns the bytes produced.
  static func encode(_ message: WebSocketMessage, text: String, count: Int) -> Int {
    var connection = openConnection()
    var produced = 0
    for _ in 0..<count {
      switch message.kind {
      case .text: try! connection.send(text: text)
      case .binary: try! connection.send(binary: message.data)
      }
      // The runtime writes each frame as it is produced.
      for frame in connection.takeOutbound() { produced += frame.count }
    }
    return produced
  }
}
