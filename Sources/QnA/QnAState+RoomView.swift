#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The room as the attendee sees it: their own questions, their votes counted at once, the
/// order the views list it in.
extension QnAState {
  func isMine(_ question: RoomQuestion) -> Bool {
    question.mine == true || tokenByServerID[question.id] != nil
  }

  package func entry(for question: RoomQuestion) -> RoomEntry {
    let pending = room.pendingVotes[question.id]
    let counted = room.myVotes.contains(question.id)
    let voted = pending?.up ?? counted
    var shown = question
    // A vote typed offline counts on screen at once; one on the wire waits for the server.
    if let pending, !pending.sent, pending.up != counted { shown.votes += pending.up ? 1 : -1 }
    shown.votes = max(0, shown.votes)
    return RoomEntry(
      question: shown, mine: isMine(question), voted: voted,
      highlighted: room.highlighted == question.id, votePending: pending != nil,
      nextUp: room.nextUp.ids.firstIndex(of: question.id).map { $0 + 1 })
  }

  func roomLine(_ id: UUID) -> QnAEffect? {
    room.questions[id].map { .report(.roomQuestion(entry(for: $0), removed: false)) }
  }

  /// The room, in `order`.
  public func roomEntries(_ order: RoomOrder) -> [RoomEntry] {
    // Another attendee's question in review or dismissed never reaches an attendee; were a
    // server to send one, it is still not shown. Presenters see every question.
    let presenter = configuration.presenter
    let entries = room.questions.values.filter { presenter || $0.lifecycle.isPublic || isMine($0) }
      .map { entry(for: $0) }
    switch order {
    case .popular:
      return entries.sorted { a, b in
        if a.question.answered != b.question.answered { return !a.question.answered }
        if a.votes != b.votes { return a.votes > b.votes }
        if a.question.createdAt != b.question.createdAt {
          return a.question.createdAt < b.question.createdAt
        }
        return a.id.uuidString < b.id.uuidString
      }
    case .recent:
      return entries.sorted { a, b in
        if a.question.createdAt != b.question.createdAt {
          return a.question.createdAt > b.question.createdAt
        }
        return a.id.uuidString < b.id.uuidString
      }
    }
  }

  /// One question of the room, as the attendee sees it.
  public func roomEntry(_ id: UUID) -> RoomEntry? { room.questions[id].map { entry(for: $0) } }

  /// Whether a vote typed for `question` still waits for the server's answer.
  public func isVotePending(_ question: UUID) -> Bool { room.pendingVotes[question] != nil }

  /// The question being answered now, as the attendee sees it.
  public var nowAnswering: RoomEntry? {
    room.highlighted.flatMap { room.questions[$0] }.map { entry(for: $0) }
  }
}
