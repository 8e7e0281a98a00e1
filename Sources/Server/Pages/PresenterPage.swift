import Foundation
import QnAStore

/// The presenter's page: a page of questions, newest first, with an Answer button per
/// unanswered row and a link to the older ones (what works without a script); then the
/// script makes it live (`PresenterScript`). Content is attacker-controlled and always
/// escaped. No inline script or style: both are assets (`Assets/presenter.css`,
/// `Assets/presenter.js`), so the Content-Security-Policy forbids every inline one.
package enum PresenterPage {
  /// `base`: where the session's routes are (`/`, or `/s/CODE/`); `title`: a session's title;
  /// `words`: the browser's language (the script gets its own words in `data-messages`).
  package static func render(
    _ questions: [StoredQuestion], total: Int, answered: Int, olderFrom: UUID? = nil,
    base: String = "/", title: String? = nil, join: (address: String, qr: String?)? = nil,
    words: PageWords = .english
  ) -> String {
    let answer = HTML.escape(words.t("Answer"))
    let rows = questions.map { question in
      let id = question.id.uuidString
      let action =
        question.answered
        ? HTML.escape(words.t("answered"))
        : "<form method=\"post\" action=\"\(base)\(id)/answer\"><button>\(answer)</button></form>"
      return """
            <tr class="\(question.answered ? "answered" : "open")">\
        <td>\(HTML.escape(question.content))</td>\
        <td>▲ \(question.votes)</td>\
        <td>\(question.createdAt.formatted(.iso8601))</td>\
        <td>\(action)</td></tr>
        """
    }
    let open = total - answered
    let older =
      olderFrom.map {
        "<p><a href=\"\(base)?before=\($0.uuidString)\">"
          + HTML.escape(words.t("Older questions")) + "</a></p>"
      } ?? ""
    let heading = title.map { words.format(words.t("%s — questions"), $0) } ?? words.t("Questions")
    let text = (
      title: words.format(words.t("Questions (%d open)"), open),
      counts: words.format(words.t("Asked: %1$d · open: %2$d"), total, open),
      loading: words.t("Loading…"), sort: words.t("Sort"), byVotes: words.t("by votes"),
      newest: words.t("newest first"), search: words.t("Search"), question: words.t("Question"),
      votes: words.t("Votes"), asked: words.t("Asked"),
      announcement: words.t("Announcement for the room"), announce: words.t("Announce"),
      clear: words.t("Clear"), filterWord: words.t("Filter word"), add: words.t("Add"),
      remove: words.t("Take out"), next: words.t("Answer the next one"),
      showQueue: words.t("Show the queue"), label: words.t("Label"),
      allLabels: words.t("All labels"), report: words.t("The session's report")
    )
    let messages = words.scriptMessages(PresenterScript.messages)
    // Where attendees join, and its QR code, folded away until the presenter wants it.
    let joinAt = HTML.escape(words.t("Attendees join at:"))
    let qrCode = HTML.escape(words.t("QR code"))
    let joinLine =
      join.map { join in
        let address = HTML.escape(join.address)
        return "<p class=\"join\">\(joinAt) <a href=\"\(address)\">\(address)</a></p>"
          + (join.qr.map { "<details><summary>\(qrCode)</summary>\($0)</details>" } ?? "")
      } ?? ""
    return """
      <!doctype html>
      <html lang="\(HTML.escape(words.language))"><head><meta charset="utf-8">
      <title>\(HTML.escape(text.title))</title>
      <link rel="stylesheet" href="/assets/presenter.css"></head>
      <body data-base="\(HTML.escape(base))" data-messages="\(HTML.escape(messages))">
      <h1>\(HTML.escape(heading))</h1>
      \(joinLine)
      <p>\(HTML.escape(text.counts)) <span id="status">\(HTML.escape(text.loading))</span> \
      <a href="\(HTML.escape(base))report">\(HTML.escape(text.report))</a></p>
      <p id="banner" hidden></p>
      <form id="announce"><label>\(HTML.escape(text.announcement)) \
      <input id="announcement" maxlength="280" autocomplete="off"></label> \
      <button>\(HTML.escape(text.announce))</button> \
      <button type="button" id="unannounce">\(HTML.escape(text.clear))</button></form>
      <form id="filter"><label>\(HTML.escape(text.filterWord)) \
      <input id="filter-word" maxlength="64" autocomplete="off"></label> \
      <button>\(HTML.escape(text.add))</button> \
      <button type="button" id="unfilter">\(HTML.escape(text.remove))</button></form>
      <form id="labels"><label>\(HTML.escape(text.label)) \
      <input id="label-name" maxlength="160" autocomplete="off"></label> \
      <button>\(HTML.escape(text.add))</button> \
      <button type="button" id="unlabel">\(HTML.escape(text.remove))</button></form>
      <p><button type="button" id="next">\(HTML.escape(text.next))</button> \
      <button type="button" id="show-queue">\(HTML.escape(text.showQueue))</button></p>
      <section id="polls" hidden></section>
      <nav id="tabs"></nav>
      <p><label>\(HTML.escape(text.sort)) <select id="sort"><option value="votes">\(HTML.escape(text.byVotes))</option>\
      <option value="time">\(HTML.escape(text.newest))</option></select></label>
      <label>\(HTML.escape(text.search)) <input id="search" type="search"></label>
      <label>\(HTML.escape(text.label)) <select id="label-filter">\
      <option value="">\(HTML.escape(text.allLabels))</option></select></label></p>
      <table>
      <thead><tr><th>\(HTML.escape(text.question))</th><th>\(HTML.escape(text.votes))</th><th>\(HTML.escape(text.asked))</th><th></th></tr></thead>
      <tbody id="rows">
      \(rows.joined(separator: "\n"))
      </tbody>
      </table>
      \(older)
      <script type="module" src="/assets/presenter.js"></script>
      </body></html>

      """
  }

  /// `base`: `/`, for the admin token, or `/s/CODE/`, for that session's presenter token.
  package static func login(failed: Bool, base: String = "/", words: PageWords = .english)
    -> String
  {
    let text = (
      title: words.t("Presenter login"), wrong: words.t("Wrong token."),
      token: base == "/" ? words.t("Admin token") : words.t("Presenter token"),
      button: words.t("Log in")
    )
    return """
      <!doctype html>
      <html lang="\(HTML.escape(words.language))"><head><meta charset="utf-8"><title>\(HTML.escape(text.title))</title></head>
      <body>
      <h1>\(HTML.escape(text.title))</h1>
      \(failed ? "<p>\(HTML.escape(text.wrong))</p>" : "")
      <form method="post" action="\(base)login">
      <label>\(HTML.escape(text.token)) <input type="password" name="token" autofocus></label>
      <button>\(HTML.escape(text.button))</button>
      </form>
      </body></html>

      """
  }
}
