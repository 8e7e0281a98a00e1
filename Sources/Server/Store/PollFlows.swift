import Foundation
import QnA

extension TransactionFlow where Output == [PollAnswerOutcome?] {
  /// A batch of answers in one transaction on the session's lock, each decided in order
  /// (`PollTally`): the polls and the attendees' answers read in a few statements, the
  /// answers and the counts' moves written in a few more, one log row per poll whose counts
  /// moved. `nil` for an answer to no poll of this session.
  package static func pollAnswers(_ requests: [PollAnswerRequest], session: Int64)
    -> TransactionFlow
  {
    let polls = Set(requests.map(\.poll.text)).sorted()
    return .rowsInBatches(polls.map { [.integer(session), .text($0)] }, PollSQL.byIDs(rows:)) {
      rows in
      let records = rows.compactMap(PollRecord.init)
      let known = Set(records.map(\.id))
      let keys = Set(
        requests.map { PollAnswerKey(poll: $0.poll.text, attendee: $0.attendee.text) }
          .filter { known.contains($0.poll) }
      ).sorted()
      return .rowsInBatches(
        keys.map { [.text($0.poll), .text($0.attendee)] }, PollSQL.answers(rows:)
      ) { answerRows in
        var stored: [PollAnswerKey: (value: PollValue, token: String)] = [:]
        for row in answerRows {
          guard let poll = row.text(0), let attendee = row.text(1),
            let value = row.text(2).flatMap(PollCodec.value), let token = row.text(3)
          else { continue }
          stored[PollAnswerKey(poll: poll, attendee: attendee)] = (value, token)
        }
        var tally = PollTally(polls: records, answers: stored)
        let steps = requests.map { tally.apply($0) }
        let changed = tally.changedPolls
        let logged = TransactionFlow<Int>.runInChunks(
          changed.map { [.integer(session), .text($0), .text(RoomChange.pollResults.rawValue)] },
          PollSQL.logs(rows:),
          then: changed.isEmpty
            ? .currentSeq(session: session)
            : .tell(
              session: session, question: nil, .pollResults, then: .currentSeq(session: session)
            ))
        let written = TransactionFlow<Int>.runInChunks(
          tally.changedAnswers, PollSQL.putAnswers(rows:),
          then: .runInChunks(
            tally.countMoves, PollSQL.addCounts(rows:),
            then: .runInChunks(
              changed.map { [.text($0)] }, PollSQL.deleteEmptyCounts(rows:),
              then: .runInChunks(
                tally.leftTexts, PollSQL.releaseTexts(rows:),
                then: .runInChunks(tally.givenTexts, PollSQL.putTexts(rows:), then: logged)))))
        return written.then { seq in
          .done(
            steps.map {
              $0.map { PollAnswerOutcome(value: $0.value, seq: seq, refusal: $0.refusal) }
            })
        }
      }
    }
  }
}

extension TransactionFlow where Output == (polls: [RoomPoll], existing: Set<String>) {
  /// The polls of `ids` the audience sees, and which of `ids` still exist (a draft exists
  /// though attendees do not see it: it is not removed from their rooms, whose ids it never
  /// reached).
  package static func changedPolls(session: Int64, ids: [String], presenter: Bool)
    -> TransactionFlow
  {
    guard !ids.isEmpty else { return .done(([], [])) }
    return .rowsInBatches(ids.map { [.integer(session), .text($0)] }, PollSQL.byIDs(rows:)) {
      rows in
      let existing = Set(rows.compactMap { $0.text(0) })
      return TransactionFlow<[RoomPoll]>.shown(rows, session: session, presenter: presenter)
        .then { polls in .done((polls, existing)) }
    }
  }
}

/// The session's polls as an audience sees them, with their results.
extension TransactionFlow where Output == [RoomPoll] {
  /// Every poll of the session (`ids`: only these), in order.
  package static func polls(session: Int64, ids: [String]? = nil, presenter: Bool)
    -> TransactionFlow
  {
    let read: @Sendable ([SQLRow]) -> TransactionFlow = { rows in
      shown(rows, session: session, presenter: presenter)
    }
    guard let ids else { return .rows(PollSQL.all, [.integer(session)], then: read) }
    guard !ids.isEmpty else { return .done([]) }
    return .rowsInBatches(
      ids.map { [.integer(session), .text($0)] }, PollSQL.byIDs(rows:), then: read)
  }

  /// The polls of `rows` (`PollSQL.columns`) as the audience sees them, with their results
  /// and, on a closed quiz it sees, the session's leaderboard.
  static func shown(_ rows: [SQLRow], session: Int64, presenter: Bool) -> TransactionFlow {
    let records = rows.compactMap(PollRecord.init).sorted { $0.n < $1.n }
    return TransactionFlow<[String: PollResults]>.results(of: records, presenter: presenter).then {
      results in
      // A closed quiz the room sees shows the session's leaderboard: read only then, over
      // every quiz of the session (not only the polls read here: a delta names a few).
      let boards = records.filter {
        $0.spec.isQuiz && $0.state == .closed && ($0.shown || presenter)
      }
      // The room's board counts the quizzes it has seen revealed: one closed and hidden
      // says nothing yet of who got it right.
      let scores: TransactionFlow<[QuizScore]> =
        boards.isEmpty
        ? .done([])
        : TransactionFlow<[PollRecord]>.pollRecords(session: session).then { all in
          .quizScores(session: session, polls: presenter ? all : all.filter(\.shown))
        }
      return scores.then { scores in
        .done(
          records.compactMap { record in
            var poll = record.roomPoll(results: results[record.id], presenter: presenter)
            if boards.contains(where: { $0.id == record.id }) {
              poll?.leaderboard = scores.leaderboard(named: record.spec.namedBoard == true)
            }
            return poll
          })
      }
    }
  }
}

extension TransactionFlow where Output == [String: PollResults] {
  /// The results of `polls`, by id: a choice poll's or a rating's every count in one read
  /// for all of them, a word cloud's top words from its index, two reads each; an open
  /// text's entries (for `presenter`, those waiting too) from theirs.
  package static func results(
    of polls: [PollRecord], numbered: Bool = false, presenter: Bool = false
  ) -> TransactionFlow {
    let counted = polls.filter { $0.spec.kind != .words && $0.spec.kind != .text }
    let clouds = polls.filter { $0.spec.kind == .words }
    let texts = polls.filter { $0.spec.kind == .text }
    return .rowsInBatches(counted.map { [.text($0.id)] }, PollSQL.counts(rows:)) { rows in
      var counts: [String: [String: Int]] = [:]
      for row in rows {
        if let poll = row.text(0), let key = row.text(1), let count = row.int(2) {
          counts[poll, default: [:]][key] = count
        }
      }
      var results: [String: PollResults] = [:]
      for poll in counted {
        results[poll.id] = PollRules.results(
          counts[poll.id] ?? [:], for: poll.spec, n: numbered ? poll.n : nil)
      }
      return words(of: clouds[...], into: results, numbered: numbered).then { results in
        entries(of: texts[...], into: results, numbered: numbered, presenter: presenter)
      }
    }
  }

  private static func entries(
    of polls: ArraySlice<PollRecord>, into results: [String: PollResults], numbered: Bool,
    presenter: Bool
  ) -> TransactionFlow {
    guard let poll = polls.first else { return .done(results) }
    let key = SQLValue.text(poll.id)
    let top = SQLValue(PollRules.topTexts)
    let waiting: TransactionFlow<(entries: [PollWord], held: Int)?> =
      presenter
      ? .rows(PollSQL.waitingTexts, [key, top]) { waiting in
        .rows(PollSQL.heldTexts, [key]) { held in
          .done((PollWord.entries(waiting), held.first?.int(0) ?? 0))
        }
      }
      : .done(nil)
    return .rows(PollSQL.liveTexts, [key, top]) { live in
      .rows(PollSQL.answerCount, [key]) { answered in
        waiting.then { waiting in
          var results = results
          results[poll.id] = PollResults(
            n: numbered ? poll.n : nil, answers: answered.first?.int(0) ?? 0,
            texts: PollRules.textEntries(PollWord.entries(live)),
            review: waiting.map { PollRules.textEntries($0.entries) }, held: waiting?.held)
          return entries(
            of: polls.dropFirst(), into: results, numbered: numbered, presenter: presenter)
        }
      }
    }
  }

  private static func words(
    of clouds: ArraySlice<PollRecord>, into results: [String: PollResults], numbered: Bool
  ) -> TransactionFlow {
    guard let poll = clouds.first else { return .done(results) }
    return .rows(PollSQL.topWords, [.text(poll.id), SQLValue(PollRules.topWords)]) { top in
      .rows(PollSQL.answerCount, [.text(poll.id)]) { answered in
        var counts: [String: Int] = [PollRules.answersKey: answered.first?.int(0) ?? 0]
        for row in top {
          if let word = row.text(0), let count = row.int(1) { counts[word] = count }
        }
        var results = results
        results[poll.id] = PollRules.results(counts, for: poll.spec, n: numbered ? poll.n : nil)
        return words(of: clouds.dropFirst(), into: results, numbered: numbered)
      }
    }
  }
}

extension PollWord {
  /// Rows of (text, count).
  static func entries(_ rows: [SQLRow]) -> [PollWord] {
    rows.compactMap { row in
      guard let text = row.text(0), let count = row.int(1) else { return nil }
      return PollWord(text: text, count: count)
    }
  }
}

extension TransactionFlow where Output == [UUID: PollValue] {
  /// An attendee's answers, by poll.
  package static func answers(of attendee: UUID?) -> TransactionFlow {
    guard let attendee else { return .done([:]) }
    return .rows(PollSQL.answersOf, [.text(attendee.text)]) { rows in
      var answers: [UUID: PollValue] = [:]
      for row in rows {
        if let poll = row.text(0).flatMap(UUID.init(text:)),
          let value = row.text(1).flatMap(PollCodec.value)
        {
          answers[poll] = value
        }
      }
      return .done(answers)
    }
  }
}

/// A quiz's score for one attendee.
public struct QuizScore: Sendable, Hashable {
  public var attendee: String
  public var name: String?
  /// Closed quizzes answered right, of those answered.
  public var score: Int
  public var answered: Int
}

extension PollSQL {
  /// $1 session: every answer to the session's closed quizzes (polls with correct options).
  static let quizAnswers: PortableSQL = """
    SELECT pollAnswer.poll, pollAnswer.attendee, pollAnswer.value FROM pollAnswer
    JOIN poll ON poll.id = pollAnswer.poll
    WHERE poll.session = $1 AND poll.state = 'closed' AND poll.spec LIKE '%"correct"%'
    """
}

extension TransactionFlow where Output == [QuizScore] {
  /// Each attendee's score over the session's closed quizzes, best first (then by who
  /// answered more, then by id: the same order every time).
  package static func quizScores(session: Int64, polls: [PollRecord]) -> TransactionFlow {
    let quizzes = Dictionary(
      polls.filter { $0.spec.isQuiz && $0.state == .closed }.map { ($0.id, $0.spec) }
    ) { first, _ in first }
    guard !quizzes.isEmpty else { return .done([]) }
    return .rows(PollSQL.quizAnswers, [.integer(session)]) { rows in
      var scores: [String: (score: Int, answered: Int)] = [:]
      for row in rows {
        guard let poll = row.text(0), let spec = quizzes[poll], let attendee = row.text(1),
          let value = row.text(2).flatMap(PollCodec.value)
        else { continue }
        let right = PollRules.isCorrect(value, for: spec) ? 1 : 0
        scores[attendee, default: (0, 0)].score += right
        scores[attendee, default: (0, 0)].answered += 1
      }
      let tallies = scores
      // Ties in an order no attendee chooses (ids are the clients'): by a digest of the id
      // salted with the first quiz's id, the same on every instance.
      let salt = String(quizzes.keys.sorted().first?.prefix(16) ?? "")
      let tie: @Sendable (String) -> UInt32 = { attendee in
        SHA256Block.firstWord(Array((attendee.prefix(36) + salt).utf8)) ?? 0
      }
      return TransactionFlow<[UUID: String]>.names(session: session, of: nil).then { names in
        .done(
          tallies.map { attendee, tally in
            QuizScore(
              attendee: attendee, name: UUID(text: attendee).flatMap { names[$0] },
              score: tally.score, answered: tally.answered)
          }.sorted {
            ($1.score, $1.answered, tie($0.attendee)) < ($0.score, $0.answered, tie($1.attendee))
          })
      }
    }
  }
}

extension [QuizScore] {
  /// The top of the board: places shared by equal scores, names only on a named board.
  package func leaderboard(named: Bool) -> [LeaderboardEntry] {
    var entries: [LeaderboardEntry] = []
    for (index, entry) in prefix(PollRules.leaderboardSize).enumerated() {
      let place =
        index > 0 && self[index - 1].score == entry.score ? entries[index - 1].place : index + 1
      entries.append(
        LeaderboardEntry(
          place: place, name: named ? entry.name.map(Self.boardName) : nil, score: entry.score))
    }
    return entries
  }

  /// A name as the board shows it: its first 40 characters, 160 bytes at most.
  static func boardName(_ name: String) -> String {
    let short = String(name.prefix(40))
    guard short.utf8.count > 160 else { return short }
    var cut = ""
    for character in short {
      guard cut.utf8.count + character.utf8.count <= 160 else { break }
      cut.append(character)
    }
    return cut
  }
}

extension TransactionFlow where Output == [PollRecord] {
  /// The session's polls' rows, in order.
  package static func pollRecords(session: Int64) -> TransactionFlow {
    .rows(PollSQL.all, [.integer(session)]) { rows in
      .done(rows.compactMap(PollRecord.init).sorted { $0.n < $1.n })
    }
  }
}
