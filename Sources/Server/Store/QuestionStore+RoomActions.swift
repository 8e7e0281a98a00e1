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
    try await roomAction(
      .announce(text, at: time), PresenterActionKind.announce.rawValue, text: text, token: token,
      at: time)
  }

  /// Extension `queue`: `next` (the first open queued question becomes the one being
  /// answered), `showQueue`, `hideQueue`; once per token.
  public func queueAction(_ kind: PresenterActionKind, token: UUID, at time: Date)
    async throws(StoreError) -> RoomActionOutcome
  {
    try await roomAction(.queue(kind), kind.rawValue, text: nil, token: token, at: time)
  }

  /// Runs an action's flow under its token (`action` and `text` are how the log of room
  /// actions keeps it); a change goes to the room at once.
  package func roomAction(
    _ flow: RoomActionFlow, _ action: String, text: String?, token: UUID, at time: Date
  ) async throws(StoreError) -> RoomActionOutcome {
    let outcome = try await timed {
      try await driver.transact(
        flow.transaction(action: action, text: text, token: token, at: time, session: session),
        writes: true, locking: session)
    }
    if outcome.changed { roomChanged(.now) }
    return outcome
  }

  /// The room's next questions as a presenter sees them (its `roomState` values, not the
  /// room).
  public func nextUp() async throws(StoreError) -> NextUp {
    try await timed { try await driver.fetch(.roomState(session: session)) }.nextUp(
      presenter: true)
  }

  /// The room's banner now, if any.
  public func announcement() async throws(StoreError) -> Announcement? {
    try await timed { try await driver.fetch(.roomState(session: session)) }.announcement
  }
}

extension RoomActionFlow {
  /// The room's banner: `text` from now on, or none.
  package static func announce(_ text: String?, at time: Date) -> RoomActionFlow {
    .read(["announcement"]) { values in
      guard case .some(let value) = StoreRules.announce(text, over: values[0], at: time) else {
        return .unchanged
      }
      return .write([.state("announcement", value), .log(nil, .announcement)])
    }
  }

  /// Extension `queue`: the first open question of the queue becomes the one being
  /// answered (`next`), or the room sees the queue or not.
  package static func queue(_ kind: PresenterActionKind) -> RoomActionFlow {
    switch kind {
    case .next:
      return .read(["queue"]) { values in
        let queue = StoreRules.queue(from: values[0])
        return .openQuestions(queue) { open in
          guard let (question, rest) = StoreRules.next(queue: queue, open: open) else {
            return .refused("Nothing is next up: the queue has no open question.")
          }
          return .write([
            .state("highlighted", question.text), .log(question, .highlight),
            .state("queue", StoreRules.queueValue(rest)), .log(nil, .queue),
          ])
        }
      }
    case .showQueue, .hideQueue:
      let shown = kind == .showQueue
      return .read(["queueShown"]) { values in
        guard (values[0] == "1") != shown else { return .unchanged }
        return .write([.state("queueShown", shown ? "1" : "0"), .log(nil, .queue)])
      }
    default: return .refused("That is no action on the queue.")
    }
  }
}
