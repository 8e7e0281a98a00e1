import Foundation
import QnA

extension RoomActionFlow {
  /// A presenter's action on a poll, as a room action: run under its token (exactly once),
  /// on the session's lock, its change a row in the room's log (`RoomChange.poll`). `spec`
  /// is checked already (`PollRules.problem`); `text`: an open text's entry, for `approve`
  /// and `dismiss`.
  package static func poll(
    _ kind: PollActionKind, id: UUID, spec: PollSpec?, text: String? = nil, at time: Date,
    session: Int64
  ) -> RoomActionFlow {
    let key = SQLValue.text(id.text)
    // The session's last poll number, kept apart from its polls: a deleted poll's number is
    // never another's (a client that missed the deletion would give its results to the wrong
    // poll).
    return .read([PollSQL.lastNumberKey]) { values in
      let last = values.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
      return .transaction(
        .rows(PollSQL.byID, [key]) { rows in
          let found = rows.first.flatMap(PollRecord.init)
          if let found, found.session != session {
            return .done(.refused("That poll id is another session's."))
          }
          guard kind == .create || found != nil else { return .done(.refused(Self.noSuchPoll)) }
          if kind == .approve || kind == .dismiss, let found {
            return moderate(kind == .approve ? .live : .dismissed, text: text, of: found, id: id)
          }
          return .rows(PollSQL.tally, [.integer(session)]) { tally in
            let polls = tally.first?.int(0) ?? 0
            let open = tally.first?.int(1) ?? 0
            let highest = tally.first?.int(2) ?? 0
            let decided = decide(
              kind, id: id, key: key, found: found, spec: spec, polls: polls, open: open,
              highest: max(highest, last), at: time, session: session)
            // Only a quiz that is closed, or closes now, counts in the scores.
            guard found?.spec.isQuiz == true, Self.movesScores.contains(kind),
              found?.state == .closed || kind == .close
            else {
              return .done(decided)
            }
            // The session's leaderboard moves: every other closed quiz shows it, so each is
            // the room's to read again (a board on a screen stays current).
            return .rows(PollSQL.all, [.integer(session)]) { rows in
              let boards = rows.compactMap(PollRecord.init).filter {
                $0.id != id.text && $0.spec.isQuiz && $0.state == .closed
              }.compactMap { UUID(text: $0.id) }
              guard case .write(let writes) = decided, !boards.isEmpty else {
                return .done(decided)
              }
              return .done(.write(writes + boards.map { RoomWrite.log($0, .poll) }))
            }
          }
        })
    }
  }

  package static let noSuchPoll = "There is no such poll."

  /// What done to a quiz changes the session's scores, or which quizzes the room's board
  /// counts.
  static let movesScores: Set<PollActionKind> = [.close, .open, .show, .hide, .reset, .delete]
  package static let noSuchEntry = "No one gives that answer to this poll."

  /// An open text's entry let through to the room (`live`) or kept out (`dismissed`): its
  /// results move, for presenters and, once live or gone, for attendees.
  private static func moderate(
    _ state: PollTextState, text: String?, of poll: PollRecord, id: UUID
  ) -> TransactionFlow<RoomActionFlow> {
    guard poll.spec.kind == .text else {
      return .done(.refused("Only an open text poll's answers are approved or dismissed."))
    }
    guard let given = text, given.utf8.count <= PollRules.maxTextAnswerBytes * 2 else {
      return .done(.refused(noSuchEntry))
    }
    let text = PollWords.composed(given)
    let poll = SQLValue.text(poll.id)
    return .rows(PollSQL.textState, [poll, .text(text)]) { rows in
      guard let row = rows.first, let current = row.text(0), (row.int(1) ?? 0) > 0 else {
        return .done(.refused(noSuchEntry))
      }
      guard current != state.rawValue else { return .done(.unchanged) }
      return .done(
        .write([
          .run(PollSQL.setTextState, [poll, .text(text), .text(state.rawValue)]),
          RoomWrite.log(id, .pollResults),
        ]))
    }
  }

  private static func decide(
    _ kind: PollActionKind, id: UUID, key: SQLValue, found: PollRecord?, spec: PollSpec?,
    polls: Int, open: Int, highest: Int, at time: Date, session: Int64
  ) -> RoomActionFlow {
    let logged = RoomWrite.log(id, .poll)
    let now = time.timeIntervalSinceReferenceDate
    switch kind {
    case .create:
      guard found == nil else { return .unchanged }
      guard let spec else { return .refused("A new poll needs its spec.") }
      guard polls < PollRules.maxPolls else {
        return .refused("A session has at most \(PollRules.maxPolls) polls: delete one first.")
      }
      return .write([
        .run(
          PollSQL.insert,
          [key, .integer(session), SQLValue(highest + 1), .text(PollCodec.text(spec)), .real(now)]),
        .state(PollSQL.lastNumberKey, String(highest + 1)), logged,
      ])
    case .update:
      guard let spec else { return .refused("An update gives the poll's new spec.") }
      guard found?.state == .draft else {
        return .refused("Only a poll not yet opened can change: reset it, or make another.")
      }
      guard found?.spec != spec else { return .unchanged }
      return .write([.run(PollSQL.update, [key, .text(PollCodec.text(spec))]), logged])
    case .open:
      guard let found, found.state != .open else { return .unchanged }
      guard open < PollRules.maxOpen else {
        return .refused("At most \(PollRules.maxOpen) polls are open at once: close one first.")
      }
      let closesAt = found.spec.timeLimit.map { SQLValue.real(now + Double($0)) } ?? .null
      return .write([.run(PollSQL.open, [key, .real(now), closesAt]), logged])
    case .close:
      guard let found, found.state == .open else {
        return found?.state == .closed ? .unchanged : .refused("That poll is not open.")
      }
      return .write([.run(PollSQL.close, [key]), logged])
    case .show, .hide:
      guard found?.shown != (kind == .show) else { return .unchanged }
      return .write([.run(PollSQL.show, [key, .integer(kind == .show ? 1 : 0)]), logged])
    case .reset:
      return .write([
        .run(PollSQL.deleteAnswers, [key]), .run(PollSQL.deleteCounts, [key]),
        .run(PollSQL.deleteTexts, [key]), .run(PollSQL.nextRound, [key]), logged,
      ])
    case .delete:
      return .write([
        .run(PollSQL.deleteAnswers, [key]), .run(PollSQL.deleteCounts, [key]),
        .run(PollSQL.deleteTexts, [key]), .run(PollSQL.delete, [key]), logged,
      ])
    case .approve, .dismiss:
      // Decided before (`moderate`), on the entry's row.
      return .refused(noSuchPoll)
    }
  }
}
