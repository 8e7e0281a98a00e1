import Foundation
import Logging
import NIOCore
import QnA
import Synchronization

/// The Q&A protocol on the server side: questions in, responses and answers out.
final class QuestionDesk: Sendable {
  static let createdMessage = "Question created. We will answer it as soon as possible :]"
  static let failedSaveMessage = "Something went wrong creating the question."

  let store: QuestionStore
  let hub: SocketHub
  let room: RoomHub
  let configuration: ServerConfiguration
  let environment: ServerEnvironment
  private let codec = WireCodec()
  let logger: Logger
  /// Checked at start; compiled per question, as `Regex` is not `Sendable`.
  private let rejectPattern: String?

  convenience init(
    store: QuestionStore, hub: SocketHub, room: RoomHub, configuration: ServerConfiguration,
    environment: ServerEnvironment, logger: Logger
  ) throws {
    if let pattern = configuration.mock?.reject { _ = try Regex(pattern) }
    self.init(
      checked: store, hub: hub, room: room, configuration: configuration,
      environment: environment, logger: logger)
  }

  private init(
    checked store: QuestionStore, hub: SocketHub, room: RoomHub,
    configuration: ServerConfiguration, environment: ServerEnvironment, logger: Logger
  ) {
    self.store = store
    self.hub = hub
    self.room = room
    self.configuration = configuration
    self.environment = environment
    self.logger = logger
    rejectPattern = configuration.mock?.reject
  }

  /// This desk for another session: that session's view of the store and a room of its own,
  /// the same sockets, settings and environment.
  func forSession(_ store: QuestionStore) -> QuestionDesk {
    QuestionDesk(
      checked: store, hub: hub,
      room: RoomHub(store: store, window: configuration.roomWindow, logger: logger),
      configuration: configuration, environment: environment, logger: logger)
  }

  /// Queues a message for one socket (written after the mock latency, if any, in order); it
  /// returns at once, whatever the socket's reader does.
  func send(_ message: WireMessage, to connection: SocketConnection) async {
    await send(raw: ByteBuffer(bytes: codec.encode(message)), to: connection)
  }

  func send(raw bytes: ByteBuffer, to connection: SocketConnection) async {
    let due = configuration.mock?.latency.map { environment.uptime() + $0 }
    connection.send(bytes, due: due)
  }

  /// One message from an attendee. Anything but a valid `newQuestion` is logged and ignored,
  /// as the existing back ends do: no reply, the connection stays up.
  func receive(_ bytes: [UInt8], from connection: SocketConnection) async {
    let message: WireMessage
    do {
      message = try codec.decode(bytes)
    } catch {
      logger.warning("ignored from \(connection.id): \(error)")
      return
    }
    switch message {
    case .newQuestion(let question):
      let response = await respond(to: question, from: connection)
      await send(.questionResponse(response), to: connection)
    case .resume(let resume) where configuration.extensions:
      await self.resume(resume, from: connection)
    case .join(let join) where configuration.extensions:
      await self.join(join, from: connection)
    case .vote(let vote) where configuration.extensions:
      await send(.voteResponse(await respond(to: vote, from: connection)), to: connection)
    case .presenterAction(let action) where configuration.extensions:
      let response = await respond(to: action, from: connection)
      await send(.presenterActionResponse(response), to: connection)
    default:
      logger.warning("ignored from \(connection.id): \(message.type) is not for the server")
    }
  }

  /// Extensions announced in every handshake, and the session, when it is not the default.
  func handshake(_ connection: SocketConnection, session: SessionRecord? = nil) -> Handshake {
    guard configuration.extensions else { return Handshake(id: connection.id) }
    let extensions = [
      ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
      ProtocolExtension.room, ProtocolExtension.lifecycle, ProtocolExtension.sessions,
    ]
    return Handshake(
      id: connection.id,
      extensions: extensions + (connection.isPresenter ? [ProtocolExtension.presenter] : []),
      session: session.map { SessionInfo(code: $0.code, title: $0.title, open: $0.open) },
      maxMessageSize: configuration.maxMessageSize)
  }

  /// Waits until this socket may do `count` lookups: a flood of resends or resumes slows
  /// its sender (its messages wait, TCP pushes back), never anyone else.
  private func pace(_ count: Int, for connection: SocketConnection) async {
    let wait = connection.spendLookups(count, now: environment.uptime())
    if wait > .zero { try? await Task.sleep(for: wait) }
  }

  /// Extension: the client's earlier questions move to this connection, and it hears their
  /// current state at once, answers given while it was away included; then `resumed`, naming
  /// those the server does not have, so that the client asks them again.
  private func resume(_ resume: Resume, from connection: SocketConnection) async {
    guard resume.id == connection.id else {
      logger.warning("ignored resume from \(connection.id) naming \(resume.id)")
      return
    }
    // A message holds a few hundred ids at most (the message size limit); a server configured
    // with a larger one reads them in slices, each paced, and answers for all of them.
    let all: [(id: UUID, isToken: Bool)] =
      resume.questions.map { ($0, false) } + resume.tokens.map { ($0, true) }
    var missing: [UUID] = []
    var start = 0
    while start < all.count {
      let slice = all[start..<min(all.count, start + Self.maxResumeIDs)]
      start += slice.count
      let ids = slice.filter { !$0.isToken }.map(\.id)
      let tokens = slice.filter { $0.isToken }.map(\.id)
      guard let lost = await resumeSlice(ids: ids, tokens: tokens, from: connection) else { return }
      missing += lost
    }
    await send(.resumed(Resumed(id: connection.id, missing: missing)), to: connection)
  }

  /// Moves what it can of one slice to `connection` and restates it; returns what the server
  /// does not have (nil after a store failure, logged).
  private func resumeSlice(ids: [UUID], tokens: [UUID], from connection: SocketConnection) async
    -> [UUID]?
  {
    await pace(ids.count + tokens.count, for: connection)
    let moved: [StoredQuestion]
    do {
      moved = try await store.reassign(
        ids: ids, tokens: tokens, to: connection.id, attendee: connection.attendee)
    } catch {
      logger.error("resume failed: \(error)")
      return nil
    }
    logger.info("resumed \(moved.count) questions on \(connection.id)")
    for question in moved {
      await send(
        .questionResponse(Self.restated(question, message: "Question restored.")),
        to: connection)
    }
    // Missing: what the server does not have at all. An id of someone else's question is
    // neither moved nor named (the sender has no claim on it).
    let found = Set(moved.map(\.id)).union(moved.compactMap(\.token))
    do {
      let existing = try await store.existing(ids: ids.filter { !found.contains($0) })
      return (ids + tokens).filter { !found.contains($0) && !existing.contains($0) }
    } catch {
      logger.error("resume failed: \(error)")
      return nil
    }
  }

  static let maxResumeIDs = 1000

  private func respond(to question: NewQuestion, from connection: SocketConnection) async
    -> QuestionResponse
  {
    let token = configuration.extensions ? question.token : nil
    func refuse(_ reason: String, retryAfter: Duration? = nil) -> QuestionResponse {
      logger.info("refused from \(connection.id): \(reason)")
      // The content matches a refusal to its question for clients without tokens; with a
      // token it would only make a flood of refusals 16 KiB each.
      return QuestionResponse(
        success: false, message: reason, content: token == nil ? question.content : nil,
        token: token,
        retryAfter: configuration.extensions ? retryAfter.map(Self.seconds) : nil)
    }
    // What no retry can mend first: such a question is refused for good.
    guard question.id == connection.id else {
      return refuse("The id in newQuestion is not this connection's id.")
    }
    let trimmed = question.content.trimmingCharacters(in: .whitespacesAndNewlines)
    switch QuestionText.problem(with: trimmed, maxLength: configuration.maxQuestionLength) {
    case .empty?: return refuse("The question is empty.")
    case .tooLong?:
      return refuse(
        "The question is too long: at most \(configuration.maxQuestionLength) characters.")
    case .overloadedCharacter?:
      return refuse(
        "The question has a character with more than \(QuestionText.maxScalarsPerCharacter) marks.")
    case nil: break
    }
    // A resend of a stored question is not a new question: it skips the rate limit, and
    // pays in lookups instead.
    var isResend = false
    if let token {
      await pace(1, for: connection)
      if case .some(.some) = try? await store.question(token: token) { isResend = true }
    }
    if !isResend, let wait = connection.takeQuestion(now: environment.uptime()) {
      return refuse(Self.rateLimitedMessage, retryAfter: wait)
    }
    if let rejectPattern, let regex = try? Regex(rejectPattern),
      (try? regex.firstMatch(in: question.content)) != nil
    {
      return refuse(Self.failedSaveMessage)
    }
    let record = StoredQuestion(
      id: environment.makeID(), content: question.content, askedFrom: connection.id,
      createdAt: environment.now(), token: token, attendee: connection.attendee,
      state: configuration.moderation ? .review : .live)
    let stored: StoredQuestion
    do {
      let result = try await store.insert(record)
      stored = result.question
      if result.inserted {
        store.metrics.questions.increment()
        room.changed()
        logger.info("question \(stored.id) from \(connection.id): \(stored.content.count) chars")
        scheduleAutoAnswer(stored.id)
      } else {
        logger.info("question \(stored.id) sent again (token \(token?.uuidString ?? "-"))")
      }
    } catch .sessionClosed(let reason) {
      return refuse(reason)
    } catch {
      // Busy or failing storage is not the question's fault: the client tries again.
      logger.error("could not store a question: \(error)")
      return refuse(Self.failedSaveMessage, retryAfter: Self.storageRetry)
    }
    return QuestionResponse(
      success: true, message: stored.state == .review ? Self.inReviewMessage : Self.createdMessage,
      id: stored.id, answered: stored.answered, content: stored.content,
      createdAt: stored.createdAt, token: token,
      state: configuration.extensions ? stored.publicState : nil,
      answer: configuration.extensions ? stored.answer : nil)
  }

  static let inReviewMessage =
    "Question received. The presenter reviews questions before the room sees them."

  static let rateLimitedMessage = "Too many questions at once."
  /// After a failed write, the client waits this long before sending the question again.
  static let storageRetry: Duration = .seconds(1)

  /// `retryAfter` as the wire has it: seconds, rounded up to the millisecond.
  static func seconds(_ duration: Duration) -> Double {
    max(0.001, (duration / .seconds(1) * 1000).rounded(.up) / 1000)
  }

  /// Marks a question answered (with no text) for the existing back ends' routes; `nil` if
  /// there is no such question.
  func answer(_ id: UUID) async throws(StoreError) -> StoredQuestion? {
    try await perform(.answer, on: id, token: environment.makeID())?.question
  }

  /// One presenter action, from any presenter (socket, page or API), exactly once per token.
  /// An answer, once stored, goes to the connection that asked, if it is still there. The
  /// asker is read from the row the write returns: a resume that moved the question is a
  /// write too, so whichever came first, the attendee hears of the answer (here, or in the
  /// resume's reply).
  func perform(
    _ action: PresenterActionKind, on id: UUID, text: String? = nil, isPrivate: Bool = false,
    token: UUID
  ) async throws(StoreError) -> QuestionStore.ActionOutcome? {
    guard
      let outcome = try await store.perform(
        action, on: id, text: text, isPrivate: isPrivate, token: token, at: environment.now())
    else { return nil }
    guard outcome.changed else { return outcome }
    if action == .answer { store.metrics.answers.increment() }
    room.changed(urgent: true)
    let question = outcome.question
    logger.info("\(action.rawValue) \(id)")
    if let kind = Self.askerNews(action) { await tell(question, of: kind) }
    return outcome
  }

  /// Whether an action is news for the question's asker: a decision about it, or an answer.
  static func askerNews(_ action: PresenterActionKind) -> RoomChange? {
    switch action {
    case .approve, .dismiss, .restore: .state
    case .answer: .answered
    case .highlight, .unhighlight: nil
    }
  }

  /// Another instance changed a question: its asker hears of it if connected here.
  func tellAsker(_ id: UUID, of kind: RoomChange) async {
    do {
      guard let question = try await store.question(id: id) else { return }
      await tell(question, of: kind)
    } catch {
      logger.error("could not read a question another instance changed: \(error)")
    }
  }

  /// The asker hears of a decision (a client of the room knows this repeat), whether or not
  /// the room ever saw the question, or of the answer, if it is connected to this instance.
  private func tell(_ question: StoredQuestion, of kind: RoomChange) async {
    guard let asker = hub.connection(question.askedFrom) else { return }
    switch kind {
    case .state where asker.attendee != nil:
      let message =
        question.state == .dismissed
        ? "The presenter dismissed your question." : "Your question is public now."
      await send(.questionResponse(Self.restated(question, message: message)), to: asker)
    case .answered:
      // Queued before the caller's HTTP response, as the existing back ends do; a slow
      // attendee's socket never holds the presenter up.
      let answer = QuestionAnswer(
        questionId: question.id, text: configuration.extensions ? question.answer : nil,
        isPrivate: configuration.extensions && question.answer != nil
          ? question.answerPrivate : nil)
      await send(.questionAnswer(answer), to: asker)
      logger.info("answered \(question.id), sent to \(asker.id)")
    default: break
    }
  }

  /// A stored question as its asker's client learns it again (after a resume, or a
  /// presenter's decision): its state and answer now.
  static func restated(_ question: StoredQuestion, message: String) -> QuestionResponse {
    QuestionResponse(
      success: true, message: message, id: question.id, answered: question.answered,
      content: question.content, createdAt: question.createdAt, token: question.token,
      state: question.publicState, answer: question.answer,
      isPrivate: question.answer != nil ? question.answerPrivate : nil)
  }

  /// The longest answer text a presenter may give.
  static let maxAnswerLength = 10_000
  /// An answer's text as JSON, at most: with the longest question beside it, a question of
  /// the room stays far below the 64 KiB a client reads (so no answer can shut clients out).
  static let maxAnswerBytes = 16 * 1024

  /// Why an answer's text is refused, in words, or nil when it may be given.
  static func answerProblem(_ text: String?) -> String? {
    guard let text else { return nil }
    if text.allSatisfy(\.isWhitespace) {
      return "The answer's text is empty: leave it out to mark the question answered without one."
    }
    if text.count > maxAnswerLength {
      return "The answer is too long: at most \(maxAnswerLength) characters."
    }
    if WireCodec.encodedSize(ofString: text) > maxAnswerBytes {
      return "The answer is too long: at most \(maxAnswerBytes / 1024) KiB as JSON."
    }
    return nil
  }

  private func scheduleAutoAnswer(_ id: UUID) {
    guard let range = configuration.mock?.autoAnswerAfter else { return }
    let delay = range.lowerBound + (range.upperBound - range.lowerBound) * environment.random()
    Task {
      try? await Task.sleep(for: delay)
      _ = try? await self.answer(id)
    }
  }
}
