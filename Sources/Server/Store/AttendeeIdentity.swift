import Foundation
import QnA

/// What a `join` claiming an attendee id found (extension `identity`). The server issues each
/// attendee a credential the first time it joins a session; a later join proves the id with it.
public enum AttendeeClaim: Sendable, Equatable {
  /// The credential is the one issued for this id; the name is recorded.
  case proved
  /// The id had no credential (a first join, or an attendee from before `identity`), or one
  /// never proved, and now has the one given to mint.
  case minted
  /// As `minted`, but none was given to mint: ask again with one, when the minting budget
  /// allows.
  case needsMint
  /// The id has a proved credential and the join did not carry it: someone else's id.
  case taken
}

/// One attendee's part of the room: the questions it asked, as it sees them (in review,
/// dismissed, with private answers), and the questions it voted for.
public struct AttendeeView: Sendable, Equatable {
  public var own: [RoomQuestion]
  public var voted: Set<UUID>

  public init(own: [RoomQuestion] = [], voted: Set<UUID> = []) {
    self.own = own
    self.voted = voted
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
  /// attendee in the session). A credential never proved may be issued again: its client may
  /// have lost the `joined` that carried it with its connection (and a client without
  /// `identity` never sends it); once a join has proved it, only it proves the id.
  package static func claim(stored: StoredCredential?, offered: UUID?, mint: UUID?)
    -> AttendeeClaim
  {
    if let credential = stored?.value {
      if let offered, credential == offered.uuidString { return .proved }
      if stored?.proved == true { return .taken }
    }
    return mint == nil ? .needsMint : .minted
  }
}
