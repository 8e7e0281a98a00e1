import Foundation
import QnA

/// What every presenter's action on the room runs, written once for both databases: its
/// token's checks, its row in the log of room actions, and its flow's reads and writes.
package enum RoomActionSQL {
  /// $1 token: the action it was used for, if any.
  static let seen: PortableSQL = "SELECT action, text FROM roomAction WHERE token = $1"
  /// $1 token: a row when a question's action used it.
  static let usedOnAQuestion: PortableSQL = "SELECT 1 FROM transition WHERE token = $1"
  /// $1 token, $2 session, $3 action, $4 at, $5 text.
  static let keep: PortableSQL = """
    INSERT INTO roomAction (token, session, action, at, text) VALUES ($1, $2, $3, $4, $5)
    """
  /// $1 session, $2 question, $3 kind.
  static let logChange: PortableSQL =
    "INSERT INTO roomLog (session, question, kind) VALUES ($1, $2, $3)"
}

extension RoomActionFlow {
  /// The action as one transaction, run on the session's lock: a session that is gone
  /// refuses it; a token seen before does nothing (refused when it named another action);
  /// the flow makes the change or says why not; the token is kept with what it did, unless
  /// the flow refused (then nothing is kept).
  package func transaction(
    action: String, text: String?, token: UUID, at time: Date, session: Int64
  ) -> TransactionFlow<QuestionStore.RoomActionOutcome> {
    typealias Outcome = QuestionStore.RoomActionOutcome
    let token = SQLValue.text(token.text)
    let exists = TransactionFlow<Void>.requireExists(session)
    let act = steps(session).then { step -> TransactionFlow<Outcome> in
      switch step {
      case .refused(let refusal): .done(Outcome(changed: false, refusal: refusal))
      case .done(let changed):
        .run(
          RoomActionSQL.keep,
          [
            token, .integer(session), .text(action), .real(time.timeIntervalSinceReferenceDate),
            SQLValue(text),
          ], then: .done(Outcome(changed: changed)))
      }
    }
    return exists.then { _ in
      .rows(RoomActionSQL.seen, [token]) { seen in
        if let row = seen.first {
          return .done(
            Outcome(
              changed: false,
              refusal: StoreRules.repeatRefusal(
                seenAction: row.text(0) ?? "", seenText: row.text(1), action: action, text: text)))
        }
        // A token names one action, whichever table keeps it.
        return .rows(RoomActionSQL.usedOnAQuestion, [token]) { used in
          used.isEmpty
            ? act
            : .done(Outcome(changed: false, refusal: "That token was used for another action."))
        }
      }
    }
  }

  /// The flow's reads and writes as statements.
  func steps(_ session: Int64) -> TransactionFlow<RoomActionStep> {
    switch self {
    case .read(let keys, let then):
      return TransactionFlow.roomState(keys, session: session).then { values in
        then(values).steps(session)
      }
    case .openQuestions(let ids, let then):
      return .rowsInBatches(
        ids.map { [.integer(session), .text($0.text)] }, QuestionSQL.byIDs(rows:)
      ) { rows in
        let open = rows.compactMap(QuestionSQL.record).filter {
          $0.state == QuestionState.live.rawValue && !$0.answered
        }
        return then(Set(open.compactMap { UUID(text: $0.id) })).steps(session)
      }
    case .transaction(let flow): return flow.then { next in next.steps(session) }
    case .unchanged: return .done(.done(changed: false))
    case .refused(let refusal): return .done(.refused(refusal))
    case .write(let writes):
      return Self.written(writes, session: session, then: .done(.done(changed: true)))
    }
  }

  /// The statements and notices of `writes`, in order, then `next`.
  package static func written<T>(
    _ writes: [RoomWrite], session: Int64, then next: TransactionFlow<T>
  ) -> TransactionFlow<T> {
    writes.reversed().reduce(next) { flow, write in
      switch write {
      case .state(let key, let value):
        .run(RoomStateSQL.set, [.integer(session), .text(key), SQLValue(value)], then: flow)
      case .log(let question, let kind):
        .run(
          RoomActionSQL.logChange,
          [.integer(session), SQLValue(question?.text), .text(kind.rawValue)],
          then: .tell(session: session, question: question, kind, then: flow))
      case .tellOthers(let kind): .tell(session: session, question: nil, kind, then: flow)
      case .run(let statement, let values): .run(statement, values, then: flow)
      case .runEach(let statement, let values): .runEach(statement, values, then: flow)
      }
    }
  }
}
