"""Polls (extension `polls`) on the attendee page and the projector view, in Debian's Chromium,
headless, over the DevTools protocol, against a real qna-server.

The presenter makes a single choice and a word cloud through the API, opens both and shows
their results. On a 390×844 phone, with touch: every poll control is at least 44×44 CSS
pixels; a tap on an option answers the choice, words typed and Send answer the cloud, and
the page says each answer is counted, with the bars' counts and percentages. A second
attendee (a browser context of its own) and a few `qna --headless` attendees answer too, and
the first page's bars move to the server's counts. The projector at 1280×720 shows the word
cloud, its words' boxes overlapping none, then (the cloud closed) the choice's bars, each
time with a QR code that zbarimg reads as the join address. Screenshots (phone light and
dark, projector) go to --artefacts. Exit 0 when all of that held; the reason on stderr
otherwise.

Usage: poll_pages.py --qna-server PATH --qna PATH --artefacts DIR
"""

import json
import math
import os
import shutil
import subprocess
import tempfile
import time

from browser_support import (
    Server, free_port, page_test_arguments, screenshot, viewport, whole_page, zbar)
from presenter_page import Page, browser_call, fail, start_chromium

ADMIN = "browser-polls-0123"
OPTIONS = ["Swift 6.2", "Swift 6.1", "Swift 5.10", "A nightly toolchain"]
# The word cloud's answers: the two pages', then the terminal attendees' (at most 3 each).
PAGE_WORDS = ["swift, fast, safe", "Swift, concurrency, FAST"]
TERMINAL_WORDS = ["vapor, hummingbird, async", "actors, sendable, macros",
                  "linux, docker, fast", "performance, memory safety, swift",
                  "embedded, server side, wasm"]
# The choice's answers from the terminal (option numbers from 1).
TERMINAL_CHOICES = ["1", "3", "1", "4", "2"]
# WCAG 2.5.5: a target at least 44×44 CSS pixels.
TARGET = 44


def main():
    args = page_test_arguments()
    scratch = tempfile.mkdtemp(prefix="qna-poll-pages-")
    server = Server(args.qna_server, free_port(), os.path.join(scratch, "qna.db"),
                    "--admin-token", ADMIN)
    chromium = None
    try:
        server.start()
        code, token = server.session("Polls in the room")
        api = lambda method, path, body=None: server.api(method, f"/s/{code}{path}", token, body)
        choice = api("POST", "/api/polls", {"kind": "single", "prompt": "Which Swift do you run?",
                                            "options": OPTIONS})
        cloud = api("POST", "/api/polls", {"kind": "words", "prompt": "Swift on the server in a word?",
                                           "max": 3})
        for poll in (choice, cloud):
            for action in ("open", "show"):
                api("POST", f"/api/polls/{poll['id']}/{action}")
        room = f"{server.url}/s/{code}/"
        shots = []

        chromium, browser_url = start_chromium(os.path.join(scratch, "profile"))
        phone = Page(browser_url)
        open_on_phone(phone, room, (choice, cloud))
        check_targets(phone)

        # The choice, by a tap on its second option: counted, and the bar says so.
        tap(phone, option(choice, 1))
        phone.wait_for("the option pressed", f"{option(choice, 1)}?.getAttribute('aria-pressed') === 'true'")
        counted(phone, choice, f"Your answer: {OPTIONS[1]}")
        results = until_results(api, choice, lambda r: r["answers"] == 1)
        if results["counts"] != [0, 1, 0, 0]:
            fail(f"the tap counted {results['counts']}, not the second option alone")
        bars_match(phone, f"{selector(choice)} .results", choice, results, "the phone's choice")

        # The word cloud, typed and sent.
        type_words(phone, cloud, PAGE_WORDS[0])
        counted(phone, cloud, "Your answer: swift, fast, safe")
        until_results(api, cloud, lambda r: r["answers"] == 1)
        check_targets(phone)
        no_violations(phone, "the phone")

        # A second attendee, in a browser of their own: another option, overlapping words.
        context = browser_call(browser_url, "Target.createBrowserContext")["browserContextId"]
        other = Page(browser_url, context=context)
        open_on_phone(other, room, (choice, cloud))
        tap(other, option(choice, 0))
        counted(other, choice, f"Your answer: {OPTIONS[0]}")
        type_words(other, cloud, PAGE_WORDS[1])
        counted(other, cloud, "Your answer: swift, concurrency, fast")
        results = until_results(api, choice, lambda r: r["answers"] == 2)
        if results["counts"] != [1, 1, 0, 0]:
            fail(f"two attendees' answers counted {results['counts']}")
        # The first page's bars move without a reload: 1 · 50% each.
        phone.evaluate("window.notReloaded = true")
        phone.wait_for("the first page's bars at 50%",
                       f"{figure(choice, 0)} === '1 · 50%' && {figure(choice, 1)} === '1 · 50%'"
                       f" && {item(choice)}?.querySelector('.summary')?.textContent === 'Answers: 2'")
        words = until_results(api, cloud, lambda r: r["answers"] == 2)["words"]
        if {w["text"]: w["count"] for w in words}.get("swift") != 2:
            fail(f"the cloud's words after two answers: {words}")
        other.close()
        browser_call(browser_url, "Target.disposeBrowserContext", browserContextId=context)

        # More of the room, from terminals: the counts move again, and the phone follows.
        for number, (picked, typed) in enumerate(zip(TERMINAL_CHOICES, TERMINAL_WORDS)):
            terminal_answers(args.qna, server, code, os.path.join(scratch, f"qna-{number}"),
                             {choice["id"]: picked, cloud["id"]: typed})
        total = 2 + len(TERMINAL_CHOICES)
        results = until_results(api, choice, lambda r: r["answers"] == total)
        bars_match(phone, f"{selector(choice)} .results", choice, results, "the phone's choice")
        words = until_results(api, cloud, lambda r: r["answers"] == total)["words"]
        # The cloud on the phone: a bar per word for the ten most counted (the phone's page
        # stays short; the projector has the whole cloud), each with its count.
        expected = [[w["text"], str(w["count"])] for w in words[:10]]
        phone.wait_for(f"the phone's words as {expected}",
                       f"JSON.stringify([...document.querySelectorAll({json.dumps(selector(cloud) + ' .bar-row')})]"
                       ".map((r) => [r.querySelector('.bar-label').textContent, r.querySelector('.figure').textContent]))"
                       f" === {json.dumps(json.dumps(expected, ensure_ascii=False, separators=(',', ':')))}")
        if not phone.evaluate("window.notReloaded === true"):
            fail("the phone reloaded to show the counts")
        phone.wait_for("the bars settled", "document.getAnimations().length === 0")
        check_targets(phone)
        shots.append(whole_page(phone, os.path.join(args.artefacts, "polls-phone.png")))
        phone.call("Emulation.setEmulatedMedia",
                   features=[{"name": "prefers-color-scheme", "value": "dark"}])
        if phone.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(18, 18, 18)":
            fail("the page is not dark when the system is")
        shots.append(whole_page(phone, os.path.join(args.artefacts, "polls-phone-dark.png")))
        phone.call("Emulation.setEmulatedMedia", features=[])

        # The projector: the newest open poll is the word cloud.
        projector = Page(browser_url, new_tab=True)
        projector.watch()
        viewport(projector, 1280, 720, mobile=False)
        projector.call("Page.navigate", url=f"{room}screen")
        projector.wait_for("the projector live", "document.body?.dataset.live === 'true'")
        projector.wait_for("the word cloud", "document.body.dataset.poll === 'open'"
                           f" && document.querySelectorAll('#poll-chart svg.cloud text').length === {len(words)}",
                           seconds=20)
        cloud_laid_out(projector, words)
        shots.append(projector_checks(projector, room, args.artefacts, "polls-projector-cloud.png"))

        # The cloud closed: the choice is the newest open poll, its bars with the counts.
        api("POST", f"/api/polls/{cloud['id']}/close")
        projector.wait_for("the choice's bars",
                           f"document.querySelectorAll('#poll-chart .bar-row').length === {len(OPTIONS)}")
        projector.wait_for("the answers above the bars",
                           f"document.getElementById('poll-answers').textContent === 'Answers: {total}'")
        bars_match(projector, "#poll-chart .results", choice, results, "the projector's")
        bars_laid_out(projector)
        shots.append(projector_checks(projector, room, args.artefacts, "polls-projector-bars.png"))
        # On the phone the closed cloud stays with its results, and takes no more answers.
        phone.wait_for("the cloud closed on the phone",
                       f"{item(cloud)}?.innerText.includes('This poll is closed.')"
                       f" && !{item(cloud)}.querySelector('input, button')")
        no_violations(phone, "the phone")
        for shot in shots:
            print(f"screenshot: {shot}")
        print(f"poll pages: a tap and typed words answered on a 390×844 phone and counted, a"
              f" second attendee and {len(TERMINAL_CHOICES)} terminals moved the bars, every"
              f" control at least {TARGET}×{TARGET}; the projector's cloud of {len(words)} words"
              " without overlap and its bars, each beside a QR code zbarimg reads")
    finally:
        if chromium:
            chromium.kill()
            chromium.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def open_on_phone(page, room, polls):
    """The attendee page on a 390×844 phone with touch, live, with both polls open."""
    page.watch()
    viewport(page, 390, 844, mobile=True)
    page.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    page.call("Page.navigate", url=room)
    page.wait_for("the live page", "document.body?.dataset.live === 'true'")
    page.wait_for("both polls on the page",
                  "!document.getElementById('polls').hidden && "
                  + " && ".join(f"!!{item(p)}?.querySelector('.poll-controls')" for p in polls))


def selector(poll):
    """The attendee page's list item of `poll`, as a CSS selector."""
    return f'#poll-list li.poll[data-poll="{poll["id"]}"]'


def item(poll):
    """The attendee page's list item of `poll`, as a page expression."""
    return f"document.querySelector({json.dumps(selector(poll))})"


def option(poll, index):
    return f"{item(poll)}?.querySelector('button[data-act=\"choose\"][data-index=\"{index}\"]')"


def figure(poll, index):
    return f"{item(poll)}?.querySelectorAll('.bar-row .figure')[{index}]?.textContent"


def tap(page, element):
    """A finger's tap in the middle of `element` (a page expression), scrolled into view;
    fails when something else is on top of that point."""
    x, y = page.evaluate(
        f"(() => {{ const e = {element}; e.scrollIntoView({{ block: 'center' }});"
        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    if not page.evaluate(f"(() => {{ const e = {element}, at = document.elementFromPoint({x}, {y});"
                         " return !!at && (at === e || e.contains(at)); })()"):
        fail(f"something covers {element} at ({x:.0f}, {y:.0f})")
    page.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
    page.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])


def type_words(page, poll, text):
    """Taps the word cloud's field, types `text` as a keyboard would, and taps Send."""
    field = f"{item(poll)}?.querySelector('input[data-act=\"type\"]')"
    tap(page, field)
    page.wait_for("the field focused", f"document.activeElement === {field}")
    page.call("Input.insertText", text=text)
    if page.evaluate(f"{field}.value") != text:
        fail(f"the field holds {page.evaluate(f'{field}.value')!r} after typing {text!r}")
    tap(page, f"{item(poll)}?.querySelector('button.send')")


def counted(page, poll, status):
    """The poll's status line says the answer is counted (not on its way)."""
    page.wait_for(f"“{status}” under the poll",
                  f"({item(poll)}?.querySelector('.poll-status')?.textContent || '') === {json.dumps(status)}")


def until_results(api, poll, check, seconds=15):
    deadline = time.time() + seconds
    while True:
        results = next(p for p in api("GET", "/api/polls")["polls"] if p["id"] == poll["id"])["results"]
        if check(results):
            return results
        if time.time() > deadline:
            fail(f"poll {poll['n']}'s results are {results}")
        time.sleep(0.1)


def percent(count, total):
    """As poll-view.js rounds it (Math.round: halves up)."""
    return math.floor(count * 100 / total + 0.5) if total else 0


def bars_match(page, box, poll, results, where):
    """The bars in `box` say the server's counts, each as `N · P%`, widths in proportion."""
    expected = [f"{n} · {percent(n, results['answers'])}%" for n in results["counts"]]
    rows = f"[...document.querySelectorAll({json.dumps(box + ' .bar-row')})]"
    page.wait_for(f"{where} bars at {expected}",
                  f"JSON.stringify({rows}.map((r) => r.querySelector('.figure').textContent))"
                  f" === {json.dumps(json.dumps(expected, ensure_ascii=False, separators=(',', ':')))}")
    labels = page.evaluate(f"{rows}.map((r) => r.querySelector('.bar-label').textContent)")
    if labels != poll["options"]:
        fail(f"{where} bars are labelled {labels}")
    # The widths move (a transition of .6 s): settled, each bar's share of its track.
    time.sleep(0.8)
    shares = page.evaluate(f"{rows}.map((r) => r.querySelector('.bar').getBoundingClientRect().width"
                           " / r.querySelector('.track').getBoundingClientRect().width)")
    for share, count in zip(shares, results["counts"]):
        if abs(share - count / results["answers"]) > 0.02:
            fail(f"{where} bars are {shares} of their tracks for counts {results['counts']}")


def check_targets(page):
    """Every poll control the page shows is at least 44×44 CSS pixels."""
    sizes = page.evaluate(
        "[...document.querySelectorAll('#poll-list button, #poll-list input, #poll-list select')]"
        ".filter((e) => e.getClientRects().length)"
        ".map((e) => { const r = e.getBoundingClientRect();"
        " return [e.dataset.key || e.outerHTML.slice(0, 80), r.width, r.height]; })")
    if not sizes:
        fail("the page shows no poll control")
    small = [s for s in sizes if s[1] < TARGET - 0.01 or s[2] < TARGET - 0.01]
    if small:
        fail(f"poll controls under {TARGET}×{TARGET} CSS pixels: {small}")


def no_violations(page, where):
    for name in ("alerts", "cspViolations"):
        found = page.evaluate(f"window.{name}")
        if found:
            fail(f"{where}: {name}: {found}")


def terminal_answers(qna, server, code, state, answers):
    """An attendee in a terminal (`qna --headless`) answers the polls and waits for the verdicts."""
    os.makedirs(state, exist_ok=True)
    arguments = [qna, "join", code, "--url", f"ws://127.0.0.1:{server.port}", "--headless",
                 "--no-persist", "--no-stdin", "--exit-after-send", "--timeout", "20s"]
    for poll, value in answers.items():
        arguments += ["--poll", f"{poll}={value}"]
    run = subprocess.run(arguments, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "XDG_STATE_HOME": state})
    if run.returncode != 0:
        fail(f"qna exited {run.returncode} answering {answers}: {run.stderr}{run.stdout[-2000:]}")


def cloud_laid_out(page, words):
    """The cloud's words are the server's, and no two of their boxes overlap; each is inside
    the SVG and on the screen."""
    boxes = page.evaluate(
        "(() => { const svg = document.querySelector('#poll-chart svg.cloud');"
        " const s = svg.getBoundingClientRect();"
        " return { svg: [s.left, s.top, s.right, s.bottom], texts: [...svg.querySelectorAll('text')]"
        ".map((t) => { const r = t.getBoundingClientRect(), b = t.getBBox();"
        " return { text: t.textContent, rect: [r.left, r.top, r.right, r.bottom],"
        " bbox: [b.x, b.y, b.x + b.width, b.y + b.height] }; }) }; })()")
    shown = sorted(t["text"] for t in boxes["texts"])
    if shown != sorted(w["text"] for w in words):
        fail(f"the cloud shows {shown}, the server counts {words}")
    texts = boxes["texts"]
    for kind in ("rect", "bbox"):
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if overlap(a[kind], b[kind]):
                    fail(f"the cloud's words {a['text']!r} {a[kind]} and {b['text']!r} {b[kind]}"
                         f" overlap ({kind})")
    left, top, right, bottom = boxes["svg"]
    for t in texts:
        x0, y0, x1, y1 = t["rect"]
        if x0 < left - 1 or y0 < top - 1 or x1 > right + 1 or y1 > bottom + 1:
            fail(f"the word {t['text']!r} {t['rect']} leaves the cloud {boxes['svg']}")
    if bottom > 720 or right > 1280:
        fail(f"the cloud {boxes['svg']} leaves the 1280×720 screen")


def overlap(a, b):
    """Whether two rectangles (left, top, right, bottom) share more than a hairline."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def bars_laid_out(page):
    """On the projector each bar's label, track and figure sit side by side, on the screen."""
    rows = page.evaluate(
        "[...document.querySelectorAll('#poll-chart .bar-row')].map((r) =>"
        " ['.bar-label', '.track', '.figure'].map((s) => { const b = r.querySelector(s).getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; }))")
    for label, track, number in rows:
        if overlap(label, track) or overlap(track, number) or overlap(label, number):
            fail(f"a bar's label {label}, track {track} and figure {number} overlap")
        if number[3] > 720 or number[2] > 1280:
            fail(f"a bar's figure {number} leaves the 1280×720 screen")


def projector_checks(page, room, artefacts, name):
    """The poll beside the join code, neither over the other; a screenshot whose QR code
    zbarimg reads as the join address."""
    boxes = page.evaluate(
        "['#poll', '.join svg'].map((s) => { const b = document.querySelector(s).getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; })")
    if overlap(*boxes):
        fail(f"the poll {boxes[0]} overlaps the QR code {boxes[1]}")
    no_violations(page, "the projector")
    # The bars' transition and the cloud's once-a-second redraw settled.
    time.sleep(1.2)
    path = screenshot(page, os.path.join(artefacts, name))
    read = zbar(path)
    if read != [room]:
        fail(f"the projector's QR code with a poll reads {read}, not {room}")
    return path


if __name__ == "__main__":
    main()
