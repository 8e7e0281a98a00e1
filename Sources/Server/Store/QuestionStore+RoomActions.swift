import Foundation
import QnA

/// The presenters' actions on the room (extension `announcements`): each in one transaction
/// with its log row and its token, exactly once.
extension QuestionStore {
  public struct RoomActionOutcome: Sendable, Equatable {
    /// False when the token was seen before, or the room was already so.
    public var changed: Bool
    /// Why it was refused, when it was.
    public var refusal: String?

    package init(changed: Bool, refusal: String? = nil) {
      self.changed = changed
      self.refusal = refusal
    }
  }

  /// Shows `text` as the room's banner from now on (`nil`: clears it). The token's first use
  /// is the only one that acts.
  public func announce(_ text: String?, token: UUID, at time: Date)
    async throws(StoreError) -> RoomActionOutcome
  {
    let outcome = try await timed {
      try await driver.announce(text, token: token, at: time, session: session)
    }
    if outcome.changed { roomChanged(true) }
    return outcome
  }

  /// Extension `queue`: `next` (the first open queued question becomes the one being
  /// answered), `showQueue`, `hideQueue`; once per token.
  public func queueAction(_ kind: PresenterActionKind, token: UUID, at time: Date)
    async throws(StoreError) -> RoomActionOutcome
  {
    let outcome = try await timed {
      try await driver.queueAction(kind, token: token, at: time, session: session)
    }
    if outcome.changed { roomChanged(true) }
    return outcome
  }

  /// The room's next questions as a presenter sees them (two `roomState` values, not the
  /// room).
  public func nextUp() async throws(StoreError) -> NextUp {
    try await timed { try await driver.nextUp(session: session) }
  }

  /// Extension `labels`: `labelAdd` or `labelRemove` of `name`; once per token.
  public func changeLabels(
    _ kind: PresenterActionKind, _ name: String, token: UUID, at time: Date
  ) async throws(StoreError) -> RoomActionOutcome {
    let outcome = try await timed {
      try await driver.changeLabels(kind, name, token: token, at: time, session: session)
    }
    if outcome.changed { roomChanged(true) }
    return outcome
  }

  /// The session's labels, in the order they were added.
  public func labels() async throws(StoreError) -> [String] {
    try await timed { try await driver.labels(session: session) }
  }

  /// The room's banner now, if any.
  public func announcement() async throws(StoreError) -> Announcement? {
    try await timed { try await driver.announcement(session: session) }
  }
}
