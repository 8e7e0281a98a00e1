#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The room's join (extensions `room`, `identity`, `identityWork`, `tickets`): introducing
/// this attendee after each handshake, paying for a new identity, and what `joined` says.
extension QnAState {
  /// After a handshake from a server with the room: introduce this attendee, asking for what
  /// changed since the sequence this client has seen.
  mutating func join(_ connectionID: UUID) -> [QnAEffect] {
    guard room.isAvailable, let attendeeID else { return [] }
    room.joined = true
    room.joinAgainAt = nil
    // A room without numbers cannot take counts by number: a compact server sends it whole.
    let catchesUp = !room.isCompact || room.numbered
    let screen = configuration.screen && serverExtensions.contains(ProtocolExtension.audience)
    let join = Join(
      id: connectionID, attendee: attendeeID, credential: attendeeCredential,
      name: attendeeName, since: catchesUp ? room.seq : nil,
      epoch: catchesUp ? room.epoch : nil, counts: room.isCompact ? true : nil,
      screen: screen ? true : nil, ticket: attendeeCredential == nil ? ticket : nil)
    // A new identity is paid for (extension `identityWork`) before the join goes, once per
    // connection; a screen needs none, and a ticket pays for it (extension `tickets`) unless
    // a refusal named a price.
    if !screen, !room.workSent,
      (attendeeCredential == nil && join.ticket == nil) || room.workAsked,
      let price = room.identityWork
    {
      room.workSent = true
      return [.payAndJoin(join, price)]
    }
    return [.join(join)]
  }

  /// The ticket a join carries: the configured one, where the server has extension `tickets`.
  private var ticket: String? {
    guard serverExtensions.contains(ProtocolExtension.tickets) else { return nil }
    return configuration.ticket
  }

  /// Extension `identity`: who the server says this attendee is (kept from now on), or
  /// when to join again for it.
  mutating func received(_ joined: Joined) -> [QnAEffect] {
    guard joined.id == connectionID else { return [.log("ignored: joined for another connection")] }
    guard let attendee = joined.attendee, let credential = joined.credential else {
      let message = joined.message ?? "no reason given"
      // Extension `identityWork`: a price named on the refusal is paid at once, once per
      // connection (this client's credential was unknown there, or the price changed).
      if let price = joined.work, price.isPayable, !room.workSent,
        serverExtensions.contains(ProtocolExtension.identityWork), let connectionID
      {
        room.identityWork = price
        room.workAsked = true
        return [.log("room: paying for an identity (\(message))")] + join(connectionID)
      }
      guard let seconds = joined.retryAfter else {
        // Refused for good (a session that admits by ticket, say): the attendee is told,
        // in the server's words; the room stays shown, votes wait.
        return [.log("room: join refused: \(message)"), notice(message, kind: .error)]
      }
      room.joinAgainAt = now + Self.obeyed(retryAfter: seconds)
      return [.log("room: no identity yet (\(message)); joining again in \(seconds) s")]
    }
    guard attendee != attendeeID || credential != attendeeCredential else { return [] }
    var effects: [QnAEffect] = []
    if let attendeeID, attendee != attendeeID {
      // The server knew this id with another credential: this client is someone new to it.
      effects.append(.log("room: the server gave this attendee a new id"))
      room.myVotes = []
    }
    attendeeID = attendee
    attendeeCredential = credential
    return effects + [.keepIdentity(attendee: attendee, credential: credential)]
  }

  /// The join the server asked for again, once its time has come.
  mutating func joinAgainIfDue() -> [QnAEffect] {
    guard let due = room.joinAgainAt, now >= due, let connectionID else { return [] }
    return join(connectionID)
  }
}
