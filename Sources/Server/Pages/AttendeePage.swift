import Foundation
import QnAStore

/// The attendee's page, at the room's address (`/s/CODE/`, or `/room/` for the default
/// room): the room as the server has it now and a form to ask (what works without a script),
/// then `AttendeeScript` makes it live over the room's socket. Everything from the network is
/// escaped; no inline script or style.
package enum AttendeePage {
  /// What the page shows of a room.
  package struct Room: Sendable {
    /// Where the room's routes are: `/room/` or `/s/CODE/`.
    package var base: String
    /// The room's socket, by path: `/socket` or `/s/CODE/socket`.
    package var socket: String
    package var title: String?
    /// The session's join code; `nil` for the default room.
    package var code: String?
    /// Whether it takes new questions.
    package var open = true
    /// The room's questions as everyone sees them, most votes first.
    package var questions: [StoredQuestion] = []
    package var highlighted: UUID?
    /// The presenter's announcement, if any (extension `announcements`).
    package var announcement: String?
    /// The session's labels (extension `labels`), in the order presenters added them.
    package var labels: [String] = []
    /// The longest question, in characters.
    package var maxLength = 1000

    package init(base: String, socket: String, title: String? = nil, code: String? = nil) {
      self.base = base
      self.socket = socket
      self.title = title
      self.code = code
    }
  }

  /// What became of the form's last post, said above the form.
  package enum Notice: Sendable, Equatable {
    case asked(review: Bool)
    case refused(FormRefusalWords)
  }

  /// How many questions the page lists without its script.
  package static let listed = 100

  /// `token`: the form's, made for this page (a resubmitted form asks once); `draft`: the
  /// text and name to show in the form again after a refusal.
  package static func render(
    _ room: Room, token: UUID, notice: Notice? = nil,
    draft: (content: String, name: String, label: String?)? = nil, words: PageWords = .english
  ) -> String {
    let e = HTML.escape
    let title = room.title ?? words.t("Questions")
    let highlighted = room.highlighted.flatMap { id in room.questions.first { $0.id == id } }
    let noticeText: String
    switch notice {
    case .asked(let review)?:
      noticeText =
        review
        ? words.t("Question received. The presenter reviews questions before the room sees them.")
        : words.t("Your question was sent.")
    case .refused(let refusal)?: noticeText = refusal.text(words)
    case nil: noticeText = ""
    }
    // The words outside the page's literal, where `make po` finds them.
    let answerLabel = e(words.t("Answer:"))
    let answeredWord = e(words.t("answered"))
    let rows = room.questions.prefix(listed).map { question in
      let votes = e(
        words.format(words.plural("%d vote", "%d votes", question.votes), question.votes))
      let answer = question.answer.map { "<p class=\"answer\">\(answerLabel) \(e($0))</p>" } ?? ""
      let label = question.label.map { " · <span class=\"label\">\(e($0))</span>" } ?? ""
      return """
        <li class="\(question.answered ? "answered" : "live")\(question.id == room.highlighted ? " now" : "")">\
        <p class="text">\(e(question.content))</p>\(answer)\
        <p class="meta"><span class="votes">\(votes)</span>\(question.answered ? " · " + answeredWord : "")\(label)</p></li>
        """
    }.joined(separator: "\n")
    let messages = words.scriptMessages(AttendeeScript.messages)
    let closed = room.open ? "" : " disabled"
    let t = (
      joinCode: e(words.t("Join code:")),
      announcement: e(words.t("Announcement:")),
      nowAnswering: e(words.t("Now answering:")),
      askHeading: e(words.t("Ask a question")),
      closed: e(words.t("This session is closed: it takes no new questions.")),
      yourQuestion: e(words.t("Your question")),
      yourName: e(words.t("Your name (optional, only the presenters see it)")),
      ask: e(words.t("Ask")),
      yourQuestions: e(words.t("Your questions")),
      questions: e(words.t("Questions")),
      sort: e(words.t("Sort")),
      popular: e(words.t("Popular")),
      recent: e(words.t("Recent")),
      search: e(words.t("Search")),
      label: e(words.t("Label")),
      noLabel: e(words.t("No label")),
      allLabels: e(words.t("All labels")),
      noQuestions: e(words.t("No questions yet.")),
      polls: e(words.t("Polls")),
      projector: e(words.t("Projector view")),
      presenterLogin: e(words.t("Presenter login")),
      noScript: e(
        words.t("Without scripts this page does not update itself: reload it to see what is new."))
    )
    return """
      \(RoomStyle.head(title: title, language: words.language))
      <body class="attendee" data-base="\(e(room.base))" data-socket="\(e(room.socket))" \
      data-max-length="\(room.maxLength)" data-messages="\(e(messages))">
      <header>
      <h1>\(e(title))</h1>
      \(room.code.map { "<p class=\"code\">\(t.joinCode) <strong>\($0)</strong></p>" } ?? "")
      <p id="status" role="status"></p>
      </header>
      <main>
      <section id="banner" class="banner"\(room.announcement == nil ? " hidden" : "")>
      <p><strong>\(t.announcement)</strong> <span id="banner-text">\(e(room.announcement ?? ""))</span></p>
      </section>
      <section id="now" aria-labelledby="now-heading"\(highlighted == nil ? " hidden" : "")>
      <h2 id="now-heading">\(t.nowAnswering)</h2>
      <p id="now-text">\(e(highlighted?.content ?? ""))</p>
      </section>
      <section id="polls" aria-labelledby="polls-heading" hidden>
      <h2 id="polls-heading">\(t.polls)</h2>
      <ol id="poll-list"><li hidden>\(t.polls)</li></ol>
      </section>
      <section id="ask-section" aria-labelledby="ask-heading">
      <h2 id="ask-heading">\(t.askHeading)</h2>
      <p id="notice" role="status">\(e(noticeText))</p>
      \(room.open ? "" : "<p>\(t.closed)</p>")
      <form id="ask" method="post" action="\(e(room.base))ask">
      <input type="hidden" id="token" name="token" value="\(token.uuidString)">
      <label for="question">\(t.yourQuestion)</label>
      <textarea id="question" name="content" rows="3" maxlength="\(room.maxLength)" required\(closed)>\(e(draft?.content ?? ""))</textarea>
      <label for="name">\(t.yourName)</label>
      <input id="name" name="name" maxlength="60" autocomplete="nickname" value="\(e(draft?.name ?? ""))"\(closed)>
      <label for="label" id="label-caption"\(room.labels.isEmpty ? " hidden" : "")>\(t.label)</label>
      <select id="label" name="label"\(room.labels.isEmpty ? " hidden" : "")\(closed)>\
      <option value="">\(t.noLabel)</option>\(options(room.labels, chosen: draft?.label))</select>
      <button type="submit"\(closed)>\(t.ask)</button>
      </form>
      <section id="mine" aria-labelledby="mine-heading" hidden>
      <h3 id="mine-heading">\(t.yourQuestions)</h3>
      <ol id="mine-list"><li hidden>\(t.yourQuestions)</li></ol>
      </section>
      </section>
      <section id="room" aria-labelledby="room-heading">
      <h2 id="room-heading">\(t.questions)</h2>
      <div class="controls">
      <label>\(t.sort) <select id="sort"><option value="votes">\(t.popular)</option>\
      <option value="time">\(t.recent)</option></select></label>
      <label>\(t.search) <input id="search" type="search"></label>
      <label id="label-filter-caption"\(room.labels.isEmpty ? " hidden" : "")>\(t.label) \
      <select id="label-filter"><option value="">\(t.allLabels)</option>\(options(room.labels, chosen: nil))</select></label>
      </div>
      <ol id="questions">
      \(rows.isEmpty ? "<li class=\"empty\">\(t.noQuestions)</li>" : rows)
      </ol>
      </section>
      <div id="announcements" class="visually-hidden" aria-live="polite"></div>
      </main>
      <footer><a href="\(e(room.base))screen">\(t.projector)</a> · \
      <a href="\(e(room.base == "/room/" ? "/" : room.base + "login"))">\(t.presenterLogin)</a></footer>
      <script type="module" src="/assets/room.js"></script><noscript><p>\(t.noScript)</p></noscript>
      </body></html>

      """
  }
}

extension AttendeePage {
  /// The session's labels as a select's options, `chosen` selected; escaped.
  static func options(_ labels: [String], chosen: String?) -> String {
    labels.map { label in
      "<option value=\"\(HTML.escape(label))\"\(label == chosen ? " selected" : "")>\(HTML.escape(label))</option>"
    }.joined()
  }
}

/// A form post's refusal in the page's words.
package enum FormRefusalWords: Sendable, Equatable {
  case empty
  case tooLong(limit: Int)
  case overloadedCharacter
  case closed
  case tryAgain(seconds: Int)
  /// The session's word filter refuses it.
  case filtered
  case other(String)

  func text(_ words: PageWords) -> String {
    switch self {
    case .empty: words.t("The question is empty.")
    case .tooLong(let limit):
      words.format(words.t("The question is too long: at most %d characters."), limit)
    case .overloadedCharacter: words.t("The question has a character with too many marks.")
    case .closed: words.t("This session is closed: it takes no new questions.")
    case .tryAgain(let seconds):
      words.format(
        words.plural(
          "Too many questions at once: send it again in %d second.",
          "Too many questions at once: send it again in %d seconds.", seconds), seconds)
    case .filtered:
      words.t(
        "This session does not take that question: it has words the organisers filter out.")
    case .other(let reason): reason
    }
  }
}
