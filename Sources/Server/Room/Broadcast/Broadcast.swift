import NIOCore
import QnA

/// One message (or the pages of one) for many sockets: framed once per framing, and handed
/// to each event loop once for all of its sockets.
package enum Broadcast {
  /// Sockets whose frames go straight to their event loop share each frame; the others (the
  /// mock's latency, `--legacy-broadcast`) take the messages through their own queues.
  package static func send(_ messages: [OutgoingMessage], to sockets: [SocketConnection]) {
    var loops: [ObjectIdentifier: (loop: any EventLoop, sockets: [SocketConnection])] = [:]
    var framings: Set<Framing> = []
    for socket in sockets {
      guard let loop = socket.directLoop, let framing = socket.framing else {
        for message in messages { socket.send(message, due: nil) }
        continue
      }
      framings.insert(framing)
      loops[ObjectIdentifier(loop), default: (loop, [])].sockets.append(socket)
    }
    guard !loops.isEmpty else { return }
    // Each frame made once, here, before any loop needs it.
    let frames = messages.map { message in
      Dictionary(uniqueKeysWithValues: framings.map { ($0, message.frame(for: $0)) })
    }
    for (loop, group) in loops.values {
      loop.execute {
        for frame in frames {
          for socket in group { socket.writeOnLoop(frame) }
        }
      }
    }
  }

  /// The delta as one message when it fits the page limit (encoded once, as almost every
  /// delta is), else in pages; each question is measured only then.
  package static func pages(
    of delta: RoomDelta, codec: WireCodec, deflaters: SharedDeflaters?
  ) -> [OutgoingMessage] {
    let whole = codec.encode(.roomDelta(delta))
    if whole.count < RoomPages.messageLimit {
      return [OutgoingMessage(whole, deflaters: deflaters)]
    }
    return RoomPages.split(delta).map {
      OutgoingMessage(codec.encode(.roomDelta($0)), deflaters: deflaters)
    }
  }
}
