"""The attendee page and the projector view in Debian's Chromium, headless, over the DevTools
protocol, against a real qna-server and a `qna` attendee in tmux.

On a 360×800 phone: the page asks, `qna` sees the question and votes, the page shows the vote;
the presenter highlights and answers through the API and both see it; the server restarts while
a question is typed on the page, which sends it once when it is back. With scripts off the form
still asks, and the question is the asker's when scripts come back. Two tabs of a room, with Web
Locks and without: one sends, each question and vote once, and the other takes over when it
closes, with what waited. The projector view at 1280×720 and 1920×1080 shows the highlight and a QR code that
zbarimg reads as the join address (the Host's, then a 200-character --public-url). Hostile text
in every field stays text. Screenshots go to --artefacts. Exit 0 when all of that held.

Usage: attendee_page.py --qna-server PATH --qna PATH --artefacts DIR
"""

import json
import os
import shutil
import tempfile
import time
import urllib.parse
import urllib.request

from browser_support import (
    Server, Tmux, free_port, page_test_arguments, screenshot, viewport, zbar)
from presenter_page import Page, fail, start_chromium

HOSTILE = ("<img src=x onerror=alert(1)><script>alert(2)</script>\u202eevil\u202c"
           "\u2067isolate\u200b&amp;\"'")
LONG_HOST = "qna-" + "a" * 58 + "." + "b" * 62 + "." + "c" * 50 + ".example"


def main():
    args = page_test_arguments()
    scratch = tempfile.mkdtemp(prefix="qna-attendee-page-")
    port = free_port()
    server = Server(args.qna_server, port, os.path.join(scratch, "qna.db"),
                    "--admin-token", "browser-admin-0123")
    server.start()
    code, token = server.session("Keynote " + HOSTILE)
    chromium, browser_url = start_chromium(os.path.join(scratch, "profile"))
    tmux = Tmux(columns=100, rows=30, environment={
        "XDG_STATE_HOME": os.path.join(scratch, "state"), "LC_ALL": "C.UTF-8"})
    try:
        page = Page(browser_url)
        page.watch()
        viewport(page, 360, 800, mobile=True)
        room = f"{server.url}/s/{code}/"
        page.call("Page.navigate", url=room)
        page.wait_for("the live page", "document.body?.dataset.live === 'true'")

        # The page asks.
        asked = "Will the page and the terminal agree?"
        ask(page, asked)
        item = f"[...document.querySelectorAll('#questions li')].find((li) => li.querySelector('.text')?.textContent === {json.dumps(asked)})"
        page.wait_for("the question in the room", f"!!{item}")
        page.wait_for("the question as mine", "document.querySelector('#mine-list').innerText.includes('Live in the room')")

        # A qna attendee in tmux sees it and votes.
        tmux.run("send-keys", "-t", "main", f"'{args.qna}' join {code} --url ws://127.0.0.1:{port}", "Enter")
        tmux.wait_for("the room", lambda s: asked in s and "● connected" in s)
        tmux.keys("Down")
        tmux.type("+")
        tmux.wait_for("the vote", lambda s: any(asked in line and "▲ 1" in line for line in s.splitlines()))
        page.wait_for("the vote on the page", f"{item}.querySelector('.votes, .vote').textContent.includes('1')")

        # The presenter highlights and answers through the API; both see it.
        questions = server.api("GET", f"/s/{code}/api/questions", token)
        qid = next(q["id"] for q in questions if q["content"] == asked)
        server.api("POST", f"/s/{code}/api/questions/{qid}/highlight", token)
        page.wait_for("the highlight", f"!document.getElementById('now').hidden && document.getElementById('now-text').textContent === {json.dumps(asked)}")
        tmux.wait_for("the highlight", lambda s: "Now answering" in s)
        answer = "Yes: the same room. " + HOSTILE
        server.api("POST", f"/s/{code}/api/questions/{qid}/answer", token, {"text": answer, "private": False})
        page.wait_for("the answer", f"({item}.querySelector('.answer') || {{}}).textContent?.includes('Yes: the same room.')")
        page.wait_for("the answer announced", "document.getElementById('announcements').textContent.includes('Yes: the same room.')")
        tmux.wait_for("the answer", lambda s: "Yes: the same room." in s)
        # The presenter's announcement: a banner over the room, read out, its markup inert.
        server.api("PUT", f"/s/{code}/api/announcement", token,
                   {"text": "Coffee at 15:30 in the foyer <img src=x onerror=alert(3)> & 'tea'"})
        page.wait_for("the banner", "!document.getElementById('banner').hidden"
                      " && document.getElementById('banner-text').textContent.includes('Coffee at 15:30')")
        page.wait_for("the banner read out", "document.getElementById('announcements').textContent.includes('Coffee at 15:30')")
        tmux.wait_for("the banner in qna", lambda s: "Announcement: Coffee at 15:30" in s)
        screenshot(page, os.path.join(args.artefacts, "attendee-phone.png"))
        page.call("Emulation.setEmulatedMedia",
                  features=[{"name": "prefers-color-scheme", "value": "dark"}])
        if page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(18, 18, 18)":
            fail("the page is not dark when the system is")
        screenshot(page, os.path.join(args.artefacts, "attendee-phone-dark.png"))
        page.call("Emulation.setEmulatedMedia", features=[])

        # The keyboard alone: Tab reaches the terminal attendee's question's vote button, and
        # Space votes; the server counts it.
        theirs = "Asked from the terminal"
        tmux.type(theirs)
        tmux.keys("Enter")
        button = (f"[...document.querySelectorAll('#questions li')].find((li) => li.querySelector('.text')?.textContent === {json.dumps(theirs)})?.querySelector('button.vote')")
        page.wait_for("the terminal's question with a vote button", f"!!{button}")
        page.evaluate("document.activeElement.blur(); document.body.focus(); true")
        for _ in range(60):
            press(page, "Tab", "Tab", 9)
            if page.evaluate(f"document.activeElement === {button}"):
                break
        else:
            fail("Tab never reached the vote button")
        press(page, " ", "Space", 32)
        page.wait_for("the vote by keyboard", f"{button}?.getAttribute('aria-pressed') === 'true'")
        deadline = time.time() + 10
        while not any(q["content"] == theirs and q["votes"] == 1
                      for q in server.api("GET", f"/s/{code}/api/questions", token)):
            if time.time() > deadline:
                fail("the keyboard's vote was not counted")
            time.sleep(0.1)
        if not page.evaluate(f"document.activeElement === {button}"):
            fail("the focus left the vote button when the room was drawn again")

        # The panel's queue, shown to the room: the page marks the question next up.
        theirs_id = next(q["id"] for q in server.api("GET", f"/s/{code}/api/questions", token)
                         if q["content"] == theirs)
        server.api("POST", f"/s/{code}/api/questions/{theirs_id}/enqueue", token)
        server.api("POST", f"/s/{code}/api/queue/show", token)
        mark = (f"[...document.querySelectorAll('#questions li')].find((li) => li.querySelector('.text')?.textContent === {json.dumps(theirs)})?.querySelector('.meta')?.textContent")
        page.wait_for("next up on the page", f"({mark} || '').includes('next up 1')")

        # Labels: the presenters add two (one with markup, which stays text); the form offers
        # them, a question asked under one carries it everywhere, and the list filters by it.
        label = "Panel <b>Q&A</b>"
        server.api("POST", f"/s/{code}/api/labels", token, {"name": "Keynote"})
        server.api("POST", f"/s/{code}/api/labels", token, {"name": label})
        page.wait_for("the labels offered", "[...document.getElementById('label').options]"
                      f".map((o) => o.value).join('|') === {json.dumps('|Keynote|' + label)}")
        page.evaluate(f"document.getElementById('label').value = {json.dumps(label)}; true")
        labelled = "Which panel answers this?"
        ask(page, labelled)
        labelled_item = f"[...document.querySelectorAll('#questions li')].find((li) => li.querySelector('.text')?.textContent === {json.dumps(labelled)})"
        page.wait_for("the label on the question", f"({labelled_item}?.querySelector('.label')?.textContent || '') === {json.dumps(label)}")
        if not any(q["content"] == labelled and q.get("label") == label
                   for q in server.api("GET", f"/s/{code}/api/questions?label=Panel%20%3Cb%3EQ%26A%3C%2Fb%3E", token)):
            fail("the API does not list the question under its label")
        page.evaluate(f"(() => {{ const s = document.getElementById('label-filter'); s.value = {json.dumps(label)};"
                      " s.dispatchEvent(new Event('change')); return true; })()")
        page.wait_for("only that label's questions", "document.querySelectorAll('#questions li').length === 1")
        if page.evaluate("document.querySelectorAll('#questions b, #label b, #label-filter b').length"):
            fail("a label's markup became elements")
        screenshot(page, os.path.join(args.artefacts, "attendee-labels.png"))
        page.evaluate("(() => { const s = document.getElementById('label-filter'); s.value = '';"
                      " s.dispatchEvent(new Event('change')); return true; })()")

        # Hostile text is inert: no element, no alert, bidi controls shown as escapes.
        ask(page, HOSTILE)
        page.wait_for("the hostile question", "document.body.innerText.includes('\\\\u{202E}evil')")
        inert(page)

        # The projector: the hostile question highlighted, and the join address from the Host
        # the browser used, as a QR code.
        hostile = next(q["id"] for q in server.api("GET", f"/s/{code}/api/questions", token)
                       if q["content"] == HOSTILE)
        server.api("POST", f"/s/{code}/api/questions/{hostile}/highlight", token)
        projector(page, server.url + f"/s/{code}/screen", f"{server.url}/s/{code}/", args.artefacts, "short")

        # The server restarts while a question is typed on the page: sent once, when it is back.
        viewport(page, 360, 800, mobile=True)
        page.call("Page.navigate", url=room)
        page.wait_for("the live page", "document.body?.dataset.live === 'true'")
        server.stop()
        page.wait_for("the page offline", "document.body.dataset.live === 'false'")
        offline = "Typed while the server was down"
        ask(page, offline)
        page.wait_for("the question waiting", "document.querySelector('#mine-list').innerText.includes('Waiting to send')")
        long_url = f"http://{LONG_HOST}:{port}"
        server.start("--public-url", long_url)
        page.wait_for("the question sent after the restart", f"[...document.querySelectorAll('#questions .text')].some((p) => p.textContent === {json.dumps(offline)})", seconds=30)
        time.sleep(1)
        page.call("Page.reload")
        page.wait_for("the live page", "document.body?.dataset.live === 'true'")
        time.sleep(1)
        stored = [q for q in server.api("GET", f"/s/{code}/api/questions", token) if q["content"] == offline]
        if len(stored) != 1:
            fail(f"the question typed offline was stored {len(stored)} times")
        inert(page)

        # The projector again, behind a --public-url of 200 characters.
        join_address = f"{long_url}/s/{code}/"
        if len(join_address) < 200:
            fail(f"the long address is only {len(join_address)} characters")
        projector(page, server.url + f"/s/{code}/screen", join_address, args.artefacts, "long")

        # Scripts off: the form posts, and the question is stored.
        viewport(page, 360, 800, mobile=True)
        posted = "Asked with scripts off"
        post_without_scripts(page, room, posted)
        screenshot(page, os.path.join(args.artefacts, "attendee-phone-no-script.png"))
        stored = [q for q in server.api("GET", f"/s/{code}/api/questions", token) if q["content"] == posted]
        if len(stored) != 1:
            fail(f"the form's question was stored {len(stored)} times")
        page.call("Emulation.setScriptExecutionDisabled", value=False)

        # The organiser closes the session: the open page hears it at once (extension
        # sessionState), says so and disables its form; reopened, the form comes back.
        page.call("Page.navigate", url=room)
        page.wait_for("the live page", "document.body?.dataset.live === 'true'")
        server.api("POST", f"/api/sessions/{code}/close", "browser-admin-0123")
        page.wait_for("the page told of the closing",
                      "document.querySelector('#question').disabled"
                      " && document.querySelector('#notice').textContent.includes('closed')")
        server.api("POST", f"/api/sessions/{code}/open", "browser-admin-0123")
        page.wait_for("the page told of the reopening",
                      "!document.querySelector('#question').disabled"
                      " && document.querySelector('#notice').textContent.includes('reopened')")

        # The form's question is the asker's when scripts come back: in a room this browser
        # has no attendee in yet, asked with scripts off, then seen with them.
        form_code, _ = server.session("Asked by the form first")
        form_room = f"{server.url}/s/{form_code}/"
        by_form = "Asked by the form, mine later"
        post_without_scripts(page, form_room, by_form)
        page.call("Emulation.setScriptExecutionDisabled", value=False)
        page.call("Page.navigate", url=form_room)
        page.wait_for("the live page", "document.body?.dataset.live === 'true'")
        page.wait_for("the form's question as mine",
                      f"document.querySelector('#mine-list').innerText.includes({json.dumps(by_form)})"
                      f" && ({room_item(by_form)}?.querySelector('.meta')?.textContent || '').includes('yours')")
        if "qna-asker" in page.evaluate("document.cookie"):
            fail("the form's cookie was not cleared once read")

        # Two tabs of one room: one sends what waits, with Web Locks and without them.
        def restart():
            server.stop()
            server.start("--public-url", long_url)

        for locks in (True, False):
            tabs_code, tabs_token = server.session("Two tabs" + ("" if locks else ", no Web Locks"))
            two_tabs(browser_url, server, tabs_code, tabs_token, locks, restart if locks else None)
        print("attendee page: asked, voted from tmux, highlighted and answered, resent once after"
              " a restart, asked with scripts off (and the question theirs with scripts on), told"
              " of the session closed and reopened; two tabs of a room sent each question and"
              " vote once, and the second took over from the first; projector QR codes read"
              " back; hostile text inert")
    finally:
        tmux.kill()
        chromium.kill()
        chromium.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def post_without_scripts(page, url, text):
    """Asks `text` on the page at `url` with scripts off, by a real click on the form's button;
    returns when the post has come back to the page (scripts stay off)."""
    page.call("Emulation.setScriptExecutionDisabled", value=True)
    page.call("Page.navigate", url=url)
    # Loaded and laid out (a busy machine may take seconds): the form's button where it
    # stays, the same box twice a tenth of a second apart.
    deadline, box = time.time() + 15, None
    while True:
        time.sleep(0.1)
        document = page.try_call("DOM.getDocument")
        found = "error" not in document and page.try_call(
            "DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#ask button")
        # In view first: the box is where the viewport shows it, and a click lands only there
        # (a room of long questions puts the button below a phone's first screen).
        if found and "error" not in found and found.get("nodeId"):
            page.try_call("DOM.scrollIntoViewIfNeeded", nodeId=found["nodeId"])
        model = (found and "error" not in found and found.get("nodeId")
                 and page.try_call("DOM.getBoxModel", nodeId=found["nodeId"]))
        now = model["model"]["content"] if model and "error" not in model else None
        if now and now == box:
            break
        box = now
        if time.time() > deadline:
            fail("the page without scripts never showed its form")
    document = document["root"]["nodeId"]
    textarea = page.call("DOM.querySelector", nodeId=document, selector="#question")["nodeId"]
    page.call("DOM.focus", nodeId=textarea)
    page.call("Input.insertText", text=text)
    x, y = (box[0] + box[2]) / 2, (box[1] + box[5]) / 2
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
    deadline = time.time() + 10
    while time.time() < deadline:
        # The form's post navigates the tab: asked while it does, the browser answers with an
        # error ("Not attached to an active page"), and the next poll sees where it went.
        history = page.try_call("Page.getNavigationHistory")
        if "error" not in history and "asked=" in history["entries"][history["currentIndex"]]["url"]:
            return
        time.sleep(0.1)
    history = page.try_call("Page.getNavigationHistory")
    where = history["entries"][history["currentIndex"]]["url"] if "error" not in history else history
    fail(f"the form post did not come back to the page (the tab is at {where})")


def room_item(text):
    """The room's list item of the question `text`, as a page expression."""
    return ("[...document.querySelectorAll('#questions li')]"
            f".find((li) => li.querySelector('.text')?.textContent === {json.dumps(text)})")


# Every message a page's sockets send, in `window.sent`, before the page's script runs.
COUNT_SENDS = ("window.sent = []; const qnaSend = WebSocket.prototype.send;"
               "WebSocket.prototype.send = function (data) { window.sent.push(String(data));"
               " return qnaSend.call(this, data); };")
# A browser without Web Locks (as every one is on plain http:// other than loopback).
NO_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"


def sends(tab, kind, field, value):
    """How many messages of `kind` with `field` equal to `value` the tab's sockets sent."""
    return tab.evaluate(
        "window.sent.map((s) => { try { return JSON.parse(s); } catch { return {}; } })"
        f".filter((m) => m.type === {json.dumps(kind)} && m[{json.dumps(field)}] === {json.dumps(value)}).length")


def two_tabs(browser_url, server, code, token, locks, restart):
    """Two tabs of one room: exactly one sends; a question and a vote given in the other go
    once, from the sender, and both tabs show them; when the sender closes, the other takes
    over. With `restart`: a question typed while the server is down, in a tab that then
    closes, is sent once by the tab that stays, when the server is back."""
    room = f"{server.url}/s/{code}/"
    mode = "Web Locks" if locks else "a lease"

    def open_tab():
        tab = Page(browser_url, new_tab=True)
        tab.watch()
        tab.call("Page.addScriptToEvaluateOnNewDocument", source=COUNT_SENDS + ("" if locks else NO_LOCKS))
        tab.call("Page.navigate", url=room)
        tab.wait_for("the live page", "document.body?.dataset.live === 'true'")
        if page_has_locks(tab) != locks:
            fail(f"the tab has Web Locks: {page_has_locks(tab)}, not {locks}")
        return tab

    def stored(text):
        return [q for q in server.api("GET", f"/s/{code}/api/questions", token) if q["content"] == text]

    tabs = [open_tab(), open_tab()]
    deadline = time.time() + 15
    while sorted(t.evaluate("document.body.dataset.sender") for t in tabs) != ["false", "true"]:
        if time.time() > deadline:
            fail(f"not exactly one sending tab ({mode})")
        time.sleep(0.1)
    sender, other = sorted(tabs, key=lambda t: t.evaluate("document.body.dataset.sender") != "true")
    try:
        # A question asked in the tab that does not send: sent once, by the sender; both tabs
        # show it as theirs.
        asked = f"Asked in the tab that does not send ({mode})"
        ask(other, asked)
        for tab in tabs:
            tab.wait_for("the question as mine in both tabs",
                         f"document.querySelector('#mine-list').innerText.includes({json.dumps(asked)})"
                         " && !document.querySelector('#mine-list').innerText.includes('Waiting to send')")
        # Someone else's question (a form post is another attendee), voted for in that tab.
        theirs = f"Someone else's question ({mode})"
        request = urllib.request.Request(room + "ask", data=f"content={urllib.parse.quote(theirs)}".encode(),
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        urllib.request.urlopen(request, timeout=10).read()
        button = f"{room_item(theirs)}?.querySelector('button.vote')"
        other.wait_for("the other question's vote button", f"!!{button}")
        other.evaluate(f"{button}.click(); true")
        for tab in tabs:
            tab.wait_for("the vote in both tabs", f"{button}?.getAttribute('aria-pressed') === 'true'")
        deadline = time.time() + 10
        while stored(theirs)[0]["votes"] != 1:
            if time.time() > deadline:
                fail(f"the vote from the tab that does not send was not counted ({mode})")
            time.sleep(0.1)
        time.sleep(0.5)
        question = stored(theirs)[0]["id"]
        counts = [(sends(sender, "newQuestion", "content", asked), sends(other, "newQuestion", "content", asked)),
                  (sends(sender, "vote", "question", question), sends(other, "vote", "question", question))]
        if counts != [(1, 0), (1, 0)]:
            fail(f"questions and votes sent by the sender and the other tab: {counts} ({mode})")
        if len(stored(asked)) != 1:
            fail(f"the question of the tab that does not send was stored {len(stored(asked))} times")

        # The sender closes: the other tab sends from then on.
        sender.close()
        tabs.remove(sender)
        other.wait_for("the other tab sending", "document.body.dataset.sender === 'true'")
        after = f"Asked after the sender closed ({mode})"
        ask(other, after)
        other.wait_for("the question sent", f"!!{room_item(after)}")
        if sends(other, "newQuestion", "content", after) != 1 or len(stored(after)) != 1:
            fail(f"the question after the sender closed: sent {sends(other, 'newQuestion', 'content', after)}"
                 f" times, stored {len(stored(after))} times")

        if restart:
            # What waits goes with no tab: typed while the server is down in the tab that
            # sends, which then closes; the tab that stays sends it once the server is back.
            stays = open_tab()
            tabs.append(stays)
            server.stop()
            for tab in tabs:
                tab.wait_for("the tab offline", "document.body.dataset.live === 'false'")
            waiting = "Typed in a tab that closed before it was sent"
            ask(other, waiting)
            stays.wait_for("the question waiting in the tab that stays",
                           "document.querySelector('#mine-list').innerText.includes('Waiting to send')")
            other.close()
            tabs.remove(other)
            restart()
            stays.wait_for("the question sent by the tab that stayed", f"!!{room_item(waiting)}", seconds=30)
            time.sleep(1)
            if sends(stays, "newQuestion", "content", waiting) != 1 or len(stored(waiting)) != 1:
                fail(f"the question of the closed tab: sent {sends(stays, 'newQuestion', 'content', waiting)}"
                     f" times, stored {len(stored(waiting))} times")
        for tab in tabs:
            inert(tab)
    finally:
        for tab in tabs:
            tab.close()


def page_has_locks(tab):
    return tab.evaluate("!!(navigator.locks && navigator.locks.request)")


def press(page, key, code, keycode):
    for kind in ("keyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                  windowsVirtualKeyCode=keycode, nativeVirtualKeyCode=keycode,
                  text=key if kind == "keyDown" and len(key) == 1 else "")


def ask(page, text):
    page.evaluate(f"document.getElementById('question').value = {json.dumps(text)};"
                  " document.querySelector('#ask button').click(); true")


def inert(page):
    """No markup from the network became elements, no script ran, the policy held."""
    injected = page.evaluate("document.querySelectorAll('main img, main script, h1 b, h1 img').length")
    if injected:
        fail(f"{injected} elements came from attendees' text")
    for name in ("alerts", "cspViolations"):
        found = page.evaluate(f"window.{name}")
        if found:
            fail(f"{name}: {found}")


# The projector's join address narrowed 5 px at a time (`%s`: the code, as JSON): "" when
# the code's letters stay on one line at every width, and the address in its column at
# every width the code with its slash fits, else the widths that split the code or overflow.
CODE_ON_ONE_LINE = """(() => {
  const p = document.querySelector('.address');
  const code = %s;
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode()) && !node.data.includes(code)) {}
  if (!node) return 'no code in the address';
  const range = document.createRange();
  range.setStart(node, node.data.indexOf(code));
  range.setEnd(node, node.data.indexOf(code) + code.length);
  const split = [];
  const over = [];
  // A column narrower than the code with its slash cannot hold it unbroken: it may overflow.
  const piece = p.querySelector('.unbroken');
  const needed = piece ? piece.getBoundingClientRect().width : 0;
  for (let width = 120; width <= 600; width += 5) {
    p.style.width = width + 'px';
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (tops.size !== 1) split.push(width);
    if (width > needed && p.scrollWidth > p.clientWidth) over.push(width);
  }
  p.style.width = '';
  return (split.length ? 'the code split at ' + split.join(', ') + ' px. ' : '')
    + (over.length ? 'the address overflows at ' + over.join(', ') + ' px' : '');
})()"""


def projector(page, url, address, artefacts, name):
    for width, height in ((1280, 720), (1920, 1080)):
        viewport(page, width, height, mobile=False)
        page.call("Page.navigate", url=url)
        page.wait_for("the projector live", "document.body?.dataset.live === 'true'")
        page.wait_for("the banner", "!document.getElementById('banner').hidden")
        page.wait_for("the highlight, large", "document.getElementById('now-text').textContent.includes('\\\\u{202E}evil')")
        size = page.evaluate("parseFloat(getComputedStyle(document.getElementById('now-text')).fontSize)")
        # Legible from the back of a hall: at least 1/20 of the screen's height.
        if size < height / 20:
            fail(f"the highlighted question is {size}px at {width}×{height}")
        inert(page)
        # The join address wraps after a slash, never inside its code: at every column width
        # from 120 to 600 px, the code's letters are on one line, and nothing overflows a
        # column wider than the code.
        code = address.rstrip("/").split("/")[-1]
        split = page.evaluate(CODE_ON_ONE_LINE % json.dumps(code))
        if split:
            fail(f"the join address at {width}×{height}: {split}")
        overflow = page.evaluate("(() => { const p = document.querySelector('.address'); return p.scrollWidth - p.clientWidth })()")
        if overflow > 0:
            fail(f"the join address overflows its column by {overflow}px at {width}×{height}")
        shown = page.evaluate("document.querySelector('.address').textContent")
        if shown != address:
            fail(f"the join address shows {shown!r}, not {address!r}")
        path = screenshot(page, os.path.join(artefacts, f"projector-{name}-{width}x{height}.png"))
        read = zbar(path)
        if read != [address]:
            fail(f"the projector's QR code at {width}×{height} reads {read}, not {address}")


if __name__ == "__main__":
    main()
