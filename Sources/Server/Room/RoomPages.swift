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

  package static func split(_ questions: [RoomQuestion], limit: Int) -> [[RoomQuestion]] {
    ranges(questions, limit: limit).map { Array(questions[$0]) }
  }

  /// Where `questions` break into pages under `limit` bytes each (one empty page for none).
  package static func ranges(_ questions: [RoomQuestion], limit: Int) -> [Range<Int>] {
    var pages: [Range<Int>] = []
    var start = 0
    var size = 0
    let codec = WireCodec()
    for (index, question) in questions.enumerated() {
      let bytes = codec.encodedSize(of: question)
      if size + bytes > limit, index > start {
        pages.append(start..<index)
        start = index
        size = 0
      }
      size += bytes
    }
    pages.append(start..<questions.count)
    return pages
  }
}
