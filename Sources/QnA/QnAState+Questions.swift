import CommandLineValues

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The user's side: asking, retrying, and what happens to typed questions as the
/// connection comes and goes.
extension QnAState {
  mutating func ask(_ text: String, token: UUID) -> [QnAEffect] {
    let content = text.trimmingWhiteSpace()
    if let refusal = refusal(of: content, token: token, maxLength: configuration.maxQuestionLength)
    {
      return [notice(refusal, kind: .error)]
    }
    guard questions[token] == nil else { return [.log("ignored: token \(token) already used")] }
    return add(content, token: token, status: .queued)
  }

  /// A question kept by an earlier run: queued again, without this run's length limit (which
  /// may be lower than the one it was typed under); failed again with its reason; or failed
  /// with what this version finds wrong with it, rather than dropped, so nothing is lost.
  mutating func restore(_ text: String, token: UUID, failure: String?) -> [QnAEffect] {
    let content = text.trimmingWhiteSpace()
    guard questions[token] == nil, !content.isEmpty else {
      return [.log("ignored: restored question \(token)")]
    }
    let reason = failure ?? refusal(of: content, token: token, maxLength: .max)?.text
    guard let reason else { return add(content, token: token, status: .queued) }
    add(content, token: token, status: .failed(reason: reason))
    return [.report(.failed(questions[token]!, reason: reason))]
  }

  /// Why `content` cannot be asked, as the attendee reads it; `nil` if it can.
  private func refusal(of content: String, token: UUID, maxLength: Int) -> Message? {
    switch QuestionText.problem(with: content, maxLength: maxLength) {
    case .empty?: return Message("Type a question first.")
    case .tooLong(let characters, let limit)?:
      return Message(
        "Too long: %1$d characters, at most %2$d.", String(characters), String(limit))
    case .overloadedCharacter?:
      return Message(
        "A character carries more than %d marks: remove them and ask again.",
        String(QuestionText.maxScalarsPerCharacter))
    case nil: break
    }
    // Characters are what people count, bytes what servers limit: combining marks and
    // escaped controls can make 1,000 characters far more than 16 KiB on the wire.
    let size = WireCodec().encode(
      .newQuestion(NewQuestion(id: token, content: content, token: token))
    ).count
    guard size <= configuration.maxMessageBytes else {
      return Message(
        "Too long for the server: %1$d bytes as sent, at most %2$d.", String(size),
        String(configuration.maxMessageBytes))
    }
    return nil
  }

  /// A new question in the list: queued (and released, if it may go now), or failed.
  @discardableResult
  private mutating func add(_ content: String, token: UUID, status: QuestionStatus)
    -> [QnAEffect]
  {
    var question = Question(id: token, content: content, status: status, sequence: nextSequence)
    question.label = askLabel ?? wantedLabel
    nextSequence += 1
    questions[token] = question
    unconfirmed.append(token)
    return status == .queued ? release(token) : []
  }

  mutating func retry(_ token: UUID) -> [QnAEffect] {
    guard case .failed = questions[token]?.status else {
      return [.log("ignored: retry of \(token), which has not failed")]
    }
    questions[token]?.status = .queued
    questions[token]?.blindRetries = 0
    // A label the session no longer has would be refused again: the one chosen now instead.
    if room.seq != nil, let label = questions[token]?.label, !room.labels.contains(label) {
      questions[token]?.label = askLabel
    }
    return release(token)
  }

  mutating func discard(_ token: UUID) -> [QnAEffect] {
    guard let question = questions[token], case .failed = question.status else {
      return [.log("ignored: discard of \(token), which has not failed")]
    }
    questions[token] = nil
    if let index = unconfirmed.firstIndex(of: token) { unconfirmed.remove(at: index) }
    return [.report(.discarded(question))]
  }

  /// A question just queued: on the wire at once if nothing must go before it, else reported
  /// queued and sent in its turn.
  private mutating func release(_ token: UUID) -> [QnAEffect] {
    // Without pacing nothing waits or holds the line, so it may go at once (O(1), the
    // common path of a burst).
    let effects = pacing ? dispatchReady() : (dispatch(token) ?? [])
    if questions[token]?.status == .queued {
      return [.report(.queued(questions[token]!))] + effects
    }
    return effects
  }

  /// Back to the queue: the connection went away before the server confirmed it.
  mutating func requeue(_ token: UUID) -> [QnAEffect] {
    guard questions[token]?.status == .sending else { return [] }
    questions[token]?.status = .queued
    return [.report(.queued(questions[token]!))]
  }

  /// Puts a queued (or no longer waiting) question on the wire if a handshake allows it;
  /// `nil` if it must wait.
  mutating func dispatch(_ token: UUID) -> [QnAEffect]? {
    guard let connectionID, let question = questions[token] else { return nil }
    switch question.status {
    case .queued: break
    case .waiting(let until, _) where until <= now: break
    default: return nil
    }
    var label: String?
    if serverExtensions.contains(ProtocolExtension.labels), let typed = question.label {
      // Under a label: it waits for the room, which says how the session spells its labels
      // (one it lacks was said in a notice, and the question goes without it).
      guard !room.isAvailable || room.seq != nil else { return nil }
      label = room.isAvailable ? SessionLabels.match(typed, in: room.labels) : typed
      questions[token]?.label = label
    }
    questions[token]?.status = .sending
    questions[token]?.sendCount += 1
    let message = NewQuestion(
      id: connectionID, content: question.content, token: token, label: label)
    return [.send(message, token: token), .report(.sent(questions[token]!))]
  }

  /// Sends what may go now, in typed order: nothing overtakes a question still waiting out a
  /// refusal, and while pacing only one question is on the wire at a time.
  mutating func dispatchReady() -> [QnAEffect] {
    guard connectionID != nil else { return [] }
    var effects: [QnAEffect] = []
    var pendingLeft = false
    for token in unconfirmed {
      guard let question = questions[token] else { continue }
      switch question.status {
      case .sending:
        pendingLeft = true
        if pacing { return effects }
      case .waiting(let until, _) where until > now:
        return effects
      case .queued, .waiting:
        pendingLeft = true
        if let sent = dispatch(token) { effects += sent }
        if pacing { return effects }
      case .failed, .unanswered, .answered:
        continue
      }
    }
    if !pendingLeft { pacing = false }
    return effects
  }

  /// After a disconnect: questions on the wire without a response go back to the queue, to
  /// be sent again after the next handshake rather than lost.
  mutating func requeueSending() -> [QnAEffect] {
    let tokens = unconfirmed
    return tokens.flatMap { requeue($0) }
  }

  /// When the first question waiting out a refusal may go again (the engine wakes the state
  /// then); `nil` if none waits.
  public var nextWakeUp: Duration? {
    [nextQuestionWakeUp, nextVoteWakeUp, nextActionWakeUp, room.joinAgainAt].compactMap { $0 }
      .min()
  }

  private var nextQuestionWakeUp: Duration? {
    guard pacing else { return nil }
    for token in unconfirmed {
      guard let question = questions[token] else { continue }
      switch question.status {
      case .waiting(let until, _): return until > now ? until : nil
      case .queued, .sending: return nil
      case .failed, .unanswered, .answered: continue
      }
    }
    return nil
  }
}
