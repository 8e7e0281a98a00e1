import DequeModule

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Server messages. Responses carry no client token on reference back ends, so a response is
/// matched to its question by server id first (a repeat), then by token (servers with the
/// extension), then by content among the unconfirmed questions in typed order.
extension QnAState {
  mutating func receive(_ message: WireMessage) -> [QnAEffect] {
    switch message {
    case .handshake(let body): handshake(body)
    case .questionResponse(let body):
      body.success ? created(body) : refused(body)
    case .questionAnswer(let body): answered(body)
    case .resumed(let body): resumed(body)
    case .room(let body): received(body)
    case .roomDelta(let body): received(body)
    case .voteResponse(let body): received(body)
    case .presenterActionResponse(let body): received(body)
    case .joined(let body): received(body)
    case .roomOwn(let body): received(body)
    case .audience(let body): received(body)
    case .sessionNews(let body): received(body)
    case .refusal(let body):
      [.log("the server could not read our \(body.refused): \(body.message)")]
    case .pollAnswerResponse(let body): received(body)
    case .pollActionResponse(let body): received(body)
    case .newQuestion, .resume, .join, .vote, .presenterAction, .pollAnswer, .pollAction:
      [.log("ignored: \(message.type) from the server")]
    }
  }

  /// Extension `sessionState`: the presenter closed, reopened or deleted this session.
  private mutating func received(_ body: SessionNews) -> [QnAEffect] {
    guard let current = session, current.code == body.session.code.uppercased() else {
      return [.log("ignored: news of another session")]
    }
    let news = Self.bounded(body.session)
    let deleted = body.deleted == true
    guard news != current || deleted else { return [] }
    session = news
    let words =
      deleted
      ? Message("The presenter deleted this session.")
      : news.open
        ? Message("The presenter reopened this session: it takes questions again.")
        : Message("The presenter closed this session: it takes no new questions.")
    return [
      .report(.session(news, deleted: deleted)), notice(words, kind: deleted ? .error : .info),
    ]
  }

  private mutating func received(_ body: Audience) -> [QnAEffect] {
    audience = max(0, body.count)
    return []
  }

  private mutating func created(_ response: QuestionResponse) -> [QnAEffect] {
    guard let serverID = response.id else {
      return [.log("ignored: successful questionResponse without an id")]
    }
    if let token = tokenByServerID[serverID] {
      // A repeat: only news of an answer or of the presenter's decision changes anything.
      var effects = updateLifecycle(
        token, state: response.state.flatMap(QuestionState.init(rawValue:)),
        answer: response.answer, isPrivate: response.isPrivate,
        content: serverExtensions.contains(ProtocolExtension.lifecycle) ? response.content : nil)
      if response.answered == true { effects += markAnswered(token) }
      return effects
    }
    var question: Question
    let match = unconfirmedMatch(
      for: response, among: [.sending, .queued, .anyWaiting, .anyFailed])
    if let match, let typed = questions[match] {
      question = typed
    } else {
      // Not typed here (an earlier session's question): it joins the list as the server has it.
      guard questions[serverID] == nil, let content = response.content else {
        return [.log("ignored: questionResponse for an unknown question without content")]
      }
      // Bounded: a hostile server could otherwise fill the list, and memory, without end.
      guard foreignQuestions < Self.maxForeignQuestions else {
        return [.log("ignored: questionResponse for an unknown question past the limit")]
      }
      foreignQuestions += 1
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
    question.state = response.state.flatMap(QuestionState.init(rawValue:)).map {
      $0 == .answered ? .live : $0
    }
    if let answer = response.answer {
      question.answer = String(answer.prefix(Self.maxAnswerLength))
      question.answerIsPrivate = response.isPrivate == true
    }
    // One write back: each keyed access hashes the UUID again.
    questions[question.id] = question
    tokenByServerID[serverID] = question.id
    if match != nil { dropConfirmedFromUnconfirmed() }
    var effects: [QnAEffect] = [
      .report(.created(question, message: response.message)),
      notice(response.message, kind: .info),
    ]
    effects += ownQuestionInRoom(question)
    if answered { effects.append(.report(.answered(question))) }
    // While pacing, a confirmation lets the next question go.
    return pacing ? effects + dispatchReady() : effects
  }

  private mutating func refused(_ response: QuestionResponse) -> [QnAEffect] {
    if let serverID = response.id {
      guard !failedServerIDs.contains(serverID) else { return [] }
      // Bounded like the early answers: a hostile server may send failures without end.
      if failedServerIDs.count >= Self.maxEarlyAnswers, let any = failedServerIDs.first {
        failedServerIDs.remove(any)
      }
      failedServerIDs.insert(serverID)
    }
    guard
      let token = unconfirmedMatch(for: response, among: [.sending, .queued, .anyWaiting]),
      var question = questions[token]
    else {
      return [.log("ignored: failure response matching no pending question: \(response.message)")]
    }
    let reason = response.message
    let delay: Duration?
    if let seconds = response.retryAfter {
      // Said by the server: always retried, never failed for it. Bounded both ways, so that
      // a hostile value neither spins nor parks the question for ever.
      delay = Self.obeyed(retryAfter: seconds)
    } else if !serverExtensions.contains(ProtocolExtension.retryAfter),
      question.blindRetries < Self.blindRetryDelays.count
    {
      // A back end that cannot say whether a refusal is final (the existing ones): retried a
      // few times, with backoff, before the attendee is asked to decide.
      delay = Self.blindRetryDelays[question.blindRetries]
      question.blindRetries += 1
    } else {
      delay = nil
    }
    guard let delay else {
      question.status = .failed(reason: reason)
      questions[token] = question
      return [.report(.failed(question, reason: reason)), notice(reason, kind: .error)]
        + (pacing ? dispatchReady() : [])
    }
    question.status = .waiting(until: now + delay, reason: reason)
    questions[token] = question
    var effects: [QnAEffect] = [.report(.waiting(question, retryIn: delay, reason: reason))]
    if !pacing {
      // Said once per backlog, not once per refused question.
      effects.append(
        notice(Message("%s Your questions go out again on their own.", reason), kind: .info))
    }
    pacing = true
    return effects
  }

  /// The longest `retryAfter` obeyed as given.
  static let longestRetryAfter: Double = 600

  /// A server's `retryAfter`, bounded both ways (50 ms to `longestRetryAfter`), so that a
  /// hostile value neither spins nor parks anything for ever.
  static func obeyed(retryAfter seconds: Double) -> Duration {
    .seconds(min(max(seconds.isFinite ? seconds : 1, 0.05), longestRetryAfter))
  }
  /// Waits before each retry of a refusal from a back end without `retryAfter`; after the
  /// last, the question fails.
  package static let blindRetryDelays: [Duration] = [1, 2, 4].map { .seconds($0) }

  /// The server lost questions this client holds confirmed: they are asked again, by the same
  /// token, so that the server stores them once more.
  private mutating func resumed(_ reply: Resumed) -> [QnAEffect] {
    guard reply.id == connectionID else { return [.log("ignored: resumed for another connection")] }
    var effects: [QnAEffect] = []
    var lost: [UUID] = []
    for id in reply.missing.prefix(Self.resumeChunk) {
      guard let token = tokenByServerID[id], var question = questions[token],
        question.status == .unanswered
      else { continue }
      tokenByServerID[id] = nil
      question.serverID = nil
      question.createdAt = nil
      question.status = .queued
      questions[token] = question
      lost.append(token)
    }
    guard !lost.isEmpty else { return [] }
    // Back among the unconfirmed in typed order, ahead of anything typed since.
    let questions = self.questions
    let lostSet = Set(lost)
    let stillUnconfirmed = unconfirmed.filter {
      !lostSet.contains($0) && questions[$0]?.status.isUnconfirmed == true
    }
    unconfirmed = Deque(
      (stillUnconfirmed + lost).sorted {
        (questions[$0]?.sequence ?? 0) < (questions[$1]?.sequence ?? 0)
      })
    confirmedInUnconfirmed = 0
    effects.append(
      notice(
        lost.count == 1
          ? Message("The server lost a question of yours: asking it again.")
          : Message("The server lost %d questions of yours: asking them again.", "\(lost.count)"),
        kind: .info))
    effects += lost.compactMap { questions[$0].map { .report(.queued($0)) } }
    return effects + dispatchReady()
  }

  private mutating func answered(_ answer: QuestionAnswer) -> [QnAEffect] {
    let serverID = answer.questionId
    guard let token = tokenByServerID[serverID] else {
      // Bounded: a hostile server could otherwise grow this set without end.
      if earlyAnswers.count >= Self.maxEarlyAnswers, let any = earlyAnswers.first {
        earlyAnswers.remove(any)
      }
      earlyAnswers.insert(serverID)
      return [.log("answer for \(serverID) before its question; kept for later")]
    }
    if let text = answer.text {
      questions[token]?.answer = String(text.prefix(Self.maxAnswerLength))
      questions[token]?.answerIsPrivate = answer.isPrivate == true
    }
    let effects = markAnswered(token)
    // Answered before, the text is the news.
    if effects.isEmpty, answer.text != nil, let question = questions[token] {
      return [.report(.answered(question))] + ownQuestionInRoom(question)
    }
    return effects + (questions[token].map { ownQuestionInRoom($0) } ?? [])
  }

  /// Longest answer text kept from a server.
  static let maxAnswerLength = 10_000

  package static let maxEarlyAnswers = 10_000
  /// Questions a server may add to the list that were not typed here.
  package static let maxForeignQuestions = 10_000

  mutating func markAnswered(_ token: UUID) -> [QnAEffect] {
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
    case anyWaiting
    case anyFailed

    func admits(_ status: QuestionStatus) -> Bool {
      switch (self, status) {
      case (.sending, .sending), (.queued, .queued), (.anyWaiting, .waiting),
        (.anyFailed, .failed):
        true
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
    if let token = response.token, let question = questions[token],
      classes.contains(where: { $0.admits(question.status) })
    {
      return token
    }
    // A server that echoes tokens names the question it answers: a response without a token
    // (or with one unknown here) is about none of ours, however its content reads.
    if serverExtensions.contains(ProtocolExtension.token) { return nil }
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
