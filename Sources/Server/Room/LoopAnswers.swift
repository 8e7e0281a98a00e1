import NIOCore
import Synchronization

/// The answers a batch of votes gets (`VoteIntake.take`), handed to each event loop together:
/// one hand-off per loop per batch, not one per vote, and written without a flush of their
/// own. The broadcast the batch wakes follows within milliseconds and its flush carries each
/// answer in the same `write` as the delta: on loopback a `write` costs as much as the
/// votes' own work, and a storm's votes each paid one for their answer alone. Whatever no
/// delta has flushed `flushAfter` later (a batch that changed nothing, a socket the room
/// holds its deltas for) is flushed then.
final class LoopAnswers: Sendable {
  /// How long an answer may wait for the delta's flush: a small part of the room's window,
  /// and more than a broadcast takes to follow its batch.
  static let flushAfter = Duration.milliseconds(20)

  private struct Waiting {
    var answers: [(connection: SocketConnection, frame: ByteBuffer)] = []
  }

  private let loop: any EventLoop
  private let waiting = Mutex(Waiting())

  private init(loop: any EventLoop) { self.loop = loop }

  private static let byLoop = PerLoop { LoopAnswers(loop: $0) }

  /// The event loop's own.
  static func on(_ loop: any EventLoop) -> LoopAnswers { byLoop.on(loop) }

  /// `frame` for `connection`, whose socket is this loop's: written with the others that
  /// come before the loop takes them.
  func post(_ frame: ByteBuffer, to connection: SocketConnection) {
    let first = waiting.withLock { waiting in
      waiting.answers.append((connection, frame))
      return waiting.answers.count == 1
    }
    guard first else { return }
    loop.execute { self.write() }
  }

  /// On the loop: every answer waiting, each after what its socket was sent before it.
  private func write() {
    let taken = waiting.withLock { waiting in
      defer { waiting.answers = [] }
      return waiting.answers
    }
    var connections: [SocketConnection] = []
    var seen = Set<ObjectIdentifier>()
    for (connection, frame) in taken {
      connection.writeOnLoop(frame, flush: false)
      if seen.insert(ObjectIdentifier(connection)).inserted { connections.append(connection) }
    }
    loop.scheduleTask(in: TimeAmount(Self.flushAfter)) { [connections] in
      for connection in connections { connection.flushOnLoop() }
    }
  }
}
