/// Extension `labels`: the session's labels, and the one the attendee's questions carry.
extension QnAState {
  /// The session's labels are `labels` now: at most `SessionLabels.maxCount`, each at most
  /// `SessionLabels.maxLength` characters, each once (a hostile server's list is cut here).
  mutating func setLabels(_ labels: [String]) -> [QnAEffect] {
    var seen: Set<String> = []
    let bounded = labels.map { String($0.prefix(SessionLabels.maxLength)) }
      .filter { !$0.isEmpty && seen.insert($0).inserted }.prefix(SessionLabels.maxCount)
    // The first room settles a label asked for, whether or not the labels changed.
    guard Array(bounded) != room.labels || (wantedLabel != nil && !wantedLabelTold) else {
      return []
    }
    room.labels = Array(bounded)
    return resolveLabel()
  }

  /// The attendee's label for the next questions (`nil`: none), as typed: settled now if the
  /// room is known, else when it arrives.
  mutating func chooseLabel(_ name: String?) -> [QnAEffect] {
    let typed = name?.trimmingWhiteSpace()
    wantedLabel = typed?.isEmpty == false ? typed : nil
    wantedLabelTold = false
    guard wantedLabel != nil else {
      let had = askLabel != nil
      askLabel = nil
      return had ? [notice(Message("Your next questions go without a label."), kind: .info)] : []
    }
    return resolveLabel()
  }

  /// The label asked for, as the session spells it. When the session has none by that name
  /// (or a presenter removed it), that is said once and the questions go without one; the
  /// wish stays, so that a label the presenters add later is taken up.
  private mutating func resolveLabel() -> [QnAEffect] {
    guard room.seq != nil else { return [] }
    if let wanted = wantedLabel, let label = SessionLabels.match(wanted, in: room.labels) {
      wantedLabel = nil
      guard label != askLabel else { return [] }
      askLabel = label
      return [notice(Message("Your next questions go under “%s”.", label), kind: .info)]
    }
    if let label = askLabel, !room.labels.contains(label) {
      askLabel = nil
      wantedLabel = label
      wantedLabelTold = false
    }
    guard let wanted = wantedLabel, !wantedLabelTold else { return [] }
    wantedLabelTold = true
    let shown = String(wanted.prefix(SessionLabels.maxLength))
    guard !room.labels.isEmpty else {
      return [
        notice(
          Message("This session has no label “%s”: your questions go without one.", shown),
          kind: .error)
      ]
    }
    return [
      notice(
        Message(
          "This session has no label “%1$s”; its labels: %2$s.", shown,
          room.labels.joined(separator: ", ")), kind: .error)
    ]
  }
}
