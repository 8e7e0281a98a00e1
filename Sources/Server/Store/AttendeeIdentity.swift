import Foundation
import QnA

/// What a `join` claiming an attendee id found (extension `identity`). The server issues each
/// attendee a credential the first time it joins a session; a later join proves the id with it.
public enum AttendeeClaim: Sendable, Equatable {
  /// The credential is the one issued for this id; the name is recorded.
  case proved
  /// The id had no credential (a first join, or an attendee from before `identity`) and now
  /// has the one given to mint.
  case minted
  /// The id had no credential, and none was given to mint: ask again with one, when the
  /// minting budget allows.
  case needsMint
  /// The id has a credential and the join did not carry it: someone else's id.
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

extension StoreRules {
  /// The decision behind a claim, given the credential stored for the id (`nil` row: no such
  /// attendee; `.some(nil)`: one without a credential).
  package static func claim(stored: String??, offered: UUID?, mint: UUID?) -> AttendeeClaim {
    switch stored {
    case .some(.some(let credential)):
      guard let offered, credential == offered.uuidString else { return .taken }
      return .proved
    case .some(.none), .none:
      return mint == nil ? .needsMint : .minted
    }
  }
}
