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
    var loops = LoopGroups()
    for socket in sockets {
      guard let (loop, framing) = socket.route else {
        for message in messages { socket.send(message, due: nil) }
        continue
      }
      loops.add(socket, loop: loop, framing: framing)
    }
    guard !loops.isEmpty else { return }
    var frames: [(framing: Framing, frames: [ByteBuffer])] = []
    for framing in loops.framings where !frames.contains(where: { $0.framing == framing }) {
      frames.append((framing, messages.map { $0.frame(for: framing) }))
    }
    for (loop, groups) in loops.loops {
      let work = groups.map { group in
        (frames: frames.first { $0.framing == group.framing }?.frames ?? [], group.sockets)
      }
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

/// A broadcast's sockets by event loop, and within a loop by framing. There are a handful of
/// each (a loop per core, a framing per compression a client asked for), so each socket finds
/// its group by comparing a few references rather than hashing two keys.
struct LoopGroups {
  private(set) var loops:
    [(loop: any EventLoop, groups: [(framing: Framing, sockets: [SocketConnection])])] = []

  var isEmpty: Bool { loops.isEmpty }
  /// Every framing some loop's sockets take.
  var framings: [Framing] { loops.flatMap { $0.groups.map(\.framing) } }

  mutating func add(_ socket: SocketConnection, loop: any EventLoop, framing: Framing) {
    guard let index = loops.firstIndex(where: { $0.loop === loop }) else {
      loops.append((loop, [(framing, [socket])]))
      return
    }
    if let group = loops[index].groups.firstIndex(where: { $0.framing == framing }) {
      loops[index].groups[group].sockets.append(socket)
    } else {
      loops[index].groups.append((framing, [socket]))
    }
  }
}
