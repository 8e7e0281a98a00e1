#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Extension `announcements`: the presenter's banner for the whole room.
extension QnAState {
  /// The room's banner is `announcement` now (none, or one without text: cleared). Told once
  /// when it changes: a snapshot after a reconnect that repeats it says nothing.
  mutating func announce(_ announcement: Announcement?) -> [QnAEffect] {
    // A hostile server's banner is cut to the length ours allows.
    let text = announcement?.text.map { String($0.prefix(Announcement.maxLength)) }
      .flatMap { $0.isEmpty ? nil : $0 }
    guard text != room.announcement?.text else { return [] }
    room.announcement = text.map { Announcement(text: $0, at: announcement?.at) }
    let words =
      text.map { Message("Announcement: %s", $0) } ?? Message("The announcement was cleared.")
    return [.report(.announcement(text)), notice(words, kind: .info)]
  }
}

extension QnAState {
  /// Extension `queue`: the next questions as a server says them, within the queue's length
  /// (a hostile server's endless list is cut), each once.
  static func bounded(_ nextUp: NextUp?) -> NextUp {
    guard let nextUp else { return NextUp() }
    var seen: Set<UUID> = []
    let ids = nextUp.ids.filter { seen.insert($0).inserted }.prefix(NextUp.maxLength)
    return NextUp(ids: Array(ids), shown: nextUp.shown)
  }
}
