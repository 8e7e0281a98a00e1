import Foundation
import NIOCore
import QnA
import QnAStore
import Synchronization

/// The room as every attendee (or every presenter) sees it, read once and shared by the
/// sockets that join before the room changes again, its page boundaries measured once.
package final class SharedSnapshot: Sendable {
  /// The room's last change when it was read: it is the room until the next.
  package let seq: Int
  package let epoch: UUID
  /// Nobody's: `mine` and `voted` false throughout.
  package let questions: [RoomQuestion]
  package let highlighted: UUID?
  /// The room's banner (extension `announcements`), on every page.
  package let announcement: Announcement?
  /// The next questions (extension `queue`), on every page.
  package let nextUp: NextUp?
  /// The session's labels (extension `labels`), on every page; `nil` when none.
  package let labels: [String]?
  /// Extension `polls`: the session's polls as this audience sees them, nobody's answers.
  package let polls: [RoomPoll]
  /// `polls` in pages of their own after the questions', by index.
  package let pollPages: [Range<Int>]
  /// `questions` in pages under `pageLimit`, by index.
  package let pages: [Range<Int>]
  /// Bytes of questions per page: `RoomPages.pageBytes`, less what the banner and the queue
  /// take on every page.
  package let pageLimit: Int
  /// Each question's number in the room (extension `counts`).
  package let numbers: [UUID: Int]
  /// When it was read (the room's clock): a snapshot stays good for joiners a while after the room moved on
  /// (their catch-up from `seq` brings them level), so a vote storm does not make every
  /// join read the room again.
  package let readAt: Duration
  /// How long after `readAt` it serves joiners though the room changed: for a room whose
  /// reading took 10 ms or more, 20 times that (at most a second), so that reading stays
  /// under a twentieth of the time; none for a cheaper one.
  package let reusableFor: Duration
  private let deflaters: CompressorPool?
  private let compact = Mutex<[OutgoingMessage]?>(nil)

  package init(
    seq: Int, epoch: UUID, questions: [RoomQuestion], highlighted: UUID?,
    announcement: Announcement? = nil, nextUp: NextUp? = nil, labels: [String] = [],
    polls: [RoomPoll] = [], deflaters: CompressorPool? = nil, readAt: Duration = .zero,
    readCost: Duration = .zero
  ) {
    reusableFor = readCost < .milliseconds(10) ? .zero : min(.seconds(1), readCost * 20)
    self.seq = seq
    self.epoch = epoch
    self.questions = questions
    self.highlighted = highlighted
    self.announcement = announcement
    self.nextUp = nextUp
    self.labels = labels.nilIfEmpty
    self.deflaters = deflaters
    self.readAt = readAt
    // Every page carries the banner and the queue: its questions make room for them.
    pageLimit =
      RoomPages.pageBytes
      - RoomPages.extraBytes(announcement: announcement, nextUp: nextUp, labels: self.labels)
    pages = RoomPages.ranges(questions, limit: pageLimit)
    self.polls = polls.map { poll in
      var shared = poll
      shared.mine = nil
      return shared
    }
    pollPages = RoomPages.ranges(self.polls, limit: pageLimit).filter { !$0.isEmpty }
    numbers = Dictionary(questions.compactMap { q in q.n.map { (q.id, $0) } }) { first, _ in first }
  }

  /// Extension `counts`: the pages every socket of this audience takes alike (no marks,
  /// numbered), encoded, framed and compressed once, the first time a socket needs them.
  package var compactPages: [OutgoingMessage] {
    compact.withLock { cached in
      if let cached { return cached }
      let codec = WireCodec()
      let parts = pages.count + pollPages.count
      var made = pages.enumerated().map { index, range in
        let page = RoomSnapshot(
          seq: seq, part: index + 1, parts: parts,
          questions: questions[range].map { question in
            var shown = question
            shown.mine = nil
            shown.voted = nil
            return shown
          }, highlighted: highlighted, epoch: epoch, announcement: announcement, nextUp: nextUp,
          labels: labels)
        return OutgoingMessage(codec.encode(.room(page)), deflaters: deflaters)
      }
      for (index, range) in pollPages.enumerated() {
        made.append(
          OutgoingMessage(
            codec.encode(.room(pollPage(range, part: pages.count + index + 1, of: parts))),
            deflaters: deflaters))
      }
      cached = made
      return made
    }
  }

  /// A page of polls only (extension `polls`): no questions, the room's values as on every
  /// page.
  package func pollPage(
    _ range: Range<Int>, part: Int, of parts: Int, answers: [UUID: PollValue] = [:]
  )
    -> RoomSnapshot
  {
    RoomSnapshot(
      seq: seq, part: part, parts: parts, questions: [], highlighted: highlighted, epoch: epoch,
      announcement: announcement, nextUp: nextUp, labels: labels,
      polls: polls[range].map { poll in
        var shown = poll
        shown.mine = answers[poll.id]
        return shown
      })
  }

  /// Extension `counts`: what of the room is this attendee's, after the shared pages.
  package func own(_ view: AttendeeView) -> [RoomOwn] {
    let voted = view.voted.compactMap { numbers[$0] }.sorted()
    let questions = view.own.map { question in
      var own = question
      own.mine = true
      return own
    }
    var parts = RoomPages.split(questions, limit: RoomPages.pageBytes).filter { !$0.isEmpty }
      .map { RoomOwn(seq: seq, questions: $0, voted: []) }
    for start in stride(from: 0, to: voted.count, by: Self.votedPerPage) {
      parts.append(
        RoomOwn(
          seq: seq, questions: [],
          voted: Array(voted[start..<min(voted.count, start + Self.votedPerPage)])))
    }
    if parts.isEmpty { parts = [RoomOwn(seq: seq, questions: [], voted: [])] }
    // Its answers, by poll number (a few hundred bytes at most per poll: one page).
    let pollNumbers = Dictionary(polls.map { ($0.id, $0.n) }) { first, _ in first }
    let answers = view.answers.compactMap { id, value in
      pollNumbers[id].map { PollMine(n: $0, value: value) }
    }.sorted { $0.n < $1.n }
    for start in stride(from: 0, to: answers.count, by: Self.answersPerPage) {
      let page = Array(answers[start..<min(answers.count, start + Self.answersPerPage)])
      if start == 0, parts.count == 1, parts[0].questions.isEmpty, parts[0].voted.isEmpty {
        parts[0].polls = page
      } else {
        parts.append(RoomOwn(seq: seq, questions: [], voted: [], polls: page))
      }
    }
    for index in parts.indices {
      parts[index].part = index + 1
      parts[index].parts = parts.count
    }
    return parts
  }

  /// Numbers per `roomOwn` page: at most 8 digits and a comma each, under 12 KB.
  package static let votedPerPage = 1200
  /// Poll answers per `roomOwn` page: a word cloud's answer is at most 3 entries of 96
  /// bytes, about 330 bytes with its number: under 12 KB.
  package static let answersPerPage = 30
}

/// One socket's snapshot, a page at a time as it asks for them: the shared room with its
/// attendee's votes marked, and its own questions (as their asker sees them: in review,
/// dismissed, with private answers) in pages of their own at the end.
package struct SnapshotPages {
  private let snapshot: SharedSnapshot
  private let voted: Set<UUID>
  private let ownIDs: Set<UUID>
  private let ownPages: [[RoomQuestion]]
  private var index = 0
  private let codec = WireCodec()

  package init(_ snapshot: SharedSnapshot, view: AttendeeView) {
    self.snapshot = snapshot
    voted = view.voted
    ownIDs = Set(view.own.map(\.id))
    ownPages = RoomPages.split(view.own, limit: snapshot.pageLimit).filter { !$0.isEmpty }
    answers = view.answers
  }

  private let answers: [UUID: PollValue]

  package var count: Int { snapshot.pages.count + ownPages.count + snapshot.pollPages.count }

  /// The next page, encoded; `nil` after the last.
  package mutating func next() -> ByteBuffer? {
    guard index < count else { return nil }
    defer { index += 1 }
    let pollIndex = index - snapshot.pages.count - ownPages.count
    if pollIndex >= 0 {
      let page = snapshot.pollPage(
        snapshot.pollPages[pollIndex], part: index + 1, of: count, answers: answers)
      return ByteBuffer(bytes: codec.encode(.room(page)))
    }
    let questions: [RoomQuestion]
    if index < snapshot.pages.count {
      questions = snapshot.questions[snapshot.pages[index]].compactMap { shared in
        guard !ownIDs.contains(shared.id) else { return nil }
        var question = shared
        question.n = nil
        if voted.contains(question.id) { question.voted = true }
        return question
      }
    } else {
      questions = ownPages[index - snapshot.pages.count].map { own in
        var question = own
        question.n = nil
        return question
      }
    }
    let page = RoomSnapshot(
      seq: snapshot.seq, part: index + 1, parts: count, questions: questions,
      highlighted: snapshot.highlighted, epoch: snapshot.epoch,
      announcement: snapshot.announcement, nextUp: snapshot.nextUp, labels: snapshot.labels)
    return ByteBuffer(bytes: codec.encode(.room(page)))
  }
}
