import NIOCore
import QnA

/// One message (or the pages of one) for many sockets: framed once per framing, and handed
/// to each event loop once for all of its sockets.
package enum Broadcast {
  /// Sockets whose frames go straight to their event loop share each frame; the others (the
  /// mock's latency, `--legacy-broadcast`) take the messages through their own queues.
  /// `cost`: told how long each event loop took to write them (the room's broadcasts).
  package static func send(
    _ messages: [OutgoingMessage], to sockets: [SocketConnection], cost: FanOutCost? = nil
  ) {
    // Per event loop, and within it per framing: each group's frames made once, here.
    var loops: [ObjectIdentifier: (loop: any EventLoop, groups: [Framing: [SocketConnection]])] =
      [:]
    for socket in sockets {
      guard let (loop, framing) = socket.route else {
        for message in messages { socket.send(message, due: nil) }
        continue
      }
      loops[ObjectIdentifier(loop), default: (loop, [:])].groups[framing, default: []].append(
        socket)
    }
    guard !loops.isEmpty else { return }
    var frames: [Framing: [ByteBuffer]] = [:]
    for (_, groups) in loops.values {
      for framing in groups.keys where frames[framing] == nil {
        frames[framing] = messages.map { $0.frame(for: framing) }
      }
    }
    for (loop, groups) in loops.values {
      let work = groups.map { (frames: frames[$0.key] ?? [], sockets: $0.value) }
      loop.execute {
        // The work's CPU time, whatever clock the room runs on: what the writes cost.
        let start = cost.map { _ in FanOutCost.threadTime() }
        for (frames, sockets) in work {
          for frame in frames {
            for socket in sockets { socket.writeOnLoop(frame) }
          }
        }
        if let cost, let start { cost.record(FanOutCost.threadTime() - start) }
      }
    }
  }

  /// The delta as one message when it fits the page limit (encoded once, as almost every
  /// delta is), else in pages; each question is measured only then.
  package static func pages(
    of delta: RoomDelta, codec: WireCodec, deflaters: CompressorPool?
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
