import Foundation
import Hummingbird
import QRCode
import QnAPages
import QnARoom
import QnAStore
import Synchronization

/// The attendee page, its form and the projector view: `/room/…` for the default room,
/// `/s/CODE/…` for a session (its page at `/s/CODE/` itself, for anyone the presenter's gate
/// does not admit). Open to all: they show only what every attendee of the room sees.
struct AttendeeController: Sendable {
  let main: SessionRoom
  let sessions: SessionLookup
  let addresses: ClientAddress
  let join: JoinAddress
  let maxQuestionLength: Int
  private let recent = RecentRooms()

  init(
    main: SessionRoom, sessions: SessionLookup, join: JoinAddress, maxQuestionLength: Int
  ) {
    self.main = main
    self.sessions = sessions
    self.addresses = sessions.addresses
    self.join = join
    self.maxQuestionLength = maxQuestionLength
  }

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/room/") { request, context in
      try await page(request, context, room: main, session: nil)
    }
    router.get("/room/screen") { request, context in
      try await screen(request, context, room: main, session: nil)
    }
    router.post("/room/ask") { request, context in
      try await ask(request, context, room: main, session: nil)
    }
    router.get("/s/{code}/screen") { request, context in
      let (session, room) = try await sessions.found(request, context)
      return try await screen(request, context, room: room, session: session)
    }
    router.post("/s/{code}/ask") { request, context in
      let (session, room) = try await sessions.found(request, context)
      return try await ask(request, context, room: room, session: session)
    }
  }

  /// What the pages show of a room now: its public questions, most votes first, and the
  /// highlight, read at most once a second per room (a keynote's thousand loads cost one read).
  private func view(_ room: SessionRoom, session: SessionRecord?) async throws -> AttendeePage.Room
  {
    let code = session?.code
    var view = AttendeePage.Room(
      base: JoinAddress.path(code: code), socket: code.map { "/s/\($0)/socket" } ?? "/socket",
      title: session?.title, code: code)
    view.open = session?.open ?? true
    view.maxLength = maxQuestionLength
    let store = room.store
    (view.questions, view.highlighted, view.announcement, view.labels) = try await recent.entry(
      code ?? "", now: room.environment.uptime()
    ) {
      let questions = try await store.page(limit: AttendeePage.listed * 2, byVotes: true)
        .filter { $0.publicState == .live || $0.publicState == .answered }
        .prefix(AttendeePage.listed)
        .map { question in
          var shown = question
          if shown.answerPrivate { shown.answer = nil }
          return shown
        }
      return (
        Array(questions), try await store.highlighted(), try await store.announcement()?.text,
        try await store.moderation.labels()
      )
    }
    return view
  }

  /// The attendee page; `?asked=live|review` after the form's question was stored.
  func page(
    _ request: Request, _ context: ServerRequestContext, room: SessionRoom, session: SessionRecord?
  ) async throws -> Response {
    let notice: AttendeePage.Notice? =
      switch request.uri.queryParameters["asked"] {
      case "live": .asked(review: false)
      case "review": .asked(review: true)
      default: nil
      }
    return HTMLPage.response(
      AttendeePage.render(
        try await view(room, session: session), token: room.environment.makeID(), notice: notice,
        words: HTMLPage.words(for: request)))
  }

  func screen(
    _ request: Request, _ context: ServerRequestContext, room: SessionRoom, session: SessionRecord?
  ) async throws -> Response {
    let address = join.address(request, peer: context.remoteAddress, code: session?.code)
    let words = HTMLPage.words(for: request)
    let qr = QRImages.svg(address, label: HTML.escape(ProjectorPage.qrLabel(words)))
    return HTMLPage.response(
      ProjectorPage.render(
        try await view(room, session: session), joinAddress: address, qr: qr, words: words),
      showsJoinAddress: true)
  }

  /// The form's question, where scripts are off: stored once per form token, then back to
  /// the page (303), or the page again with the reason and the text kept.
  func ask(
    _ request: Request, _ context: ServerRequestContext, room: SessionRoom, session: SessionRecord?
  ) async throws -> Response {
    let body = try await request.body.collect(upTo: maxQuestionLength * 12 + 4096)
    guard let form = try? URLEncodedFormDecoder().decode(AskForm.self, from: String(buffer: body))
    else {
      throw HTTPError(
        .badRequest, message: "The form needs content, and token and name may be given.")
    }
    let token = form.token.flatMap(UUID.init(uuidString:)) ?? room.environment.makeID()
    let base = JoinAddress.path(code: session?.code)
    // Only the post that stores the question learns who asked it: a token seen before (the
    // form sent again, or someone else's token) names nobody.
    let isNew: Bool
    do {
      isNew = try await room.store.question(token: token) == nil
    } catch {
      isNew = false
    }
    let outcome = await FormQuestions(room: room).ask(
      content: form.content, name: form.name, token: token,
      address: addresses.budgetKey(request, peer: context.remoteAddress),
      open: session?.open ?? true, label: form.label)
    let refusal: FormRefusalWords
    var status = HTTPResponse.Status.badRequest
    var headers: HTTPFields = [:]
    switch outcome {
    case .success(let question):
      var response = Response.redirect(
        to: base + "?asked=" + (question.state == .review ? "review" : "live"), type: .normal)
      if isNew, let asker = question.attendee {
        response.setCookie(askerCookie(asker, base: base, request, context))
      }
      return response
    case .failure(.empty): refusal = .empty
    case .failure(.tooLong(let limit)): refusal = .tooLong(limit: limit)
    case .failure(.overloadedCharacter): refusal = .overloadedCharacter
    case .failure(.closed):
      refusal = .closed
      status = .conflict
    case .failure(.tryAgain(let wait)):
      let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
      refusal = .tryAgain(seconds: seconds)
      status = .tooManyRequests
      headers[.retryAfter] = String(seconds)
    case .failure(.refused(let reason)): refusal = .other(reason)
    case .failure(.filtered):
      refusal = .filtered
      status = .unprocessableContent
    }
    var response = HTMLPage.response(
      AttendeePage.render(
        try await view(room, session: session), token: token, notice: .refused(refusal),
        draft: (form.content, form.name ?? "", form.label),
        words: HTMLPage.words(for: request)))
    response.status = status
    for field in headers { response.headers.append(field) }
    return response
  }
}

extension AttendeeController {
  /// Names the attendee the form made for its question (each post is one of its own), for
  /// the page's script: on a later visit with scripts, a browser that has no attendee of its
  /// own in this room joins as that one, and the question is its own (its state, its
  /// answers). Read by the script, so not HttpOnly; it reads it once and clears it.
  static let askerCookieName = "qna-asker"

  func askerCookie(
    _ attendee: UUID, base: String, _ request: Request, _ context: ServerRequestContext
  ) -> Cookie {
    Cookie(
      name: Self.askerCookieName, value: attendee.uuidString, maxAge: 7 * 24 * 3600, path: base,
      secure: addresses.isSecure(request, peer: context.remoteAddress), httpOnly: false,
      sameSite: .strict)
  }
}

struct AskForm: Decodable {
  var content: String
  var name: String?
  var token: String?
  /// Extension `labels`: the session's label the question goes under (empty: none).
  var label: String?
}

/// Each room's public questions as last read, for a second. One read at a time per room: the
/// requests that come while it is under way wait for it (a burst of page loads as the second
/// ends costs one read, not one each).
package final class RecentRooms: Sendable {
  package typealias Entry = (
    questions: [StoredQuestion], highlighted: UUID?, announcement: String?, labels: [String]
  )
  private struct State {
    var entries: [String: (at: Duration, entry: Entry)] = [:]
    var reading: [String: Task<Entry, any Error>] = [:]
  }
  private enum Step {
    case kept(Entry)
    case wait(Task<Entry, any Error>)
  }
  private let state = Mutex(State())
  package static let lifetime: Duration = .seconds(1)

  package init() {}

  /// The room's entry under `key`: as kept, if read less than `lifetime` ago; else what the
  /// read under way gives, or a new `read`.
  package func entry(
    _ key: String, now: Duration, read: @escaping @Sendable () async throws -> Entry
  ) async throws -> Entry {
    let step = state.withLock { state -> Step in
      if let kept = state.entries[key], now - kept.at < Self.lifetime { return .kept(kept.entry) }
      if let reading = state.reading[key] { return .wait(reading) }
      let reading = Task { try await read() }
      state.reading[key] = reading
      return .wait(reading)
    }
    switch step {
    case .kept(let entry): return entry
    case .wait(let reading):
      do {
        let entry = try await reading.value
        finish(key, reading, entry, now: now)
        return entry
      } catch {
        finish(key, reading, nil, now: now)
        throw error
      }
    }
  }

  private func finish(
    _ key: String, _ reading: Task<Entry, any Error>, _ entry: Entry?, now: Duration
  ) {
    state.withLock { state in
      guard state.reading[key] == reading else { return }
      state.reading[key] = nil
      guard let entry else { return }
      // Bounded: old entries go all at once (sessions are few; a flood of codes is throttled).
      if state.entries.count >= 1000 {
        state.entries = state.entries.filter { now - $0.value.at < Self.lifetime }
      }
      state.entries[key] = (now, entry)
    }
  }
}

/// QR codes of join addresses as SVG, each made once.
enum QRImages {
  private static let made = Mutex<[String: String]>([:])

  /// `nil` for an address too long for a QR code.
  static func svg(_ address: String, label: String) -> String? {
    let key = label + "\n" + address
    if let svg = made.withLock({ $0[key] }) { return svg }
    guard let code = try? QRCode(text: address) else { return nil }
    let svg = code.svg(label: label)
    made.withLock { made in
      if made.count >= 256 { made.removeAll() }
      made[key] = svg
    }
    return svg
  }
}
