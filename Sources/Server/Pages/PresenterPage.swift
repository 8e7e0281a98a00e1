import Foundation
import QnAStore

/// The presenter's page, a moderator's desk from a phone to a desk (`Assets/presenter.css`):
/// a card per question, newest first, with an Answer button on each unanswered one and a link
/// to the older ones (what works without a script); then the script makes it live
/// (`PresenterScript`): tabs, filters, each card's actions and menu, the console's keys. Content is attacker-controlled and always
/// escaped. No inline script or style: both are assets (`Assets/presenter.css`,
/// `Assets/presenter.js`), so the Content-Security-Policy forbids every inline one.
package enum PresenterPage {
  /// `base`: where the session's routes are (`/`, or `/s/CODE/`); `title`: a session's title;
  /// `words`: the browser's language (the script gets its own words in `data-messages`).
  package static func render(
    _ questions: [StoredQuestion], total: Int, answered: Int, olderFrom: UUID? = nil,
    base: String = "/", title: String? = nil,
    join: (address: String, code: String?, qr: String?)? = nil,
    words: PageWords = .english
  ) -> String {
    let answer = HTML.escape(words.t("Answer"))
    // One card per question, as the script draws them (what works without a script: the
    // Answer button of an unanswered one posts its form). Kept short: a room of a thousand
    // questions is a page of a thousand cards.
    let rows = questions.map { question in
      let action =
        question.answered
        ? "<p class=\"badge\">\(HTML.escape(words.t("answered")))</p>"
        : "<form class=\"card-actions\" method=\"post\" action=\"\(base)\(question.id.uuidString)/answer\">"
          + "<button class=\"primary\">\(answer)</button></form>"
      return """
            <div class="card \(question.answered ? "answered" : "live")" role="listitem">\
        <p class="card-meta">▲ \(question.votes) · \(question.createdAt.formatted(.iso8601))</p>\
        <p class="text">\(HTML.escape(question.content))</p>\(action)</div>
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
      announcement: words.t("Announcement for the room"), announce: words.t("Announce"),
      clear: words.t("Clear"), filterWord: words.t("Filter word"), add: words.t("Add"),
      remove: words.t("Take out"), next: words.t("Answer the next one"),
      showQueue: words.t("Show the queue"), label: words.t("Label"),
      allLabels: words.t("All labels"), report: words.t("The session's report"),
      toolsName: words.t("Room tools"),
      tools: words.t("announcement, word filter, labels, queue, join, polls"),
      lists: words.t("Lists"), questions: words.t("Questions"), keys: words.t("Keyboard shortcuts"),
      undo: words.t("Undo"),
      noScript: words.t(
        "Without scripts this page does not update itself: reload it to see what is new.")
    )
    let messages = words.scriptMessages(PresenterScript.messages)
    // Where attendees join, and its QR code, folded away until the presenter wants it.
    let joinAt = HTML.escape(words.t("Attendees join at:"))
    let qrCode = HTML.escape(words.t("QR code"))
    let joinLine =
      join.map { join in
        let shown = HTML.joinAddress(join.address, code: join.code)
        return
          "<div class=\"tool join\"><p>\(joinAt) <a href=\"\(HTML.escape(join.address))\">\(shown)</a></p>"
          + (join.qr.map { "<details class=\"qr\"><summary>\(qrCode)</summary>\($0)</details>" }
            ?? "")
          + "</div>"
      } ?? ""
    return """
      <!doctype html>
      <html lang="\(HTML.escape(words.language))"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(HTML.escape(text.title))</title>
      <link rel="stylesheet" href="/assets/presenter.css"></head>
      <body class="desk" data-base="\(HTML.escape(base))" data-messages="\(HTML.escape(messages))">
      <header class="top">
      <h1>\(HTML.escape(heading))</h1>
      <p class="meta">\(HTML.escape(text.counts))<span id="status" role="status">\(HTML.escape(text.loading))</span> · \
      <a id="report-link" href="\(HTML.escape(base))report">\(HTML.escape(text.report))</a></p>
      <p id="banner" hidden></p>
      </header>
      <main>
      <details id="tools" class="drawer"><summary>\(HTML.escape(text.toolsName)) \
      <span class="summary-more">\(HTML.escape(text.tools))</span></summary>
      <div class="tools">
      <form id="announce" class="tool"><label for="announcement">\(HTML.escape(text.announcement))</label>\
      <input id="announcement" maxlength="280" autocomplete="off">\
      <span class="tool-buttons"><button class="primary">\(HTML.escape(text.announce))</button> \
      <button type="button" id="unannounce">\(HTML.escape(text.clear))</button></span></form>
      <form id="filter" class="tool"><label for="filter-word">\(HTML.escape(text.filterWord))</label>\
      <input id="filter-word" maxlength="64" autocomplete="off">\
      <span class="tool-buttons"><button class="primary">\(HTML.escape(text.add))</button> \
      <button type="button" id="unfilter">\(HTML.escape(text.remove))</button></span></form>
      <form id="labels" class="tool"><label for="label-name">\(HTML.escape(text.label))</label>\
      <input id="label-name" maxlength="160" autocomplete="off">\
      <span class="tool-buttons"><button class="primary">\(HTML.escape(text.add))</button> \
      <button type="button" id="unlabel">\(HTML.escape(text.remove))</button></span></form>
      <p class="tool tool-buttons"><button type="button" id="next">\(HTML.escape(text.next))</button> \
      <button type="button" id="show-queue">\(HTML.escape(text.showQueue))</button></p>
      \(joinLine)
      </div>
      <section id="polls" hidden></section>
      </details>
      <nav id="tabs" aria-label="\(HTML.escape(text.lists))" hidden></nav>
      <div class="filters" hidden><label for="search">\(HTML.escape(text.search))</label> <input id="search" type="search">
      <label for="sort">\(HTML.escape(text.sort))</label> <select id="sort"><option value="votes">\(HTML.escape(text.byVotes))</option>\
      <option value="time">\(HTML.escape(text.newest))</option></select>
      <label for="label-filter">\(HTML.escape(text.label))</label> <select id="label-filter">\
      <option value="">\(HTML.escape(text.allLabels))</option></select>
      <span class="desk-keys"><button type="button" id="undo">\(HTML.escape(text.undo))</button> \
      <button type="button" id="keys">\(HTML.escape(text.keys))</button></span></div>
      <h2 class="visually-hidden">\(HTML.escape(text.questions))</h2>
      <div id="rows" class="cards" role="list">
      \(rows.joined(separator: "\n"))
      </div>
      \(older)
      </main>
      <script type="module" src="/assets/presenter.js"></script><noscript><p>\(HTML.escape(text.noScript))</p></noscript>
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
      <html lang="\(HTML.escape(words.language))"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(HTML.escape(text.title))</title>
      <link rel="stylesheet" href="/assets/presenter.css"></head>
      <body class="desk login">
      <main>
      <h1>\(HTML.escape(text.title))</h1>
      \(failed ? "<p>\(HTML.escape(text.wrong))</p>" : "")
      <form method="post" action="\(base)login">
      <label>\(HTML.escape(text.token)) <input type="password" name="token" autofocus></label>
      <button class="primary">\(HTML.escape(text.button))</button>
      </form>
      </main>
      </body></html>

      """
  }
}
