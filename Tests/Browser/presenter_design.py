"""The presenter's page as a moderator's desk (issue #51), in Debian's Chromium over the
DevTools protocol, against a qna-server of its own started with --moderation:

- a room of 30 questions across every state (asked by `qna --headless` attendees, then
  approved, answered, dismissed, highlighted, starred, queued and labelled with the API), and
  a room with a hostile title (`<script>` and U+202E) and a very long question;
- at 360×800 (a phone, touch), 768×1024 and 1280×800: screenshots light and dark of both; no
  element outside the viewport horizontally; on the phone every target at least 44×44 px;
- with the keyboard only, at each size: a question approved (`a`), one dismissed (`d`) and
  that undone (`u`), one highlighted (`h`), one answered (`m`); a card's menu opened with ↓,
  walked with the arrows, closed with Esc (the focus back on its button); the help (`?`) a
  modal dialog that keeps the focus and closes with Esc; on the phone the same four by tap;
- tidy -access 3 and page_check's own checks on the page, AA contrast for every colour pair
  of presenter.css, light and dark; the first load (HTML, CSS and script as served, their
  bytes on the wire) under 60 KB.

Usage: presenter_design.py --qna-server PATH --qna PATH --artefacts DIR
Exit 0 when all of that held; the reason on stderr otherwise.
"""

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from browser_support import Server, free_port, page_test_arguments, screenshot, viewport
from page_check import contrast_checks, own_checks, tidy
from presenter_page import Page, browser_call, fail, start_chromium

LAYOUTS = ((360, 800, True), (768, 1024, False), (1280, 800, False))
HOSTILE_TITLE = "<script>alert('title')</script> \u202eevil\u202c Q&A"
LONG_QUESTION = ("Could you say more about " + "the very long and winding road " * 24
                 + "and https://example.com/" + "x" * 120 + "?")
BUDGET = 60 * 1024
# Every colour pair of presenter.css: a text on its background.
PAIRS = (("fg", "bg"), ("muted", "bg"), ("accent-fg", "accent"), ("now-fg", "now"),
         ("answer", "bg"), ("accent", "bg"), ("flag", "bg"), ("fg", "card"), ("muted", "card"),
         ("answer", "card"), ("flag", "card"), ("accent", "card"), ("fg", "label"),
         ("fg", "raise"), ("muted", "raise"), ("accent", "raise"))
# What the browser gets before the page, in the dev loop only (None: the server's own).
prepare = None


class Room:
    """A session on the server: its code and presenter token, and its API."""

    def __init__(self, server, title):
        self.server = server
        self.code, self.token = server.session(title)
        self.base = f"/s/{self.code}/"

    def api(self, method, path, body=None):
        return self.server.api(method, f"{self.base}{path}", self.token, body)

    def questions(self):
        return self.api("GET", "api/questions")

    def by_text(self):
        return {q["content"]: q for q in self.questions()}

    def ask(self, texts, attendees=6):
        """`texts` asked by `attendees` headless clients at once, each its share."""
        url = f"ws://127.0.0.1:{self.server.port}"
        runs = []
        for i in range(attendees):
            mine = texts[i::attendees]
            if not mine:
                continue
            asks = [a for text in mine for a in ("--ask", text)]
            runs.append(subprocess.Popen(
                [self.server.qna, "join", self.code, "--url", url, "--headless", "--no-persist",
                 "--name", f"Attendee {i + 1}", *asks, "--timeout", "15s"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.time() + 30
        while time.time() < deadline and len(self.questions()) < len(texts):
            time.sleep(0.2)
        for run in runs:
            if run.poll() is None:
                run.kill()
            run.wait()
        if len(self.questions()) < len(texts):
            fail(f"only {len(self.questions())} of {len(texts)} questions arrived")

    def session_cookie(self):
        """The login cookie, as a browser gets it (`Cookie` header value)."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar),
                                             NoRedirect())
        try:
            opener.open(f"{self.server.url}{self.base}login",
                        data=urllib.parse.urlencode({"token": self.token}).encode())
        except urllib.error.HTTPError as redirect:
            if redirect.code not in (302, 303):
                raise
        return "; ".join(f"{c.name}={c.value}" for c in jar)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def busy_room(server):
    """30 questions across every state."""
    room = Room(server, "Design review")
    texts = [f"Question {n:02d}: " + ("how does the queue decide what comes next?" if n % 3 == 0
             else "what about offline attendees?" if n % 3 == 1 else "will the slides be shared?")
             for n in range(1, 31)]
    room.ask(texts)
    questions = sorted(room.questions(), key=lambda q: q["content"])
    ids = [q["id"] for q in questions]
    for label in ("Panel", "Keynote"):
        room.api("POST", "api/labels", {"name": label})
    # 6 stay in review, 4 dismissed, 20 approved: 6 of those answered (2 with text, one of them
    # privately), one highlighted, 3 next up, 2 starred, 3 labelled.
    for i in ids[6:]:
        room.api("POST", f"api/questions/{i}/approve")
    for i in ids[6:10]:
        room.api("POST", f"api/questions/{i}/dismiss")
    for n, i in enumerate(ids[10:16]):
        body = {"text": "Yes: the slides go up after the talk.", "private": n == 1} if n < 2 else None
        room.api("POST", f"api/questions/{i}/answer", body)
    room.api("POST", f"api/questions/{ids[16]}/highlight")
    for i in ids[17:20]:
        room.api("POST", f"api/questions/{i}/enqueue")
    for i in ids[20:22]:
        room.api("POST", f"api/questions/{i}/star")
    for i, label in ((ids[22], "Panel"), (ids[23], "Keynote"), (ids[2], "Panel")):
        room.api("POST", f"api/questions/{i}/relabel", {"label": label})
    room.api("PUT", "api/announcement", {"text": "Coffee at 15:30 in the foyer"})
    return room


def hostile_room(server):
    room = Room(server, HOSTILE_TITLE)
    room.ask([LONG_QUESTION, "A short one beside it", "<img src=x onerror=alert(1)> \u202eright to left"],
             attendees=3)
    for q in room.questions():
        room.api("POST", f"api/questions/{q['id']}/approve")
    room.api("POST", f"api/questions/{room.by_text()[LONG_QUESTION]['id']}/highlight")
    return room


def open_page(browser_url, room, width, height, mobile, scheme="light"):
    """A tab of its own (its own cookies), logged in as the room's presenter, at that size."""
    context = browser_call(browser_url, "Target.createBrowserContext")["browserContextId"]
    page = Page(browser_url, context=context)
    page.watch()
    if prepare:
        prepare(page)
    viewport(page, width, height, mobile)
    page.call("Emulation.setTouchEmulationEnabled", enabled=mobile, maxTouchPoints=5 if mobile else 1)
    page.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])
    page.call("Page.navigate", url=f"{room.server.url}{room.base}login")
    page.wait_for("login form", "!!document.querySelector('input[name=token]')")
    page.submit_login(room.token)
    page.wait_for("live page", "document.body && document.body.dataset.live === 'true'"
                  " && !!document.querySelector('#tabs button')")
    return page


def scheme(page, value):
    page.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": value}])


def key(page, name):
    """One key pressed and let go, as a keyboard sends it."""
    codes = {"ArrowDown": 40, "ArrowUp": 38, "Escape": 27, "Enter": 13, "Tab": 9}
    text = "" if name in codes else name
    code = codes.get(name, ord(name.upper()) if len(name) == 1 else 0)
    base = {"key": name, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
    page.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **base)
    page.call("Input.dispatchKeyEvent", type="keyUp", **base)
    time.sleep(0.05)


def tap(page, selector):
    """A finger on the element's middle, and off."""
    box = page.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                        " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    point = [{"x": box[0], "y": box[1]}]
    page.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
    page.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
    time.sleep(0.1)


def wait_state(room, qid, what, check, seconds=10):
    deadline, q = time.time() + seconds, None
    while time.time() < deadline:
        q = next((q for q in room.questions() if q["id"] == qid), None)
        if q and check(q):
            return q
        time.sleep(0.1)
    fail(f"no {what} for {qid}: {q}")


OVERFLOW = """(() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest('.visually-hidden')) continue;
    if (r.left < -0.5 || r.right > width + 0.5) out.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  if (document.documentElement.scrollWidth > width) out.push(`scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
  return out.slice(0, 10);
})()"""

SMALL_TARGETS = """(() => {
  const out = [];
  for (const e of document.querySelectorAll('button, a, select, input, summary, textarea, [role=menuitem]')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    // A control inside its label (a checkbox) is hit through the label.
    const target = e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') ? e.closest('label') : e;
    const t = target.getBoundingClientRect();
    if (t.width < 43.5 || t.height < 43.5) out.push(`${e.tagName}#${e.id}.${e.className} "${(e.textContent || e.value || '').trim().slice(0, 30)}" ${Math.round(t.width)}×${Math.round(t.height)}`);
  }
  return out.slice(0, 15);
})()"""


def check_layout(page, label, mobile):
    # Open the tools' drawer and the first card's menu too: they must fit as well.
    page.evaluate("document.getElementById('tools').open = true; true")
    out = page.evaluate(OVERFLOW)
    if out:
        fail(f"{label}: outside the viewport horizontally: {out}")
    if mobile:
        small = page.evaluate(SMALL_TARGETS)
        if small:
            fail(f"{label}: targets under 44×44 px: {small}")
    page.evaluate("document.getElementById('tools').open = false; true")


def first_card(page, tab):
    page.evaluate(f"document.querySelector('#tabs button[data-tab={tab}]').click(); true")
    page.wait_for(f"a card in {tab}", "!!document.querySelector('#rows > .card[data-id]')")
    return page.evaluate("document.querySelector('#rows > .card').dataset.id")


def keyboard_flow(page, room, label):
    """Approve, dismiss (and undo it), highlight and answer with keys only."""
    page.evaluate("document.activeElement && document.activeElement.blur(); true")
    key(page, "1")
    page.wait_for("the review list", "document.querySelector('#tabs [aria-pressed=true]').dataset.tab === 'review'")
    key(page, "ArrowDown")
    qid = page.evaluate("document.activeElement.dataset.id")
    if not qid:
        fail(f"{label}: ↓ selected no card")
    key(page, "a")
    wait_state(room, qid, "approve by key", lambda q: q["state"] == "live")
    # The focus stays on the list: on the card that took the approved one's place.
    page.wait_for("the focus on a card", "document.activeElement.matches('#rows > .card')")
    qid = page.evaluate("document.activeElement.dataset.id")
    key(page, "d")
    wait_state(room, qid, "dismiss by key", lambda q: q["state"] == "dismissed")
    key(page, "u")
    wait_state(room, qid, "undo of the dismiss", lambda q: q["state"] == "review")
    # A card's menu: ↓ on its button opens it, the arrows walk it, Esc closes it.
    page.evaluate("document.querySelector('#rows > .card button.more').focus(); true")
    key(page, "ArrowDown")
    page.wait_for("the menu open, its first item focused",
                  "document.activeElement.getAttribute('role') === 'menuitem'"
                  " && document.activeElement.closest('.menu').previousElementSibling.getAttribute('aria-expanded') === 'true'")
    key(page, "ArrowDown")
    page.wait_for("the second item", "[...document.activeElement.closest('.menu').querySelectorAll('[role=menuitem]')].indexOf(document.activeElement) === 1")
    key(page, "ArrowUp")
    key(page, "ArrowUp")
    page.wait_for("the last item (↑ wraps)", "(() => { const items = [...document.activeElement.closest('.menu').querySelectorAll('[role=menuitem]')];"
                  " return items.indexOf(document.activeElement) === items.length - 1; })()")
    key(page, "Escape")
    page.wait_for("the menu closed, the focus on its button",
                  "document.activeElement.classList.contains('more') && document.activeElement.getAttribute('aria-expanded') === 'false'"
                  " && document.activeElement.nextElementSibling.hidden")
    # The help: a modal dialog, the focus inside it however often Tab is pressed, Esc closes.
    page.evaluate("document.activeElement.blur(); true")
    key(page, "?")
    page.wait_for("the help", "document.getElementById('help')?.open === true")
    for _ in range(3):
        key(page, "Tab")
        if not page.evaluate("document.getElementById('help').contains(document.activeElement) || document.activeElement === document.body"):
            fail(f"{label}: the focus left the help dialog")
    key(page, "Escape")
    page.wait_for("the help closed", "document.getElementById('help').open === false")
    # Live: highlight with h, answer with m.
    key(page, "2")
    page.wait_for("the live list", "document.querySelector('#tabs [aria-pressed=true]').dataset.tab === 'live'")
    key(page, "ArrowDown")
    qid = page.evaluate("document.activeElement.dataset.id")
    key(page, "h")
    page.wait_for("now answering", f"document.querySelector('#rows > .card.now')?.dataset.id === {json.dumps(qid)}"
                  " && !document.getElementById('banner').hidden")
    page.evaluate(f"document.querySelector('#rows > .card[data-id=\"{qid}\"]').focus(); true")
    key(page, "m")
    wait_state(room, qid, "answer by key", lambda q: q["answered"])


def tap_flow(page, room):
    """Approve, dismiss, highlight and answer by tap, as on a phone."""
    qid = first_card(page, "review")
    tap(page, f"#rows > .card[data-id='{qid}'] button[data-action=approve]")
    wait_state(room, qid, "approve by tap", lambda q: q["state"] == "live")
    qid = page.evaluate("document.querySelector('#rows > .card').dataset.id")
    tap(page, f"#rows > .card[data-id='{qid}'] button[data-action=dismiss]")
    wait_state(room, qid, "dismiss by tap", lambda q: q["state"] == "dismissed")
    qid = first_card(page, "live")
    tap(page, f"#rows > .card[data-id='{qid}'] button[data-action=highlight]")
    page.wait_for("now answering by tap", f"document.querySelector('#rows > .card.now')?.dataset.id === {json.dumps(qid)}")
    tap(page, f"#rows > .card[data-id='{qid}'] button[data-action=answer]")
    wait_state(room, qid, "answer by tap", lambda q: q["answered"])
    # A menu by tap: it opens, and a tap elsewhere closes it.
    tap(page, "#rows > .card button.more")
    page.wait_for("the menu open by tap", "!document.querySelector('#rows > .card .menu').hidden")
    tap(page, "h1")
    page.wait_for("the menu closed by a tap elsewhere", "document.querySelector('#rows > .card .menu').hidden")


def no_script(browser_url, room, artefacts, shots):
    """Without a script, as today: the cards as the server wrote them, on a phone, and an
    unanswered one's Answer button answers it."""
    context = browser_call(browser_url, "Target.createBrowserContext")["browserContextId"]
    page = Page(browser_url, context=context)
    page.watch()
    if prepare:
        prepare(page)
    viewport(page, 360, 800, True)
    page.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    page.call("Emulation.setScriptExecutionDisabled", value=True)
    page.call("Page.navigate", url=f"{room.server.url}{room.base}login")
    page.wait_for("login form", "!!document.querySelector('input[name=token]')")
    page.submit_login(room.token)
    button = "form[action$='/answer'] button"
    page.wait_for("the server's cards", f"!!document.querySelector({json.dumps(button)})")
    check_layout(page, "360x800 without a script", True)
    shots.append(screenshot(page, os.path.join(artefacts, "presenter-360x800-no-script-light.png")))
    qid = page.evaluate(f"document.querySelector({json.dumps(button)}).closest('form').action.split('/').at(-2)")
    tap(page, button)
    wait_state(room, qid, "answer without a script", lambda q: q["answered"])
    page.close()


def first_load(page):
    """The page's HTML, style sheet and scripts: bytes on the wire, and decoded."""
    return page.evaluate("""(() => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((e) => e.entryType === 'navigation' || /\\/assets\\/[^/]+\\.(js|css)$/.test(new URL(e.name).pathname));
      return entries.map((e) => [new URL(e.name).pathname, e.encodedBodySize, e.decodedBodySize]);
    })()""")


def main():
    args = page_test_arguments()
    scratch = tempfile.mkdtemp(prefix="qna-presenter-design-")
    server = Server(args.qna_server, free_port(), os.path.join(scratch, "qna.db"), "--moderation")
    server.qna = args.qna
    server.start()
    profile = tempfile.mkdtemp(prefix="qna-chromium-")
    chromium, browser_url = start_chromium(profile)
    shots = []
    try:
        busy, hostile = busy_room(server), hostile_room(server)
        # The page as served: tidy at its strictest, our own checks, contrast, the bytes.
        request = urllib.request.Request(f"{server.url}{busy.base}",
                                         headers={"Cookie": busy.session_cookie()})
        html = urllib.request.urlopen(request).read().decode()
        if 'name="viewport"' not in html:
            fail("the page has no viewport meta")
        problems = [f"tidy: {line}" for line in tidy(html)] + own_checks("presenter", html)
        css = urllib.request.urlopen(f"{server.url}/assets/presenter.css").read().decode()
        problems += contrast_checks(css, PAIRS)
        if problems:
            fail("accessibility:\n" + "\n".join(problems))
        # Every screenshot first, of the rooms as made; then the moderator's flows change them.
        for width, height, mobile in LAYOUTS:
            size = f"{width}x{height}"
            for room, name in ((busy, "30-questions"), (hostile, "hostile")):
                page = open_page(browser_url, room, width, height, mobile)
                if room is hostile and "\u202e" in page.evaluate("document.querySelector('h1').textContent"):
                    fail("the hostile title's U+202E reached the page unescaped")
                for colours in ("light", "dark"):
                    scheme(page, colours)
                    time.sleep(0.2)
                    check_layout(page, f"{size} {name} {colours}", mobile)
                    shots.append(screenshot(page, os.path.join(
                        args.artefacts, f"presenter-{size}-{name}-{colours}.png")))
                if room is busy:
                    # A card's menu open, and the help, as the moderator sees them.
                    scheme(page, "light")
                    page.evaluate("document.querySelector('#rows > .card button.more').click(); true")
                    page.wait_for("a menu open", "!!document.querySelector('#rows .menu:not([hidden])')")
                    check_layout(page, f"{size} menu open", mobile)
                    shots.append(screenshot(page, os.path.join(args.artefacts, f"presenter-{size}-menu-light.png")))
                    page.evaluate("document.querySelector('h1').click(); document.getElementById('keys').click(); true")
                    page.wait_for("the help", "document.getElementById('help')?.open === true")
                    shots.append(screenshot(page, os.path.join(args.artefacts, f"presenter-{size}-help-light.png")))
                    page.evaluate("document.getElementById('help').close(); true")
                if room is busy and width == 360:
                    # The first load, as this browser gets it with nothing cached (the login
                    # form has the same style sheet).
                    page.call("Network.enable")
                    page.call("Network.setCacheDisabled", cacheDisabled=True)
                    page.evaluate("window.beforeReload = true")
                    page.call("Page.reload")
                    page.wait_for("the page again",
                                  "!window.beforeReload && document.body?.dataset.live === 'true'")
                    loaded = first_load(page)
                    wire = sum(e[1] for e in loaded)
                    print(f"presenter design: first load {wire} bytes on the wire,"
                          f" {sum(e[2] for e in loaded)} decoded: {loaded}")
                    if (not all(any(e[0].endswith(name) and e[1] > 0 for e in loaded)
                                for name in ("presenter.js", "presenter.css")) or wire >= BUDGET):
                        fail(f"first load {wire} bytes (budget {BUDGET}): {loaded}")
                page.close()
        no_script(browser_url, busy, args.artefacts, shots)
        for width, height, mobile in LAYOUTS:
            size = f"{width}x{height}"
            page = open_page(browser_url, busy, width, height, mobile)
            keyboard_flow(page, busy, size)
            if mobile:
                tap_flow(page, busy)
            violations = page.evaluate("window.cspViolations")
            if violations:
                fail(f"{size}: Content-Security-Policy violations: {violations}")
            page.close()
        print(f"presenter design: 3 layouts, keys and taps, tidy and contrast pass;"
              f" {len(shots)} screenshots in {args.artefacts}")
    finally:
        chromium.kill()
        chromium.wait()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
