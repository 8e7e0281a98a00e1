import Foundation
import QnA

/// What attendees' rooms read, written once for both databases: the room as of its last
/// change (a snapshot), what changed between two points of its log (a catch-up or a
/// broadcast), an attendee's own questions and votes, and the export. Each is one read-only
/// transaction, so that its parts agree.
package enum RoomReadSQL {
  /// $1 attendee: the questions its vote counts for.
  static let votedBy: PortableSQL = "SELECT question FROM vote WHERE attendee = $1"
  /// $1 session, $2 attendee: the attendee's questions, oldest first.
  static let askedBy = PortableSQL(
    "SELECT \(QuestionSQL.selected) FROM question WHERE session = $1 AND attendee = $2 "
      + "ORDER BY createdAt, rowid")
  /// $1 session: every attendee with a name.
  static let names: PortableSQL =
    "SELECT id, name FROM attendee WHERE session = $1 AND name IS NOT NULL"
  /// Rows of (session, id): those of these attendees with a name.
  static func names(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT id, name FROM attendee WHERE name IS NOT NULL AND", by: ["session", "id"],
      rows: rows, mixedTypes: true)
  }
  /// $1 session, $2 after, $3 up to: the log between, in order.
  static let log: PortableSQL = """
    SELECT question, kind FROM roomLog WHERE session = $1 AND seq > $2 AND seq <= $3 ORDER BY seq
    """
  /// $1 session: every value of the room's state, by key (a handful: one read, not one each).
  static let state: PortableSQL = "SELECT key, value FROM roomState WHERE session = $1"
}

/// The room as one attendee (or presenter) sees it, as of its log's sequence number `seq`.
public typealias StoredRoomSnapshot = (
  seq: Int, questions: [RoomQuestion], highlighted: UUID?, announcement: Announcement?,
  nextUp: NextUp?, labels: [String], polls: [RoomPoll]
)

extension TransactionFlow where Output == StoredRoomSnapshot {
  /// The whole room for `attendee` (`nil`: as anyone sees it) (`StoreRules.room`).
  package static func snapshot(for attendee: UUID?, presenter: Bool, session: Int64)
    -> TransactionFlow
  {
    TransactionFlow<Int>.currentSeq(session: session).then { seq in
      TransactionFlow<Set<String>>.voted(by: attendee).then { voted in
        TransactionFlow<[UUID: String]>.names(session: session, of: presenter ? nil : [])
          .then { names in
            .rows(QuestionSQL.all, [.integer(session)]) { rows in
              let records = rows.compactMap(QuestionSQL.record)
              return TransactionFlow<RoomState>.roomState(session: session).then { state in
                TransactionFlow<[RoomPoll]>.polls(session: session, presenter: presenter).then {
                  polls in
                  TransactionFlow<[UUID: PollValue]>.answers(of: attendee).then { answers in
                    let nextUp = state.nextUp(presenter: presenter)
                    return .done(
                      (
                        seq,
                        StoreRules.room(
                          records, for: attendee, voted: voted, names: names,
                          presenter: presenter),
                        state.highlighted, state.announcement,
                        nextUp.ids.isEmpty && !nextUp.shown ? nil : nextUp, state.labels,
                        polls.map { poll in
                          var poll = poll
                          poll.mine = answers[poll.id]
                          return poll
                        }
                      ))
                  }
                }
              }
            }
          }
      }
    }
  }
}

extension TransactionFlow where Output == RoomChanges {
  /// What changed after sequence `after`, up to `upTo` (`StoreRules.delta`): the current
  /// state of each question that changed, and of the room's values that did.
  package static func changes(after: Int, upTo: Int, presenter: Bool, session: Int64)
    -> TransactionFlow
  {
    .rows(RoomReadSQL.log, [.integer(session), .integer(Int64(after)), .integer(Int64(upTo))]) {
      log in
      let rows = log.map { ($0.text(0), $0.text(1) ?? "") }
      let changed = StoreRules.changed(in: rows)
      let polls = StoreRules.changedPolls(in: rows)
      return .rowsInBatches(
        changed.ids.map { [.integer(session), .text($0)] }, QuestionSQL.byIDs(rows:)
      ) { rows in
        let records = rows.compactMap(QuestionSQL.record)
        let roomValues =
          changed.highlight || changed.announcement || changed.queue || changed.labels
        return TransactionFlow<[UUID: String]>.names(
          session: session, of: presenter ? records : []
        ).then { names in
          TransactionFlow<RoomState>.roomState(session: session, if: roomValues).then { state in
            TransactionFlow<(polls: [RoomPoll], existing: Set<String>)>.changedPolls(
              session: session, ids: polls.ids, presenter: presenter
            )
            .then { found in
              var changes = StoreRules.delta(
                after: after, upTo: upTo, named: changed.ids, countsOnly: changed.countsOnly,
                rows: records, names: names,
                highlight: changed.highlight ? HighlightChange(id: state.highlighted) : nil,
                announcement: changed.announcement ? (state.announcement ?? Announcement()) : nil,
                nextUp: changed.queue ? state.nextUp(presenter: presenter) : nil,
                labels: changed.labels ? state.labels : nil, presenter: presenter)
              changes.addPolls(
                found.polls, named: polls.ids.filter { !found.existing.contains($0) },
                resultsOnly: polls.resultsOnly)
              return .done(changes)
            }
          }
        }
      }
    }
  }
}

extension TransactionFlow where Output == AttendeeView {
  /// The attendee's own questions and votes, to lay over the room everyone sees.
  package static func view(of attendee: UUID, presenter: Bool, session: Int64) -> TransactionFlow {
    TransactionFlow<Set<String>>.voted(by: attendee).then { voted in
      .rows(RoomReadSQL.askedBy, [.integer(session), .text(attendee.text)]) { rows in
        let records = rows.compactMap(QuestionSQL.record)
        return TransactionFlow<[UUID: String]>.names(
          session: session, of: presenter ? records : []
        ).then { names in
          TransactionFlow<[UUID: PollValue]>.answers(of: attendee).then { answers in
            .done(
              AttendeeView(
                own: StoreRules.room(
                  records, for: attendee, voted: voted, names: names, presenter: presenter),
                voted: Set(voted.compactMap(UUID.init(text:))), answers: answers))
          }
        }
      }
    }
  }
}

extension TransactionFlow where Output == [ExportedQuestion] {
  /// Every question in every state, oldest first, with its asker's name.
  package static func export(session: Int64) -> TransactionFlow {
    TransactionFlow<[UUID: String]>.names(session: session, of: nil).then { names in
      .rows(QuestionSQL.all, [.integer(session)]) { rows in
        .done(
          rows.compactMap(QuestionSQL.record).map {
            let question = $0.question
            return ExportedQuestion(
              question: question, name: question.attendee.flatMap { names[$0] })
          })
      }
    }
  }
}

extension TransactionFlow where Output == Set<String> {
  /// The ids of the questions `attendee`'s vote counts for (none for nobody).
  static func voted(by attendee: UUID?) -> TransactionFlow {
    guard let attendee else { return .done([]) }
    return .rows(RoomReadSQL.votedBy, [.text(attendee.text)]) { rows in
      .done(Set(rows.compactMap { $0.text(0) }))
    }
  }
}

extension TransactionFlow where Output == [UUID: String] {
  /// Attendees' display names by id, for presenters: of the askers of `questions` only when
  /// given (a delta's few questions need not read every attendee of a busy room, ten times a
  /// second), none when they are none.
  static func names(session: Int64, of questions: [QuestionRecord]?) -> TransactionFlow {
    let read: @Sendable ([SQLRow]) -> TransactionFlow = { rows in
      var names: [UUID: String] = [:]
      for row in rows {
        if let id = row.text(0).flatMap(UUID.init(text:)), let name = row.text(1) {
          names[id] = name
        }
      }
      return .done(names)
    }
    guard let questions else { return .rows(RoomReadSQL.names, [.integer(session)], then: read) }
    let askers = Set(questions.compactMap(\.attendee))
    guard !askers.isEmpty else { return .done([:]) }
    return .rowsInBatches(
      askers.sorted().map { [.integer(session), .text($0)] }, RoomReadSQL.names(rows:),
      then: read)
  }
}

/// The room's values (`roomState`) as its reads use them.
package struct RoomState: Sendable {
  package var values: [String: String]

  package var highlighted: UUID? { values["highlighted"].flatMap(UUID.init(text:)) }
  package var announcement: Announcement? { StoreRules.announcement(from: values["announcement"]) }
  package var labels: [String] { StoreRules.labels(from: values["labels"]) }
  package func nextUp(presenter: Bool) -> NextUp {
    StoreRules.nextUp(
      queue: StoreRules.queue(from: values["queue"]), shown: values["queueShown"] == "1",
      presenter: presenter)
  }
}

extension TransactionFlow where Output == RoomState {
  /// Every value of the room's state, in one read; none when `needed` is false.
  static func roomState(session: Int64, if needed: Bool = true) -> TransactionFlow {
    guard needed else { return .done(RoomState(values: [:])) }
    return .rows(RoomReadSQL.state, [.integer(session)]) { rows in
      var values: [String: String] = [:]
      for row in rows {
        if let key = row.text(0), let value = row.text(1) { values[key] = value }
      }
      return .done(RoomState(values: values))
    }
  }
}
