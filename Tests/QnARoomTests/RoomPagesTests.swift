import Foundation
import QnA
import QnARoom
import TestSupport
import Testing

/// The room's pages and budgets, without a socket.
@Suite("The room's pages and budgets")
struct RoomPagesTests {
  static func questions(_ count: Int, length: Int) -> [RoomQuestion] {
    (0..<count).map {
      RoomQuestion(
        id: uuid($0, group: 0x9A), content: String(repeating: "x", count: length), votes: $0,
        answered: false, createdAt: Date(timeIntervalSinceReferenceDate: Double($0)))
    }
  }

  /// The longest banner, all of it escaped, and a full queue on every snapshot page and on a
  /// delta's last page: pages still fit the 16 KiB of the existing back ends.
  @Test func theBannerTheQueueAndTheLabelsFitOnEveryPage() {
    let announcement = Announcement(
      text: String(repeating: "\"", count: 2048), at: Date(timeIntervalSinceReferenceDate: 1))
    let nextUp = NextUp(ids: (0..<NextUp.maxLength).map { uuid($0, group: 0x9C) }, shown: true)
    // The most labels, each of the most four-byte characters, on every question too.
    let labels = (0..<SessionLabels.maxCount).map {
      "\($0)" + String(repeating: "𝄞", count: SessionLabels.maxLength - 2)
    }
    let questions = Self.questions(300, length: 900).enumerated().map { index, question in
      var labelled = question
      labelled.label = labels[index % labels.count]
      return labelled
    }
    let snapshot = SharedSnapshot(
      seq: 9, epoch: uuid(1), questions: questions, highlighted: questions[0].id,
      announcement: announcement, nextUp: nextUp, labels: labels)
    let codec = WireCodec()
    for page in snapshot.compactPages {
      #expect(page.payload.readableBytes < RoomPages.messageLimit)
    }
    let delta = RoomDelta(
      from: 3, to: 9, questions: questions, announcement: announcement, nextUp: nextUp,
      labels: labels)
    for page in RoomPages.split(delta) {
      #expect(codec.encode(.roomDelta(page)).count < RoomPages.messageLimit)
    }
  }

  @Test func aSmallDeltaIsOnePageAsBefore() {
    let delta = RoomDelta(from: 3, to: 4, questions: Self.questions(3, length: 20))
    #expect(RoomPages.split(delta) == [delta])
  }

  @Test func aLargeDeltaGoesInPagesUnderTheLimitInOrderWithTheHighlightLast() throws {
    let questions = Self.questions(200, length: 900)
    let removed = (0..<600).map { uuid($0, group: 0x9B) }
    let highlight = HighlightChange(id: questions[5].id)
    let delta = RoomDelta(
      from: 10, to: 20, questions: questions, removed: removed, highlight: highlight)
    let pages = RoomPages.split(delta)
    let codec = WireCodec()
    #expect(pages.count > 2)
    for (index, page) in pages.enumerated() {
      #expect(page.from == 10 && page.to == 20)
      #expect(page.part == index + 1 && page.parts == pages.count)
      #expect(codec.encode(.roomDelta(page)).count < RoomPages.messageLimit)
      #expect((page.highlight != nil) == (index == pages.count - 1))
    }
    #expect(pages.flatMap(\.questions) == questions, "every question once, in order")
    #expect(pages.flatMap { $0.removed ?? [] } == removed)
  }

  @Test func aQuestionLargerThanAPageStillGetsAPageOfItsOwn() {
    let pages = RoomPages.split(Self.questions(3, length: 14_000), limit: RoomPages.pageBytes)
    #expect(pages.map(\.count) == [1, 1, 1])
  }

  @Test func aBucketGivesItsBurstThenRefillsAtItsRate() {
    var bucket = TokenBucket(burst: 2, window: .seconds(10), now: .zero)
    #expect(bucket.take(now: .zero) == nil)
    #expect(bucket.take(now: .zero) == nil)
    #expect(bucket.take(now: .zero) == .seconds(5), "one token per 5 s")
    #expect(bucket.take(now: .seconds(5)) == nil)
    // Spending goes into debt: the wait is what the debt takes to pay.
    var lookups = TokenBucket(burst: 10, window: .seconds(1), now: .zero)
    #expect(lookups.spend(10, now: .zero) == .zero)
    #expect(lookups.spend(5, now: .zero) == .milliseconds(500))
  }

  /// A write the store failed gives its token back: an outage's retried refusals must not
  /// leave the attendee rate limited once the store is back. Never past the burst.
  @Test func aTokenForWorkNotDoneComesBack() {
    var bucket = TokenBucket(burst: 2, window: .seconds(10), now: .zero)
    #expect(bucket.take(now: .zero) == nil)
    #expect(bucket.take(now: .zero) == nil)
    bucket.giveBack(now: .zero)
    #expect(bucket.take(now: .zero) == nil, "the one given back")
    #expect(bucket.take(now: .zero) != nil)
    bucket.giveBack(now: .seconds(60))
    #expect(bucket.take(now: .seconds(60)) == nil)
    #expect(bucket.take(now: .seconds(60)) == nil)
    #expect(bucket.take(now: .seconds(60)) != nil, "full, the burst and no more")
    let budgets = AddressBudgets(burst: 1, window: .seconds(10))
    #expect(budgets.take("a", now: .zero) == nil)
    budgets.giveBack("a", now: .zero)
    #expect(budgets.take("a", now: .zero) == nil)
    #expect(budgets.take("a", now: .zero) != nil)
  }

  @Test func retryAfterIsInSecondsRoundedUpToTheMillisecond() {
    #expect(RoomReplies.seconds(.microseconds(1)) == 0.001)
    #expect(RoomReplies.seconds(.milliseconds(1500)) == 1.5)
    #expect(RoomReplies.seconds(.nanoseconds(1_500_000_001)) == 1.501)
  }
}
