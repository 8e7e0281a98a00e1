import Foundation
import QnA

/// The "next up" queue's rules (extension `queue`), once for every database: `roomState`
/// keeps the queue as ids in order and whether the room sees it.
extension StoreRules {
  package static func queueValue(_ ids: [UUID]) -> String? {
    ids.isEmpty ? nil : ids.map(\.text).joined(separator: ",")
  }

  package static func queue(from value: String?) -> [UUID] {
    value?.split(separator: ",").compactMap { UUID(text: String($0)) } ?? []
  }

  /// The room's next questions as `audience` sees them: a presenter always, an attendee only
  /// while the queue is shown.
  package static func nextUp(queue: [UUID], shown: Bool, presenter: Bool) -> NextUp {
    presenter || shown ? NextUp(ids: queue, shown: shown) : NextUp()
  }

  /// The queue after `action` on question `id` (its row as the action leaves it), or `nil`
  /// when the queue stays as it is; a refusal when the action makes no sense.
  package static func queue(
    after action: PresenterActionKind, on id: UUID, record: QuestionRecord, queue: [UUID]
  ) -> Result<[UUID]?, ActionRefusal> {
    var next = queue
    let index = queue.firstIndex(of: id)
    switch action {
    case .enqueue:
      guard record.state == QuestionState.live.rawValue, !record.answered else {
        return .failure(ActionRefusal("Only an open question the room sees can be next up."))
      }
      guard index == nil else { return .success(nil) }
      guard queue.count < NextUp.maxLength else {
        return .failure(ActionRefusal("The queue holds at most \(NextUp.maxLength) questions."))
      }
      next.append(id)
    case .moveUp, .moveDown, .moveToTop:
      guard let index else { return .failure(ActionRefusal("That question is not next up.")) }
      let target =
        switch action {
        case .moveUp: max(0, index - 1)
        case .moveDown: min(queue.count - 1, index + 1)
        default: 0
        }
      next.remove(at: index)
      next.insert(id, at: target)
    // Being answered, answered, dismissed or taken out: no longer next.
    case .dequeue, .highlight, .answer, .dismiss:
      guard let index else { return .success(nil) }
      next.remove(at: index)
    default: return .success(nil)
    }
    return .success(next == queue ? nil : next)
  }

  /// The question `next` makes the one being answered: the first queued one still open and
  /// seen by the room (`open` says which are), and the queue without it and those before it
  /// that are no longer open.
  package static func next(queue: [UUID], open: Set<UUID>) -> (question: UUID, queue: [UUID])? {
    guard let index = queue.firstIndex(where: open.contains) else { return nil }
    return (queue[index], Array(queue[(index + 1)...]))
  }
}
