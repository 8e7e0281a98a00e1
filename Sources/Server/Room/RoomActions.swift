import CommandLineValues
import Foundation
import QnA
import QnAStore

/// A presenter's action on the room itself (extension `announcements`), from a socket, the
/// page or the API: stored exactly once per token, then broadcast at once.
extension PresenterActions {
  /// Sets the room's banner to `text` (`nil`: clears it), after `announcementProblem`.
  package func announce(_ text: String?, token: UUID) async throws(StoreError)
    -> QuestionStore.RoomActionOutcome
  {
    let outcome = try await room.store.announce(text, token: token, at: room.environment.now())
    if outcome.changed {
      room.logger.info(text == nil ? "announcement cleared" : "announced: \(text!.count) chars")
    }
    return outcome
  }

  /// `next`, `showQueue` or `hideQueue` (extension `queue`), then broadcast at once.
  package func queue(_ kind: PresenterActionKind, token: UUID) async throws(StoreError)
    -> QuestionStore.RoomActionOutcome
  {
    let outcome = try await room.store.queueAction(kind, token: token, at: room.environment.now())
    if outcome.changed {
      room.logger.info("queue: \(kind.rawValue)")
    }
    return outcome
  }

  /// `labelAdd` or `labelRemove` of `name` (extension `labels`), then broadcast at once.
  package func changeLabels(_ kind: PresenterActionKind, _ name: String, token: UUID)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    let outcome = try await room.store.moderation.changeLabels(
      kind, name, token: token, at: room.environment.now())
    if outcome.changed {
      room.logger.info("\(kind.rawValue): \(name.count) chars")
    }
    return outcome
  }

  /// Why a label's name is refused, in words, or nil: not blank, at most
  /// `SessionLabels.maxLength` characters, one line without control characters.
  package static func labelNameProblem(_ name: String) -> String? {
    if name.allSatisfy(isInvisible) { return "A label needs a name." }
    if let problem = QuestionIntake.labelProblem(name) { return problem }
    // Invisible characters too: "Key\u{200D}note" would pass for a second "Keynote".
    if name.unicodeScalars.contains(where: {
      PrintableText.isControl($0) || $0.properties.generalCategory == .format
    }) {
      return "A label is one line, without control or invisible characters."
    }
    if name.contains(where: { $0.unicodeScalars.count > QuestionText.maxScalarsPerCharacter }) {
      return "A label has a character with more than \(QuestionText.maxScalarsPerCharacter) marks."
    }
    return nil
  }

  private static func isInvisible(_ character: Character) -> Bool {
    character.isWhitespace
      || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .format }
  }

  /// A room action over the socket: it names no question.
  func respond(
    toRoomAction kind: PresenterActionKind, _ action: PresenterAction,
    refuse: (String, Duration?) -> PresenterActionResponse
  ) async -> PresenterActionResponse {
    guard action.question == nil else {
      return refuse("That action is on the room: it names no question.", nil)
    }
    if kind.isFilterAction { return await respond(toFilterAction: kind, action, refuse: refuse) }
    if kind == .labelAdd || kind == .labelRemove {
      let name = action.text?.trimmingCharacters(in: .whitespaces) ?? ""
      if let problem = Self.labelNameProblem(name) { return refuse(problem, nil) }
      return await response(action, refuse: refuse) { () async throws(StoreError) in
        try await changeLabels(kind, name, token: action.token)
      }
    }
    if kind == .next || kind == .showQueue || kind == .hideQueue {
      return await response(action, refuse: refuse) { () async throws(StoreError) in
        try await queue(kind, token: action.token)
      }
    }
    let text = action.text?.trimmingCharacters(in: .whitespaces)
    if let problem = Self.announcementProblem(text) { return refuse(problem, nil) }
    return await response(action, refuse: refuse) { () async throws(StoreError) in
      try await announce(text, token: action.token)
    }
  }

  /// The reply to a room action the store did (`store`): done, refused in its words, or
  /// to be sent again when the store failed.
  private func response(
    _ action: PresenterAction, refuse: (String, Duration?) -> PresenterActionResponse,
    _ store: () async throws(StoreError) -> QuestionStore.RoomActionOutcome
  ) async -> PresenterActionResponse {
    do {
      let outcome = try await store()
      return PresenterActionResponse(
        token: action.token, question: nil, success: outcome.refusal == nil,
        message: outcome.refusal)
    } catch {
      room.logger.error("could not store an action: \(error)")
      return refuse(RoomReplies.failedSave, RoomReplies.storageRetry)
    }
  }

  /// `filterAdd` or `filterRemove` over the socket: one entry into or out of a list.
  private func respond(
    toFilterAction kind: PresenterActionKind, _ action: PresenterAction,
    refuse: (String, Duration?) -> PresenterActionResponse
  ) async -> PresenterActionResponse {
    let list = action.list ?? PresenterAction.defaultList
    guard let entry = action.text?.trimmingCharacters(in: .whitespacesAndNewlines) else {
      return refuse("A \(kind.rawValue) names its entry in text.", nil)
    }
    let adding = kind == .filterAdd
    if let problem = FilterActions.problem(name: list, entries: adding ? [entry] : []) {
      return refuse(problem, nil)
    }
    return await response(action, refuse: refuse) { () async throws(StoreError) in
      try await FilterActions(room: room).change(
        list, FilterChange(adding: adding ? [entry] : [], removing: adding ? [] : [entry]),
        token: action.token)
    }
  }

  /// Why an announcement's text is refused, in words, or nil when it may be shown: not
  /// blank (leave it out to clear), at most `Announcement.maxLength` characters, one line,
  /// no control characters.
  package static func announcementProblem(_ text: String?) -> String? {
    guard let text else { return nil }
    if text.allSatisfy(isInvisible) {
      return "The announcement is empty: leave its text out to clear it."
    }
    if text.count > Announcement.maxLength {
      return "The announcement is too long: at most \(Announcement.maxLength) characters."
    }
    if text.utf8.count > maxAnnouncementBytes {
      return "The announcement is too long: at most \(maxAnnouncementBytes) bytes."
    }
    // Controls, line separators, bidi controls: what `PrintableText` would show escaped.
    if text.unicodeScalars.contains(where: PrintableText.isControl) {
      return "The announcement is one line, without control characters."
    }
    if text.contains(where: { $0.unicodeScalars.count > QuestionText.maxScalarsPerCharacter }) {
      return
        "The announcement has a character with more than \(QuestionText.maxScalarsPerCharacter) marks."
    }
    return nil
  }

  /// An announcement's UTF-8 at most: with the largest page of the room's questions beside
  /// it, a snapshot page stays under the 16 KiB many peers read.
  package static let maxAnnouncementBytes = 2048
}
