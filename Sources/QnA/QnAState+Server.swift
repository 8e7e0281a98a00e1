import Foundation

/// Server messages. Responses carry no client token on reference back ends, so a response is
/// matched to its question by server id first (a repeat), then by token (servers with the
/// extension), then by content among the unconfirmed questions in typed order.
extension QnAState {
  mutating func receive(_ message: WireMessage) -> [QnAEffect] {
    switch message {
    case .handshake(let body): handshake(body)
    case .questionResponse(let body):
      body.success ? created(body) : refused(body)
    case .questionAnswer(let body): answered(body.questionId)
    case .newQuestion, .resume: [.log("ignored: \(message.type) from the server")]
    }
  }

  private mutating func created(_ response: QuestionResponse) -> [QnAEffect] {
    guard let serverID = response.id else {
      return [.log("ignored: successful questionResponse without an id")]
    }
    if let token = tokenByServerID[serverID] {
      // A repeat: only news of an answer can change anything.
      guard response.answered == true else { return [] }
      return markAnswered(token)
    }
    var question: Question
    let match = unconfirmedMatch(for: response, among: [.sending, .queued, .anyFailed])
    if let match, let typed = questions[match] {
      question = typed
    } else {
      // Not typed here (an earlier session's question): it joins the list as the server has it.
      guard questions[serverID] == nil, let content = response.content else {
        return [.log("ignored: questionResponse for an unknown question without content")]
      }
      question = Question(
        id: serverID, content: content, status: .unanswered, sequence: nextSequence)
      nextSequence += 1
    }
    let answered = response.answered == true || earlyAnswers.remove(serverID) != nil
    question.serverID = serverID
    question.createdAt = response.createdAt
    question.status = answered ? .answered : .unanswered
    if answered { question.answeredAt = now }
    if let content = response.content { question.content = content }
    // One write back: each keyed access hashes the UUID again.
    questions[question.id] = question
    tokenByServerID[serverID] = question.id
    if match != nil { dropConfirmedFromUnconfirmed() }
    var effects: [QnAEffect] = [
      .report(.created(question, message: response.message)),
      notice(response.message, kind: .info),
    ]
    if answered { effects.append(.report(.answered(question))) }
    return effects
  }

  private mutating func refused(_ response: QuestionResponse) -> [QnAEffect] {
    if let serverID = response.id {
      guard failedServerIDs.insert(serverID).inserted else { return [] }
    }
    guard let token = unconfirmedMatch(for: response, among: [.sending, .queued]) else {
      return [.log("ignored: failure response matching no pending question: \(response.message)")]
    }
    let reason = response.message
    questions[token]?.status = .failed(reason: reason)
    return [
      .report(.failed(questions[token]!, reason: reason)),
      notice(reason, kind: .error),
    ]
  }

  private mutating func answered(_ serverID: UUID) -> [QnAEffect] {
    guard let token = tokenByServerID[serverID] else {
      // Bounded: a hostile server could otherwise grow this set without end.
      if earlyAnswers.count >= Self.maxEarlyAnswers, let any = earlyAnswers.first {
        earlyAnswers.remove(any)
      }
      earlyAnswers.insert(serverID)
      return [.log("answer for \(serverID) before its question; kept for later")]
    }
    return markAnswered(token)
  }

  static let maxEarlyAnswers = 10_000

  private mutating func markAnswered(_ token: UUID) -> [QnAEffect] {
    // Found once, changed in place: this is the hot path of a busy session.
    guard let index = questions.index(forKey: token), questions.values[index].status != .answered
    else { return [] }
    questions.values[index].status = .answered
    questions.values[index].answeredAt = now
    return [.report(.answered(questions.values[index]))]
  }

  /// Keeps `unconfirmed` free of confirmed questions: at once at the front (responses mostly
  /// come in order), in one pass once they are half of it.
  private mutating func dropConfirmedFromUnconfirmed() {
    confirmedInUnconfirmed += 1
    while let first = unconfirmed.first, questions[first]?.status.isUnconfirmed == false {
      unconfirmed.removeFirst()
      confirmedInUnconfirmed -= 1
    }
    if confirmedInUnconfirmed > 32, confirmedInUnconfirmed * 2 > unconfirmed.count {
      let questions = self.questions
      unconfirmed.removeAll { questions[$0]?.status.isUnconfirmed == false }
      confirmedInUnconfirmed = 0
    }
  }

  enum MatchableStatus {
    case sending
    case queued
    case anyFailed

    func admits(_ status: QuestionStatus) -> Bool {
      switch (self, status) {
      case (.sending, .sending), (.queued, .queued), (.anyFailed, .failed): true
      default: false
      }
    }
  }

  /// The unconfirmed question a response is about: its token if the server echoed one, else
  /// the first in typed order with the same content, trying each status class in turn. A
  /// response without content (some failures) is about the oldest question on the wire.
  private func unconfirmedMatch(
    for response: QuestionResponse, among classes: [MatchableStatus]
  ) -> UUID? {
    if let token = response.token, let question = questions[token], question.status.isUnconfirmed {
      return token
    }
    for matchable in classes {
      let found = unconfirmed.first { token in
        guard let question = questions[token], matchable.admits(question.status) else {
          return false
        }
        return response.content.map { $0 == question.content } ?? true
      }
      if let found { return found }
    }
    return nil
  }
}
