"""An offline accessibility check of the attendee page and the projector view, as a real
qna-server serves them (a room with questions, a highlight, a refused form post).

Two checkers:
- HTML Tidy's accessibility checks at their strictest level (`tidy -access 3`, Debian's
  package). Its reminders to test by hand (colour alone, scripts and flicker) are listed in
  REMINDERS and not failures; every other message is.
- Our own: a language, one h1, the main landmark, a label for every control, a name for every
  button and image (none for one hidden from assistive technology), a live region for
  answers, no inline script, style or event handler, and WCAG AA contrast (4.5:1) for every
  pair of colours the style sheet uses, light and dark.

Exit 0 when every page passes. Usage: page_check.py --qna-server PATH --qna PATH
"""

import argparse
import html.parser
import os
import re
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request

from browser_support import Server, free_port
from presenter_page import fail

# Tidy's manual-check reminders: they fire on any input, script or colour and say "test this
# by hand" (the browser test does: keyboard, screen-reader text, CSP).
REMINDERS = ("[2.1.1.1]", "[2.1.1.2]", "[2.1.1.3]", "[2.1.1.4]", "[2.1.1.5]", "[6.2.2.2]",
             "[6.3.1.1]", "[8.1.1.1]", "[7.1.1.1]")
# Foreground and background variables of room.css, each pair a text on its background.
PAIRS = (("fg", "bg"), ("muted", "bg"), ("accent-fg", "accent"), ("now-fg", "now"),
         ("answer", "bg"), ("accent", "bg"), ("muted", "now"))


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.elements, self.labels_for, self.problems = [], [], set(), []
        self.text_of = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        element = {"tag": tag, "attrs": attributes, "text": "", "in_label": "label" in self.stack}
        self.elements.append(element)
        if tag not in ("input", "meta", "link", "br", "img", "path", "rect"):
            self.stack.append(tag)
            self.text_of[len(self.stack)] = element
        if tag == "label" and "for" in attributes:
            self.labels_for.add(attributes["for"])
        for name in attributes:
            if name.startswith("on") or name == "style":
                self.problems.append(f"<{tag}> has an inline {name}")
        if tag == "script" and "src" not in attributes:
            self.problems.append("an inline <script>")
        if tag == "style":
            self.problems.append("an inline <style>")

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        for depth in range(1, len(self.stack) + 1):
            if depth in self.text_of:
                self.text_of[depth]["text"] += data


def own_checks(name, text):
    page = Page()
    page.feed(text)
    problems = list(page.problems)
    tags = [e["tag"] for e in page.elements]
    html_element = next(e for e in page.elements if e["tag"] == "html")
    if not html_element["attrs"].get("lang"):
        problems.append("no lang on <html>")
    if tags.count("h1") != 1:
        problems.append(f"{tags.count('h1')} h1 elements")
    if "main" not in tags:
        problems.append("no <main> landmark")
    if not re.search(r"<title>[^<]+</title>", text):
        problems.append("no title")
    for element in page.elements:
        attrs = element["attrs"]
        if element["tag"] in ("textarea", "select") or (
                element["tag"] == "input" and attrs.get("type") != "hidden"):
            if attrs.get("id") not in page.labels_for and not element["in_label"]:
                problems.append(f"<{element['tag']} id={attrs.get('id')}> has no label")
        if element["tag"] == "button" and not element["text"].strip() and not attrs.get("aria-label"):
            problems.append("a button without a name")
        # An image has a name; one hidden from assistive technology (a bar beside its
        # figure, a legend's key beside its name) needs none.
        if element["tag"] == "svg" and attrs.get("aria-hidden") != "true" and not (
                attrs.get("role") == "img" and attrs.get("aria-label")):
            problems.append("an image without a name")
    if name == "attendee" and 'aria-live="polite"' not in text:
        problems.append("no live region")
    return problems


def tidy(text):
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as file:
        file.write(text)
    run = subprocess.run(["tidy", "-q", "-e", "-access", "3", file.name],
                         capture_output=True, text=True)
    os.unlink(file.name)
    return [line for line in run.stderr.splitlines()
            if line.strip() and not any(code in line for code in REMINDERS)]


def luminance(colour):
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast_checks(css, pairs=PAIRS):
    """Each pair of a style sheet's colours (`--fg` on `--bg`…), light and dark, at least
    4.5:1: what falls short, in words."""
    problems = []
    light = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", css.split("@media")[0]))
    dark_block = re.search(r"prefers-color-scheme: ?dark\)\s*\{(.*?)\}\s*\}", css, re.S).group(1)
    dark = {**light, **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", dark_block))}
    for scheme, colours in (("light", light), ("dark", dark)):
        for fg, bg in pairs:
            ratio = contrast(colours[fg], colours[bg])
            if ratio < 4.5:
                problems.append(f"{scheme}: --{fg} on --{bg} is {ratio:.2f}:1 (under 4.5:1)")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qna-server", required=True)
    parser.add_argument("--qna", required=True)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="qna-page-check-")
    server = Server(args.qna_server, free_port(), os.path.join(scratch, "qna.db"))
    server.start()
    try:
        code, token = server.session("Accessibility")
        for text in ("A question with an answer", "A question being answered"):
            subprocess.run([args.qna, "join", code, "--url", f"ws://127.0.0.1:{server.port}",
                            "--headless", "--no-persist", "--ask", text, "--timeout", "10s"],
                           capture_output=True, check=False)
        questions = server.api("GET", f"/s/{code}/api/questions", token)
        by_text = {q["content"]: q["id"] for q in questions}
        server.api("POST", f"/s/{code}/api/questions/{by_text['A question with an answer']}/answer",
                   token, {"text": "Yes.", "private": False})
        server.api("POST", f"/s/{code}/api/questions/{by_text['A question being answered']}/highlight",
                   token)
        pages = {
            "attendee": urllib.request.urlopen(f"{server.url}/s/{code}/").read().decode(),
            "default room": urllib.request.urlopen(f"{server.url}/room/").read().decode(),
            "projector": urllib.request.urlopen(f"{server.url}/s/{code}/screen").read().decode(),
        }
        try:
            urllib.request.urlopen(urllib.request.Request(
                f"{server.url}/s/{code}/ask", data=urllib.parse.urlencode({"content": " "}).encode()))
            fail("an empty question was taken")
        except urllib.error.HTTPError as refused:
            pages["refused form"] = refused.read().decode()
        problems = []
        for name, text in pages.items():
            kind = "projector" if name == "projector" else "attendee"
            problems += [f"{name}: tidy: {line}" for line in tidy(text)]
            problems += [f"{name}: {problem}" for problem in own_checks(kind, text)]
        css = urllib.request.urlopen(f"{server.url}/assets/room.css").read().decode()
        problems += contrast_checks(css)
        if problems:
            fail("accessibility:\n" + "\n".join(problems))
        print(f"page check: {len(pages)} pages pass tidy -access 3 and the own checks;"
              f" {len(PAIRS) * 2} colour pairs at 4.5:1 or more")
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
