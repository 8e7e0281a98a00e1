#!/usr/bin/env python3
"""Keeps docs/ true to the code: `make docs-check` fails when they disagree, `make docs`
rewrites what is generated.

- Each program's options and defaults: docs hold its `--help` output verbatim between
  `<!-- generated: PROGRAM --help -->` and `<!-- end generated -->`.
- The terminal UI's keys: docs/qna.md holds the help overlays' tables (HelpOverlay.swift,
  PresenterHelp.swift).
- The headless JSON lines: every event HeadlessEvents.swift prints is in docs/headless.md's
  table, and the table names no event the code does not print.
- The modules: docs/architecture.md's module table has a row for every library target of
  Package.swift, and each row's "depends on" names exactly that target's dependencies among
  the package's own targets.
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
    # ("key", tr("meaning")): the meaning is translated on screen, English here.
    pairs = re.findall(
        r'\(\s*"((?:[^"\\]|\\.)*)",\s*tr\(\s*"((?:[^"\\]|\\.)*)"\s*\)\s*\)', source)
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


# Targets the module table leaves out: C shims described beside the modules that use them, and
# the tests' shared helpers.
UNLISTED_TARGETS = {"CNcurses", "CZlib", "CGettext", "TestSupport"}


def package_targets():
    """Each library target of Package.swift and its dependencies among the package's own."""
    text = (ROOT / "Package.swift").read_text()
    starts = [m.start() for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\(", text)]
    blocks = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
    names = {re.search(r'name: "([^"]+)"', block).group(1) for block in blocks}
    targets = {}
    for block in blocks:
        if not block.startswith(".target("):
            continue
        name = re.search(r'name: "([^"]+)"', block).group(1)
        deps_match = re.search(r"dependencies: \[(.*?)\]", block, re.S)
        deps = set()
        if deps_match:
            without_products = re.sub(r"\.product\([^)]*\)", "", deps_match.group(1))
            deps = {d for d in re.findall(r'"([^"]+)"', without_products) if d in names}
        targets[name] = deps
    return targets, names


def check_module_table():
    problems = []
    targets, names = package_targets()
    rows = {}
    in_table = False
    for line in (DOCS / "architecture.md").read_text().splitlines():
        if line.startswith("| module | what it is | depends on |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if in_table and len(cells) == 3 and re.fullmatch(r"`[A-Za-z0-9]+`", cells[0]):
            rows[cells[0].strip("`")] = {
                w for w in re.findall(r"[A-Za-z0-9]+", cells[2]) if w in names
            } - UNLISTED_TARGETS
    for name, deps in sorted(targets.items()):
        if name in UNLISTED_TARGETS:
            continue
        if name not in rows:
            problems.append(f"docs/architecture.md: no row for module {name}")
        elif rows[name] != deps - UNLISTED_TARGETS:
            problems.append(
                f"docs/architecture.md: {name} depends on {sorted(deps - UNLISTED_TARGETS)} "
                f"in Package.swift, the table says {sorted(rows[name])}")
    for name in rows:
        if name not in targets:
            problems.append(f"docs/architecture.md: the module table lists {name}, no such target")
    return problems


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    bin_dir = pathlib.Path(sys.argv[1])
    write = "--write" in sys.argv[2:]
    problems = check_blocks(bin_dir, write)
    problems += check_headless_events() + check_readme_and_references() + check_module_table()
    for problem in problems:
        print(f"docs-check: {problem}", file=sys.stderr)
    if problems and not write:
        print("docs-check: run `make docs` to regenerate what the code decides", file=sys.stderr)
        sys.exit(1)
    print("docs-check: docs agree with the code" if not problems else "docs: regenerated")


if __name__ == "__main__":
    main()
