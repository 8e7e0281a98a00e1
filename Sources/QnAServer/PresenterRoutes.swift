import Foundation
import Hummingbird

/// The presenter's side, compatible with the existing back ends (`GET /`,
/// `POST /{id}/answer`), plus a JSON API for tools and the login form for the admin token.
extension QnAServerApp {
  static func addPresenterRoutes(
    to router: some RouterMethods<BasicRequestContext>, desk: QuestionDesk
  ) {
    router.get("/") { _, _ -> Response in
      let questions = try await desk.store.all()
      return html(PresenterPage.render(questions))
    }
    router.post("/{id}/answer") { _, context -> Response in
      _ = try await answer(context, desk: desk)
      return Response.redirect(to: "/", type: .normal)
    }
    router.get("/api/questions") { _, _ -> [QuestionJSON] in
      try await desk.store.all().map(QuestionJSON.init)
    }
    router.post("/api/questions/{id}/answer") { _, context -> QuestionJSON in
      QuestionJSON(try await answer(context, desk: desk))
    }
  }

  static func addLoginRoutes(to router: Router<BasicRequestContext>, token: String) {
    router.get("/login") { _, _ in html(PresenterPage.login(failed: false)) }
    router.post("/login") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 4096)
      let form = try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))
      guard let form, AdminAuth<BasicRequestContext>.constantTimeEqual(form.token, token) else {
        var refused = html(PresenterPage.login(failed: true))
        refused.status = .unauthorized
        return refused
      }
      var response = Response.redirect(to: "/", type: .normal)
      response.setCookie(
        Cookie(
          name: AdminAuth<BasicRequestContext>.cookieName, value: token, path: "/",
          httpOnly: true, sameSite: .strict))
      return response
    }
  }

  /// 400 for an id that is not a UUID, 404 for an unknown one.
  private static func answer(_ context: BasicRequestContext, desk: QuestionDesk) async throws
    -> StoredQuestion
  {
    guard let id = context.parameters.get("id", as: UUID.self) else {
      throw HTTPError(.badRequest, message: "not a question id")
    }
    guard let question = try await desk.answer(id) else {
      throw HTTPError(.notFound, message: "no question \(id)")
    }
    return question
  }

  static func html(_ page: String) -> Response {
    Response(
      status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: page)))
  }
}

struct LoginForm: Decodable {
  var token: String
}

/// A question as the API shows it: ids upper-case, `createdAt` ISO-8601 with milliseconds.
struct QuestionJSON: ResponseEncodable, Sendable {
  var id: UUID
  var content: String
  var answered: Bool
  var askedFrom: UUID
  var createdAt: String
  var token: UUID?

  init(_ question: StoredQuestion) {
    id = question.id
    content = question.content
    answered = question.answered
    askedFrom = question.askedFrom
    createdAt = question.createdAt.formatted(Self.timestamp)
    token = question.token
  }

  private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
