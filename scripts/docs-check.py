#!/usr/bin/env python3
"""Keeps docs/ true to the code: `make docs-check` fails when they disagree, `make docs`
rewrites what is generated.

- Each program's options and defaults: docs hold its `--help` output verbatim between
  `<!-- generated: PROGRAM --help -->` and `<!-- end generated -->`.
- The terminal UI's keys: docs/qna.md holds the help overlays' tables (HelpOverlay.swift,
  PresenterHelp.swift).
- The headless JSON lines: every event HeadlessEvents.swift prints is in docs/headless.md's
  table, and the table names no event the code does not print.
- The README stays an on-ramp (at most 10 KB), and no code names the brief's PROTOCOL.md
  (the protocol is docs/protocol.md).

Usage: docs-check.py BIN_DIR [--write]
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(
    r"(<!-- generated: (?P<what>[^>]+?) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


def help_text(bin_dir, command):
    program, *subcommand = command.split(" ")
    result = subprocess.run(
        [str(bin_dir / program), *subcommand, "--help"], capture_output=True, text=True,
        env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    return result.stdout.rstrip() + "\n"


def keys_table(overlay):
    source = (ROOT / "Sources/QnATerminal" / overlay).read_text()
    pairs = re.findall(r'\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\)', source)
    rows = ["| keys | what they do |", "|---|---|"]
    rows += [f"| {key} | {meaning} |" for key, meaning in pairs]
    return "\n".join(rows) + "\n"


def generated(what, bin_dir):
    if what.endswith(" --help"):
        return "```text\n" + help_text(bin_dir, what.removesuffix(" --help")) + "```\n"
    if what == "terminal keys":
        return keys_table("HelpOverlay.swift")
    if what == "presenter keys":
        return keys_table("PresenterHelp.swift")
    raise SystemExit(f"docs-check: unknown generated block '{what}'")


def check_blocks(bin_dir, write):
    problems = []
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text()

        def replace(match):
            expected = generated(match["what"], bin_dir)
            if match["body"] != expected:
                problems.append(f"{path.relative_to(ROOT)}: '{match['what']}' differs from the code")
            return match.group(1) + expected + match.group(4)

        updated = BLOCK.sub(replace, text)
        if write and updated != text:
            path.write_text(updated)
    return [] if write else problems


def check_headless_events():
    source = (ROOT / "Sources/QnAClient/HeadlessEvents.swift").read_text()
    printed = set(re.findall(r'"event"[:,] \.string\("(\w+)"\)', source))
    printed |= set(re.findall(r'questionLine\(\s*"(\w+)"', source))
    table = (DOCS / "headless.md").read_text()
    documented = set(re.findall(r"^\| `(\w+)` \|", table, re.M)) - {"event"}
    problems = [f"docs/headless.md: event '{e}' is printed but not documented"
                for e in sorted(printed - documented)]
    problems += [f"docs/headless.md: event '{e}' is documented but never printed"
                 for e in sorted(documented - printed)]
    return problems


def check_readme_and_references():
    problems = []
    size = len((ROOT / "README.md").read_bytes())
    if size > 10 * 1024:
        problems.append(f"README.md is {size} bytes: an on-ramp stays under 10 KB")
    for folder in ["Sources", "Tests"]:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".swift", ".py", ".c", ".h"} and "PROTOCOL.md" in path.read_text():
                problems.append(f"{path.relative_to(ROOT)} names PROTOCOL.md: cite docs/protocol.md")
    return problems


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    bin_dir = pathlib.Path(sys.argv[1])
    write = "--write" in sys.argv[2:]
    problems = check_blocks(bin_dir, write)
    problems += check_headless_events() + check_readme_and_references()
    for problem in problems:
        print(f"docs-check: {problem}", file=sys.stderr)
    if problems and not write:
        print("docs-check: run `make docs` to regenerate what the code decides", file=sys.stderr)
        sys.exit(1)
    print("docs-check: docs agree with the code" if not problems else "docs: regenerated")


if __name__ == "__main__":
    main()
