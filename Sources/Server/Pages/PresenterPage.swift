import Foundation
import QnAStore

/// The presenter's page: a page of questions, newest first, with an Answer button per
/// unanswered row and a link to the older ones (what works without a script); then the
/// script makes it live (`PresenterScript`). Content is attacker-controlled and always
/// escaped. No inline script or style: both are assets (`PresenterPage.stylesheet`,
/// `PresenterScript.source`), so the Content-Security-Policy forbids every inline one.
package enum PresenterPage {
  /// `base`: where the session's routes are (`/`, or `/s/CODE/`); `title`: a session's title.
  package static func render(
    _ questions: [StoredQuestion], total: Int, answered: Int, olderFrom: UUID? = nil,
    base: String = "/", title: String? = nil
  ) -> String {
    let rows = questions.map { question in
      let id = question.id.uuidString
      let action =
        question.answered
        ? "answered"
        : "<form method=\"post\" action=\"\(base)\(id)/answer\"><button>Answer</button></form>"
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
      olderFrom.map { "<p><a href=\"\(base)?before=\($0.uuidString)\">Older questions</a></p>" }
      ?? ""
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <title>Questions (\(open) open)</title>
      <link rel="stylesheet" href="/assets/presenter.css"></head>
      <body data-base="\(HTML.escape(base))">
      <h1>\(title.map { HTML.escape($0) + " — questions" } ?? "Questions")</h1>
      <p>\(total) asked, \(open) open. <span id="status">Loading…</span></p>
      <p id="banner" hidden></p>
      <nav id="tabs"></nav>
      <p><label>Sort <select id="sort"><option value="votes">by votes</option>\
      <option value="time">newest first</option></select></label>
      <label>Search <input id="search" type="search"></label></p>
      <table>
      <thead><tr><th>Question</th><th>Votes</th><th>Asked</th><th></th></tr></thead>
      <tbody id="rows">
      \(rows.joined(separator: "\n"))
      </tbody>
      </table>
      \(older)
      <script src="/assets/presenter.js"></script>
      </body></html>

      """
  }

  /// `base`: `/`, for the admin token, or `/s/CODE/`, for that session's presenter token.
  package static func login(failed: Bool, base: String = "/") -> String {
    """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Presenter login</title></head>
    <body>
    <h1>Presenter login</h1>
    \(failed ? "<p>Wrong token.</p>" : "")
    <form method="post" action="\(base)login">
    <label>\(base == "/" ? "Admin token" : "Presenter token") <input type="password" name="token" autofocus></label>
    <button>Log in</button>
    </form>
    </body></html>

    """
  }

  /// The page's style sheet, served as `/assets/presenter.css`.
  package static let stylesheet = """
    body { font-family: system-ui, sans-serif; margin: 2em; }
    table { border-collapse: collapse; width: 100%; }
    td, th { border-bottom: 1px solid #ddd; padding: .5em; text-align: left; vertical-align: top; }
    td:first-child { white-space: pre-wrap; overflow-wrap: anywhere; }
    tr.answered td, tr.dismissed td { color: #777; }
    tr.now td { background: #fff6cc; }
    #tabs button.current { font-weight: bold; }
    #banner { background: #fff6cc; padding: .5em; font-weight: bold; }
    .answer { color: #264; margin-top: .3em; }
    """
}
