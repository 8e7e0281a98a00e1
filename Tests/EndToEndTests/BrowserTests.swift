import Foundation
import TestSupport
import Testing

/// The presenter's page in Debian's Chromium (headless, over the DevTools protocol): a new
/// question appears without a reload, a click answers it, the attendee's `qna` hears it.
@Suite("the presenter's page in a browser", .serialized)
struct BrowserTests {
  @Test func aQuestionAppearsLiveAndAClickAnswersIt() async throws {
    let token = "browser-token-0123"
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--admin-token", token,
    ])
    defer { server.stop() }
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/presenter_page.py")
    let run = try ProgramRun(
      PeerProcess.python,
      [
        script.path, "--server", "http://127.0.0.1:\(server.port)", "--token", token,
        "--qna", HeadlessProcess.qnaPath,
      ])
    #expect(run.status == 0, "\(run.output.suffix(4000))\n\(run.errors)")
  }
}

extension BrowserTests {
  /// Tests/Browser/presenter_design.py (issue #51): the presenter's page as a moderator's desk
  /// at 360×800 (touch), 768×1024 and 1280×800: approve, dismiss, undo, highlight and answer
  /// by keyboard (and by tap on the phone), a card's menu and the help by keyboard, nothing
  /// wider than the screen, 44-pixel targets on the phone, tidy -access 3, AA contrast, the
  /// first load under 60 KB; screenshots light and dark in .build/artefacts/browser.
  @Test func thePresenterDeskAtThreeSizes() throws {
    try BrowserPage.run("presenter_design.py")
  }
}

/// The attendee page and the projector view in Chromium (Tests/Browser/attendee_page.py):
/// at a phone's 360×800 and at 1280×720 and 1920×1080, with `qna` in tmux beside it, a
/// restart of the server, scripts off, hostile text, and QR codes read by zbarimg. The
/// screenshots stay in .build/artefacts/browser for people to look at.
@Suite("the attendee page and the projector in a browser", .serialized)
struct AttendeeBrowserTests {
  @Test func askVoteAnswerRestartAndScriptsOff() throws {
    try BrowserPage.run("attendee_page.py")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/page_check.py: tidy's accessibility checks at level 3 and our own (labels,
  /// landmarks, names, no inline script or style, WCAG AA contrast light and dark).
  @Test func pagesPassTheAccessibilityCheck() throws {
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/page_check.py")
    let run = try ProgramRun(
      PeerProcess.python,
      [script.path, "--qna-server", QnAServerProcess.path, "--qna", HeadlessProcess.qnaPath])
    #expect(run.status == 0, "\(run.output.suffix(4000))\n\(run.errors)")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/paid_identity.py, in a network namespace of its own: behind one address the
  /// server counts, on its defaults, with the lane of clients that cannot pay spent, the page
  /// pays for its identity in Web Workers (extension `identityWork`) and asks as itself.
  @Test func thePagePaysForItsIdentityBehindOneAddress() throws {
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/paid_identity.py")
    let run = try ProgramRun(
      "/usr/bin/unshare",
      ["-n", PeerProcess.python, script.path, "--qna-server", QnAServerProcess.path])
    #expect(run.status == 0, "\(run.output.suffix(4000))\n\(run.errors)")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/ticket_page.py: a session that admits by ticket (extension `tickets`)
  /// refuses the page without one, in words; the ticket's link, opened on that page, is an
  /// identity, taken out of the address bar, and the page asks as itself.
  @Test func theTicketsLinkIsThePagesIdentity() throws {
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/ticket_page.py")
    let run = try ProgramRun(
      PeerProcess.python, [script.path, "--qna-server", QnAServerProcess.path])
    #expect(run.status == 0, "\(run.output.suffix(4000))\n\(run.errors)")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/poll_pages.py: a single choice and a word cloud (extension `polls`) on a
  /// 390×844 phone, answered by a tap and by typed words, every control at least 44×44; a
  /// second attendee and `qna` terminals move the bars; the projector at 1280×720 shows the
  /// cloud without overlap, then the bars, and a QR code zbarimg reads. Screenshots in
  /// .build/artefacts/browser.
  @Test func pollsAreAnsweredOnPhonesAndShownOnTheProjector() throws {
    try BrowserPage.run("poll_pages.py")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/report_page.py: a session's report (`/s/CODE/report`, and `qna-server
  /// report CODE -o FILE`) after a room of `qna` attendees, four polls and a presenter, the
  /// talk spread over an hour: its figures, charts (a legend key drawing each line), tables
  /// and polls are the room's; hostile text stays text; no sideways scrolling at 360 and
  /// 1280; tidy's and our accessibility checks, AA contrast light, dark and printed; the CSP
  /// kept; the file the same, its style inside it, and printed on white with its numbers.
  /// Screenshots, the file and its PDF in .build/artefacts/browser.
  @Test func theSessionReportIsTheRoomsOnScreenAndOnPaper() throws {
    try BrowserPage.run("report_page.py")
  }
}

extension AttendeeBrowserTests {
  /// Tests/Browser/text_poll_pages.py: an open text poll (extension `polls`, kind `text`) in a
  /// session that holds answers for review: typed on a 390×844 phone, which says it waits;
  /// approved with a click and dismissed with the keyboard on the presenter's page; the phone
  /// and the projector then show the approved entries as text, hostile markup inert, and
  /// `qna` terminals answer too (a 10,000 character answer refused). Screenshots in
  /// .build/artefacts/browser.
  @Test func openTextAnswersAreModeratedAndShown() throws {
    try BrowserPage.run("text_poll_pages.py")
  }
}

/// A page test of Tests/Browser (`page_test_arguments`): run against the built qna-server and
/// qna, its screenshots in .build/artefacts/browser; its failure's output in the issue.
enum BrowserPage {
  static func run(_ name: String) throws {
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/\(name)")
    let artefacts = PeerProcess.packageRoot.appendingPathComponent(".build/artefacts/browser")
    let run = try ProgramRun(
      PeerProcess.python,
      [
        script.path, "--qna-server", QnAServerProcess.path, "--qna", HeadlessProcess.qnaPath,
        "--artefacts", artefacts.path,
      ])
    #expect(run.status == 0, "\(run.output.suffix(4000))\n\(run.errors)")
  }
}
