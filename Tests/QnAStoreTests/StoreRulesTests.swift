import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// The rules both drivers apply inside their transactions, without a database.
@Suite("The store's rules, without a database")
struct StoreRulesTests {
  static let alice = uuid(1, group: 0x5A)
  static let bob = uuid(2, group: 0x5A)
  static let question = uuid(7, group: 0x5A)

  static func record(
    by asker: UUID? = alice, state: QuestionState = .live, answered: Bool = false,
    published: Bool = true
  ) -> QuestionRecord {
    var record = QuestionRecord(
      StoredQuestion(
        id: question, content: "Why?", answered: answered, askedFrom: uuid(9),
        createdAt: Date(timeIntervalSinceReferenceDate: 0), attendee: asker, state: state))
    record.published = published
    return record
  }

  @Test func oneVotePerAttendeeNoneForOnesOwnNorForAnAnsweredQuestion() {
    #expect(
      StoreRules.vote(on: Self.record().voteTarget, by: Self.bob, up: true, existing: false) == .add
    )
    #expect(
      StoreRules.vote(on: Self.record().voteTarget, by: Self.bob, up: true, existing: true)
        == .unchanged)
    #expect(
      StoreRules.vote(on: Self.record().voteTarget, by: Self.bob, up: false, existing: true)
        == .remove)
    #expect(
      StoreRules.vote(on: Self.record().voteTarget, by: Self.bob, up: false, existing: false)
        == .unchanged)
    guard
      case .refuse = StoreRules.vote(
        on: Self.record().voteTarget, by: Self.alice, up: true, existing: false)
    else {
      Issue.record("a vote for one's own question")
      return
    }
    guard
      case .refuse = StoreRules.vote(
        on: Self.record(answered: true).voteTarget, by: Self.bob, up: true, existing: false)
    else {
      Issue.record("a vote for an answered question")
      return
    }
    // Taking a vote back is always allowed, answered or not.
    #expect(
      StoreRules.vote(
        on: Self.record(answered: true).voteTarget, by: Self.bob, up: false, existing: true)
        == .remove)
  }

  @Test func onlyTheAskerOrATokenFromBeforeTheRoomMayClaimAQuestion() {
    #expect(StoreRules.mayClaim(Self.record(by: Self.alice), Self.alice))
    #expect(!StoreRules.mayClaim(Self.record(by: Self.alice), Self.bob))
    #expect(!StoreRules.mayClaim(Self.record(by: Self.alice), nil))
    #expect(StoreRules.mayClaim(Self.record(by: nil), Self.bob))
    #expect(StoreRules.mayClaim(Self.record(by: nil), nil))
  }

  static func perform(
    _ action: PresenterActionKind, on record: QuestionRecord, highlighted: UUID? = nil,
    text: String? = nil
  ) -> Result<StoreRules.ActionStep, StoreRules.ActionRefusal> {
    StoreRules.perform(
      action, on: record, id: question, highlighted: highlighted, text: text, isPrivate: false,
      at: Date(timeIntervalSinceReferenceDate: 60))
  }

  @Test func eachActionChangesWhatItSaysAndRefusesWhatDoesNotApply() throws {
    let approved = try Self.perform(.approve, on: Self.record(state: .review)).get()
    #expect(approved.changed && approved.record.state == "live" && approved.record.published)
    let again = try Self.perform(.approve, on: approved.record).get()
    #expect(!again.changed, "approving a live question changes nothing")
    #expect(throws: StoreRules.ActionRefusal.self) {
      try Self.perform(.approve, on: Self.record(state: .dismissed)).get()
    }
    // Restored where it was dismissed from: never approved, it waits in review again.
    let dismissed = try Self.perform(.dismiss, on: Self.record(state: .review, published: false))
      .get()
    #expect(try Self.perform(.restore, on: dismissed.record).get().record.state == "review")
    #expect(throws: StoreRules.ActionRefusal.self) {
      try Self.perform(.highlight, on: Self.record(state: .review)).get()
    }
    #expect(throws: StoreRules.ActionRefusal.self) {
      try Self.perform(.highlight, on: Self.record(answered: true)).get()
    }
    let highlighted = try Self.perform(.highlight, on: Self.record()).get()
    #expect(highlighted.highlight == .some(Self.question) && !highlighted.changed)
  }

  @Test func answeringTheHighlightedQuestionEndsTheHighlightAndKeepsTheFirstAnswerTime()
    throws
  {
    let answered = try Self.perform(
      .answer, on: Self.record(), highlighted: Self.question, text: "Because."
    ).get()
    #expect(answered.changed && answered.record.answered && answered.record.answer == "Because.")
    #expect(answered.highlight == .some(nil))
    #expect(answered.record.answeredAt == 60)
    var later = answered.record
    later.answer = nil
    let again = StoreRules.perform(
      .answer, on: later, id: Self.question, highlighted: nil, text: "Twice", isPrivate: true,
      at: Date(timeIntervalSinceReferenceDate: 120))
    #expect(try again.get().record.answeredAt == 60, "the first answer's time stays")
    #expect(StoreRules.logKind(of: .answer) == .answered)
    #expect(StoreRules.logKind(of: .dismiss) == .state)
  }

  @Test func aTokenReusedForAnotherActionIsRefused() {
    let id = Self.question
    #expect(
      StoreRules.repeatRefusal(
        seenQuestion: id.uuidString, seenAction: "answer", action: .answer, on: id) == nil)
    #expect(
      StoreRules.repeatRefusal(
        seenQuestion: id.uuidString, seenAction: "answer", action: .dismiss, on: id) != nil)
    #expect(
      StoreRules.repeatRefusal(
        seenQuestion: uuid(8).uuidString, seenAction: "answer", action: .answer, on: id) != nil)
  }

  @Test func theLogNamesEachQuestionOnceInOrderAndSaysWhetherTheHighlightMoved() {
    let rows: [(question: String?, kind: String)] = [
      ("B", "votes"), ("A", "added"), ("B", "votes"), (nil, "highlight"), ("A", "answered"),
    ]
    let changed = StoreRules.changed(in: rows)
    #expect(changed.ids == ["B", "A"] && changed.highlight)
    #expect(!StoreRules.changed(in: [("A", "votes")]).highlight)
  }

  @Test func attendeesSeeThePublicRoomAndTheirOwnPresentersSeeEverything() {
    let inReview = Self.record(by: Self.alice, state: .review, published: false)
    let names = [Self.alice: "Alice"]
    let forAlice = StoreRules.room(
      [inReview], for: Self.alice, voted: [], names: names, presenter: false)
    #expect(forAlice.count == 1 && forAlice[0].mine == true && forAlice[0].name == nil)
    #expect(
      StoreRules.room([inReview], for: Self.bob, voted: [], names: names, presenter: false)
        .isEmpty)
    let forPresenter = StoreRules.room(
      [inReview], for: Self.bob, voted: [], names: names, presenter: true)
    #expect(forPresenter.first?.name == "Alice", "only presenters see askers' names")
  }

  @Test func aDeltaNamesADismissedQuestionRemovedOnlyIfTheRoomEverSawIt() {
    let seen = Self.record(state: .dismissed, published: true)
    var unseen = Self.record(state: .dismissed, published: false)
    unseen.id = uuid(8, group: 0x5A).uuidString
    let gone = uuid(9, group: 0x5A).uuidString
    let delta = StoreRules.delta(
      after: 4, upTo: 7, named: [seen.id, unseen.id, gone], rows: [seen, unseen], names: [:],
      highlight: nil, presenter: false
    ).delta
    #expect(delta.from == 5 && delta.to == 7 && delta.questions.isEmpty)
    #expect(Set(delta.removed ?? []) == [Self.question, UUID(uuidString: gone)!])
    let presenters = StoreRules.delta(
      after: 4, upTo: 7, named: [seen.id, unseen.id], rows: [seen, unseen], names: [:],
      highlight: nil, presenter: true
    ).delta
    #expect(presenters.questions.count == 2 && presenters.removed == nil)
  }

  /// SQL written once (`PortableSQL`): PostgreSQL's placeholders as written, SQLite's numbered
  /// ones made from them, in the same places.
  @Test func aStatementWrittenOnceReadsInBothDialects() {
    let statement: PortableSQL = "UPDATE question SET votes = $1 WHERE id = $2"
    #expect(statement.postgres == "UPDATE question SET votes = $1 WHERE id = $2")
    #expect(statement.sqlite == "UPDATE question SET votes = ?1 WHERE id = ?2")
    let statements = [
      VoteSQL.counted, VoteSQL.add, VoteSQL.remove, VoteSQL.setCount, TicketSQL.bind,
      RoomStateSQL.value, RoomStateSQL.set,
    ]
    for shared in statements {
      #expect(!shared.postgres.contains("?") && !shared.sqlite.contains("$"), "\(shared.postgres)")
    }
  }
}
