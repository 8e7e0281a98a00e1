import Foundation
import HTTPTypes
import Hummingbird
import QnA
import QnAPages
import QnARoom
import QnAStore

/// The presenter's side of one room, compatible with the existing back ends (`GET /`,
/// `POST /{id}/answer`), plus a JSON API for tools: under `/` for the default room, under
/// `/s/CODE/` for a session (`scope`). The room's own actions, word filter and labels are
/// controllers of their own, added with it.
struct PresenterController: Sendable {
  /// Questions per page of the presenter page and the API, unless `?limit=` says fewer.
  static let pageSize = 1000

  let scope: PresenterScope
  let join: JoinAddress

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/", use: page)
    router.post("/{id}/answer", use: answerForm)
    router.get("/api/questions", use: questions)
    // Every presenter action, as the console's: `answer` takes an optional JSON body
    // `{"text": …, "private": bool}`. An `Idempotency-Key` header (a UUID) makes a retried
    // request act once.
    for action in PresenterActionKind.questionActions {
      router.post("/api/questions/{id}/\(action.rawValue)") { request, context in
        try await perform(action, request, context)
      }
    }
    router.get("/api/questions/{id}/history", use: history)
    RoomActionController(scope: scope).addRoutes(to: router)
    FilterController(scope: scope).addRoutes(to: router)
    LabelController(scope: scope).addRoutes(to: router)
    PollController(scope: scope).addRoutes(to: router)
    router.get("/api/export", use: export)
    router.get("/report", use: report)
  }

  /// The session's report: one page with SVG charts, printable to PDF (`SessionReport`).
  @Sendable private func report(_ request: Request, context: ServerRequestContext) async throws
    -> Response
  {
    let room = try scope.room(context)
    let words = HTMLPage.words(for: request)
    // `?tz=Europe/Berlin`: the reader's clock (the page's script adds it); else the server's.
    var timeZone = TimeZone.current
    if let name = request.uri.queryParameters["tz"] {
      guard name.utf8.count <= 64, let zone = TimeZone(identifier: String(name)) else {
        throw HTTPError(.badRequest, message: "tz must be a time zone, such as Europe/Berlin")
      }
      timeZone = zone
    }
    let session = SessionReport.Session(
      title: scope.title(context) ?? "qna", code: scope.code(context))
    return HTMLPage.response(
      SessionReport.render(
        try await room.store.report(), session: session, style: .linked,
        generatedAt: room.environment.now(), timeZone: timeZone, words: words),
      showsJoinAddress: true)
  }

  @Sendable private func page(_ request: Request, context: ServerRequestContext) async throws
    -> Response
  {
    let room = try scope.room(context)
    let (limit, before) = try Self.page(of: request)
    let questions = try await room.store.page(limit: limit, before: before)
    let counts = try await room.store.counts()
    let address = join.address(request, peer: context.remoteAddress, code: scope.code(context))
    let words = HTMLPage.words(for: request)
    let qr = QRImages.svg(address, label: HTML.escape(ProjectorPage.qrLabel(words)))
    return HTMLPage.response(
      PresenterPage.render(
        questions, total: counts.total, answered: counts.answered,
        olderFrom: questions.count == limit ? questions.last?.id : nil, base: scope.base(context),
        title: scope.title(context), join: (address, scope.code(context), qr), words: words),
      showsJoinAddress: true)
  }

  /// The page's form, without a script: answered, then back to the page.
  @Sendable private func answerForm(_ request: Request, context: ServerRequestContext)
    async throws -> Response
  {
    _ = try await answer(context, room: try scope.room(context))
    return Response.redirect(to: scope.base(context), type: .normal)
  }

  /// Newest first (or most voted first with `?sort=votes`), a page at a time: `?limit=`
  /// (at most 1,000) and `?before=ID`.
  @Sendable private func questions(_ request: Request, context: ServerRequestContext)
    async throws -> [QuestionJSON]
  {
    let room = try scope.room(context)
    let (limit, before) = try Self.page(of: request)
    let byVotes: Bool
    switch request.uri.queryParameters["sort"] {
    case nil, "newest": byVotes = false
    case "votes": byVotes = true
    case let other?:
      throw HTTPError(.badRequest, message: "sort must be newest or votes, not '\(other)'")
    }
    return try await room.store.page(
      limit: limit, before: before, byVotes: byVotes,
      label: try await LabelController.labelFilter(request, room: room)
    ).map(QuestionJSON.init)
  }

  private func perform(
    _ action: PresenterActionKind, _ request: Request, _ context: ServerRequestContext
  ) async throws -> QuestionJSON {
    let room = try scope.room(context)
    let id = try Self.questionID(context)
    let body: AnswerBody
    switch action {
    case .answer: body = try await Self.answerBody(request)
    case .edit:
      body = try await Self.editBody(request, maxLength: room.settings.maxQuestionLength)
    case .relabel: body = AnswerBody(text: try await LabelController.relabelBody(request))
    default: body = AnswerBody()
    }
    guard
      let outcome = try await room.perform(
        action, on: id, text: body.text, isPrivate: body.private ?? false,
        token: try IdempotencyKey.token(request, in: room))
    else { throw HTTPError(.notFound, message: "no question \(id)") }
    if let refusal = outcome.refusal { throw HTTPError(.conflict, message: refusal) }
    return QuestionJSON(outcome.question)
  }

  /// What the presenters did to a question, oldest first, each action once with its time.
  @Sendable private func history(_ request: Request, context: ServerRequestContext)
    async throws -> [TransitionJSON]
  {
    let room = try scope.room(context)
    let id = try Self.questionID(context)
    guard try await room.store.question(id: id) != nil else {
      throw HTTPError(.notFound, message: "no question \(id)")
    }
    return try await room.store.transitions(of: id).map {
      TransitionJSON(
        action: $0.action.rawValue, at: $0.at.formatted(TimestampFormat.iso8601), text: $0.text)
    }
  }

  /// Every question in every state: `?format=csv|json|markdown` (CSV by default); with
  /// `?label=NAME`, only those under that label.
  @Sendable private func export(_ request: Request, context: ServerRequestContext)
    async throws -> Response
  {
    let room = try scope.room(context)
    let raw = request.uri.queryParameters["format"].map(String.init) ?? "csv"
    guard let format = ExportFormat(rawValue: raw) else {
      throw HTTPError(.badRequest, message: "format must be csv, json or markdown")
    }
    let label = try await LabelController.labelFilter(request, room: room)
    let export = try await room.store.export().filter {
      label == nil || $0.question.label == label
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: format.contentType,
        .contentDisposition: "attachment; filename=\"questions.\(format.fileExtension)\"",
      ],
      body: .init(byteBuffer: ByteBuffer(bytes: Export.render(export, as: format))))
  }

  /// The optional body of `answer`: empty, or JSON with `text` and `private`.
  private static func answerBody(_ request: Request) async throws -> AnswerBody {
    // Room to tell a text too long in words (8 bytes a character at most), not with a 413.
    let bytes = try await request.body.collect(upTo: PresenterActions.maxAnswerLength * 8 + 1024)
    guard bytes.readableBytes > 0 else { return AnswerBody() }
    let data = Data(bytes.readableBytesView)
    // Strict: a misspelt key ("txt") must not answer without the text the presenter typed.
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      Set(object.keys).isSubset(of: ["text", "private"]),
      let body = try? JSONDecoder().decode(AnswerBody.self, from: data)
    else {
      throw HTTPError(
        .badRequest,
        message: "the body must be {\"text\": string, \"private\": bool}, no other keys")
    }
    if let problem = PresenterActions.answerProblem(body.text) {
      throw HTTPError(.badRequest, message: problem)
    }
    return body
  }

  /// The body of `edit`: `{"text": …}`, the question's new text, trimmed.
  private static func editBody(_ request: Request, maxLength: Int) async throws -> AnswerBody {
    let bytes = try await request.body.collect(upTo: maxLength * 8 + 1024)
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))
        as? [String: Any], object.count == 1, let raw = object["text"] as? String
    else {
      throw HTTPError(.badRequest, message: "the body must be {\"text\": string}, no other keys")
    }
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if let problem = PresenterActions.editProblem(text, maxLength: maxLength) {
      throw HTTPError(.badRequest, message: problem)
    }
    return AnswerBody(text: text)
  }

  /// `?limit=N&before=ID`: 400 for a limit out of 1…1,000 or an id that is not one.
  private static func page(of request: Request) throws -> (limit: Int, before: UUID?) {
    let query = request.uri.queryParameters
    var limit = pageSize
    if let raw = query["limit"] {
      guard let value = Int(String(raw)), (1...pageSize).contains(value) else {
        throw HTTPError(.badRequest, message: "limit must be 1–\(pageSize)")
      }
      limit = value
    }
    var before: UUID?
    if let raw = query["before"] {
      guard let id = UUID(uuidString: String(raw)) else {
        throw HTTPError(.badRequest, message: "before must be a question id")
      }
      before = id
    }
    return (limit, before)
  }

  /// The route's question id; 400 for one that is not a UUID.
  private static func questionID(_ context: ServerRequestContext) throws -> UUID {
    guard let raw = context.parameters.get("id"), raw.count == 36,
      let id = UUID(uuidString: raw)
    else {
      throw HTTPError(.badRequest, message: "not a question id")
    }
    return id
  }

  /// 400 for an id that is not a UUID, 404 for an unknown one.
  private func answer(_ context: ServerRequestContext, room: SessionRoom) async throws
    -> StoredQuestion
  {
    let id = try Self.questionID(context)
    guard let question = try await room.answer(id) else {
      throw HTTPError(.notFound, message: "no question \(id)")
    }
    return question
  }

  struct AnswerBody: Decodable {
    var text: String?
    var `private`: Bool?
  }
}

/// A question as the API shows it: ids upper-case, `createdAt` ISO-8601 with milliseconds.
struct QuestionJSON: ResponseEncodable, Sendable {
  var id: UUID
  var content: String
  var answered: Bool
  var askedFrom: UUID
  var createdAt: String
  var token: UUID?
  /// The room's votes for it.
  var votes: Int
  /// `review`, `live`, `answered` or `dismissed`; the answer's text and whether it is private.
  var state: String
  var answer: String?
  var `private`: Bool
  /// The word filter's matches, when it sent the question to review.
  var flagged: [String]
  /// The text as asked, when a presenter edited it.
  var original: String?
  /// A presenter starred it; the session's label it is filed under, if any.
  var starred: Bool
  var label: String?

  init(_ question: StoredQuestion) {
    starred = question.starred
    label = question.label
    flagged = question.flagged
    original = question.original
    state = question.publicState.rawValue
    answer = question.answer
    `private` = question.answerPrivate
    id = question.id
    content = question.content
    answered = question.answered
    askedFrom = question.askedFrom
    createdAt = question.createdAt.formatted(TimestampFormat.iso8601)
    token = question.token
    votes = question.votes
  }

}

/// One transition of a question: the action and when it was done.
struct TransitionJSON: ResponseEncodable, Sendable {
  var action: String
  var at: String
  /// An answer's text, an edit's new text.
  var text: String?
}
