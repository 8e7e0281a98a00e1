import Foundation

/// The user's side: asking, retrying, and what happens to typed questions as the
/// connection comes and goes.
extension QnAState {
  mutating func ask(_ text: String, token: UUID, checkingLength: Bool = true) -> [QnAEffect] {
    let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if content.isEmpty {
      return [notice("Type a question first.", kind: .error)]
    }
    let length = content.count
    if checkingLength, length > configuration.maxQuestionLength {
      return [
        notice(
          "Too long: \(length) characters, at most \(configuration.maxQuestionLength).",
          kind: .error)
      ]
    }
    // Characters are what people count, bytes what servers limit: combining marks and
    // escaped controls can make 1,000 characters far more than 16 KiB on the wire.
    let size = WireCodec().encode(
      .newQuestion(NewQuestion(id: token, content: content, token: token))
    ).count
    if size > configuration.maxMessageBytes {
      return [
        notice(
          "Too long for the server: \(size) bytes as sent, at most \(configuration.maxMessageBytes).",
          kind: .error)
      ]
    }
    guard questions[token] == nil else { return [.log("ignored: token \(token) already used")] }
    let question = Question(id: token, content: content, status: .queued, sequence: nextSequence)
    nextSequence += 1
    questions[token] = question
    unconfirmed.append(token)
    return dispatch(token) ?? [.report(.queued(question))]
  }

  mutating func retry(_ token: UUID) -> [QnAEffect] {
    guard case .failed = questions[token]?.status else {
      return [.log("ignored: retry of \(token), which has not failed")]
    }
    questions[token]?.status = .queued
    return dispatch(token) ?? [.report(.queued(questions[token]!))]
  }

  /// Back to the queue: the connection went away before the server confirmed it.
  mutating func requeue(_ token: UUID) -> [QnAEffect] {
    guard questions[token]?.status == .sending else { return [] }
    questions[token]?.status = .queued
    return [.report(.queued(questions[token]!))]
  }

  /// Puts a queued question on the wire if a handshake allows it; `nil` if it must wait.
  mutating func dispatch(_ token: UUID) -> [QnAEffect]? {
    guard let connectionID, let question = questions[token], question.status == .queued else {
      return nil
    }
    questions[token]?.status = .sending
    questions[token]?.sendCount += 1
    let message = NewQuestion(id: connectionID, content: question.content, token: token)
    return [.send(message, token: token), .report(.sent(questions[token]!))]
  }

  /// After a handshake: every queued question goes out, in typed order.
  mutating func dispatchQueued() -> [QnAEffect] {
    var effects: [QnAEffect] = []
    for token in unconfirmed {
      if let sent = dispatch(token) { effects += sent }
    }
    return effects
  }

  /// After a disconnect: questions on the wire without a response go back to the queue, to
  /// be sent again after the next handshake rather than lost.
  mutating func requeueSending() -> [QnAEffect] {
    let tokens = unconfirmed
    return tokens.flatMap { requeue($0) }
  }
}
