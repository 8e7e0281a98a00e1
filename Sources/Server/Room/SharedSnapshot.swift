import Foundation
import NIOCore
import QnA
import QnAStore

/// The room as every attendee (or every presenter) sees it, read once and shared by the
/// sockets that join before the room changes again, its page boundaries measured once.
package final class SharedSnapshot: Sendable {
  /// The room's last change when it was read: it is the room until the next.
  package let seq: Int
  package let epoch: UUID
  /// Nobody's: `mine` and `voted` false throughout.
  package let questions: [RoomQuestion]
  package let highlighted: UUID?
  /// `questions` in pages under `RoomPages.pageBytes`, by index.
  package let pages: [Range<Int>]

  package init(
    seq: Int, epoch: UUID, questions: [RoomQuestion], highlighted: UUID?
  ) {
    self.seq = seq
    self.epoch = epoch
    self.questions = questions
    self.highlighted = highlighted
    pages = RoomPages.ranges(questions, limit: RoomPages.pageBytes)
  }
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
    ownPages = RoomPages.split(view.own, limit: RoomPages.pageBytes).filter { !$0.isEmpty }
  }

  package var count: Int { snapshot.pages.count + ownPages.count }

  /// The next page, encoded; `nil` after the last.
  package mutating func next() -> ByteBuffer? {
    guard index < count else { return nil }
    defer { index += 1 }
    let questions: [RoomQuestion]
    if index < snapshot.pages.count {
      questions = snapshot.questions[snapshot.pages[index]].compactMap { shared in
        guard !ownIDs.contains(shared.id) else { return nil }
        var question = shared
        if voted.contains(question.id) { question.voted = true }
        return question
      }
    } else {
      questions = ownPages[index - snapshot.pages.count]
    }
    let page = RoomSnapshot(
      seq: snapshot.seq, part: index + 1, parts: count, questions: questions,
      highlighted: snapshot.highlighted, epoch: snapshot.epoch)
    return ByteBuffer(bytes: codec.encode(.room(page)))
  }
}
