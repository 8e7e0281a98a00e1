"""A session's report (`/s/CODE/report`, and `qna-server report CODE -o FILE`) in Debian's
Chromium, headless, over the DevTools protocol, against a real qna-server whose room was
made as a room would make it.

The presenter makes a single choice, a rating, a word cloud, an open text and a quiz with a
named leaderboard (opened and shown, the quiz closed) and a draft no one sees, through the
API. Six `qna --headless` attendees, named (one name hostile) or not, ask (one question
hostile, one very long), answer the polls, then vote for one another's questions in a
second run as the same identities; two more stay connected, and the report counts them
present at once. The presenter answers two questions and dismisses one. Then, the server
stopped, the room's times are spread over an hour in its database, as a talk spreads them
(the charts have a talk's shape to show), and the server starts again.

The served page, logged in as the presenter: its figures are the room's (questions asked,
answered, votes, poll answers, attendees joined, most present at once), every section is
there; the chart over time has a line per series and a legend whose keys draw each line as
the chart does (colour and dashes), its numbers add up to the figures; the states' keys tell
the stacked bar's parts apart; every table has a caption; the top questions in the room's
order, the dismissed one left out; each poll's bars as its results (the draft left out), the
quiz's correct option marked and its leaderboard the server's; the hostile question, poll
answer and name stay text (no element, no script, no alert, no bidi control
obeyed); no horizontal scrolling at 360×800 nor at 1280×800, the long question wrapped; the
checks the other pages pass (page_check.py: tidy -access 3 and our own), contrast AA (text
4.5:1, chart colours 3:1) in the style sheet's light, dark and print colours and as the
browser computes them, light and dark; no Content-Security-Policy violation, nothing amiss
in the console. The file `qna-server report` writes: its embedded style applies, it reads as
the served page does, and printed (even from a dark screen) it is white, in the light
colours, with its keys and the numbers the screen folds away. Screenshots (1280×800 light
and dark, 360×800, whole pages), the file (report.html) and the file printed to A4
(report.pdf) go to --artefacts. Exit 0 when all of that held; the reason on stderr otherwise.

Usage: report_page.py --qna-server PATH --qna PATH --artefacts DIR
"""

import base64
import json
import math
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
import urllib.request

from browser_support import Server, free_port, page_test_arguments, viewport, whole_page
from page_check import contrast, own_checks, tidy
from presenter_page import Page, fail, start_chromium

ADMIN = "browser-report-0123"
TITLE = "Swift on the server: three years on call"
HOSTILE = "<script>alert(1)</script> \u202e reversed"
# As every page shows it: markup as text, the bidi control as a visible escape (HTML.escape).
HOSTILE_SHOWN = "<script>alert(1)</script> \\u{202E} reversed"
LONG = ("When the room grows past a few thousand attendees and the projector, the presenters'"
        " consoles and every phone all hang on the same fan-out, how do you keep one slow"
        " reader from holding the others back, what do you measure to know it is happening"
        " before the room notices, and which of the limits you described earlier would you"
        " raise first if the conference doubled next year, given that the database already"
        " sits at half its connections during the keynote? See "
        "https://example.org/notes/" + "fan-out-back-pressure-" * 4 + "appendix")
BACKPRESSURE = "How do you handle back-pressure on the WebSocket fan-out?"
SLIDES = "Will the slides and the recording be online?"
OFF_TOPIC = "Is the cooking class in this room?"
FAILOVER = "What does a Postgres failover look like for the room?"
# An open text's answer as long as one may be (140 characters), with a run that cannot break.
LONG_TEXT = "Publish the code: https://example.org/" + "conference-2026-q-and-a-" * 4 + "x" * 6
MARKUP_TEXT = "<img src=x onerror=alert(2)> slides online?"

POLLS = {
    "choice": {"kind": "single", "prompt": "Which topic should the next talk go deeper on?",
               "options": ["Concurrency", "Macros", "Embedded Swift",
                           "Server-side Swift on Linux with Postgres"]},
    "rating": {"kind": "rating", "prompt": "How useful was this talk?"},
    "cloud": {"kind": "words", "prompt": "Swift on the server in a word?", "max": 3},
    "text": {"kind": "text", "prompt": "What should we change for next year?"},
    "quiz": {"kind": "single", "prompt": "Which keyword makes a type an actor?",
             "options": ["class", "actor", "struct"], "correct": [1], "namedBoard": True},
}
DRAFT = {"kind": "single", "prompt": "A draft the room never saw", "options": ["Yes", "No"]}
HOSTILE_NAME = "<b>Mallory</b>"
# Each attendee: their name (none: anonymous), what they ask, how they answer the polls,
# whose questions they vote for.
ATTENDEES = [
    {"name": "Ada", "ask": [BACKPRESSURE], "vote": [HOSTILE, LONG, SLIDES, FAILOVER],
     "polls": {"choice": "1", "rating": "5", "cloud": "fast, safe", "text": "More live demos, please",
               "quiz": "2"}},
    {"name": HOSTILE_NAME, "ask": [HOSTILE], "vote": [BACKPRESSURE, LONG, SLIDES],
     "polls": {"choice": "4", "rating": "4", "cloud": "swift, fast", "text": MARKUP_TEXT, "quiz": "2"}},
    {"name": "Grace", "ask": [LONG], "vote": [BACKPRESSURE, SLIDES, HOSTILE],
     "polls": {"choice": "1", "rating": "5", "cloud": "actors, sendable", "text": LONG_TEXT,
               "quiz": "1"}},
    {"name": "Margaret", "ask": [SLIDES, OFF_TOPIC], "vote": [BACKPRESSURE, FAILOVER],
     "polls": {"choice": "2", "rating": "3", "cloud": "swift", "quiz": "2"}},
    {"name": None, "ask": [FAILOVER], "vote": [BACKPRESSURE, SLIDES],
     "polls": {"choice": "3", "rating": "4", "text": "More live demos, please", "quiz": "3"}},
    {"name": "Linus", "ask": [], "vote": [BACKPRESSURE, SLIDES, HOSTILE, LONG],
     "polls": {"choice": "1", "cloud": "fast"}},
]
# Attendees who stay connected (and say nothing) while the report is read.
PRESENT = 2
# Tidy's checks of HTML 4 tables that HTML 5 has no place for: a table's `summary` attribute
# (obsolete: the caption says what the table is), and `abbr` for every header over 15
# characters (a check by hand, "may require").
TIDY_HTML4 = ("[5.5.1.1]", "[5.6.1.1]")
SECTIONS = ["summary", "timeline", "states", "top", "polls", "attendance"]
# The style sheet's colours: text on its background (4.5:1), and what a chart draws with on
# the page's background (3:1, WCAG 1.4.11), in every scheme the sheet has.
TEXT_PAIRS = (("fg", "bg"), ("muted", "bg"))
GRAPHIC_PAIRS = (("fill", "bg"), ("asked", "bg"), ("votes", "bg"), ("answered", "bg"),
                 ("polls", "bg"), ("live", "bg"), ("review", "bg"), ("dismissed", "bg"),
                 ("present", "bg"), ("fill", "track"))


class ReportPage(Page):
    """A tab that also keeps what the page says in its console (`messages`)."""

    def __init__(self, browser_url):
        super().__init__(browser_url)
        self.messages = []

    def event(self, message):
        if message.get("method") == "Log.entryAdded":
            entry = message["params"]["entry"]
            self.messages.append(f"{entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
        elif message.get("method") == "Runtime.consoleAPICalled":
            args = message["params"].get("args", [])
            self.messages.append(message["params"].get("type", "log") + ": " + " ".join(
                str(a.get("value", a.get("description", ""))) for a in args))
        elif message.get("method") == "Runtime.exceptionThrown":
            self.messages.append(f"exception: {message['params']['exceptionDetails']}")


def main():
    args = page_test_arguments()
    scratch = tempfile.mkdtemp(prefix="qna-report-page-")
    database = os.path.join(scratch, "qna.db")
    server = Server(args.qna_server, free_port(), database, "--admin-token", ADMIN)
    chromium, present = None, []
    try:
        server.start()
        code, token = server.session(TITLE)
        api = lambda method, path, body=None: server.api(method, f"/s/{code}{path}", token, body)
        polls = {name: api("POST", "/api/polls", spec) for name, spec in POLLS.items()}
        api("POST", "/api/polls", DRAFT)
        for poll in polls.values():
            for action in ("open", "show"):
                api("POST", f"/api/polls/{poll['id']}/{action}")

        # The room: two attendees who stay, six who ask, answer and vote, the presenter.
        present = [stay(args.qna, server, code, os.path.join(scratch, f"present-{n}"))
                   for n in range(PRESENT)]
        for n, attendee in enumerate(ATTENDEES):
            answers = {polls[name]["id"]: value for name, value in attendee["polls"].items()}
            headless(args.qna, server, code, os.path.join(scratch, f"attendee-{n}"),
                     (["--name", attendee["name"]] if attendee["name"] else [])
                     + [a for text in attendee["ask"] for a in ("--ask", text)]
                     + [a for poll, value in answers.items() for a in ("--poll", f"{poll}={value}")])
        # The quiz closed: its leaderboard.
        api("POST", f"/api/polls/{polls['quiz']['id']}/close")
        ids = {q["content"]: q["id"] for q in api("GET", "/api/questions")}
        asked = [text for attendee in ATTENDEES for text in attendee["ask"]]
        if sorted(ids) != sorted(asked):
            fail(f"the room stored {sorted(ids)}, not {sorted(asked)}")
        for n, attendee in enumerate(ATTENDEES):
            headless(args.qna, server, code, os.path.join(scratch, f"attendee-{n}"),
                     (["--name", attendee["name"]] if attendee["name"] else [])
                     + [a for text in attendee["vote"] for a in ("--vote", ids[text])])
        api("POST", f"/api/questions/{ids[BACKPRESSURE]}/answer",
            {"text": "Bounded queues per socket; a reader that falls behind is dropped.",
             "private": False})
        api("POST", f"/api/questions/{ids[SLIDES]}/answer")
        api("POST", f"/api/questions/{ids[OFF_TOPIC]}/dismiss")
        questions = api("GET", "/api/questions")
        results = {name: next(p for p in api("GET", "/api/polls")["polls"] if p["id"] == poll["id"])
                   for name, poll in polls.items()}
        expected = {
            "asked": len(asked),
            "answered": 2,
            "votes": sum(len(a["vote"]) for a in ATTENDEES),
            "poll answers": sum(len(a["polls"]) for a in ATTENDEES),
        }
        if sum(q["votes"] for q in questions) != expected["votes"]:
            fail(f"the room counts {sum(q['votes'] for q in questions)} votes, not {expected['votes']}")
        if sum(p["results"]["answers"] for p in results.values()) != expected["poll answers"]:
            fail(f"the polls' results are {results}")
        joined = PRESENT + len(ATTENDEES)

        # The head count writes attendance once a second: the two who stay are seen at once.
        report_url = f"{server.url}/s/{code}/report"
        deadline = time.time() + 15
        while (peak := figures_in(fetch(report_url, token)).get("at once", 0)) < PRESENT:
            if time.time() > deadline:
                fail(f"the report says {peak} present at once with {PRESENT} connected")
            time.sleep(0.25)

        # The talk as it would be: an hour long. The room's times are moved back in the
        # database (the server stopped), spread over the hour as a talk spreads them, with
        # the attendance of its minutes; the two who stay come back after the restart.
        server.stop()
        an_hour_long(database, code, joined)
        server.start()
        served_html, policy = fetch(report_url, token, with_policy=True)
        if "unsafe-inline" in policy or "style-src 'self'" not in policy or "script-src 'self'" not in policy:
            fail(f"the report's Content-Security-Policy allows inline style or script: {policy}")

        chromium, browser_url = start_chromium(os.path.join(scratch, "profile"))
        page = ReportPage(browser_url)
        page.watch()
        page.call("Runtime.enable")
        page.call("Log.enable")
        page.call("Emulation.setScrollbarsHidden", hidden=True)
        log_in(page, f"{server.url}/s/{code}/", token)
        viewport(page, 1280, 800, mobile=False)
        page.call("Page.navigate", url=report_url)
        page.wait_for("the report", "document.readyState === 'complete'"
                      " && !!document.querySelector('#attendance')")
        # The pictures first: a run that fails below leaves them to look at.
        light = whole_page(page, os.path.join(args.artefacts, "report-1280-light.png"))
        page.call("Emulation.setEmulatedMedia",
                  features=[{"name": "prefers-color-scheme", "value": "dark"}])
        dark = whole_page(page, os.path.join(args.artefacts, "report-1280-dark.png"))
        page.call("Emulation.setEmulatedMedia", features=[])
        viewport(page, 360, 800, mobile=True)
        phone = whole_page(page, os.path.join(args.artefacts, "report-360-light.png"))
        viewport(page, 1280, 800, mobile=False)
        for shot in (light, dark, phone):
            print(f"artefact: {shot}")

        figures = check_report(page, expected, joined, questions, polls, results)
        served_text = page.evaluate("document.querySelector('main').innerText")
        for width in (1280, 360):
            viewport(page, width, 800, mobile=width < 600)
            no_sideways_scroll(page, width)
        viewport(page, 1280, 800, mobile=False)
        computed_contrast(page, "light")
        page.call("Emulation.setEmulatedMedia",
                  features=[{"name": "prefers-color-scheme", "value": "dark"}])
        if page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(18, 18, 18)":
            fail("the report is not dark when the system is")
        computed_contrast(page, "dark")
        for width in (1280, 360):
            viewport(page, width, 800, mobile=width < 600)
            no_sideways_scroll(page, width)
        page.call("Emulation.setEmulatedMedia", features=[])
        inert(page, "the served report")

        # The file `qna-server report` writes: the same report, its style inside it.
        report_file = os.path.join(scratch, "report.html")
        run = subprocess.run([args.qna_server, "report", code.lower(), "--db", database,
                              "-o", report_file], capture_output=True, text=True, timeout=30)
        if run.returncode != 0:
            fail(f"qna-server report exited {run.returncode}: {run.stderr}")
        viewport(page, 1280, 800, mobile=False)
        page.call("Page.navigate", url="file://" + report_file)
        page.wait_for("the report's file", "document.readyState === 'complete'"
                      " && !!document.querySelector('#attendance')")
        shutil.copyfile(report_file, os.path.join(args.artefacts, "report.html"))
        pdf = print_pdf(page, os.path.join(args.artefacts, "report.pdf"))
        print(f"artefact: {pdf}")
        styled = page.evaluate("[getComputedStyle(document.querySelector('.figures')).display,"
                               " getComputedStyle(document.querySelector('svg.chart .line.asked')).stroke]")
        if styled[0] != "grid" or styled[1] in ("none", ""):
            fail(f"the file's style sheet does not apply: .figures is {styled[0]}, the line {styled[1]}")
        if page.evaluate("document.scripts.length") or page.evaluate(
                "document.querySelectorAll('link[rel=stylesheet]').length"):
            fail("the report's file has a script or links a style sheet: it does not stand alone")
        file_figures = check_report(page, expected, joined, questions, polls, results,
                                    peak=figures["at once"])
        # The attendance may have moved a minute on since the served page was read; the rest not.
        file_text = page.evaluate("document.querySelector('main').innerText")
        if strip_attendance(file_text) != strip_attendance(served_text):
            fail("the file reads otherwise than the served page:\n" + diff(served_text, file_text))
        if file_figures != figures:
            fail(f"the file's figures {file_figures}, the served page's {figures}")
        for width in (1280, 360):
            viewport(page, width, 800, mobile=width < 600)
            no_sideways_scroll(page, width)
        inert(page, "the report's file")
        printed(page)
        no_console_problems(page)

        # The checks the other pages pass, last: the screenshots are there to see why not.
        problems = [f"tidy: {line}" for line in tidy(served_html) if not any(
            code in line for code in TIDY_HTML4)]
        problems += own_checks("report", served_html)
        css = urllib.request.urlopen(f"{server.url}/assets/report.css").read().decode()
        problems += sheet_contrast(css)
        if problems:
            fail("the report's accessibility:\n" + "\n".join(problems))
        print(f"report page: {figures} as made by {joined} attendees and the presenter; every"
              " section, the top questions in order, five polls' bars and a quiz's leaderboard;"
              " hostile text inert; no sideways scrolling at 360 and 1280; tidy, landmarks and"
              " contrast AA light, dark and printed; no CSP violation; the file the same, its"
              " style inside it, printed on white with its numbers")
    finally:
        for process in present:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if chromium:
            chromium.kill()
            chromium.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


# When each question was asked and answered, in minutes from the talk's start; each
# poll's answers (minutes from, a minute apart); how many were present, minute by minute.
ASKED_AT = {BACKPRESSURE: 4, HOSTILE: 9, LONG: 14, SLIDES: 21, OFF_TOPIC: 22, FAILOVER: 33}
ANSWERED_AT = {BACKPRESSURE: 38, SLIDES: 52}
POLL_AT = {"choice": 11, "rating": 55, "cloud": 25, "text": 44, "quiz": 30}
TALK = 60


def an_hour_long(database, code, joined):
    """Moves the session's times back as if its talk had started an hour ago (TALK minutes):
    questions, answers, votes (each a few minutes after its question) and poll answers at
    their minutes, and attendance for every minute before the first one counted, rising to
    everyone who joined and thinning at the end."""
    reference = 978307200  # the store's times are seconds since 2001
    start = time.time() - reference - (TALK + 5) * 60
    at = lambda minutes: start + minutes * 60
    db = sqlite3.connect(database)
    try:
        session = db.execute("SELECT id FROM session WHERE code = ?", (code,)).fetchone()[0]
        questions = db.execute("SELECT id, content FROM question WHERE session = ?", (session,)).fetchall()
        for number, (qid, content) in enumerate(questions):
            db.execute("UPDATE question SET createdAt = ?, answeredAt = CASE WHEN answeredAt IS NULL"
                       " THEN NULL ELSE ? END WHERE id = ?",
                       (at(ASKED_AT[content]), at(ANSWERED_AT.get(content, TALK)), qid))
            votes = db.execute("SELECT attendee FROM vote WHERE question = ? ORDER BY attendee", (qid,)).fetchall()
            for n, (attendee,) in enumerate(votes):
                db.execute("UPDATE vote SET createdAt = ? WHERE question = ? AND attendee = ?",
                           (at(ASKED_AT[content] + 1 + (3 * n + number) % 11), qid, attendee))
        polls = db.execute("SELECT id, n FROM poll WHERE session = ? ORDER BY n", (session,)).fetchall()
        for (pid, n), name in zip(polls, POLLS):
            answers = db.execute("SELECT attendee FROM pollAnswer WHERE poll = ? ORDER BY attendee", (pid,)).fetchall()
            for k, (attendee,) in enumerate(answers):
                db.execute("UPDATE pollAnswer SET at = ? WHERE poll = ? AND attendee = ?",
                           (at(POLL_AT[name] + k % 3 + 0.3), pid, attendee))
        first = db.execute("SELECT MIN(minute) FROM attendance WHERE session = ?", (session,)).fetchone()[0]
        first = first or int((start + reference) // 60) + TALK + 5
        begin = int((start + reference) // 60) - 3
        for minute in range(begin, first):
            m = minute - begin
            present = min(joined - 1, 1 + m * 2, max(1, (first - minute) // 2))
            peak = joined if m == 25 else present
            db.execute("INSERT INTO attendance (session, minute, peak, last) VALUES (?, ?, ?, ?)",
                       (session, minute, peak, present))
        db.commit()
    finally:
        db.close()


def qna_join(qna, server, code, state):
    os.makedirs(state, exist_ok=True)
    return ([qna, "join", code, "--url", f"ws://127.0.0.1:{server.port}", "--headless", "--no-stdin"],
            {**os.environ, "XDG_STATE_HOME": state})


def headless(qna, server, code, state, options):
    """One run of an attendee (`state`: who they are, kept between runs) that waits for the
    server's verdict on everything it sent."""
    arguments, environment = qna_join(qna, server, code, state)
    run = subprocess.run(arguments + ["--exit-after-send", "--timeout", "20s", *options],
                         capture_output=True, text=True, timeout=60, env=environment)
    if run.returncode != 0:
        fail(f"qna exited {run.returncode} with {options}: {run.stderr}{run.stdout[-2000:]}")


def stay(qna, server, code, state):
    """An attendee who joins and stays until ended (SIGTERM); what it prints goes to a file
    beside its state (a pipe no one reads would end it, or hold it)."""
    arguments, environment = qna_join(qna, server, code, state)
    log = os.path.join(state, "events.jsonl")
    with open(log, "w") as output:
        process = subprocess.Popen(arguments, stdout=output, stderr=subprocess.STDOUT,
                                   env=environment)
    deadline = time.time() + 15
    while time.time() < deadline and process.poll() is None:
        with open(log) as events:
            if '"event":"handshake"' in events.read():
                return process
        time.sleep(0.05)
    process.kill()
    process.wait()
    with open(log) as events:
        fail(f"an attendee who stays never joined: {events.read()[-2000:]}")


def fetch(url, token, with_policy=False):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return (text, response.headers.get("Content-Security-Policy", "")) if with_policy else text


LABELS = {"asked": "asked", "answered": "answered", "votes": "^votes?$",
          "poll answers": "poll answer", "joined": "joined", "at once": "at once"}


def figures_in(html):
    """The summary's figures, by what each says, from the report's HTML: each item of the
    list of figures, a number and its words."""
    summary = re.search(r'<section id="summary">(.*?)</section>', html, re.S)
    items = re.split(r"<(?:li|div)\b[^>]*>", summary.group(1) if summary else "")[1:]
    return figures_of([re.sub(r"<[^>]*>", " ", item) for item in items])


def figures_of(items):
    """Each item's number by what its words say (LABELS)."""
    pairs = [m.groups() for m in (re.match(r"\s*(\d+)\s*(.*?)\s*$", item, re.S) for item in items) if m]
    return {key: int(value) for key, pattern in LABELS.items()
            for value, label in pairs if re.search(pattern, label)}


def log_in(page, room, token):
    """The presenter's login form, as a person fills it: the login cookie, then the page."""
    page.call("Page.navigate", url=room + "login")
    page.wait_for("the login form", "!!document.querySelector('input[name=token]')")
    page.submit_login(token)
    page.wait_for("the presenter's page", "location.pathname.endsWith('/') && document.readyState === 'complete'"
                  " && !document.querySelector('input[name=token]')")


def rows(page, selector, cells):
    """Each row of `selector` as its cells' text, `cells` a CSS selector per column."""
    return page.evaluate(
        f"[...document.querySelectorAll({json.dumps(selector)})].map((r) =>"
        f" {json.dumps(cells)}.map((c) => r.querySelector(c)?.textContent ?? null))")


def percent(part, whole):
    """As SessionReport.percent writes it: one decimal, halves up."""
    if not whole:
        return ""
    tenths = math.floor(part * 1000 / whole + 0.5)
    return f"{tenths // 10}.{tenths % 10}%"


def check_report(page, expected, joined, questions, polls, results, peak=None):
    """Everything the report says against what the room did; its figures by name."""
    missing = page.evaluate(f"{json.dumps(SECTIONS)}.filter((id) =>"
                            " !document.querySelector(`main > section#${id} > h2`))")
    if missing:
        fail(f"the report has no section {missing}")
    heading = page.evaluate("document.querySelector('h1').textContent")
    if heading != TITLE:
        fail(f"the report's heading is {heading!r}, not {TITLE!r}")

    pairs = page.evaluate("[...document.querySelectorAll('#summary .figures > *')].map((item) => item.innerText)")
    figures = figures_of(pairs)
    for key, value in expected.items():
        if figures.get(key) != value:
            fail(f"the report says {figures.get(key)} {key}, the room made {value}: {pairs}")
    if figures.get("joined", 0) < joined:
        fail(f"the report says {figures.get('joined')} attendees joined; {joined} did")
    if figures.get("at once", 0) < PRESENT or (peak is not None and figures["at once"] < peak):
        fail(f"the report says {figures.get('at once')} at once; {PRESENT} stayed connected")
    if len(figures) != len(LABELS):
        fail(f"the summary's figures are {pairs}")

    # Over time: a line per series and a key in the legend that draws it as the chart does
    # (its colour and its dashes: colour alone tells nothing to some), axes labelled, the
    # numbers adding up.
    series = page.evaluate("[...document.querySelectorAll('#timeline .legend li')].map((li) => li.textContent)")
    lines = page.evaluate("document.querySelectorAll('#timeline svg.chart polyline.line').length")
    labels = page.evaluate("document.querySelectorAll('#timeline svg.chart text.axis').length")
    if len(series) != 4 or lines != 4 or labels < 6:
        fail(f"the chart over time has the series {series}, {lines} lines, {labels} axis labels")
    keys = page.evaluate(
        "[...document.querySelectorAll('#timeline .legend li')].map((li) => {"
        " const key = li.querySelector('svg.key .line'), line = key && document.querySelector("
        " `#timeline svg.chart polyline.line.${[...key.classList].find((c) => c !== 'line')}`);"
        " const look = (e) => e && [getComputedStyle(e).stroke, getComputedStyle(e).strokeDasharray];"
        " return [li.textContent, look(key), look(line)]; })")
    for name, key, line in keys:
        if not key:
            fail(f"the legend's key for {name} draws no line (an svg.key with the series' .line)")
        if key != line:
            fail(f"the legend's key for {name} is drawn {key}, its line {line}")
    swatches = page.evaluate(
        "[...document.querySelectorAll('#states tbody th')].map((th) => [th.textContent,"
        " getComputedStyle(th.querySelector('svg.key rect') ?? th).fill])")
    parts = page.evaluate("[...document.querySelectorAll('#states svg.stacked rect')].map((r) => getComputedStyle(r).fill)")
    if len({fill for _, fill in swatches}) != len(swatches) or not set(parts) <= {fill for _, fill in swatches}:
        fail(f"the states' keys {swatches} do not tell the stacked bar's parts {parts} apart")
    # Every table named (its caption), for those who go from table to table.
    unnamed = page.evaluate("[...document.querySelectorAll('table')].filter((t) => !t.caption?.textContent.trim()).length")
    if unnamed:
        fail(f"{unnamed} tables have no caption")
    table = page.evaluate("[...document.querySelectorAll('#timeline table.numbers tbody tr')]"
                          ".map((tr) => [...tr.querySelectorAll('td')].map((td) => +td.textContent))")
    totals = [sum(column) for column in zip(*table)]
    if totals != [expected["asked"], expected["votes"], expected["answered"], expected["poll answers"]]:
        fail(f"the numbers over time add up to {totals} for {series}")

    # Answered and open: the stacked bar's parts and the table.
    states = dict(rows(page, "#states table tbody tr", ["th", "td.num"]))
    dismissed = sum(q["state"] == "dismissed" for q in questions)
    want = {"Answered": "2", "Open": str(expected["asked"] - 2 - dismissed),
            "Waiting for review": "0", "Dismissed": str(dismissed)}
    if states != want:
        fail(f"the questions by state are {states}, not {want}")
    parts = page.evaluate("document.querySelectorAll('#states svg.stacked rect').length")
    if parts != sum(value != "0" for value in want.values()):
        fail(f"the stacked bar has {parts} parts for {want}")

    # The top questions: the room's, most voted first (the earlier asked first among equals),
    # never the dismissed one; each text exactly as asked, as text.
    seen = [q for q in questions if q["state"] in ("live", "answered") or q["answered"]]
    seen.sort(key=lambda q: (-q["votes"], ASKED_AT[q["content"]]))
    want = [[q["content"].replace(HOSTILE, HOSTILE_SHOWN), str(q["votes"])] for q in seen[:10]]
    top = rows(page, "#top tbody tr", ["td bdi", "td.num"])
    if top != want:
        fail(f"the top questions are {top}, not {want}")
    if page.evaluate("[...document.querySelectorAll('main bdi')].some((b) => b.childElementCount)"):
        fail("an attendee's text became elements")
    long_box = page.evaluate(
        f"(() => {{ const b = [...document.querySelectorAll('#top td bdi')].find((b) => b.textContent === {json.dumps(LONG)});"
        " const r = b.getBoundingClientRect(); return [r.height, parseFloat(getComputedStyle(b).lineHeight)]; })()")
    if long_box[0] < 3 * long_box[1]:
        fail(f"the long question is {long_box[0]} px high, lines of {long_box[1]} px: not wrapped")

    # The polls: each the room saw, numbered, its results as bars; no draft.
    articles = page.evaluate("[...document.querySelectorAll('#polls article.poll h3')].map((h) => h.textContent)")
    want = [f"{poll['n']}. {poll['prompt']}" for poll in polls.values()]
    if articles != want:
        fail(f"the polls in the report are {articles}, not {want}")

    def bars(name):
        return rows(page, f"#polls article.poll:nth-of-type({list(polls).index(name) + 1}) table.bars tbody tr",
                    ["th", "td.num"])
    choice = results["choice"]["results"]
    want = [[o, f"{n} · {percent(n, choice['answers'])}"] for o, n in zip(POLLS["choice"]["options"], choice["counts"])]
    if bars("choice") != want:
        fail(f"the choice's bars are {bars('choice')}, not {want}")
    rating = results["rating"]["results"]
    want = [[str(v + 1), f"{n} · {percent(n, rating['answers'])}"] for v, n in enumerate(rating["counts"])]
    if bars("rating") != want:
        fail(f"the rating's bars are {bars('rating')}, not {want}")
    average = sum((v + 1) * n for v, n in enumerate(rating["counts"])) / rating["answers"]
    note = f"Average {math.floor(average * 10 + 0.5) / 10:.1f} of 5."
    if not page.evaluate(f"document.querySelector('#polls article.poll:nth-of-type(2)').innerText.includes({json.dumps(note)})"):
        fail(f"the rating does not say “{note}”")
    quiz = results["quiz"]
    want = [[("✓ " if i in quiz["correct"] else "") + o, f"{n} · {percent(n, quiz['results']['answers'])}"]
            for i, (o, n) in enumerate(zip(quiz["options"], quiz["results"]["counts"]))]
    if bars("quiz") != want:
        fail(f"the quiz's bars are {bars('quiz')}, not {want}")
    board = page.evaluate(f"[...document.querySelectorAll('#polls article.poll:nth-of-type({list(polls).index('quiz') + 1}) ol.board li')]"
                          ".map((li) => [li.value, li.textContent])")
    want = [[e["place"], f"{e.get('name', 'anonymous')}: {e['score']} right"] for e in quiz.get("leaderboard", [])]
    if not want or board != want:
        fail(f"the quiz's leaderboard is {board}, not {want}")
    want = [[w["text"], str(w["count"])] for w in results["cloud"]["results"]["words"]]
    if bars("cloud") != want:
        fail(f"the word cloud's bars are {bars('cloud')}, not {want}")
    want = sorted([t["text"], str(t["count"])] for t in results["text"]["results"]["texts"])
    if sorted(bars("text")) != want or not any(t == MARKUP_TEXT for t, _ in want):
        fail(f"the open text's bars are {bars('text')}, not {want}")
    if page.evaluate("document.querySelectorAll('#polls svg.bar rect.fill').length") != sum(
            len(bars(name)) for name in polls):
        fail("a poll's row has no bar")

    # Attendance: the figures in words and a line over time.
    if not page.evaluate("!!document.querySelector('#attendance svg.chart polyline.line.present')"):
        fail("the attendance has no line over time")
    return figures


def strip_attendance(text):
    """The report's text without what a minute more of attendance may change."""
    return re.sub(r"\n?Attendance\n.*", "", text, flags=re.S)


def diff(a, b):
    import difflib
    return "\n".join(list(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm=""))[:40])


def no_sideways_scroll(page, width):
    """Nothing wider than the viewport: the page does not scroll sideways, and no element
    reaches past its right edge."""
    page.wait_for(f"the page laid out at {width}", f"window.innerWidth === {width}")
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if scroll > client:
        fail(f"at {width}×800 the report scrolls sideways: {scroll} px wide in {client}")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter((e) => !e.closest('.hidden, details:not([open])'))"
        ".map((e) => [e.tagName + '.' + (e.getAttribute('class') || ''), e.getBoundingClientRect().right])"
        ".filter(([, right]) => right > document.documentElement.clientWidth + 0.5)")
    if wide:
        fail(f"at {width}×800 elements reach past the right edge: {wide[:10]}")


def sheet_contrast(css):
    """The style sheet's colours, light, dark and printed: text 4.5:1, charts 3:1."""
    def colours(block):
        return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))
    light = colours(css.split("@media")[0])
    schemes = {"light": light}
    for name, query in (("dark", r"prefers-color-scheme:\s*dark"), ("print", r"print")):
        block = re.search(r"@media[^{]*" + query + r"\)?\s*\{\s*:root\s*\{(.*?)\}", css, re.S)
        if not block:
            return [f"the style sheet has no {name} colours"]
        schemes[name] = {**light, **colours(block.group(1))}
    problems = []
    for scheme, palette in schemes.items():
        for pairs, least in ((TEXT_PAIRS, 4.5), (GRAPHIC_PAIRS, 3.0)):
            for fg, bg in pairs:
                ratio = contrast(palette[fg], palette[bg])
                if ratio < least:
                    problems.append(f"{scheme}: --{fg} on --{bg} is {ratio:.2f}:1 (under {least}:1)")
    return problems


# In the page: every text's colour against the background it is drawn on (the nearest
# ancestor's that is not transparent), 4.5:1 (3:1 for large text); every chart's line and
# bar, and each key's, against the page's background, 3:1.
CONTRAST = """
(() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const background = (e) => { for (; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0) return c; }
    return [255, 255, 255]; };
  const page = background(document.body);
  const problems = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.hidden') || !e.getClientRects().length) continue;
    const s = getComputedStyle(e);
    const name = e.tagName + (e.getAttribute('class') ? '.' + e.getAttribute('class') : '');
    if ([...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) {
      const colour = rgb(e instanceof SVGElement ? s.fill : s.color);
      const size = parseFloat(s.fontSize), bold = +s.fontWeight >= 700;
      const least = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const r = ratio(colour, background(e));
      if (r < least) problems.push(`${name} “${e.textContent.slice(0, 30)}” ${r.toFixed(2)}:1`);
    }
    if (e instanceof SVGElement && /^(polyline|rect)$/.test(e.tagName) && !e.classList.contains('track')) {
      const colour = rgb(e.tagName === 'polyline' ? s.stroke : s.fill);
      const r = ratio(colour, page);
      if (colour.length < 3 || r < 3) problems.push(`${name} ${r.toFixed(2)}:1`);
    }
    if (e instanceof SVGElement && e.tagName === 'line' && e.classList.contains('line')) {
      const r = ratio(rgb(s.stroke), page);
      if (r < 3) problems.push(`${name} ${r.toFixed(2)}:1`);
    }
  }
  return problems;
})()
"""


def computed_contrast(page, scheme):
    problems = page.evaluate(CONTRAST)
    if problems:
        fail(f"contrast under AA in the {scheme} report: {problems[:20]}")


def inert(page, where):
    """No markup from attendees became elements, no script ran, the policy held."""
    injected = page.evaluate("document.querySelectorAll('script, img, iframe, object, embed').length")
    if injected:
        fail(f"{where}: {injected} elements came from attendees' text")
    texts = page.evaluate("[...document.querySelectorAll('bdi')].map((b) => b.textContent)")
    for text in (HOSTILE_SHOWN, MARKUP_TEXT, HOSTILE_NAME):
        if text not in texts:
            fail(f"{where}: {text!r} is not shown as text")
    if page.evaluate("document.body.textContent.includes('\\u202e')"):
        fail(f"{where}: a bidi control reached the page raw")
    for name in ("alerts", "cspViolations"):
        found = page.evaluate(f"window.{name}")
        if found:
            fail(f"{where}: {name}: {found}")


def no_console_problems(page):
    page.evaluate("true")  # what the console said so far has arrived
    bad = [m for m in page.messages if re.search(r"Content.Security.Policy|Refused to|^error|^exception", m)
           and "favicon.ico" not in m]
    if bad:
        fail(f"the console: {bad}")


def printed(page):
    """On paper, even from a dark screen: white, the charts' light colours, every key drawn
    and the numbers a screen folds away unfolded."""
    look = ("[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.querySelector('#timeline .line.asked')).stroke,"
            " [...document.querySelectorAll('.legend svg.key, #states svg.key')].every((k) => k.checkVisibility()),"
            " [...document.querySelectorAll('details table')].map((t) => t.checkVisibility())]")
    background, stroke, keys, folded = page.evaluate(look)
    if any(folded):
        fail("the charts' numbers are not folded away on the screen")
    page.call("Emulation.setEmulatedMedia", media="print",
              features=[{"name": "prefers-color-scheme", "value": "dark"}])
    paper = page.evaluate(look)
    page.call("Emulation.setEmulatedMedia", media="", features=[])
    if paper[:3] != ["rgb(255, 255, 255)", stroke, True] or not paper[3] or not all(paper[3]):
        fail(f"printed from a dark screen the report is {paper}: not white, not in the light"
             f" colours ({stroke}), a key missing, or the numbers folded")


def print_pdf(page, path):
    """The page printed to A4 as a browser's print dialog would by default (no background
    graphics): a PDF of a few pages."""
    data = page.call("Page.printToPDF", paperWidth=8.27, paperHeight=11.69, marginTop=0.4,
                     marginBottom=0.4, marginLeft=0.4, marginRight=0.4, printBackground=False,
                     preferCSSPageSize=True)["data"]
    pdf = base64.b64decode(data)
    with open(path, "wb") as file:
        file.write(pdf)
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    if not pdf.startswith(b"%PDF") or not 1 <= pages <= 12:
        fail(f"the printed report is {len(pdf)} bytes, {pages} pages")
    return path


if __name__ == "__main__":
    main()
