import CommandLineValues

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The presenter's actions (`qna present`, extension `presenter`): queued in the order given,
/// sent one at a time after each join, each exactly once (the server keeps their tokens), and
/// the last one that can be taken back remembered for undo.
public struct PresenterDesk: Sendable, Equatable {
  public struct Action: Sendable, Hashable {
    public var kind: PresenterActionKind
    /// The question acted on; `nil` for an action on the room (`announce`).
    public var question: UUID?
    public var text: String?
    public var isPrivate: Bool
    public var token: UUID
    /// `filterAdd`, `filterRemove`: the word list (`custom` when nil).
    public var list: String?
    /// On the wire and not answered yet.
    var sent = false
    /// The server asked to wait until this clock time (a busy database).
    var notBefore: Duration?
  }

  public enum Outcome: Sendable, Hashable {
    case queued
    case done
    case refused(String)
  }

  /// Actions not yet answered by the server, in the order given.
  public internal(set) var queue: [Action] = []
  /// The last action, with what it replaced (for undoing it).
  var lastUndoable: Undoable?

  struct Undoable: Sendable, Equatable {
    var action: Action
    /// The question highlighted, the announcement shown and the question's text before it.
    var previousHighlight: UUID?
    var previousAnnouncement: String?
    var previousContent: String?
    var previousLabel: String?
  }

  /// Actions the server has not confirmed, on or off the wire.
  public var pendingCount: Int { queue.count }

  public func isPending(_ question: UUID) -> Bool { queue.contains { $0.question == question } }

  public static func == (a: Self, b: Self) -> Bool {
    a.queue == b.queue && a.lastUndoable == b.lastUndoable
  }
}

extension QnAState {
  /// Actions queued at most: a presenter does not type thousands offline; a script might.
  static let maxQueuedActions = 10_000

  mutating func act(
    _ kind: PresenterActionKind, on question: UUID?, text: String?, isPrivate: Bool, token: UUID,
    list: String? = nil
  ) -> [QnAEffect] {
    guard configuration.presenter else {
      return [notice(Message("Only the presenter's console acts on questions."), kind: .error)]
    }
    guard desk.queue.count < Self.maxQueuedActions else {
      return [notice(Message("Too many actions wait for the server."), kind: .error)]
    }
    if kind == .announce, !serverExtensions.contains(ProtocolExtension.announcements) {
      return [notice(Message("This server has no announcements."), kind: .error)]
    }
    if kind.isFilterAction, !serverExtensions.contains(ProtocolExtension.wordFilter) {
      return [notice(Message("This server has no word filter."), kind: .error)]
    }
    if kind.isLabelAction, !serverExtensions.contains(ProtocolExtension.labels) {
      return [notice(Message("This server has no labels."), kind: .error)]
    }
    let trimmed = text?.trimmingWhiteSpace()
    let action = PresenterDesk.Action(
      kind: kind, question: kind.isRoomAction ? nil : question,
      text: kind == .answer || kind == .edit || kind == .relabel || kind.isRoomAction
        ? trimmed.flatMap { $0.isEmpty ? nil : $0 } : nil,
      isPrivate: kind == .answer && isPrivate, token: token,
      list: kind.isFilterAction ? list : nil)
    // Undo is about the last action, whatever it was: after an approve, "u" must not reach
    // back to a dismiss before it.
    desk.lastUndoable = PresenterDesk.Undoable(
      action: action, previousHighlight: room.highlighted,
      previousAnnouncement: room.announcement?.text,
      previousContent: question.flatMap { room.questions[$0]?.content },
      previousLabel: question.flatMap { room.questions[$0]?.label })
    // A label added that the session has, or removed that it lacks, changes nothing: its
    // undo must not take away (or add) what was there before.
    if kind == .labelAdd || kind == .labelRemove,
      (SessionLabels.match(action.text ?? "", in: room.labels) != nil) == (kind == .labelAdd)
    {
      desk.lastUndoable = nil
    }
    desk.queue.append(action)
    return [.report(.action(action, outcome: .queued))] + sendActions()
  }

  /// The last action, taken back as a new one when it is a dismiss, restore, highlight or
  /// unhighlight (an approve or an answer has reached the room: it stays).
  mutating func undo(token: UUID) -> [QnAEffect] {
    guard let undoable = desk.lastUndoable else {
      return [notice(Message("Nothing to undo."), kind: .info)]
    }
    let (last, previous) = (undoable.action, undoable.previousHighlight)
    desk.lastUndoable = nil
    let inverse: (PresenterActionKind, UUID?)
    var text: String?
    switch last.kind {
    case .dismiss: inverse = (.restore, last.question)
    case .restore: inverse = (.dismiss, last.question)
    case .highlight: inverse = previous.map { (.highlight, $0) } ?? (.unhighlight, last.question)
    case .unhighlight: inverse = (.highlight, last.question)
    case .announce:
      inverse = (.announce, nil)
      text = undoable.previousAnnouncement
    case .edit:
      guard let content = undoable.previousContent else {
        return [notice(Message("Nothing to undo."), kind: .info)]
      }
      inverse = (.edit, last.question)
      text = content
    case .silence: inverse = (.unsilence, last.question)
    case .unsilence: inverse = (.silence, last.question)
    case .star: inverse = (.unstar, last.question)
    case .unstar: inverse = (.star, last.question)
    case .enqueue: inverse = (.dequeue, last.question)
    case .dequeue: inverse = (.enqueue, last.question)
    case .relabel:
      inverse = (.relabel, last.question)
      text = undoable.previousLabel
    case .labelAdd, .labelRemove:
      inverse = (last.kind == .labelAdd ? .labelRemove : .labelAdd, nil)
      text = last.text
    case .showQueue: inverse = (.hideQueue, nil)
    case .hideQueue: inverse = (.showQueue, nil)
    case .filterAdd, .filterRemove:
      var effects = act(
        last.kind == .filterAdd ? .filterRemove : .filterAdd, on: nil, text: last.text,
        isPrivate: false, token: token, list: last.list)
      desk.lastUndoable = nil
      effects.append(notice(Message("Undone: %s.", last.kind.rawValue), kind: .info))
      return effects
    case .approve, .answer, .moveUp, .moveDown, .moveToTop, .next:
      return [
        notice(
          Message("The last action (%s) cannot be undone.", last.kind.rawValue), kind: .info)
      ]
    }
    var effects = act(inverse.0, on: inverse.1, text: text, isPrivate: false, token: token)
    desk.lastUndoable = nil  // an undo is not undone by the next undo
    effects.append(notice(Message("Undone: %s.", last.kind.rawValue), kind: .info))
    return effects
  }

  /// Puts the actions not yet on the wire there, in order, once joined as a presenter.
  mutating func sendActions() -> [QnAEffect] {
    guard configuration.presenter, let connectionID, room.joined,
      serverExtensions.contains(ProtocolExtension.presenter)
    else { return [] }
    // One on the wire at a time, in the order given: an action the server refuses for now
    // (and waits out) can never be overtaken by one typed after it. A presenter's actions are
    // few; the round trip each costs is nothing beside a dismiss undone out of order.
    guard let first = desk.queue.first, !first.sent else { return [] }
    if let notBefore = first.notBefore, notBefore > now { return [] }
    desk.queue[0].notBefore = nil
    desk.queue[0].sent = true
    return [
      .presenterAction(
        PresenterAction(
          id: connectionID, token: first.token, question: first.question, action: first.kind,
          text: first.text, isPrivate: first.kind == .answer ? first.isPrivate : nil,
          list: first.list))
    ]
  }

  /// After a disconnect: actions on the wire without an answer go again after the next join
  /// (the server does each token once).
  mutating func requeueActions() {
    for index in desk.queue.indices { desk.queue[index].sent = false }
  }

  mutating func received(_ response: PresenterActionResponse) -> [QnAEffect] {
    guard let index = desk.queue.firstIndex(where: { $0.token == response.token }) else {
      return [.log("ignored: presenterActionResponse for no action of ours")]
    }
    if !response.success, let seconds = response.retryAfter {
      desk.queue[index].sent = false
      desk.queue[index].notBefore =
        now + Self.obeyed(retryAfter: seconds)
      return []
    }
    let action = desk.queue.remove(at: index)
    guard response.success else {
      let ours = Message("The server refused it.")
      let reason = response.message ?? ours.text
      return [
        .report(.action(action, outcome: .refused(reason))),
        response.message.map { notice($0, kind: .error) } ?? notice(ours, kind: .error),
      ] + sendActions()
    }
    var done: [QnAEffect] = [.report(.action(action, outcome: .done))]
    if action.kind.isFilterAction, let entry = action.text {
      let words =
        action.kind == .filterAdd
        ? Message("“%s” is in the word filter now.", entry)
        : Message("“%s” is out of the word filter.", entry)
      done.append(notice(words, kind: .info))
    }
    if action.kind == .labelAdd || action.kind == .labelRemove, let label = action.text {
      let words =
        action.kind == .labelAdd
        ? Message("“%s” is one of the session's labels now.", label)
        : Message("“%s” is no longer one of the session's labels.", label)
      done.append(notice(words, kind: .info))
    }
    return done + sendActions()
  }

  /// When the first action waiting out a refusal may go again.
  var nextActionWakeUp: Duration? {
    desk.queue.first { !$0.sent }?.notBefore.flatMap { $0 > now ? $0 : nil }
  }

  /// Whether this connection may act: the server said so in its handshake.
  public var isPresenterConnection: Bool {
    connectionID != nil && serverExtensions.contains(ProtocolExtension.presenter)
  }
}
