"""An open text poll (extension `polls`, kind `text`) end to end in Debian's Chromium, headless,
over the DevTools protocol, against a real qna-server that holds answers for review
(`--moderation`).

The presenter makes the poll through the API, opens it and shows its results. On a 390×844
phone with touch (every poll control at least 44×44 CSS pixels) the page keeps a 10,000
character answer to itself and says why; an answer typed and sent with a tap is counted, and
the page says, on a line of its own, that it waits for review. `qna --headless` attendees
answer too: the phone's line again (one entry, counted twice), a line with commas, a 140
character hostile one (markup and a bidi override) and a 10,000 character one, which the
server refuses. The presenter's page (1280×800, logged in with the session's token, a browser
of its own) lists the waiting entries; a click on Approve lets the phone's through, a click
the hostile one, and the keyboard (Tab to Dismiss, Enter) keeps the one with commas out, the
focus then on the emptied queue's line. The phone's list and the projector (1280×720, beside
a QR code zbarimg reads) then show the approved entries, the most given first, as text (no element,
no alert, no override), never the dismissed one; nothing overflows the phone at 390 and 360
CSS pixels, and long entries wrap there; on the projector each entry is two lines at most,
and with a busy room (ten more entries approved) it lists the first that fit, the page no
taller than the screen. Screenshots (phone light and dark, held and after moderation; the
presenter's review queue and its entries after; the projector, and busy) go to --artefacts.
Exit 0 when all of that held; the reason on stderr otherwise.

Usage: text_poll_pages.py --qna-server PATH --qna PATH --artefacts DIR
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

from browser_support import Server, free_port, page_test_arguments, viewport, whole_page
from poll_pages import (TARGET, check_targets, counted, item, no_violations, open_on_phone,
                        projector_checks, selector, tap, terminal_answers, type_words,
                        until_results)
from presenter_page import Page, browser_call, fail, start_chromium

ADMIN = "browser-text-poll-0123"
PROMPT = "What should the next talk cover?"
# The phone's answer, and a terminal's that is the same once cleaned (one entry, twice).
PHONE = "More live demos, please"
PHONE_AGAIN = "  More live   demos, please "
# A terminal's line with commas (the whole line is the answer): dismissed.
COMMAS = "Slides online, with the code, please"
# Markup and a bidi override (cleaned off), 140 characters once cleaned: approved, as text.
MARKUP = "<img src=x onerror=alert(1)>"
HOSTILE = MARKUP + "\u202E" + "W" * (140 - len(MARKUP))
HOSTILE_SHOWN = MARKUP + "W" * (140 - len(MARKUP))
# Far past the bounds: the page keeps it, the server refuses it.
OVERLONG = MARKUP + "\u202E" + "z" * (10_000 - len(MARKUP) - 1)
HELD = "Sent. The presenters review answers before the room sees them."
# A busy room's answers, approved: more than the projector has room for.
BUSY = ["Longer breaks between the talks, so that the hallway track has time to happen",
        "Captions on every screen, in more than one language if the budget allows it",
        "Coffee!", "A quiet room", "مرحبا بالجميع، نريد المزيد من العروض الحية",
        "supercalifragilistic-" * 6 + "end", "Name tags with bigger type",
        "日本語の字幕もお願いします。とても助かります。", "Shorter keynotes", "Less swag, more trees"]


def main():
    args = page_test_arguments()
    scratch = tempfile.mkdtemp(prefix="qna-text-poll-")
    server = Server(args.qna_server, free_port(), os.path.join(scratch, "qna.db"),
                    "--admin-token", ADMIN, "--moderation")
    chromium = None
    try:
        server.start()
        code, token = server.session("Open text in the room")
        api = lambda method, path, body=None: server.api(method, f"/s/{code}{path}", token, body)
        poll = api("POST", "/api/polls", {"kind": "text", "prompt": PROMPT})
        for action in ("open", "show"):
            api("POST", f"/api/polls/{poll['id']}/{action}")
        room = f"{server.url}/s/{code}/"
        shots = []

        chromium, browser_url = start_chromium(os.path.join(scratch, "profile"))
        phone = Page(browser_url)
        open_on_phone(phone, room, (poll,))
        check_targets(phone)
        field = f"{item(poll)}.querySelector('input[data-act=\"type\"]')"
        if phone.evaluate(f"{field}.maxLength") != 140:
            fail("the answer's field does not stop at 140 characters")

        # A 10,000 character answer (put in past the field's limit): the page keeps it to
        # itself and says why; nothing reaches the server.
        phone.evaluate(f"(() => {{ const f = {field}; f.value = {json.dumps(OVERLONG)};"
                       " f.dispatchEvent(new Event('input', { bubbles: true })); return true; })()")
        tap(phone, f"{item(poll)}?.querySelector('button.send')")
        phone.wait_for("the page's own refusal",
                       "document.getElementById('announcements').textContent"
                       " === 'One line, at most 140 characters.'")
        phone.evaluate(f"{field}.value = ''; true")

        # The answer typed and sent with a tap: counted, held for review, and the page says so.
        type_words(phone, poll, PHONE)
        counted(phone, poll, f"Your answer: {PHONE}")
        phone.wait_for("the word that it waits for review, on a line of its own",
                       f"{item(poll)}.querySelector('.poll-note')?.textContent === {json.dumps(HELD)}")
        # Counted among the answers (within a second: a text poll's results wait for their
        # broadcast), and listed nowhere while it waits.
        phone.wait_for("the held answer counted", f"{item(poll)}.querySelector('.summary')?.textContent === 'Answers: 1'")
        if phone.evaluate(f"{item(poll)}.querySelectorAll('.text-entry').length"):
            fail("an entry waiting for review is listed on the phone")
        shots.append(whole_page(phone, os.path.join(args.artefacts, "text-poll-phone-held.png")))
        phone.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        shots.append(whole_page(phone, os.path.join(args.artefacts, "text-poll-phone-held-dark.png")))
        phone.call("Emulation.setEmulatedMedia", features=[])
        results = until_results(api, poll, lambda r: r["answers"] == 1 and r["held"] == 1)
        if results["texts"] or [e["text"] for e in results["review"]] != [PHONE]:
            fail(f"the phone's answer is not held for review alone: {results}")
        check_targets(phone)

        # Terminals: the same line again (one entry), a line with commas, a hostile one; the
        # 10,000 character one refused by the server.
        for number, text in enumerate((COMMAS, PHONE_AGAIN, HOSTILE)):
            terminal_answers(args.qna, server, code, os.path.join(scratch, f"qna-{number}"),
                             {poll["id"]: text})
        refused = refused_answer(args.qna, server, code, os.path.join(scratch, "qna-long"), poll)
        results = until_results(api, poll, lambda r: r["answers"] == 4)
        review = [[e["text"], e["count"]] for e in results["review"]]
        if review != [[PHONE, 2], [COMMAS, 1], [HOSTILE_SHOWN, 1]] or results["held"] != 3 or results["texts"]:
            fail(f"the entries waiting for review are {results}")

        # The presenter's page, in a browser of its own (its login cookie is not the phone's).
        context = browser_call(browser_url, "Target.createBrowserContext")["browserContextId"]
        presenter = Page(browser_url, context=context)
        presenter.watch()
        viewport(presenter, 1280, 800, mobile=False)
        presenter.call("Page.navigate", url=f"{room}login")
        presenter.wait_for("the login form", "!!document.querySelector('input[name=token]')")
        presenter.submit_login(token)
        presenter.wait_for("the presenter's live page", "document.body?.dataset.live === 'true'")
        # The polls are in the page's tools drawer (issue #51): opened, as a presenter would.
        presenter.evaluate("document.getElementById('tools').open = true; true")
        card = f"document.querySelector('#polls .poll-card[data-poll=\"{poll['id']}\"]')"
        waiting = f"[...{card}?.querySelectorAll('ol.review .entry-text') || []].map((e) => e.textContent)"
        presenter.wait_for("the review list", f"JSON.stringify({waiting}) === "
                           + json.dumps(json.dumps([PHONE, COMMAS, HOSTILE_SHOWN], separators=(",", ":"))))
        if presenter.evaluate(f"{card}.querySelector('.poll-texts h4').textContent") != "Waiting for review: 3":
            fail("the card does not say how many entries wait")
        presenter_targets(presenter, card)
        presenter.evaluate(f"{card}.scrollIntoView({{ block: 'start' }})")
        shots.append(whole_page(presenter, os.path.join(args.artefacts, "text-poll-presenter-review.png")))

        # Approve with a click (the phone's entry, then the hostile one), each time once the
        # page shows the entry live (a click while the poll's last action is on its way is
        # not taken).
        for text in (PHONE, HOSTILE_SHOWN):
            click(presenter, entry_button(card, "review", "approve", text))
            until_results(api, poll, lambda r, text=text: any(e["text"] == text for e in r["texts"]))
            presenter.wait_for("the entry live on the card, the card idle",
                               f"!!{entry_button(card, 'live', 'dismiss', text)}"
                               f" && !{card}.querySelector('[aria-disabled=true]')")
        # Dismiss with the keyboard: Tab from the entry's Approve to its Dismiss, then Enter.
        presenter.evaluate(f"{entry_button(card, 'review', 'approve', COMMAS)}.focus(); true")
        key(presenter, "Tab", 9)
        if not presenter.evaluate(f"document.activeElement === {entry_button(card, 'review', 'dismiss', COMMAS)}"):
            fail("Tab from Approve does not reach the entry's Dismiss")
        key(presenter, "Enter", 13)
        results = until_results(api, poll, lambda r: r["held"] == 0 and len(r["texts"]) == 2)
        live = [[e["text"], e["count"]] for e in results["texts"]]
        # The most given first (the phone's, twice), then the newest.
        if live != [[PHONE, 2], [HOSTILE_SHOWN, 1]] or results["review"]:
            fail(f"after moderation the entries are {results}")
        # The queue emptied, the focus on its line saying so: not on a live entry's Dismiss,
        # where a second Enter would keep an approved entry out of the room.
        presenter.wait_for("the focus on the emptied queue's line",
                           f"document.activeElement === {card}.querySelector('ol.review li.empty')")
        entries = f"[...{card}.querySelectorAll('ol.live .entry-text')].map((e) => e.textContent)"
        presenter.wait_for("the live entries on the card", f"JSON.stringify({entries}) === "
                           + json.dumps(json.dumps([PHONE, HOSTILE_SHOWN], separators=(",", ":"))))
        presenter.wait_for("nothing left to review", f"{card}.querySelector('.poll-texts h4').textContent"
                           " === 'Waiting for review: 0'")
        if presenter.evaluate("document.querySelectorAll('#polls img').length"):
            fail("an entry's markup became an element on the presenter's page")
        no_violations(presenter, "the presenter's page")
        shots.append(whole_page(presenter, os.path.join(args.artefacts, "text-poll-presenter-moderated.png")))
        presenter.close()
        browser_call(browser_url, "Target.disposeBrowserContext", browserContextId=context)

        # The phone: the approved entries, the most given first, as text; not the dismissed one. Its
        # own answer is live now, and the line says no more that it waits.
        phone_entries = f"[...{item(poll)}.querySelectorAll('.texts .text-entry')]"
        expected = [[PHONE, "×2"], [HOSTILE_SHOWN, ""]]
        phone.wait_for("the approved entries on the phone",
                       f"JSON.stringify({phone_entries}.map((li) => [li.querySelector('.entry-text').textContent,"
                       " li.querySelector('.entry-count')?.textContent || '']))"
                       f" === {json.dumps(json.dumps(expected, ensure_ascii=False, separators=(',', ':')))}")
        counted(phone, poll, f"Your answer: {PHONE}")
        if phone.evaluate(f"!!{item(poll)}.querySelector('.poll-note')"):
            fail("the phone still says its live answer waits for review")
        if phone.evaluate(f"{item(poll)}.querySelector('.summary').textContent") != "Answers: 4":
            fail("the phone does not count 4 answers")
        if phone.evaluate(f"{item(poll)}.innerText.includes({json.dumps(COMMAS)})"):
            fail("the dismissed entry shows on the phone")
        inert(phone, "#poll-list", "the phone")
        check_targets(phone)
        fits(phone, 390)
        shots.append(whole_page(phone, os.path.join(args.artefacts, "text-poll-phone.png")))
        phone.call("Emulation.setEmulatedMedia",
                   features=[{"name": "prefers-color-scheme", "value": "dark"}])
        if phone.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(18, 18, 18)":
            fail("the page is not dark when the system is")
        shots.append(whole_page(phone, os.path.join(args.artefacts, "text-poll-phone-dark.png")))
        phone.call("Emulation.setEmulatedMedia", features=[])
        viewport(phone, 360, 800, mobile=True)
        fits(phone, 360)
        check_targets(phone)
        shots.append(whole_page(phone, os.path.join(args.artefacts, "text-poll-phone-360.png")))

        # The projector: the entries beside the join code, the dismissed one nowhere.
        projector = Page(browser_url, new_tab=True)
        projector.watch()
        viewport(projector, 1280, 720, mobile=False)
        projector.call("Page.navigate", url=f"{room}screen")
        projector.wait_for("the projector live", "document.body?.dataset.live === 'true'")
        shown = "[...document.querySelectorAll('#poll-chart .text-entry .entry-text')].map((e) => e.textContent)"
        projector.wait_for("the entries on the projector", f"JSON.stringify({shown}) === "
                           + json.dumps(json.dumps([PHONE, HOSTILE_SHOWN], separators=(",", ":"))))
        projector.wait_for("the answers above them",
                           "document.getElementById('poll-answers').textContent === 'Answers: 4'")
        if projector.evaluate(f"document.body.innerText.includes({json.dumps(COMMAS)})"):
            fail("the dismissed entry shows on the projector")
        inert(projector, "#poll", "the projector")
        entries_on_screen(projector)
        shots.append(projector_checks(projector, room, args.artefacts, "text-poll-projector.png"))

        # A busy room: more answers, every one approved. The projector lists the first that
        # fit the screen in the room's order, whole, each of two lines at most; the phone
        # lists them all.
        for number, text in enumerate(BUSY):
            terminal_answers(args.qna, server, code, os.path.join(scratch, f"qna-busy-{number}"),
                             {poll["id"]: text})
        until_results(api, poll, lambda r: r["held"] == len(BUSY))
        for text in BUSY:
            api("POST", f"/api/polls/{poll['id']}/approve", {"text": text})
        newest = [e["text"] for e in until_results(api, poll, lambda r: len(r["texts"]) == 2 + len(BUSY))["texts"]]
        projector.wait_for("the busy room's newest entry on the projector",
                           f"{shown}[0] === {json.dumps(newest[0])}"
                           f" && document.getElementById('poll-answers').textContent === 'Answers: {4 + len(BUSY)}'")
        listed = projector.evaluate(shown)
        if not listed or listed != newest[:len(listed)] or len(listed) > 8:
            fail(f"the projector lists {listed}, not the newest of {newest}")
        entries_on_screen(projector)
        shots.append(projector_checks(projector, room, args.artefacts, "text-poll-projector-busy.png"))
        phone.wait_for("the busy room's entries on the phone",
                       f"{item(poll)}.querySelectorAll('.text-entry').length === {len(newest)}")
        fits(phone, 360)
        viewport(phone, 390, 844, mobile=True)
        fits(phone, 390)
        no_violations(phone, "the phone")
        for shot in shots:
            print(f"screenshot: {shot}")
        print(f"text poll pages: an answer typed on a 390×844 phone held for review, approved with"
              f" a click on the presenter's page, another dismissed with the keyboard; the phone"
              f" and the projector show the approved entries as text, markup and bidi inert;"
              f" 10,000 characters kept by the page and refused by the server ({refused});"
              f" every control at least {TARGET}×{TARGET}, nothing past 360 pixels")
    finally:
        if chromium:
            chromium.kill()
            chromium.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def refused_answer(qna, server, code, state, poll):
    """A terminal's 10,000 character answer: qna exits 1 with the server's refusal."""
    os.makedirs(state, exist_ok=True)
    run = subprocess.run(
        [qna, "join", code, "--url", f"ws://127.0.0.1:{server.port}", "--headless", "--no-persist",
         "--no-stdin", "--exit-after-send", "--timeout", "20s", "--poll", f"{poll['id']}={OVERLONG}"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "XDG_STATE_HOME": state})
    reason = "An answer has at most 140 characters, and something to read."
    if run.returncode != 1 or reason not in run.stderr:
        fail(f"qna exited {run.returncode} for a 10,000 character answer: {run.stderr}")
    return reason


def entry_button(card, listed, act, text):
    """The button `act` of the entry `text` in the card's list `listed` (review or live)."""
    return (f"[...{card}.querySelectorAll('ol.{listed} button[data-act={act}]')]"
            f".find((b) => b.dataset.text === {json.dumps(text)})")


def click(page, element):
    """A mouse's click in the middle of `element`, scrolled into view; fails when something
    else is on top of that point."""
    x, y = page.evaluate(
        f"(() => {{ const e = {element}; e.scrollIntoView({{ block: 'center' }});"
        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    if not page.evaluate(f"(() => {{ const e = {element}, at = document.elementFromPoint({x}, {y});"
                         " return !!at && (at === e || e.contains(at)); })()"):
        fail(f"something covers {element} at ({x:.0f}, {y:.0f})")
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def key(page, name, code):
    """One key pressed and let go, as a keyboard sends it."""
    text = {"Enter": "\r"}.get(name)
    page.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", key=name, code=name,
              windowsVirtualKeyCode=code, **({"text": text} if text else {}))
    page.call("Input.dispatchKeyEvent", type="keyUp", key=name, code=name, windowsVirtualKeyCode=code)


def presenter_targets(page, card):
    """The entries' buttons on the presenter's card are at least 44×44 CSS pixels."""
    sizes = page.evaluate(f"[...{card}.querySelectorAll('.poll-texts button')].map((b) => {{"
                          " const r = b.getBoundingClientRect(); return [b.textContent, r.width, r.height]; })")
    small = [s for s in sizes if s[1] < TARGET - 0.01 or s[2] < TARGET - 0.01]
    if not sizes or small:
        fail(f"the entries' buttons under {TARGET}×{TARGET}: {small or 'none at all'}")


def inert(page, box, where):
    """The hostile entry is text: no element made of its markup, no alert, no override left."""
    found = page.evaluate(f"[document.querySelectorAll('{box} img').length, window.alerts.length,"
                          f" document.querySelector('{box}').textContent.includes('\\u202E')]")
    if found != [0, 0, False]:
        fail(f"{where}: the hostile entry made elements, alerts or kept its override: {found}")


def fits(page, width):
    """Nothing on the phone is wider than its screen; the poll's entries wrap inside the poll."""
    page.wait_for(f"the page laid out at {width} pixels",
                  f"document.documentElement.clientWidth === {width}")
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > width:
        fail(f"the phone's page is {wide} CSS pixels wide at {width}")
    out = page.evaluate(
        "(() => { const list = document.getElementById('poll-list').getBoundingClientRect();"
        " return [...document.querySelectorAll('#poll-list .text-entry, #poll-list .poll-status, #poll-list .prompt')]"
        ".map((e) => [e.className, e.getBoundingClientRect(), e.scrollWidth - e.clientWidth])"
        ".filter(([, r, over]) => r.left < list.left - 0.5 || r.right > list.right + 0.5 || over > 0)"
        ".map(([name, r, over]) => [name, r.left, r.right, over]); })()")
    if out:
        fail(f"poll text leaves its list at {width} pixels: {out}")
    lines = page.evaluate(
        f"(() => {{ const e = [...document.querySelectorAll('#poll-list .text-entry .entry-text')]"
        f".find((s) => s.textContent === {json.dumps(HOSTILE_SHOWN)});"
        " return e ? e.getClientRects().length : 0; })()")
    if lines < 2:
        fail(f"the 140 character entry is on {lines} line(s) at {width} pixels, not wrapped")


def entries_on_screen(page):
    """On the projector each entry is inside the poll's column and on the screen, its text two
    lines at most (an ellipsis past them); the poll's column, with the question being answered
    under it, no taller than the screen (the join column beside it is not the poll's)."""
    boxes = page.evaluate(
        "(() => { const col = document.getElementById('poll').getBoundingClientRect();"
        " const stage = [...document.querySelector('main .stage').children].filter((e) => e.getClientRects().length);"
        " return { col: [col.left, col.right], height: Math.max(...stage.map((e) => e.getBoundingClientRect().bottom))"
        " + parseFloat(getComputedStyle(document.querySelector('main')).paddingBottom),"
        " rows: [...document.querySelectorAll('#poll-chart .text-entry')].map((e) => {"
        " const r = e.getBoundingClientRect(), t = e.querySelector('.entry-text');"
        " return { box: [r.left, r.top, r.right, r.bottom], text: t.textContent.slice(0, 40),"
        " lines: t.getBoundingClientRect().height / parseFloat(getComputedStyle(t).lineHeight) }; }) }; })()")
    if not boxes["rows"]:
        fail("the projector lists no entry")
    for row in boxes["rows"]:
        left, top, right, bottom = row["box"]
        if left < boxes["col"][0] - 0.5 or right > boxes["col"][1] + 0.5 or bottom > 720 or right > 1280:
            fail(f"a projector entry {row} leaves its column {boxes['col']} or the screen")
        if row["lines"] > 2.05:
            fail(f"a projector entry runs to {row['lines']:.1f} lines: {row}")
    if boxes["height"] > 720.5:
        fail(f"the projector's poll column runs to {boxes['height']:.0f} pixels, past its 720,"
             f" with entries {boxes['rows']}")


if __name__ == "__main__":
    main()
