/// Extension `labels`: the topics or speakers a session's questions can be filed under, set
/// by presenters. A question carries one label or none; labels are named by their text.
public enum SessionLabels {
  /// The most labels a session has: a programme's tracks or speakers, not a tag cloud.
  public static let maxCount = 20
  /// The longest label, in characters.
  public static let maxLength = 40
  /// The longest label in UTF-8 bytes: forty characters of four bytes. Every snapshot page
  /// carries the labels, so they must stay small beside the banner and the queue.
  public static let maxBytes = 160

  /// The session's label `name` is spelt as `candidate` (the same letters whatever their
  /// case), when one is.
  public static func match(_ candidate: String, in labels: [String]) -> String? {
    let wanted = candidate.lowercased()
    return labels.first { $0 == candidate } ?? labels.first { $0.lowercased() == wanted }
  }
}
