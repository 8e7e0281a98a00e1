"""The presenter's page in a real browser: Debian's Chromium, headless, driven over the
DevTools protocol (with the `websockets` package the interop tests already use).

Logs in with the admin token, waits for the page to be live, has `qna --headless` ask a
question, sees it appear without a reload, clicks its Answer button, and checks that the
attendee's client prints `answered` and exits 0; then the page's forms, a poll among them.
Exit status 0 when all of that held; the reason on stderr otherwise.

Usage: presenter_page.py --server http://127.0.0.1:PORT --token TOKEN --qna PATH
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from websockets.sync.client import connect

QUESTION = "Asked while the presenter's page is open"


def fail(reason):
    print(f"browser test: {reason}", file=sys.stderr)
    sys.exit(1)


def start_chromium(profile):
    browser = shutil.which("chromium") or fail("chromium is not installed")
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-dev-shm-usage", "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = process.stderr.readline()
        match = re.search(r"DevTools listening on (ws://[^\s]+)", line)
        if match:
            # Keep draining stderr so that Chromium never blocks on a full pipe.
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
            return process, match.group(1)
        if not line and process.poll() is not None:
            break
    process.kill()
    fail("chromium did not start")


class Page:
    """One tab, over its DevTools WebSocket: the browser's first, or a new one (`new_tab`), or
    a new one in a browser context of its own (`context`, from Target.createBrowserContext:
    its own storage and cookies, as another person's browser)."""

    def __init__(self, browser_url, new_tab=False, context=None):
        self.browser_url = browser_url
        port = re.search(r":(\d+)/", browser_url).group(1)
        wanted = None
        if new_tab or context:
            where = {"browserContextId": context} if context else {}
            wanted = browser_call(browser_url, "Target.createTarget", url="about:blank",
                                  **where)["targetId"]
        deadline = time.time() + 10
        while True:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            page = next((t for t in targets if t["type"] == "page" and wanted in (None, t["id"])), None)
            if page or time.time() > deadline:
                break
            time.sleep(0.1)
        if not page:
            fail(f"no tab {wanted} among the browser's targets")
        self.target = page["id"]
        self.socket = connect(page["webSocketDebuggerUrl"], max_size=None)
        self.next_id = 0

    def close(self):
        """Closes the tab, as its user would (its page unloads, its locks are let go)."""
        self.socket.close()
        browser_call(self.browser_url, "Target.closeTarget", targetId=self.target)

    def call(self, method, **params):
        result = self.try_call(method, **params)
        if "error" in result:
            fail(f"{method}: {result['error']}")
        return result

    def try_call(self, method, **params):
        """The result, or {"error": …} as the browser answered (while a page navigates it may
        answer "Not attached to an active page")."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=30))
            if message.get("id") == self.next_id:
                return {"error": message["error"]} if "error" in message else message.get("result", {})
            self.event(message)

    def event(self, message):
        """An event the browser sent while a call waited (a subclass may keep them)."""

    def watch(self):
        """Page events on; every Content-Security-Policy violation and every alert of every
        page counted (`window.cspViolations`, `window.alerts`) before any script of the page
        runs (a script the debugger adds is not bound by the policy)."""
        self.call("Page.enable")
        self.call("Page.addScriptToEvaluateOnNewDocument", source=(
            "window.cspViolations = []; window.alerts = [];"
            "window.alert = (m) => window.alerts.push(String(m));"
            "document.addEventListener('securitypolicyviolation', (e) =>"
            " window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            fail(f"script failed: {expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def submit_login(self, token):
        """Fills the login form's token and submits it, as a person would. The submit navigates
        away, so the browser may answer that the page it ran in is gone ("Inspected target
        navigated or closed") rather than with the result: either way the form went."""
        result = self.try_call("Runtime.evaluate", expression=(
            "(() => { const input = document.querySelector('input[name=token]'); input.value = "
            + json.dumps(token) + "; input.form.submit(); return true })()"))
        error = result.get("error")
        if error and "navigated or closed" not in error.get("message", ""):
            fail(f"the login form: {error}")
        if "exceptionDetails" in result:
            fail(f"the login form: {result['exceptionDetails']}")

    def wait_for(self, what, expression, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        body = self.evaluate("document.body ? document.body.innerText : ''")
        fail(f"no {what} within {seconds} s; the page says:\n{body}")


def room_tools(page):
    """The page's own forms for the room (presenter-api.js): a banner, a label added and taken
    out, a word for the filter, the queue shown; each read back from the API with the page's
    login, and no error on the status line."""
    def api(path):
        return page.evaluate(f"fetch({json.dumps(path)}).then((r) => r.text())")

    def submit(field, value, form):
        page.evaluate(f"document.getElementById({json.dumps(field)}).value = {json.dumps(value)};"
                      f" document.getElementById({json.dumps(form)}).requestSubmit(); true")

    def until(what, check):
        deadline = time.time() + 10
        while not check():
            if time.time() > deadline:
                status = page.evaluate("document.getElementById('status').textContent")
                fail(f"no {what}; the status line says: {status}")
            time.sleep(0.1)

    # The tools are in a drawer (issue #51): opened as a presenter would.
    page.evaluate("document.getElementById('tools').open = true; true")
    submit("announcement", "Coffee at 15:30", "announce")
    until("banner", lambda: "Coffee at 15:30" in api("api/announcement"))
    submit("label-name", "Panel", "labels")
    until("label", lambda: "Panel" in api("api/labels"))
    page.wait_for("the label in the page's filter",
                  "[...document.getElementById('label-filter').options].some((o) => o.value === 'Panel')")
    page.evaluate("document.getElementById('label-name').value = 'Panel';"
                  " document.getElementById('unlabel').click(); true")
    until("label taken out", lambda: "Panel" not in api("api/labels"))
    submit("filter-word", "spamword", "filter")
    until("word in the filter", lambda: "spamword" in api("api/filters/custom"))
    page.evaluate("document.getElementById('show-queue').click(); true")
    until("queue shown", lambda: json.loads(api("api/queue")).get("shown") is True)
    page.wait_for("the queue's button", "document.getElementById('show-queue').textContent === 'Hide the queue'")


def poll_panel(page):
    """The polls' panel (presenter-polls.js): a poll made with the page's form (a problem of
    the form's own first, before any request), then opened and its results shown with its
    buttons, each read back from the API with the page's login; the keyboard's focus stays on
    the button that moved from Open to Close."""
    def polls():
        return json.loads(page.evaluate("fetch('api/polls').then((r) => r.text())"))["polls"]

    def field(name, value):
        page.evaluate(f"(() => {{ const f = document.getElementById({json.dumps(name)});"
                      f" f.value = {json.dumps(value)};"
                      " f.dispatchEvent(new Event('input', { bubbles: true }));"
                      " f.dispatchEvent(new Event('change', { bubbles: true })); return true; })()")

    def until(what, check):
        deadline = time.time() + 10
        while not check():
            if time.time() > deadline:
                panel = page.evaluate("document.getElementById('polls').innerText")
                fail(f"no {what}; the polls' panel says: {panel}")
            time.sleep(0.1)

    prompt = "Tabs or spaces?"
    card = ("[...document.querySelectorAll('#polls .poll-card')].filter((li) =>"
            f" li.querySelector('.prompt').textContent === {json.dumps(prompt)}).at(-1)")
    page.wait_for("the polls' panel", "!document.getElementById('polls').hidden")
    known = len(polls())
    page.evaluate("document.querySelector('#polls .poll-new summary').click(); true")
    field("poll-kind", "single")
    field("poll-prompt", prompt)
    field("poll-options", "Tabs")
    page.evaluate("document.querySelector('#poll-form button[type=submit]').click(); true")
    page.wait_for("the form's own problem",
                  "document.getElementById('poll-form-problem').textContent"
                  " === 'Give two options or more, one per line.'")
    if len(polls()) != known:
        fail("a poll the form refused reached the server")
    field("poll-options", "Tabs\nSpaces")
    page.evaluate("document.querySelector('#poll-form button[type=submit]').click(); true")
    page.wait_for("the new poll's card", f"!!{card}")
    made = polls()[-1]
    if [made[key] for key in ("prompt", "options", "state", "shown")] != [prompt, ["Tabs", "Spaces"], "draft", False]:
        fail(f"the form made {made}")
    page.evaluate(f"{card}.querySelector('button[data-act=open]').focus();"
                  f" {card}.querySelector('button[data-act=open]').click(); true")
    until("poll opened", lambda: polls()[-1]["state"] == "open")
    page.wait_for("the card open, its focus on Close",
                  f"{card}.classList.contains('state-open') && document.activeElement.dataset.act === 'close'")
    page.evaluate(f"{card}.querySelector('button[data-act=show]').click(); true")
    until("results shown", lambda: polls()[-1]["shown"] is True)
    page.wait_for("the card's results shown",
                  f"!!{card}.querySelector('.badge.shown') && !!{card}.querySelector('.bars')")


def browser_call(browser_url, method, **params):
    """One call to the browser itself (not a tab), over a connection of its own."""
    with connect(browser_url, max_size=None) as socket:
        socket.send(json.dumps({"id": 1, "method": method, "params": params}))
        while True:
            message = json.loads(socket.recv(timeout=30))
            if message.get("id") == 1:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message.get("result", {})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--qna", required=True)
    args = parser.parse_args()
    socket_url = args.server.replace("http://", "ws://") + "/socket"

    profile = tempfile.mkdtemp(prefix="qna-chromium-")
    chromium, browser_url = start_chromium(profile)
    attendee = None
    try:
        page = Page(browser_url)
        page.watch()
        page.call("Page.navigate", url=args.server + "/")
        # A browser asking for the page is sent to the login form.
        page.wait_for("login form", "!!document.querySelector('input[name=token]')")
        page.submit_login(args.token)
        page.wait_for("live page", "document.body && document.body.dataset.live === 'true'")
        # Survives only as long as the page is not reloaded.
        page.evaluate("window.notReloaded = true")

        attendee = subprocess.Popen(
            [args.qna, "--headless", "--no-persist", "--url", socket_url, "--ask", QUESTION,
             "--wait-answered", "--timeout", "30s"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "XDG_STATE_HOME": profile})
        row = ("[...document.querySelectorAll('#rows > .card')].find(card => "
               f"card.querySelector('.text').textContent.startsWith({json.dumps(QUESTION)}))")
        page.wait_for("new question on the page", f"!!{row}")
        if not page.evaluate("window.notReloaded === true"):
            fail("the page reloaded to show the question")
        page.evaluate(f"{row}.querySelector('button[data-action=answer]').click(); true")
        try:
            output, errors = attendee.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            attendee.kill()
            fail("the attendee never heard of the answer")
        events = [json.loads(line)["event"] for line in output.splitlines() if line.strip()]
        if attendee.returncode != 0 or "answered" not in events:
            fail(f"qna exited {attendee.returncode} with events {events}; stderr: {errors}")
        page.wait_for("the answered list's count", "document.getElementById('tabs').textContent.includes('Answered (1)')")
        room_tools(page)
        poll_panel(page)
        # The browser's language: the same catalogues as the terminal's, the page's words
        # and its script's (Polish: the answered tab is "Omówione").
        page.call("Network.enable")
        page.call("Network.setExtraHTTPHeaders", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
        page.call("Page.reload")
        page.wait_for(
            "the page in Polish",
            # Null-safe: mid-reload the document may have no element yet.
            "document.documentElement?.lang === 'pl' && document.body?.dataset.live === 'true'"
            " && document.getElementById('tabs').textContent.includes('Omówione (1)')"
            " && document.querySelector('h1')?.textContent === 'Pytania'")
        violations = page.evaluate("window.cspViolations")
        if violations:
            fail(f"the page broke its Content-Security-Policy: {violations}")
        policy = page.evaluate(
            "fetch(location.href).then((r) => r.headers.get('content-security-policy'))")
        if "unsafe-inline" in (policy or "") or "script-src 'self'" not in (policy or ""):
            fail(f"the page's policy allows inline script: {policy}")
        print("browser test: asked, seen live, answered with a click, heard by the attendee,"
              " a banner, a label, a filtered word and the queue from the page's forms,"
              " a poll made, opened and shown from the polls' panel,"
              " shown in Polish, no Content-Security-Policy violation")
    finally:
        if attendee and attendee.poll() is None:
            attendee.kill()
        chromium.kill()
        chromium.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
