#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Polls (extension `polls`): the room's polls from snapshots and deltas, and this
/// attendee's answers, sent once each and kept until the server answers them.
extension QnAState {
  /// Whether the server has polls.
  public var hasPolls: Bool { serverExtensions.contains(ProtocolExtension.polls) }

  /// The user answers a poll (or changes the answer).
  mutating func answer(_ poll: UUID, value: PollValue, token: UUID) -> [QnAEffect] {
    guard hasPolls, let target = room.polls.byID[poll], let spec = target.spec else {
      room.polls.record(token, refusal: "There is no such poll.")
      return [notice(Message("There is no such poll."), kind: .error)]
    }
    guard target.pollState == .open else {
      room.polls.record(token, refusal: "That poll is closed.")
      return [notice(Message("That poll is closed."), kind: .info)]
    }
    // What the server would refuse for good is said at once; words are the server's to fold.
    if case .failure(let refused) = PollRules.accepted(value, for: spec, fold: { $0 }) {
      room.polls.record(token, refusal: refused.message)
      return [notice(refused.message, kind: .error)]
    }
    room.polls.pending[poll] = RoomPolls.PendingAnswer(value: value, token: token)
    return [pollReport(poll)] + sendPollAnswers()
  }

  mutating func received(_ response: PollAnswerResponse) -> [QnAEffect] {
    guard let pending = room.polls.pending[response.poll], pending.token == response.token else {
      return []
    }
    if !response.success, let seconds = response.retryAfter {
      room.polls.pending[response.poll]?.sent = false
      room.polls.pending[response.poll]?.notBefore = now + Self.obeyed(retryAfter: seconds)
      return []
    }
    room.polls.pending[response.poll] = nil
    // A refusal says the answer counted before, when it knows it; one that does not (refused
    // before the store was asked) leaves the answer known as it was.
    if response.success || response.value != nil {
      room.polls.answers[response.poll] = response.value
    }
    room.polls.record(
      response.token,
      refusal: response.success ? nil : response.message ?? "The answer was refused.")
    if let seq = response.seq { room.polls.settledAt[response.poll] = seq }
    var effects: [QnAEffect] = []
    if !response.success {
      effects.append(
        response.message.map { notice($0, kind: .error) }
          ?? notice(Message("The answer was refused."), kind: .error))
    }
    return effects + [pollReport(response.poll)]
  }

  /// The presenter's console acts on a poll: sent at once when connected (its token makes it
  /// once), said when it cannot be.
  mutating func actOnPoll(_ kind: PollActionKind, poll: UUID, token: UUID, text: String? = nil)
    -> [QnAEffect]
  {
    guard configuration.presenter, hasPolls, serverExtensions.contains(ProtocolExtension.presenter)
    else { return [notice(Message("This server takes no poll actions here."), kind: .error)] }
    guard let connectionID, room.joined else {
      return [notice(Message("Not connected: the poll action was not sent."), kind: .error)]
    }
    return [
      .pollAction(
        PollAction(id: connectionID, token: token, poll: poll, action: kind, text: text))
    ]
  }

  mutating func received(_ response: PollActionResponse) -> [QnAEffect] {
    guard !response.success else { return [] }
    return [
      response.message.map { notice($0, kind: .error) }
        ?? notice(Message("The poll action was refused."), kind: .error)
    ]
  }

  /// The polls of a whole snapshot, as of `seq`.
  mutating func receivedPolls(_ polls: [RoomPoll], seq: Int) -> [QnAEffect] {
    let before = Set(room.polls.byID.keys)
    room.polls.replace(with: polls, seq: seq)
    let gone = before.subtracting(room.polls.byID.keys).sorted { $0.uuidString < $1.uuidString }
    return room.polls.ordered.map { pollReport($0.id) }
      + gone.map { .report(.poll(id: $0, poll: nil, answer: nil)) }
  }

  /// What a delta says of the polls.
  mutating func receivedPolls(of delta: RoomDelta) -> [QnAEffect] {
    var changed = (delta.polls ?? []).map(\.id)
    room.polls.put(delta.polls ?? [])
    room.polls.update(delta.pollResults ?? [])
    changed += (delta.pollResults ?? []).compactMap { $0.n.flatMap { room.polls.numbers[$0] } }
    let removed = (delta.removedPolls ?? []).filter { room.polls.byID[$0] != nil }
    room.polls.remove(removed)
    var seen: Set<UUID> = []
    return changed.filter { seen.insert($0).inserted && room.polls.byID[$0] != nil }
      .map(pollReport) + removed.map { .report(.poll(id: $0, poll: nil, answer: nil)) }
  }

  /// Extension `counts`: this attendee's answers after a compact snapshot.
  mutating func receivedPolls(of own: RoomOwn) -> [QnAEffect] {
    guard let mine = own.polls, !mine.isEmpty else { return [] }
    room.polls.own(mine, seq: own.seq)
    return mine.compactMap { room.polls.numbers[$0.n] }.map(pollReport)
  }

  /// One poll as the front ends show it, with this attendee's answer.
  func pollReport(_ id: UUID) -> QnAEffect {
    .report(.poll(id: id, poll: room.polls.byID[id], answer: room.polls.answer(to: id)))
  }

  /// Puts the answers not yet on the wire there, once joined.
  mutating func sendPollAnswers() -> [QnAEffect] {
    guard let connectionID, room.joined else { return [] }
    var effects: [QnAEffect] = []
    for (poll, pending) in room.polls.pending.sorted(by: { $0.key.uuidString < $1.key.uuidString })
    where !pending.sent && (pending.notBefore ?? now) <= now {
      room.polls.pending[poll]?.sent = true
      room.polls.pending[poll]?.notBefore = nil
      effects.append(
        .pollAnswer(
          PollAnswer(id: connectionID, poll: poll, token: pending.token, value: pending.value)))
    }
    return effects
  }

  /// After a disconnect: answers on the wire without a response go again after the next join.
  mutating func requeuePollAnswers() {
    for poll in room.polls.pending.keys { room.polls.pending[poll]?.sent = false }
  }
}
