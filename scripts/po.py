#!/usr/bin/env python3
"""The message catalogues (GNU gettext), for `make po` and `make test`.

  po.py update [ROOT]  po/qna.pot extracted from the code again; each po/LANG.po merged with
                       it (new strings arrive untranslated, for a translator to fill in).
  po.py check [ROOT]   fails when a string of the code has no translation in a catalogue
                       (missing, untranslated or fuzzy), or when a translation's %s and %d
                       disagree with the English.

The strings are the arguments of tr("…"), trn("…", "…", n) and Message("…") in the terminal
client's sources, and of t("…") X. xgettext reads Swift's one-line string literals as C's; the multi-line
ones (the commands' --help, which stays English) are blanked first, lines kept in place.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

SOURCES = [
    "Sources/QnATerminal", "Sources/QnA", "Sources/QnAClient", "Sources/qna", "Sources/Server/Pages",
    "Sources/Server/Pages/Languages",
]
MULTILINE = re.compile(r'"""(.*?)"""', re.S)
ENV = dict(os.environ, LC_ALL="C.UTF-8")


def extract(root, output):
    with tempfile.TemporaryDirectory() as scratch:
        files = []
        for folder in SOURCES:
            for source in sorted((root / folder).glob("*.swift")):
                relative = source.relative_to(root)
                text = MULTILINE.sub(lambda m: "\n" * m.group(0).count("\n"), source.read_text())
                copy = pathlib.Path(scratch) / relative
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_text(text)
                files.append(str(relative))
        subprocess.run(
            ["xgettext", "--language=C", "--from-code=UTF-8", "--keyword=", "--keyword=tr",
             "--keyword=trn:1,2", "--keyword=plural:1,2", "--keyword=Message", "--keyword=t", "--keyword=scriptWord",
             "--add-comments=TRANSLATORS:",
             "--add-location=file", "--sort-by-file", "--package-name=qna",
             "--no-wrap", "-o", str(output), *files],
            cwd=scratch, env=ENV, check=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else ".").resolve()
    catalogues = sorted((root / "po").glob("*.po"))
    if mode == "update":
        template = root / "po/qna.pot"
        extract(root, template)
        # The header's charset: xgettext leaves it to be filled in.
        template.write_text(template.read_text().replace("charset=CHARSET", "charset=UTF-8"))
        for po in catalogues:
            subprocess.run(
                ["msgmerge", "--quiet", "--update", "--backup=none", "--no-fuzzy-matching",
                 "--no-wrap", str(po), str(template)], env=ENV, check=True)
        return 0
    if mode == "check":
        failed = False
        with tempfile.TemporaryDirectory() as scratch:
            fresh = pathlib.Path(scratch) / "fresh.pot"
            extract(root, fresh)
            fresh.write_text(fresh.read_text().replace("charset=CHARSET", "charset=UTF-8"))
            for po in catalogues:
                # msgcmp: every string of the code has a translation (untranslated and fuzzy
                # ones count as missing); msgfmt --check: the placeholders agree.
                if subprocess.run(["msgcmp", str(po), str(fresh)], env=ENV).returncode != 0:
                    print(f"{po.name}: strings without a translation (run make po)",
                          file=sys.stderr)
                    failed = True
                if subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)],
                                  env=ENV).returncode != 0:
                    failed = True
        if not catalogues:
            print("po/ has no catalogue", file=sys.stderr)
            failed = True
        return 1 if failed else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
