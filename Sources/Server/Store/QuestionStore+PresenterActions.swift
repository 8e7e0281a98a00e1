import Foundation
import QnA

/// The presenter's side of the store: each action a transition in one transaction with its
/// log row and its token, so that a resent action is not done twice and a concurrent one from
/// another presenter, on any instance, sees the first one's result.
extension QuestionStore {
  public struct ActionOutcome: Sendable {
    public var question: StoredQuestion
    /// False when the token was seen before, or the question was already so.
    public var changed: Bool
    /// Why it was refused, when it was.
    public var refusal: String?

    package init(question: StoredQuestion, changed: Bool, refusal: String? = nil) {
      self.question = question
      self.changed = changed
      self.refusal = refusal
    }
  }

  /// Does `action` to question `id` (`nil`: no such question), by `StoreRules.perform`. The
  /// token's first use is the only one that acts: a repeat returns the question as it is now.
  public func perform(
    _ action: PresenterActionKind, on id: UUID, text: String? = nil, isPrivate: Bool = false,
    token: UUID, at time: Date
  ) async throws(StoreError) -> ActionOutcome? {
    let outcome = try await timed {
      try await driver.transact(
        .perform(
          action, on: id, text: text, isPrivate: isPrivate, token: token, at: time,
          session: session), writes: true, locking: session)
    }
    if outcome?.changed == true { roomChanged(.now) }
    return outcome
  }

  /// Every transition of a question, oldest first: what the presenters did, and when.
  public func transitions(of id: UUID) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date, text: String?
  )] {
    try await timed { try await driver.fetch(.transitions(of: id, session: session)) }
  }
}
