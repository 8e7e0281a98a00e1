#!/usr/bin/env python3
"""What a release puts where: `make install` / `make uninstall`, `make dist` and `make deb`.

Every file list comes from the built programs themselves: the man pages and completions from
each program's command tree (`--experimental-dump-help`), so that a new subcommand or option
reaches them without an edit here.

  release.py install BIN ROOT PREFIX      the programs, man pages, completions, catalogues
  release.py uninstall BIN ROOT PREFIX    exactly the files install would write
  release.py dist BIN OUT                 OUT/qna-VERSION-linux-ARCH.tar.gz (+ .sha256)
  release.py deb BIN OUT                  OUT/qna_VERSION_ARCH.deb, checked by lintian
"""

import gzip
import hashlib
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile

import manual_pages

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ["qna", "qna-server", "wsc"]
PACKAGING = ROOT / "packaging"


def run(*arguments, **options):
    return subprocess.run(arguments, check=True, capture_output=True, text=True, **options).stdout


def version(bin_dir):
    """One number everywhere: what the programs print with --version."""
    versions = {run(str(bin_dir / p), "--version").strip() for p in PROGRAMS}
    if len(versions) != 1:
        sys.exit(f"the programs disagree on their version: {sorted(versions)}")
    return versions.pop()


def source_date():
    """The last commit's date, so that a rebuild of the same commit gives the same pages."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        return int(run("git", "-C", str(ROOT), "log", "-1", "--format=%ct"))
    except (subprocess.CalledProcessError, FileNotFoundError, ValueError):
        return 0


def command_pages(bin_dir, program):
    """Every command of a program, as the words a user types: ["qna"], ["qna", "join"], …"""
    tree = json.loads(run(str(bin_dir / program), "--experimental-dump-help"))
    return [words for words, _ in manual_pages.commands(tree["command"])]


class Layout:
    """Where each kind of file goes under a prefix (Debian's zsh directory differs)."""

    def __init__(self, prefix, zsh="share/zsh/site-functions", gzip_pages=False):
        self.prefix = pathlib.PurePosixPath(prefix.lstrip("/"))
        self.zsh, self.gzip_pages = zsh, gzip_pages

    def program(self, name):
        return self.prefix / "bin" / name

    def page(self, words):
        name = "-".join(words) + ".1" + (".gz" if self.gzip_pages else "")
        return self.prefix / "share/man/man1" / name

    def completion(self, program, shell):
        return {
            "bash": self.prefix / "share/bash-completion/completions" / program,
            "zsh": self.prefix / self.zsh / ("_" + program),
            "fish": self.prefix / "share/fish/vendor_completions.d" / (program + ".fish"),
        }[shell]

    def catalogue(self, language):
        return self.prefix / "share/locale" / language / "LC_MESSAGES/qna.mo"


def languages():
    return sorted(p.stem for p in (ROOT / "po").glob("*.po"))


def planned_files(bin_dir, layout):
    """Every file an installation writes, relative to its root."""
    files = []
    for program in PROGRAMS:
        files.append(layout.program(program))
        files += [layout.page(words) for words in command_pages(bin_dir, program)]
        files += [layout.completion(program, shell) for shell in ("bash", "zsh", "fish")]
    if shutil.which("msgfmt"):  # without it qna speaks English (make gettext says so)
        files += [layout.catalogue(language) for language in languages()]
    return files


def write(root, relative, data, mode=0o644):
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(mode)


def stage(bin_dir, root, layout):
    """Writes the programs, their pages, completions and catalogues under root."""
    for program in PROGRAMS:
        # Stripped, as Debian and `install -s` do: the symbols stay in the build directory.
        target = root / layout.program(program)
        target.parent.mkdir(parents=True, exist_ok=True)
        run("strip", "--strip-unneeded", "--remove-section=.comment",
            "--remove-section=.note", "-o", str(target), str(bin_dir / program))
        target.chmod(0o755)
        tree = json.loads(run(str(bin_dir / program), "--experimental-dump-help"))
        for words, text in manual_pages.pages(tree["command"], source_date()).items():
            page = text.encode()
            if layout.gzip_pages:  # no name or time in the header: the same bytes each build
                page = gzip.compress(page, compresslevel=9, mtime=0)
            write(root, layout.page(list(words)), page)
        for shell in ("bash", "zsh", "fish"):
            script = run(str(bin_dir / program), "--generate-completion-script", shell)
            if script.startswith("#!"):  # sourced by the shell, never run: no #! line
                script = script.split("\n", 1)[1]
            write(root, layout.completion(program, shell), script.encode())
    if shutil.which("msgfmt"):
        for language in languages():
            target = root / layout.catalogue(language)
            target.parent.mkdir(parents=True, exist_ok=True)
            run("msgfmt", "--check", "-o", str(target), str(ROOT / "po" / f"{language}.po"))
            target.chmod(0o644)


def install(bin_dir, root, prefix):
    stage(bin_dir, pathlib.Path(root or "/"), Layout(prefix))


def uninstall(bin_dir, root, prefix):
    root = pathlib.Path(root or "/")
    for relative in planned_files(bin_dir, Layout(prefix)):
        (root / relative).unlink(missing_ok=True)


def architecture():
    return platform.machine()


def third_party_licences():
    """The licences of what the binaries link statically: the Swift runtime and Foundation
    (with ICU), and every package of the build graph, with its NOTICE."""
    parts = ["Third-party software linked into the qna programs\n" + "=" * 50 + "\n"]
    swift = pathlib.Path(run("sh", "-c", "command -v swift").strip()).resolve().parent.parent
    toolchain = swift / "share/swift/LICENSE.txt"
    parts.append(
        "The Swift standard library, Dispatch and FoundationEssentials (all three programs) and\n"
        "Foundation (qna-server): Apache License 2.0 with the Runtime Library Exception; ICU\n"
        "inside qna-server's Foundation: Unicode License v3\n"
        "(https://github.com/swiftlang/swift-foundation-icu):\n\n" + toolchain.read_text())
    checkouts = ROOT / ".build/checkouts"
    for package in sorted(p for p in checkouts.iterdir() if p.is_dir()):
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "NOTICE.txt", "NOTICE"):
            if (package / name).is_file():
                parts.append(f"\n--- {package.name}: {name} ---\n\n" + (package / name).read_text())
    return "".join(parts)


def dist(bin_dir, out):
    """One archive per architecture: bin/, share/ (pages, completions, catalogues), the
    licences and SHA256SUMS of everything in it."""
    v = version(bin_dir)
    name = f"qna-{v}-linux-{architecture()}"
    out = pathlib.Path(out)
    tree = out / name
    shutil.rmtree(tree, ignore_errors=True)
    stage(bin_dir, tree, Layout("/"))
    shutil.copy(ROOT / "LICENSE", tree / "LICENSE")
    (tree / "THIRD-PARTY-LICENSES").write_text(third_party_licences())
    shutil.copy(PACKAGING / "dist-README", tree / "README")
    files = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    sums = "".join(
        f"{hashlib.sha256((tree / f).read_bytes()).hexdigest()}  {f}\n" for f in files)
    (tree / "SHA256SUMS").write_text(sums)
    archive = out / f"{name}.tar.gz"
    mtime = source_date()

    def normalised(info):  # root-owned and dated by the commit, whoever builds it and when
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mtime = mtime
        return info

    with gzip.GzipFile(archive, "wb", compresslevel=9, mtime=mtime) as packed, tarfile.open(
            fileobj=packed, mode="w") as tar:
        tar.add(tree, arcname=name, filter=normalised, recursive=False)
        for path in sorted(tree.rglob("*")):
            tar.add(path, arcname=f"{name}/{path.relative_to(tree).as_posix()}",
                    filter=normalised, recursive=False)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    (out / f"{name}.tar.gz.sha256").write_text(f"{digest}  {archive.name}\n")
    print(archive)


def main():
    os.umask(0o022)  # directories 0755 and files 0644 whatever the builder's umask
    command, arguments = sys.argv[1], sys.argv[2:]
    bin_dir = pathlib.Path(arguments[0])
    if command in ("install", "uninstall"):
        root, prefix = arguments[1], arguments[2]
        (install if command == "install" else uninstall)(bin_dir, root, prefix)
    elif command == "dist":
        dist(bin_dir, arguments[1])
    elif command == "deb":
        import release_deb  # the Debian package's own steps, in a file of their own

        release_deb.deb(bin_dir, pathlib.Path(arguments[1]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
