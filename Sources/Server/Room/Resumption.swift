import Foundation
import QnA
import QnAStore

/// Extension `resume`: the client's earlier questions move to this connection, and it hears
/// their current state at once, answers given while it was away included; then `resumed`,
/// naming those the server does not have, so that the client asks them again.
package struct Resumption: Sendable {
  package let room: SessionRoom

  /// Ids read and moved per store call: a message holds a few hundred at most (the message
  /// size limit); a server configured with a larger one reads them in slices, each paced.
  package static let maxIDsPerSlice = 1000
  /// The longest wait between tries of a slice the store failed.
  package static let longestRetry: Duration = .seconds(10)

  package init(room: SessionRoom) { self.room = room }

  package func resume(_ resume: Resume, from connection: SocketConnection) async {
    guard resume.id == connection.id else {
      room.logger.warning("ignored resume from \(connection.id) naming \(resume.id)")
      return
    }
    let all: [(id: UUID, isToken: Bool)] =
      resume.questions.map { ($0, false) } + resume.tokens.map { ($0, true) }
    var missing: [UUID] = []
    var start = 0
    while start < all.count {
      let slice = all[start..<min(all.count, start + Self.maxIDsPerSlice)]
      start += slice.count
      let ids = slice.filter { !$0.isToken }.map(\.id)
      let tokens = slice.filter { $0.isToken }.map(\.id)
      var lost = await resumeSlice(ids: ids, tokens: tokens, from: connection)
      // A store that failed (an outage) is tried again while the socket is open, backing off
      // to 10 s: given up, the client would never hear what became of its questions meanwhile
      // (an answer given while it was away), nor which to ask again.
      var wait = RoomReplies.storageRetry
      while lost == nil {
        try? await Task.sleep(for: wait)
        guard connection.channel.isActive else { return }
        wait = min(wait * 2, Self.longestRetry)
        lost = await resumeSlice(ids: ids, tokens: tokens, from: connection)
      }
      missing += lost ?? []
    }
    room.send(.resumed(Resumed(id: connection.id, missing: missing)), to: connection)
  }

  /// Moves what it can of one slice to `connection` and restates it; returns what the server
  /// does not have (nil after a store failure, logged).
  private func resumeSlice(ids: [UUID], tokens: [UUID], from connection: SocketConnection) async
    -> [UUID]?
  {
    await room.pace(ids.count + tokens.count, for: connection)
    let moved: [StoredQuestion]
    do {
      moved = try await room.store.reassign(
        ids: ids, tokens: tokens, to: connection.id, attendee: connection.attendee)
    } catch {
      room.logger.error("resume failed: \(error)")
      return nil
    }
    room.logger.info("resumed \(moved.count) questions on \(connection.id)")
    for question in moved {
      room.send(
        .questionResponse(AskerNotices.restated(question, message: "Question restored.")),
        to: connection)
    }
    // Missing: what the server does not have at all. An id of someone else's question is
    // neither moved nor named (the sender has no claim on it).
    let found = Set(moved.map(\.id)).union(moved.compactMap(\.token))
    do {
      let existing = try await room.store.existing(ids: ids.filter { !found.contains($0) })
      return (ids + tokens).filter { !found.contains($0) && !existing.contains($0) }
    } catch {
      room.logger.error("resume failed: \(error)")
      return nil
    }
  }
}
