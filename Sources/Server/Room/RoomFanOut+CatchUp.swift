import Foundation
import QnA
import QnAStore

/// Catching sockets up: after their snapshot, after a spell of not reading, and after a read
/// the database failed. A socket is marked behind until its catch-up is sent, never before:
/// a read that fails is tried again a moment later, so no change is lost to a database
/// fault, even in a room where nothing else happens.
extension RoomFanOut.Worker {
  /// How long a read the database failed waits before it is tried again: the database may be
  /// down a while, and every try is a log line.
  static let retryPause = Duration.seconds(1)

  /// The snapshot as of `seq` is queued: what was broadcast since goes next, then the
  /// socket takes every broadcast.
  func caughtUp(_ connection: SocketConnection, from seq: Int) async throws(StoreError) {
    guard joining.remove(connection.id) != nil, !connection.isFinished else { return }
    members[connection.id] = Member(connection: connection, behind: seq)
    try await catchUpBehind()
  }

  /// Brings the sockets that were not reading level, those that read again now: one
  /// catch-up each, from where they stopped, read once per starting point.
  func catchUpBehind() async throws(StoreError) {
    let waiting = members.values.filter { $0.behind != nil }
    guard !waiting.isEmpty else { return }
    var stillWaiting = false
    var failure: StoreError?
    do {
      let (epoch, sent) = try await current()
      var groups: [Int: [Bool: [SocketConnection]]] = [:]
      for member in waiting {
        guard let behind = member.behind else { continue }
        let id = member.connection.id
        if member.connection.isCongested {
          stillWaiting = true
          continue
        }
        if sent - behind > Self.catchUpLimit {
          // Too far behind for a catch-up (a slow reader of a busy room): the room again, as
          // it is now.
          try await sendSnapshot(
            to: member.connection, attendee: member.connection.attendee, epoch: epoch)
          members[id] = nil
          continue
        }
        guard behind < sent else {
          members[id]?.behind = nil
          continue
        }
        groups[behind, default: [:]][member.connection.isPresenter, default: []].append(
          member.connection)
      }
      for (behind, audiences) in groups {
        for (presenter, sockets) in audiences {
          let changes = try await store.changes(after: behind, upTo: sent, presenter: presenter)
          send(changes, to: sockets)
          for socket in sockets { members[socket.id]?.behind = nil }
        }
      }
    } catch {
      failure = error
    }
    if let failure {
      retryLater(.retryBehind)
      throw failure
    }
    guard stillWaiting, !retryScheduled else { return }
    retryScheduled = true
    let commands = self.commands
    let pause = max(window, .milliseconds(50))
    Task {
      try? await Task.sleep(for: pause)
      commands.yield(.retryBehind)
    }
  }

  /// `command` again after `retryPause`, once: a flush or a catch-up the database failed, or
  /// a join whose room could not be read (unless its socket is gone by then).
  func retryLater(_ command: RoomFanOut.Command) {
    switch command {
    case .flush:
      guard !flushScheduled else { return }
      flushScheduled = true
    case .retryBehind:
      guard !retryScheduled else { return }
      retryScheduled = true
    default: break
    }
    let commands = self.commands
    Task {
      try? await Task.sleep(for: Self.retryPause)
      if case .join(let connection, _, _) = command, connection.isFinished { return }
      commands.yield(command)
    }
  }
}
