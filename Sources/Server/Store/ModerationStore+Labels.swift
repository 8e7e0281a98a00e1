import Foundation
import QnA

/// Extension `labels`: the names a session's questions can be filed under.
extension ModerationStore {
  /// Extension `labels`: `labelAdd` or `labelRemove` of `name`; once per token.
  public func changeLabels(
    _ kind: PresenterActionKind, _ name: String, token: UUID, at time: Date
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    let outcome = try await timed {
      try await driver.transact(
        RoomActionFlow.labels(kind, name).transaction(
          action: kind.rawValue, text: name, token: token, at: time, session: session),
        writes: true, locking: session)
    }
    if outcome.changed { roomChanged(.now) }
    return outcome
  }

  /// The session's labels, in the order they were added.
  public func labels() async throws(StoreError) -> [String] {
    try await timed { try await driver.fetch(.roomState(session: session)) }.labels
  }
}

extension RoomActionFlow {
  /// A label added to the session's, or taken from them.
  package static func labels(_ kind: PresenterActionKind, _ name: String) -> RoomActionFlow {
    .read(["labels"]) { values in
      switch StoreRules.labels(after: kind, name, labels: StoreRules.labels(from: values[0])) {
      case .failure(let refusal): .refused(refusal.reason)
      case .success(nil): .unchanged
      case .success(let changed?):
        .write([.state("labels", StoreRules.labelsValue(changed)), .log(nil, .labels)])
      }
    }
  }
}
