#!/usr/bin/env python3
"""Fails when a target imports a module that Package.swift does not declare for it.

SwiftPM lets a target import any module its dependencies bring along, so a forgotten line in
Package.swift compiles today and breaks when a dependency moves. Here every `import` in a
target's Swift files must name the target's own declared dependency (a target or a product),
or a module of the toolchain. Usage: check-imports.py (from the package root; `make test`).
"""

import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The toolchain's own modules: no package declares them.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin",
    "Dispatch", "Synchronization", "_Concurrency", "Testing", "XCTest", "os", "PackageDescription",
    "PackagePlugin", "CoreFoundation", "Android", "RegexBuilder", "_StringProcessing",
    "Observation", "Distributed", "Cxx",
}
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_]\w*)",
    re.MULTILINE)
# Multi-line string literals (a Python script a test runs holds `import sys`) and block
# comments.
MULTILINE_STRING = re.compile(r'(#*)"""[\s\S]*?"""\1|/\*[\s\S]*?\*/')


def declared(target):
    names = {target["name"]}
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def default_path(target):
    if target.get("path"):
        return ROOT / target["path"]
    folder = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return ROOT / folder / target["name"]


def main():
    # The manifest as SwiftPM reads it (its errors go to stderr as they are).
    manifest = json.loads(subprocess.run(
        [os.environ.get("SWIFT", "swift"), "package", "dump-package"], cwd=ROOT,
        stdout=subprocess.PIPE, text=True, check=True).stdout)
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        allowed = declared(target) | TOOLCHAIN
        for source in sorted(default_path(target).rglob("*.swift")):
            code = MULTILINE_STRING.sub("", source.read_text())
            for module in IMPORT.findall(code):
                if module not in allowed:
                    problems.append(f"{source.relative_to(ROOT)}: imports {module}, which "
                                    f"Package.swift does not declare for {target['name']}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
