import Foundation
import QnA

/// The session's labels' rules (extension `labels`), once for every database: `roomState`
/// keeps them one per line, in the order presenters added them.
extension StoreRules {
  package static func labelsValue(_ labels: [String]) -> String? {
    labels.isEmpty ? nil : labels.joined(separator: "\n")
  }

  package static func labels(from value: String?) -> [String] {
    value?.split(separator: "\n").map(String.init) ?? []
  }

  /// The labels after `labelAdd` or `labelRemove` of `name`, or `nil` when they stay as they
  /// are (added again, or removed when absent); a refusal past the bounds or for a name that
  /// differs from another only in case. A removal names its label in any case.
  package static func labels(after action: PresenterActionKind, _ name: String, labels: [String])
    -> Result<[String]?, ActionRefusal>
  {
    switch action {
    case .labelAdd:
      if labels.contains(name) { return .success(nil) }
      if let other = SessionLabels.match(name, in: labels) {
        return .failure(ActionRefusal("There is a label “\(other)” already."))
      }
      guard labels.count < SessionLabels.maxCount else {
        return .failure(
          ActionRefusal("A session has at most \(SessionLabels.maxCount) labels."))
      }
      return .success(labels + [name])
    case .labelRemove:
      guard let removed = SessionLabels.match(name, in: labels) else { return .success(nil) }
      return .success(labels.filter { $0 != removed })
    default: return .failure(ActionRefusal("That is no action on the labels."))
    }
  }

  /// A question's label after `relabel` with `text`: none when absent or empty, else one of
  /// the session's labels, spelt as the session spells it (whatever the case of `text`).
  package static func relabel(_ text: String?, labels: [String]) -> Result<String?, ActionRefusal> {
    guard let text, !text.isEmpty else { return .success(nil) }
    guard let label = SessionLabels.match(text, in: labels) else {
      return .failure(unknownLabel(text, labels: labels))
    }
    return .success(label)
  }

  /// A new question's label as the session spells it; a label it does not have is refused for
  /// good.
  package static func sessionLabel(_ asked: String, labels: [String]) throws(StoreError) -> String {
    guard let label = SessionLabels.match(asked, in: labels) else {
      throw .refused(unknownLabel(asked, labels: labels).reason)
    }
    return label
  }

  /// The refusal of a label the session does not have (its name shortened: it may be an
  /// attacker's 10,000 characters).
  package static func unknownLabel(_ name: String, labels: [String]) -> ActionRefusal {
    let shown =
      name.count > SessionLabels.maxLength
      ? name.prefix(SessionLabels.maxLength) + "…" : Substring(name)
    return ActionRefusal(
      labels.isEmpty
        ? "This session has no labels."
        : "This session has no label “\(shown)”: its labels are \(labels.joined(separator: ", ")).")
  }
}
