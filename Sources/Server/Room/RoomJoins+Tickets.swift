import Foundation
import QnA
import QnAStore

/// Extension `tickets`: a session issued tickets (`qna-server session tickets`) admits a new
/// attendee only with one of them, each ticket one identity. The ticket pays for the identity
/// (no work, no address budget): one person, one weight, however many of them share an
/// address and whatever the one beside them runs. A ticket used again (a second device, a
/// lost credential) brings back the identity it holds.
extension RoomJoins {
  enum Admission {
    /// The session admits by join code: the identity is paid for as `mayMint` says.
    case open
    /// An unused ticket of the session: a new identity, bound to it.
    case byTicket(String)
    /// A used ticket: the identity it holds.
    case restored(SocketConnection.Identity)
    /// No ticket, or not one of the session's: refused for good (the client was told).
    case refused
  }

  func admission(_ join: Join, name: String?, from connection: SocketConnection)
    async throws(StoreError) -> Admission
  {
    // Presenters come with the session's token; the default room has no tickets.
    guard !connection.isPresenter, try await room.admitsByTicket() else { return .open }
    guard let ticket = join.ticket.flatMap(Ticket.canonical) else {
      refuse(connection, RoomReplies.ticketNeeded)
      return .refused
    }
    switch try await room.store.ticket(ticket) {
    case .unknown:
      refuse(connection, RoomReplies.unknownTicket)
      return .refused
    case .bound(let attendee, let credential?):
      return .restored(
        .init(attendee: attendee, credential: credential, claimed: join.attendee, name: name))
    case .unused, .bound(_, credential: nil):
      return .byTicket(ticket)
    }
  }

  /// The identity just issued, bound to its ticket; or, when another join bound the ticket
  /// first (one person's two devices at once), the identity that join got.
  func bind(
    _ ticket: String, to issued: SocketConnection.Identity, _ join: Join,
    from connection: SocketConnection
  ) async throws(StoreError) -> SocketConnection.Identity? {
    switch try await room.store.bind(ticket, to: issued.attendee) {
    case .bound(let attendee, _) where attendee == issued.attendee: return issued
    case .bound(let attendee, let credential?):
      return .init(
        attendee: attendee, credential: credential, claimed: join.attendee, name: issued.name)
    case .bound(_, credential: nil), .unused, .unknown:
      // The ticket went meanwhile (its session deleted): nothing to bind to.
      refuse(connection, RoomReplies.unknownTicket)
      return nil
    }
  }
}

extension SessionRoom {
  /// How long a session is taken not to admit by ticket before the store is asked again:
  /// tickets issued take effect within it. Once it has tickets, it always has.
  package static let ticketsRead: Duration = .seconds(1)

  /// Whether the session admits new attendees only by ticket (extension `tickets`). Asked by
  /// every join that needs a new identity and every question from a socket without one, so
  /// read at most once per `ticketsRead` while it does not.
  package func admitsByTicket() async throws(StoreError) -> Bool {
    let now = environment.uptime()
    if let known = ticketed.withLock({ $0 }), known.answer || now - known.at < Self.ticketsRead {
      return known.answer
    }
    let answer = try await store.admitsByTicket()
    ticketed.withLock { $0 = (answer, now) }
    return answer
  }
}
