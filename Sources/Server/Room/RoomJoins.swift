import Foundation
import QnA
import QnAStore

/// Extensions `room` and `identity`: an attendee joins, proving its id with the credential
/// the server issued (or getting one), then the fan-out welcomes it. A socket is one
/// attendee for its life; its joins after the first cost the room nothing but a catch-up.
package struct RoomJoins: Sendable {
  package let room: SessionRoom

  /// Names longer than this are cut: they are shown beside questions.
  package static let maxNameLength = 60
  /// Joins one socket may send at once; past them, each waits its turn, `joinBurst` per
  /// `joinWindow` (a client joins once per connection, and again on a gap in the deltas).
  package static let joinBurst = 5
  package static let joinWindow: Duration = .seconds(10)

  package init(room: SessionRoom) { self.room = room }

  package func join(_ asked: Join, from connection: SocketConnection) async {
    var join = asked
    // The compact room only where the handshake announced it.
    if !room.settings.compactRoom { join.counts = nil }
    guard join.id == connection.id else {
      room.logger.warning("ignored join from \(connection.id) naming \(join.id)")
      return
    }
    if let identity = connection.identity, !identity.isNamed(by: join) {
      // Refused in words while the socket's join budget lasts; past it, ignored in silence:
      // a flood of them costs neither replies nor log lines.
      guard connection.mayRefuseJoin(now: room.environment.uptime()) else { return }
      room.logger.warning("refused join from \(connection.id): it joined as another attendee")
      refuse(connection, "This connection has joined as another attendee.")
      return
    }
    // Slowed, never refused: a flood of joins holds up its own socket's messages only.
    let wait = connection.spendJoin(now: room.environment.uptime())
    if wait > .zero { try? await Task.sleep(for: wait) }
    // A screen (extension `audience`) only watches: no identity, not counted. The socket's
    // first join decides, for its life.
    connection.settleRole(screen: join.screen == true && !connection.isPresenter)
    if connection.isScreen {
      room.enter(connection, join, attendee: nil)
      return
    }
    let name = Self.name(join.name)
    guard let identity = connection.identity else {
      let identity = await identify(join, name: name, from: connection)
      connection.identity = identity
      if let identity { tell(connection, identity) }
      // Without an identity (not now: `joined` said when to ask again) the room is still
      // shown; votes wait for the identity.
      room.enter(connection, join, attendee: identity?.attendee)
      return
    }
    if name != identity.name {
      do {
        _ = try await room.store.claim(
          attendee: identity.attendee, credential: identity.credential, mint: nil, name: name,
          at: room.environment.now())
        connection.identity?.name = name
      } catch {
        room.logger.error("could not record a name: \(error)")
      }
    }
    tell(connection, identity)
    room.enter(connection, join, attendee: identity.attendee)
  }

  /// Who the join's sender is: the id it claims, proved by its credential, or issued the one
  /// already issued for it while no join has proved it; else that id with a new credential,
  /// if it has none yet, or a new id (someone else's id, or a client that lost a credential
  /// it had proved). Only new credentials cost work or come from its address's budget; in a
  /// session that admits by ticket, they cost a ticket instead (`admission`), and a used
  /// ticket is the identity it holds. `nil` when none can be had now; the client was told
  /// what it costs, or when to ask again.
  private func identify(_ join: Join, name: String?, from connection: SocketConnection) async
    -> SocketConnection.Identity?
  {
    let store = room.store
    let now = room.environment.now()
    do {
      var attendee = join.attendee
      var claim = try await store.claim(
        attendee: attendee, credential: join.credential, mint: nil, name: name, at: now)
      switch claim {
      case .proved:
        if let credential = join.credential {
          return .init(
            attendee: attendee, credential: credential, claimed: join.attendee, name: name)
        }
      case .issued(let credential):
        return .init(attendee: attendee, credential: credential, claimed: join.attendee, name: name)
      case .needsMint, .taken: break
      }
      let admission = try await admission(join, name: name, from: connection)
      switch admission {
      case .refused: return nil
      case .restored(let identity): return identity
      case .byTicket: break
      case .open: guard mayMint(join, on: connection) else { return nil }
      }
      let mint = room.environment.makeID()
      // Someone else's id: this client gets one of its own. Twice at most: a fresh id is
      // taken only by a race with another instance that made the same one.
      for _ in 0..<2 {
        if claim == .taken { attendee = room.environment.makeID() }
        claim = try await store.claim(
          attendee: attendee, credential: nil, mint: mint, name: name, at: now)
        if case .issued(let credential) = claim {
          room.metrics.attendeesIssued.increment()
          let issued = SocketConnection.Identity(
            attendee: attendee, credential: credential, claimed: join.attendee, name: name)
          guard case .byTicket(let ticket) = admission else { return issued }
          return try await bind(ticket, to: issued, join, from: connection)
        }
      }
      room.logger.error("could not issue an identity to \(connection.id)")
    } catch {
      room.logger.error("could not record attendee: \(error)")
    }
    refuse(connection, RoomReplies.failedSave, retryAfter: RoomReplies.storageRetry)
    return nil
  }

  /// Whether `connection` may have a new identity: free where its address is not counted;
  /// else paid for with the join's work (extension `identityWork`), or taken from the
  /// address's small budget for clients that cannot pay. Refused in `joined` otherwise, with
  /// the price and, when the budget is spent, when to ask again.
  private func mayMint(_ join: Join, on connection: SocketConnection) -> Bool {
    guard let address = connection.address else { return true }
    let price = room.identityWork(for: connection)
    if let price, let nonces = join.work {
      // At most `IdentityWork.maxCount` hashes, and at most the socket's joins' worth.
      if price.isProved(by: nonces, connection: connection.id) { return true }
      refuse(connection, RoomReplies.unpaidIdentity, work: price)
      return false
    }
    if let wait = room.identities.take(address, now: room.environment.uptime()) {
      refuse(connection, RoomReplies.tooManyNewAttendees, retryAfter: wait, work: price)
      return false
    }
    return true
  }

  private func tell(_ connection: SocketConnection, _ identity: SocketConnection.Identity) {
    room.send(
      .joined(
        Joined(
          id: connection.id, attendee: identity.attendee, credential: identity.credential)),
      to: connection)
  }

  func refuse(
    _ connection: SocketConnection, _ message: String, retryAfter: Duration? = nil,
    work: IdentityWork? = nil
  ) {
    room.send(
      .joined(
        Joined(
          id: connection.id, message: message, retryAfter: retryAfter.map(RoomReplies.seconds),
          work: work)),
      to: connection)
  }

  /// The name as shown: cut to `maxNameLength`, none when blank.
  /// Controls (a NUL, line breaks, escapes) and characters stacked with more marks than any
  /// writing needs are dropped: a name is one short line beside questions.
  package static func name(_ raw: String?) -> String? {
    raw.map { raw in
      String(
        raw.lazy.filter { character in
          character.unicodeScalars.count <= QuestionText.maxScalarsPerCharacter
            && !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }.prefix(maxNameLength))
    }.flatMap {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
    }
  }
}
