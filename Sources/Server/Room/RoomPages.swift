import Foundation
import QnA

/// The room's snapshot and its deltas in pages under a size, so that no message busts a
/// peer's limit (the existing back ends close at 16 KiB; so may proxies).
package enum RoomPages {
  /// Bytes of questions per page, leaving room for the envelope.
  package static let pageBytes = 12_000
  /// A message this size or larger goes in pages: the existing back ends close at 16 KiB.
  package static let messageLimit = 16 * 1024
  /// Removed ids per page (38 bytes each as JSON).
  package static let removalsPerPage = 250
  /// Count pairs per page (a number and a count: at most 20 bytes as JSON).
  package static let countsPerPage = 500

  /// `delta` as pages of one `from` and `to`: the questions under `pageBytes` each, then the
  /// removals, the highlight on the last page. One page when it fits, as before.
  package static func split(_ delta: RoomDelta, limit: Int = pageBytes) -> [RoomDelta] {
    let polls = delta.polls ?? []
    let results = delta.pollResults ?? []
    guard !polls.isEmpty || !results.isEmpty || delta.removedPolls != nil else {
      return splitQuestions(delta, limit: limit)
    }
    // Extension `polls`: a delta that fits is one page, as before; a larger one has its
    // polls and their results on pages of their own after the questions', the removed polls
    // on the last.
    let codec = WireCodec()
    if codec.encodedSize(of: delta) <= limit { return [delta] }
    var rest = delta
    rest.polls = nil
    rest.pollResults = nil
    rest.removedPolls = nil
    var pages = splitQuestions(rest, limit: limit)
    let pollPages = ranges(count: polls.count, limit: limit) { codec.encodedSize(of: polls[$0]) }
      .filter { !$0.isEmpty }.map {
        RoomDelta(from: delta.from, to: delta.to, polls: Array(polls[$0]))
      }
    let resultPages = ranges(count: results.count, limit: limit) {
      codec.encodedSize(of: results[$0])
    }.filter { !$0.isEmpty }.map {
      RoomDelta(from: delta.from, to: delta.to, pollResults: Array(results[$0]))
    }
    // The room's values stay on the last page: the poll pages go before it.
    let last = pages.removeLast()
    pages += pollPages + resultPages
    var end = last
    end.removedPolls = delta.removedPolls
    pages.append(end)
    for index in pages.indices {
      pages[index].part = index + 1
      pages[index].parts = pages.count
    }
    return pages
  }

  /// `delta`'s questions, counts and removals in pages (no polls).
  private static func splitQuestions(_ delta: RoomDelta, limit: Int) -> [RoomDelta] {
    // The last page carries the banner and the queue too: its questions make room for them.
    let limit =
      limit
      - extraBytes(announcement: delta.announcement, nextUp: delta.nextUp, labels: delta.labels)
    let questionPages = split(delta.questions, limit: limit).filter { !$0.isEmpty }
    let removed = delta.removed ?? []
    let removalPages = stride(from: 0, to: removed.count, by: removalsPerPage).map {
      Array(removed[$0..<min(removed.count, $0 + removalsPerPage)])
    }
    let counts = delta.counts ?? []
    let countPages = stride(from: 0, to: counts.count, by: 2 * countsPerPage).map {
      Array(counts[$0..<min(counts.count, $0 + 2 * countsPerPage)])
    }
    let count = max(1, questionPages.count + removalPages.count + countPages.count)
    guard count > 1 else { return [delta] }
    var pages = questionPages.map { RoomDelta(from: delta.from, to: delta.to, questions: $0) }
    pages += countPages.map { RoomDelta(from: delta.from, to: delta.to, counts: $0) }
    pages += removalPages.map { RoomDelta(from: delta.from, to: delta.to, removed: $0) }
    for index in pages.indices {
      pages[index].part = index + 1
      pages[index].parts = pages.count
    }
    pages[pages.count - 1].highlight = delta.highlight
    pages[pages.count - 1].announcement = delta.announcement
    pages[pages.count - 1].nextUp = delta.nextUp
    pages[pages.count - 1].labels = delta.labels
    return pages
  }

  /// Bytes the room's banner, queue and labels take on a page (extensions `announcements`,
  /// `queue`, `labels`), which its questions leave room for: a page stays under
  /// `messageLimit` whatever they say.
  package static func extraBytes(
    announcement: Announcement?, nextUp: NextUp?, labels: [String]? = nil
  ) -> Int {
    let banner = announcement?.text.map { WireCodec.encodedSize(ofString: $0) + 64 } ?? 0
    let queue = nextUp.map { $0.ids.count * 39 + 48 } ?? 0
    let names = labels.map { $0.reduce(12) { $0 + WireCodec.encodedSize(ofString: $1) + 1 } } ?? 0
    return banner + queue + names
  }

  /// Where `polls` break into pages under `limit` bytes each (one empty page for none),
  /// each with room for an attendee's own answer (`mine`: a word cloud's, about 330 bytes,
  /// added per attendee after the pages are measured).
  package static func ranges(_ polls: [RoomPoll], limit: Int) -> [Range<Int>] {
    let codec = WireCodec()
    return ranges(count: polls.count, limit: limit) {
      codec.encodedSize(of: polls[$0]) + mineAllowance
    }
  }

  /// Bytes an attendee's answer may add to a poll (`PollRules.maxWords` entries of
  /// `maxWordBytes`, escaped, with their keys).
  package static let mineAllowance = 400

  package static func split(_ questions: [RoomQuestion], limit: Int) -> [[RoomQuestion]] {
    ranges(questions, limit: limit).map { Array(questions[$0]) }
  }

  /// Where `questions` break into pages under `limit` bytes each (one empty page for none).
  package static func ranges(_ questions: [RoomQuestion], limit: Int) -> [Range<Int>] {
    let codec = WireCodec()
    return ranges(count: questions.count, limit: limit) { codec.encodedSize(of: questions[$0]) }
  }

  /// Where `count` items of `size(index)` bytes break into pages under `limit` bytes each.
  private static func ranges(count: Int, limit: Int, size itemSize: (Int) -> Int) -> [Range<Int>] {
    var pages: [Range<Int>] = []
    var start = 0
    var size = 0
    for index in 0..<count {
      let bytes = itemSize(index)
      if size + bytes > limit, index > start {
        pages.append(start..<index)
        start = index
        size = 0
      }
      size += bytes
    }
    pages.append(start..<count)
    return pages
  }
}
