import Foundation
import QnA

/// What a `join` claiming an attendee id found (extension `identity`). The server issues each
/// attendee a credential the first time it joins a session; a later join proves the id with it.
public enum AttendeeClaim: Sendable, Equatable {
  /// The credential is the one issued for this id; the name is recorded.
  case proved
  /// The id has no proved credential, and the join is given this one: the one already issued
  /// for it (issued again, so that every client sharing the id holds the same one), else the
  /// one given to mint (a first join, or an attendee from before `identity`).
  case issued(UUID)
  /// The id has no credential and none was given to mint: ask again with one, when the
  /// minting budget allows.
  case needsMint
  /// The id has a proved credential and the join did not carry it: someone else's id.
  case taken
}

/// One attendee's part of the room: the questions it asked, as it sees them (in review,
/// dismissed, with private answers), and the questions it voted for.
public struct AttendeeView: Sendable, Equatable {
  public var own: [RoomQuestion]
  public var voted: Set<UUID>
  /// Extension `polls`: its answers, by poll.
  public var answers: [UUID: PollValue]

  public init(own: [RoomQuestion] = [], voted: Set<UUID> = [], answers: [UUID: PollValue] = [:]) {
    self.own = own
    self.voted = voted
    self.answers = answers
  }

  /// Nobody's: the room as anyone sees it.
  public static let none = AttendeeView()
}

/// An attendee's credential as stored: `proved` once a join has carried it.
package struct StoredCredential: Sendable, Equatable {
  package var value: String?
  package var proved: Bool

  package init(value: String?, proved: Bool) {
    self.value = value
    self.proved = proved
  }
}

extension StoreRules {
  /// The decision behind a claim, given the attendee's stored credential (`nil`: no such
  /// attendee in the session). A credential never proved is issued again, the same one, to
  /// any join of its id: its client may have lost the `joined` that carried it with its
  /// connection, a client without `identity` never sends it, and two clients sharing one
  /// state directory join at once with the id alone (a new credential for each would leave
  /// all but the last holding one that no longer proves the id). Issuing it again gives no
  /// one more than minting would: the id is the attendee's secret. Once a join has proved it,
  /// only it proves the id.
  package static func claim(stored: StoredCredential?, offered: UUID?, mint: UUID?)
    -> AttendeeClaim
  {
    if let credential = stored?.value {
      if let offered, credential == offered.text { return .proved }
      if stored?.proved == true { return .taken }
      if let issued = UUID(text: credential) { return .issued(issued) }
    }
    return mint.map(AttendeeClaim.issued) ?? .needsMint
  }
}
