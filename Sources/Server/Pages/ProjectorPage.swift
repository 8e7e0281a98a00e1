import Foundation

/// The projector's view (`/s/CODE/screen`, `/room/screen`): the question being answered,
/// large, the next most-voted few, how many are in the room, and how to join — the code, the
/// address and its QR code. It shows nothing an attendee cannot see, so it needs no token.
/// `ProjectorScript` keeps it live.
package enum ProjectorPage {
  /// How many questions wait under the highlighted one.
  package static let upNext = 5

  /// The QR code's accessible name.
  package static func qrLabel(_ words: PageWords) -> String {
    words.t("QR code of the join address")
  }

  /// `qr`: the join address's QR code as SVG (made by the caller, from trusted text).
  package static func render(
    _ room: AttendeePage.Room, joinAddress: String, qr: String?, words: PageWords = .english
  ) -> String {
    let e = HTML.escape
    let title = room.title ?? words.t("Questions")
    let messages = words.scriptMessages(ProjectorScript.messages)
    // What the script shows, already there for the first paint.
    let now = room.highlighted.flatMap { id in room.questions.first { $0.id == id } }
    let next = room.questions.filter { !$0.answered && $0.id != room.highlighted }.prefix(upNext)
    let t = (
      noQuestions: e(words.t("No questions yet.")), nowAnswering: e(words.t("Now answering:")),
      idle: words.t("No question is being answered."), upNext: e(words.t("Up next")),
      askYours: e(words.t("Ask your questions")), joinCode: e(words.t("Join code:")),
      loading: e(words.t("Loading…")), pollResults: e(words.t("Poll results")),
      noScript: e(words.t("This view needs scripts to show the room."))
    )
    let items =
      next.isEmpty
      ? "<li class=\"empty\">\(t.noQuestions)</li>"
      : next.map {
        "<li><span class=\"votes\">▲ \($0.votes)</span><span class=\"text\">\(e($0.content))</span></li>"
      }.joined(separator: "\n")
    return """
      \(RoomStyle.head(title: title, language: words.language))
      <body class="screen" data-socket="\(e(room.socket))" data-up-next="\(upNext)" \
      data-messages="\(e(messages))">
      <main>
      <section class="stage" aria-labelledby="stage-heading">
      <h1 id="stage-heading">\(e(title))</h1>
      <p id="banner" class="banner" aria-live="polite"\(room.announcement == nil ? " hidden" : "")>\
      \(e(room.announcement ?? ""))</p>
      <section id="poll" class="poll" aria-labelledby="poll-heading" hidden>
      <h2 id="poll-heading">\(t.pollResults)</h2>
      <p id="poll-prompt" class="prompt"></p>
      <p id="poll-answers"></p>
      <div id="poll-chart"></div>
      </section>
      <p id="now-label">\(t.nowAnswering)</p>
      <p id="now-text" aria-live="polite"\(now == nil ? " class=\"idle\"" : "")>\
      \(e(now?.content ?? t.idle))</p>
      <h2 id="next-heading">\(t.upNext)</h2>
      <ol id="next">\(items)</ol>
      </section>
      <aside class="join" aria-labelledby="join-heading">
      <h2 id="join-heading">\(t.askYours)</h2>
      \(qr ?? "")
      <p class="address"><a href="\(e(joinAddress))">\(HTML.joinAddress(joinAddress, code: room.code))</a></p>
      \(room.code.map { "<p class=\"code\">\(t.joinCode) <strong>\($0)</strong></p>" } ?? "")
      <p id="audience"></p>
      <p id="status" role="status">\(t.loading)</p>
      </aside>
      </main>
      <script type="module" src="/assets/screen.js"></script><noscript><p>\(t.noScript)</p></noscript>
      </body></html>

      """
  }
}
