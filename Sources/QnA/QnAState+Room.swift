#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The room (extension `room`): snapshots and deltas, votes (the join: QnAState+Join.swift).
extension QnAState {
  mutating func received(_ snapshot: RoomSnapshot) -> [QnAEffect] {
    guard snapshot.parts >= 1, snapshot.parts <= 10_000,
      (1...snapshot.parts).contains(snapshot.part)
    else { return [.log("ignored: room page \(snapshot.part) of \(snapshot.parts)")] }
    // An older room than the one we have (a page that arrived late, twice): old news.
    if let seq = room.seq, room.epoch == snapshot.epoch, snapshot.seq < seq { return [] }
    if room.assembling?.seq != snapshot.seq || room.assembling?.parts != snapshot.parts {
      room.assembling = Room.Assembly(
        seq: snapshot.seq, parts: snapshot.parts, highlighted: snapshot.highlighted,
        epoch: snapshot.epoch, announcement: snapshot.announcement, nextUp: snapshot.nextUp,
        labels: snapshot.labels)
    }
    guard var assembly = room.assembling, assembly.pages[snapshot.part] == nil else { return [] }
    // Within the room's bounds as pages arrive: a hostile server's endless room is cut here.
    var kept: [RoomQuestion] = []
    for question in snapshot.questions {
      let size = Room.textBytes(of: question)
      guard assembly.count < Room.maxQuestions, assembly.textBytes + size <= Room.maxTextBytes
      else { break }
      kept.append(question)
      assembly.count += 1
      assembly.textBytes += size
    }
    assembly.pages[snapshot.part] = kept
    assembly.polls += (snapshot.polls ?? []).prefix(RoomPolls.maxPolls - assembly.polls.count)
    room.assembling = assembly
    guard assembly.pages.count == assembly.parts else { return [] }
    room.assembling = nil
    room.catchUpAskedAt = nil
    let questions = assembly.pages.keys.sorted().flatMap { assembly.pages[$0]! }
    room.questions = Dictionary(questions.map { ($0.id, $0) }) { _, last in last }
    room.numbers = [:]
    room.learnNumbers(questions)
    room.numbered = room.isCompact
    room.textBytes = room.questions.values.reduce(0) { $0 + Room.textBytes(of: $1) }
    // This attendee's votes as of the snapshot, except those a vote's answer settled later.
    let votedThen = Set(questions.filter { $0.voted == true }.map(\.id))
    room.myVotes = Set(
      room.questions.keys.filter { id in
        if let settled = room.voteSettledAt[id], settled > assembly.seq {
          return room.myVotes.contains(id)
        }
        return votedThen.contains(id)
      })
    room.voteSettledAt = room.voteSettledAt.filter { $0.value > assembly.seq }
    room.highlighted = assembly.highlighted
    let banner = announce(assembly.announcement)
    room.nextUp = Self.bounded(assembly.nextUp)
    // Another room (a server on another database): what was seen of the old one is moot.
    if let epoch = room.epoch, epoch != assembly.epoch { room.newestSeen = assembly.seq }
    room.seq = assembly.seq
    room.epoch = assembly.epoch
    room.risenAt = [:]
    let labelNews = setLabels(assembly.labels ?? [])
    let polls = receivedPolls(assembly.polls, seq: assembly.seq)
    // A compact snapshot says nothing of this attendee's own questions and votes: its lines
    // wait for the `roomOwn` that follows, so that nobody sees them unmarked first.
    room.awaitingOwn = room.isCompact
    let lines = room.awaitingOwn ? [] : allRoomLines()
    let behind = room.newestSeen > assembly.seq ? catchUp(from: assembly.seq) : []
    var own: [QnAEffect] = []
    for question in questions {
      guard let token = tokenByServerID[question.id] else { continue }
      own += ownAnswered(question, token)
      guard question.state != nil else { continue }
      own += updateLifecycle(
        token, state: question.lifecycle, answer: question.answer,
        content: question.edited == true ? question.content : nil)
    }
    // Questions under a label waited for the room to say how it spells them.
    return lines + banner + labelNews + polls + own + behind + sendVotes() + sendActions()
      + dispatchReady()
  }

  /// Every question of the room as a line, oldest first.
  private func allRoomLines() -> [QnAEffect] {
    room.questions.values.sorted { $0.createdAt < $1.createdAt }.compactMap { roomLine($0.id) }
  }

  /// The lines a compact snapshot held back, when its marks did not come before the room
  /// moved on (a server that sent none).
  private mutating func releaseHeldLines() -> [QnAEffect] {
    guard room.awaitingOwn else { return [] }
    room.awaitingOwn = false
    return allRoomLines()
  }

  mutating func received(_ delta: RoomDelta) -> [QnAEffect] {
    room.newestSeen = max(room.newestSeen, delta.to)
    guard let seq = room.seq, delta.to > seq else { return [] }  // none yet, or old news
    let held = releaseHeldLines()
    if !held.isEmpty { return held + received(delta) }
    // A gap: some change never arrived. Deltas past it wait for the catch-up.
    guard delta.from <= seq + 1 else { return catchUp(from: seq) }
    room.catchUpAskedAt = nil
    var effects: [QnAEffect] = applyCounts(delta.counts ?? []) + receivedPolls(of: delta)
    room.learnNumbers(Array(delta.questions.prefix(Room.maxQuestions)))
    for question in delta.questions.prefix(Room.maxQuestions) {
      let old = room.questions[question.id]
      guard room.admit(question) else { continue }
      var updated = question
      // Deltas go to everyone alike: what is this attendee's stays as it was.
      updated.mine = question.mine ?? old?.mine
      updated.voted = nil
      if let old, question.votes > old.votes { room.rose(question.id, at: now) }
      let before = old.map { entry(for: $0) }
      room.questions[question.id] = updated
      // A delta may repeat what a vote's answer already said: news only.
      if entry(for: updated) != before { effects += roomLine(question.id).map { [$0] } ?? [] }
      if let token = tokenByServerID[question.id] {
        effects += ownAnswered(question, token)
        effects += updateLifecycle(
          token, state: question.state.map { _ in question.lifecycle }, answer: question.answer,
          content: question.edited == true ? question.content : nil)
      } else if question.answer == nil, old?.mine == true, let answer = old?.answer {
        // Asked in an earlier run: its private answer is in no delta; it stays.
        room.questions[question.id]?.answer = answer
        room.textBytes += answer.utf8.count
        room.questions[question.id]?.isPrivate = old?.isPrivate
      }
    }
    for id in delta.removed ?? [] {
      if let own = ownQuestionDismissed(id) {
        effects += own
        continue
      }
      guard let removed = room.questions.removeValue(forKey: id) else { continue }
      room.textBytes -= Room.textBytes(of: removed)
      room.myVotes.remove(id)
      room.risenAt[id] = nil
      if room.highlighted == id { room.highlighted = nil }
      effects.append(.report(.roomQuestion(entry(for: removed), removed: true)))
    }
    if let highlight = delta.highlight, highlight.id != room.highlighted {
      let before = room.highlighted
      room.highlighted = highlight.id
      for id in [before, highlight.id].compactMap({ $0 }) {
        effects += roomLine(id).map { [$0] } ?? []
      }
    }
    if let announcement = delta.announcement { effects += announce(announcement) }
    if let labels = delta.labels { effects += setLabels(labels) }
    if let nextUp = delta.nextUp {
      let before = room.nextUp.ids
      room.nextUp = Self.bounded(nextUp)
      // The questions whose place changed are news (their lines say their place).
      for id in Set(before).symmetricDifference(room.nextUp.ids) where room.questions[id] != nil {
        effects += roomLine(id).map { [$0] } ?? []
      }
    }
    // A page before the last: its questions are applied, the sequence waits for the rest.
    guard delta.completes else { return effects }
    room.seq = delta.to
    // Deltas seen past this one were set aside for a gap: what they said is still missing.
    if room.newestSeen > delta.to { effects += catchUp(from: delta.to) }
    return effects
  }

  /// Extension `counts`: `[n, votes, …]`, questions whose only change was their count. A
  /// number this client does not know names nothing it shows.
  private mutating func applyCounts(_ counts: [Int]) -> [QnAEffect] {
    var effects: [QnAEffect] = []
    var index = 0
    while index + 1 < counts.count {
      defer { index += 2 }
      guard let id = room.numbers[counts[index]], var question = room.questions[id] else {
        continue
      }
      let votes = max(0, counts[index + 1])
      guard votes != question.votes else { continue }
      if votes > question.votes { room.rose(id, at: now) }
      question.votes = votes
      room.questions[id] = question
      effects += roomLine(id).map { [$0] } ?? []
    }
    return effects
  }

  /// Extension `counts`: after a shared snapshot, what in it is this attendee's.
  mutating func received(_ own: RoomOwn) -> [QnAEffect] {
    // Marks for another snapshot than the one this client has: old news.
    guard own.seq == room.seq else { return [.log("ignored: roomOwn for room \(own.seq)")] }
    var effects: [QnAEffect] = receivedPolls(of: own)
    room.learnNumbers(Array(own.questions.prefix(Room.maxQuestions)))
    for question in own.questions.prefix(Room.maxQuestions) {
      guard room.admit(question) else { continue }
      var mine = question
      mine.mine = true
      mine.voted = nil
      room.questions[question.id] = mine
      effects += roomLine(question.id).map { [$0] } ?? []
      if let token = tokenByServerID[question.id] { effects += ownAnswered(question, token) }
      if question.state != nil, let token = tokenByServerID[question.id] {
        effects += updateLifecycle(
          token, state: question.lifecycle, answer: question.answer,
          content: question.edited == true ? question.content : nil)
      }
    }
    for number in own.voted {
      guard let id = room.numbers[number], room.questions[id] != nil else { continue }
      // A vote's answer after the snapshot settled it already.
      if let settled = room.voteSettledAt[id], settled > own.seq { continue }
      guard room.myVotes.insert(id).inserted else { continue }
      effects += roomLine(id).map { [$0] } ?? []
    }
    // The last part: the room's lines, held since the snapshot, now with the marks.
    if own.part >= own.parts, room.awaitingOwn {
      room.awaitingOwn = false
      return effects.filter { if case .report(.roomQuestion) = $0 { false } else { true } }
        + allRoomLines()
    }
    return effects
  }

  /// The room says a question of ours is answered: the asker hears it as from the `answer`
  /// message, which may be lost where the room's state is not (another instance answered
  /// while this one's notices were down, and the asker's socket stayed up: no resume).
  private mutating func ownAnswered(_ question: RoomQuestion, _ token: UUID) -> [QnAEffect] {
    guard question.answered || question.lifecycle == .answered else { return [] }
    return markAnswered(token)
  }

  /// Asks for what changed since `seq`, once (again if the answer seems lost).
  private mutating func catchUp(from seq: Int) -> [QnAEffect] {
    if let asked = room.catchUpAskedAt, now < asked + Room.catchUpPatience { return [] }
    guard let connectionID else { return [] }
    room.catchUpAskedAt = now
    return [.log("room: changes after \(seq) missing; catching up")] + join(connectionID)
  }

  /// The user votes for a question of the room, or takes the vote back.
  mutating func vote(_ question: UUID, up: Bool, token: UUID) -> [QnAEffect] {
    guard room.isAvailable else {
      return [
        notice(
          Message("This server shows only your own questions: there is nothing to vote on."),
          kind: .error)
      ]
    }
    guard let target = room.questions[question], target.lifecycle.isPublic || up == false else {
      return [notice(Message("There is no such question in the room."), kind: .error)]
    }
    if up, isMine(target) {
      return [
        notice(
          Message("That question is yours: votes are for the others' questions."), kind: .info)
      ]
    }
    if up, target.answered, !(room.pendingVotes[question]?.up ?? room.myVotes.contains(question)) {
      return [
        notice(
          Message("That question is answered: votes are for the open ones."), kind: .info)
      ]
    }
    room.pendingVotes[question] = Room.PendingVote(up: up, token: token)
    // Sent first: the line then shows the count as it stands (one typed offline counts).
    let sends = sendVotes()
    return (roomLine(question).map { [$0] } ?? []) + sends
  }

  mutating func received(_ response: VoteResponse) -> [QnAEffect] {
    guard let pending = room.pendingVotes[response.question], pending.token == response.token
    else {
      // An answer to an older vote: its count may still be news.
      guard updateVotes(response.question, from: response) else { return [] }
      return roomLine(response.question).map { [$0] } ?? []
    }
    if !response.success, let seconds = response.retryAfter {
      room.pendingVotes[response.question]?.sent = false
      room.pendingVotes[response.question]?.notBefore = now + Self.obeyed(retryAfter: seconds)
      return []
    }
    room.pendingVotes[response.question] = nil
    if response.voted {
      room.myVotes.insert(response.question)
    } else {
      room.myVotes.remove(response.question)
    }
    if let seq = response.seq { room.voteSettledAt[response.question] = seq }
    updateVotes(response.question, from: response)
    var effects: [QnAEffect] = []
    if !response.success {
      effects.append(
        response.message.map { notice($0, kind: .error) }
          ?? notice(Message("The vote was refused."), kind: .error))
    }
    // Its vote confirmed or refused, the question's line changes either way.
    effects += roomLine(response.question).map { [$0] } ?? []
    return effects
  }

  /// A vote's answer carries the count as of its sequence number: news only when no delta
  /// brought a newer one (deltas and answers travel separately).
  /// Returns whether the count changed.
  @discardableResult
  private mutating func updateVotes(_ question: UUID, from response: VoteResponse) -> Bool {
    guard let seq = response.seq, let roomSeq = room.seq, seq > roomSeq else { return false }
    let votes = max(0, response.votes)
    guard var target = room.questions[question], target.votes != votes else { return false }
    if votes > target.votes { room.rose(question, at: now) }
    target.votes = votes
    room.questions[question] = target
    return true
  }

  /// Puts the votes and the poll answers not yet on the wire there, once joined (after a
  /// handshake): both wait for the same join.
  mutating func sendVotes() -> [QnAEffect] {
    guard let connectionID, room.joined else { return [] }
    var effects: [QnAEffect] = []
    for (question, pending) in room.pendingVotes.sorted(by: {
      $0.key.uuidString < $1.key.uuidString
    })
    where !pending.sent && (pending.notBefore ?? now) <= now {
      room.pendingVotes[question]?.sent = true
      room.pendingVotes[question]?.notBefore = nil
      effects.append(
        .vote(Vote(id: connectionID, question: question, up: pending.up, token: pending.token)))
    }
    return effects + sendPollAnswers()
  }

  /// After a disconnect: votes on the wire without an answer go again after the next join.
  mutating func requeueVotes() {
    room.joined = false
    for question in room.pendingVotes.keys { room.pendingVotes[question]?.sent = false }
    requeuePollAnswers()
  }

  /// When the first vote waiting out a refusal may go again.
  var nextVoteWakeUp: Duration? {
    (room.pendingVotes.values.compactMap { $0.sent ? nil : $0.notBefore }
      + room.polls.pending.values.compactMap { $0.sent ? nil : $0.notBefore })
      .filter { $0 > now }.min()
  }
}
