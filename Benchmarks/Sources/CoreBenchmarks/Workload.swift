import RFC6455

/// A stream of server frames for the decode rows, cut into socket-sized reads.
struct Workload {
  var name: String
  var kind: MessageKind
  var messageCount: Int
  var payload: [UInt8]
  var fragments: Int
  var readSize = 64 << 10

  var payloadBytes: Int { messageCount * payload.count }

  /// Q&A protocol traffic: JSON messages whose question text has non-ASCII characters
  /// (about 4% of the bytes), cut at a character boundary and padded to exactly `count` bytes.
  static func text(count: Int) -> [UInt8] {
    fill(
      count: count,
      template: #"{"type":"questionResponse","success":true,"message":"Question created. "#
        + #"We will answer it as soon as possible :]","id":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","#
        + #""answered":false,"content":"Können Sie das Überladen von Operatoren erklären – "#
        + #"und warum?","createdAt":785000000.123}"#)
  }

  /// Dense mixed text (about 13% non-ASCII bytes): the validator's harder case.
  static func denseText(count: Int) -> [UInt8] {
    fill(count: count, template: "question über answer – presenter? ")
  }

  private static func fill(count: Int, template: String) -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
      for character in template {
        let encoded = Array(character.utf8)
        guard bytes.count + encoded.count <= count else {
          return bytes + Array(repeating: UInt8(ascii: " "), count: count - bytes.count)
        }
        bytes += encoded
      }
    }
  }

  static func binary(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
  }

  /// The frames as a server sends them (unmasked), fragmented as requested.
  func serverStream() -> [UInt8] {
    var stream: [UInt8] = []
    stream.reserveCapacity(payloadBytes + messageCount * fragments * 14)
    let step = (payload.count + fragments - 1) / fragments
    var message: [UInt8] = []
    for index in 0..<fragments {
      let piece = Array(
        payload[min(payload.count, index * step)..<min(payload.count, (index + 1) * step)])
      let opcode: Opcode = index == 0 ? kind == .text ? .text : .binary : .continuation
      message += FrameEncoder.encode(
        opcode: opcode, fin: index == fragments - 1, payload: piece, maskingKey: nil)
    }
    for _ in 0..<messageCount { stream += message }
    return stream
  }

  func reads() -> [[UInt8]] {
    let stream = serverStream()
    return stride(from: 0, to: stream.count, by: readSize).map {
      Array(stream[$0..<min(stream.count, $0 + readSize)])
    }
  }
}
