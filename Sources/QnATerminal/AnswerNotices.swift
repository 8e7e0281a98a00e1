import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Which answers to tell the desktop about: each question once, however often the engine
/// reports it answered (an answer edited, a reply restated after a reconnect, a server that
/// repeats itself), and at most one notification per batch of news.
package struct AnswerNotices {
  private var told: Set<UUID> = []
  /// Questions remembered at most: past it the oldest half is forgotten (a question answered
  /// that long ago is not reported again by an honest server).
  static let remembered = 10_000
  private var order: [UUID] = []

  package init() {}

  /// The notification for `answered` (title, body), or `nil` when every one was told.
  package mutating func notice(for answered: [Question]) -> (title: String, body: String)? {
    var fresh: [Question] = []
    for question in answered where told.insert(question.id).inserted {
      order.append(question.id)
      fresh.append(question)
    }
    if order.count > Self.remembered {
      for id in order.prefix(Self.remembered / 2) { told.remove(id) }
      order.removeFirst(Self.remembered / 2)
    }
    guard let first = fresh.first else { return nil }
    guard fresh.count == 1 else {
      return (
        Catalogue.format(
          trn(
            "%d of your questions was answered", "%d of your questions were answered",
            fresh.count), fresh.count), first.content
      )
    }
    // A private answer is for the asker's eyes: not for a notification's history.
    let answer = first.answerIsPrivate ? nil : first.answer
    return (tr("Your question was answered"), first.content + (answer.map { " — " + $0 } ?? ""))
  }
}
