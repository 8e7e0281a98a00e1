import RFC6455

/// An unmasked frame as a server sends it; `opcode` may be reserved, `rsv` set, on purpose.
public func serverFrame(_ opcode: UInt8, fin: Bool = true, rsv: UInt8 = 0, _ payload: [UInt8])
  -> [UInt8]
{
  var frame: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
  if payload.count < 126 {
    frame.append(UInt8(payload.count))
  } else if payload.count <= 0xFFFF {
    frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
  } else {
    frame.append(127)
    for shift in stride(from: 56, through: 0, by: -8) {
      frame.append(UInt8(truncatingIfNeeded: payload.count >> shift))
    }
  }
  return frame + payload
}

/// An unmasked, final frame with a valid opcode.
public func serverFrame(_ opcode: Opcode, _ payload: [UInt8]) -> [UInt8] {
  serverFrame(opcode.rawValue, payload)
}

/// A complete, valid 101 response for `request`.
public func switchingProtocols(for request: HandshakeRequest, extraHeaders: String = "")
  -> [UInt8]
{
  Array(
    ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(request.expectedAccept)\r\n\(extraHeaders)\r\n").utf8)
}
