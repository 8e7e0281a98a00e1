import Foundation
import QnA

/// The rules of the presenters' actions on the room itself (not on one question), once for
/// every database.
extension StoreRules {
  /// The tables whose rows a session owns (`session` column), deleted with it; votes and
  /// transitions go with their questions.
  package static let sessionTables = [
    "question", "roomLog", "roomState", "attendee", "roomAction", "filterWord", "silenced",
    "ticket",
  ]

  /// The announcement as `roomState` keeps it: its time, a tab, its text (which has no
  /// control characters).
  package static func announcementValue(_ text: String, at time: Date) -> String {
    "\(time.timeIntervalSinceReferenceDate)\t\(text)"
  }

  /// The announcement a `roomState` value holds, if any.
  package static func announcement(from value: String?) -> Announcement? {
    guard let value, let tab = value.firstIndex(of: "\t"),
      let seconds = Double(value[..<tab])
    else { return nil }
    return Announcement(
      text: String(value[value.index(after: tab)...]),
      at: Date(timeIntervalSinceReferenceDate: seconds))
  }

  /// The announcement's new `roomState` value (`nil`: none), or `.none` when `text` is the
  /// one shown already (or none is cleared again): nothing changes, nothing is logged.
  package static func announce(_ text: String?, over current: String?, at time: Date)
    -> String??
  {
    let shown = announcement(from: current)?.text
    guard text != shown else { return .none }
    return .some(text.map { announcementValue($0, at: time) })
  }

  /// Why a token seen before refuses a room action, if it does: the same action with the
  /// same text is done already; anything else under that token is another action.
  package static func repeatRefusal(
    seenAction: String, seenText: String?, action: String, text: String?
  ) -> String? {
    seenAction == action && seenText == text
      ? nil : "That token was used for another action."
  }
}

/// What a room action's change did in its transaction: refused (nothing kept, not even its
/// token), or done, having changed something or not (its token is kept either way, so that
/// a late repeat cannot undo what came after it).
package enum RoomActionStep: Sendable {
  case refused(String)
  case done(changed: Bool)
}
