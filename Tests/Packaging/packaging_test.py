#!/usr/bin/env python3
"""The release as a user gets it (`make package-test`, which `make test` runs as root).

1. `make install` and `make uninstall` into a scratch DESTDIR, file by file; the installed
   qna finds its catalogues beside it.
2. `make dist`'s archive, checked and unpacked, run in a root holding nothing but the archive
   and the libraries `ldd` names (no Swift anywhere): every --version, and a question asked
   with `qna --headless` and stored by `qna-server`.
3. `make deb`'s package installed with dpkg -i: its files, user and unit, qna-server started
   as the unit starts it, a question answered through it; then removed and purged.

Usage: packaging_test.py RELEASE_BIN_DIR (the programs `make dist` and `make deb` packed)
"""

import gzip
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROGRAMS = ["qna", "qna-server", "wsc"]
# Every man page, named as git names its commands' pages: `man qna-join`, `man qna-server-session`.
PAGES = [
    "qna", "qna-join", "qna-present", "qna-screen", "qna-server", "qna-server-export",
    "qna-server-report", "qna-server-session",
    "qna-server-session-create", "qna-server-session-list", "qna-server-session-close",
    "qna-server-session-open", "qna-server-session-delete", "qna-server-session-rotate-token",
    "qna-server-session-tickets",
    "qna-server-logout-all", "wsc",
]
LANGUAGES = ["de", "es", "pl"]
TOKEN = "packaged-admin-token-0123"


def run(*arguments, **options):
    result = subprocess.run(arguments, capture_output=True, text=True, **options)
    if result.returncode != 0 and options.get("check", True):
        raise AssertionError(f"{arguments} exited {result.returncode}:\n{result.stderr}")
    return result.stdout


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def version():
    source = (ROOT / "Sources/CommandLineValues/ProjectVersion.swift").read_text()
    return re.search(r'current = "([^"]+)"', source).group(1)


def files_under(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if not p.is_dir())


def expected_install(prefix, zsh="zsh/site-functions", man_suffix=".1"):
    """The files an installation under prefix holds ("" for the archive's own tree)."""
    files = [f"bin/{p}" for p in PROGRAMS]
    files += [f"share/man/man1/{page}{man_suffix}" for page in PAGES]
    for p in PROGRAMS:
        files += [f"share/bash-completion/completions/{p}", f"share/{zsh}/_{p}",
                  f"share/fish/vendor_completions.d/{p}.fish"]
    files += [f"share/locale/{lang}/LC_MESSAGES/qna.mo" for lang in LANGUAGES]
    return sorted(f"{prefix}/{f}" if prefix else f for f in files)


def check_pages_and_completions(share, gzipped=False):
    """Each page renders without a warning and names every option of its command's --help;
    the completions know the subcommands' options."""
    for page in PAGES:
        path = share / "man/man1" / (page + ".1" + (".gz" if gzipped else ""))
        source = gzip.decompress(path.read_bytes()).decode() if gzipped else path.read_text()
        rendered = subprocess.run(
            ["groff", "-mandoc", "-Tutf8", "-P-cbou", "-ww"], input=source,
            capture_output=True, text=True)
        expect(not rendered.stderr.strip(), f"groff warns about {page}: {rendered.stderr}")
        for reference in re.findall(r"^\.Xr (\S+) 1", source, re.M):
            expect(reference in PAGES, f"man page {page} refers to a missing {reference}(1)")
        index = subprocess.run(["lexgrog", "-"], input=source, capture_output=True, text=True)
        expect(f"{page} - " in index.stdout, f"man-db cannot index {page}: {index.stdout}")
        for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", HELP[page]))):
            expect(option in rendered.stdout, f"man page {page} lacks {option}")
    bash = (share / "bash-completion/completions/qna").read_text()
    for word in ("join", "present", "--screen-reader", "--token"):
        expect(word in bash, f"qna's bash completion lacks {word}")
    server = (share / "bash-completion/completions/qna-server").read_text()
    for word in ("session", "export", "create", "--format"):
        expect(word in server, f"qna-server's bash completion lacks {word}")


HELP = {}


# Subcommands whose own names hold a dash: one word each in a page's name.
DASHED = ["rotate-token", "logout-all"]


def collect_help(bin_dir):
    for page in PAGES:
        program = "qna-server" if page.startswith("qna-server") else page.split("-")[0]
        rest = page[len(program):]
        for name in DASHED:
            rest = rest.replace(name, name.replace("-", "_"))
        subcommands = [word.replace("_", "-") for word in rest.split("-")[1:]]
        HELP[page] = run(str(bin_dir / program), *subcommands, "--help")


def test_install(bin_dir):
    with tempfile.TemporaryDirectory() as scratch:
        destdir = pathlib.Path(scratch)
        # `-o release`: the release build `make package-test` made already (a no-op build
        # still costs SwiftPM a quarter of a minute); what is tested here is what goes where.
        run("make", "-s", "-o", "release", "-C", str(ROOT), "install", f"DESTDIR={destdir}",
            "PREFIX=/opt/qna")
        installed = files_under(destdir)
        expect(installed == expected_install("opt/qna"),
               f"make install wrote {installed}, not {expected_install('opt/qna')}")
        for p in PROGRAMS:
            mode = (destdir / "opt/qna/bin" / p).stat().st_mode & 0o777
            expect(mode == 0o755, f"{p} installed with mode {mode:o}")
        check_pages_and_completions(destdir / "opt/qna/share")
        run("make", "-s", "-o", "release", "-C", str(ROOT), "uninstall", f"DESTDIR={destdir}",
            "PREFIX=/opt/qna")
        left = files_under(destdir)
        expect(left == [], f"make uninstall left {left}")
    print("ok: make install / make uninstall, file by file")


def libraries(binary):
    """What ldd resolves for a binary: (name, path) pairs; every one must resolve."""
    found = []
    for line in run("ldd", str(binary)).splitlines():
        expect("not found" not in line, f"{binary.name}: {line.strip()}")
        match = re.search(r"(\S+) => (\S+)", line) or re.search(r"^\s*(/\S+)", line)
        if match and match.lastindex == 2:
            found.append((match.group(1), match.group(2)))
        elif match:
            found.append((match.group(1), match.group(1)))
    return found


def bare_root(tree, root):
    """A root with the unpacked archive at /qna and only the libraries ldd names for its
    programs (their real files, under the same paths): no toolchain, no other library."""
    shutil.copytree(tree, root / "qna", symlinks=True)
    for program in PROGRAMS:
        for name, path in libraries(tree / "bin" / program):
            target = root / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(os.path.realpath(path), target)
    for directory in ("tmp", "dev", "etc", "usr/lib/locale"):
        (root / directory).mkdir(parents=True, exist_ok=True)
    (root / "tmp").chmod(0o1777)
    # glibc's compiled locales (de_DE.UTF-8 among them, which `make locales` made), so that
    # qna can speak German from the archive's own catalogues; no build path exists in here.
    shutil.copy("/usr/lib/locale/locale-archive", root / "usr/lib/locale/locale-archive")
    if os.geteuid() != 0:
        return False  # no device nodes, no mount, no chroot: the programs run from the tree
    os.mknod(root / "dev/null", 0o666 | 0o020000, os.makedev(1, 3))
    os.mknod(root / "dev/urandom", 0o666 | 0o020000, os.makedev(1, 9))
    (root / "etc/passwd").write_text("root:x:0:0:root:/:/nonexistent\n")
    (root / "etc/group").write_text("root:x:0:\n")
    expect(not any("swift" in f.lower() for f in files_under(root)),
           "a Swift file in the bare root")
    # Swift reads its arguments from /proc/self/cmdline on Linux: every machine has /proc.
    (root / "proc").mkdir()
    return subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")],
                          capture_output=True).returncode == 0


def in_root(root, *arguments, language=None):
    """A program of the archive, chrooted (or, where /proc cannot be mounted, from the
    unpacked tree), with an environment that names no Swift and no library path."""
    if (root / "proc/self").exists():
        command = [shutil.which("chroot"), str(root), *arguments]
    else:
        command = [str(root) + arguments[0], *[a.replace("/tmp/", f"{root}/tmp/")
                                                for a in arguments[1:]]]
    environment = {"PATH": "/qna/bin", "HOME": "/tmp"}
    if language:
        environment |= {"LANG": language, "LANGUAGE": ""}
    return subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_dist(bin_dir):
    v, arch = version(), run("uname", "-m").strip()
    name = f"qna-{v}-linux-{arch}"
    archive = ROOT / ".build/dist" / f"{name}.tar.gz"
    expect(archive.is_file(), f"make dist made no {archive}")
    run("sha256sum", "-c", f"{name}.tar.gz.sha256", cwd=archive.parent)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        (scratch / "unpacked").mkdir()
        run("tar", "-xzf", str(archive), "-C", str(scratch / "unpacked"))
        tree = scratch / "unpacked" / name
        run("sha256sum", "--quiet", "-c", "SHA256SUMS", cwd=tree)
        contents = files_under(tree)
        for required in ["LICENSE", "THIRD-PARTY-LICENSES", "README", "SHA256SUMS"]:
            expect(required in contents, f"the archive has no {required}")
        programs = sorted(set(contents) - {"LICENSE", "THIRD-PARTY-LICENSES", "README",
                                           "SHA256SUMS"})
        expect(programs == expected_install(""), f"the archive holds {programs}")
        for program in PROGRAMS:
            for library, path in libraries(tree / "bin" / program):
                expect("swift" not in path.lower() and "swift" not in library.lower(),
                       f"{program} links {library} ({path})")
            dynamic = run("readelf", "-d", str(tree / "bin" / program))
            expect("RPATH" not in dynamic and "RUNPATH" not in dynamic,
                   f"{program} carries a library search path")
        for program in ("qna", "wsc"):  # FoundationEssentials only: no ICU data inside
            expect(b"icudt" not in (tree / "bin" / program).read_bytes(),
                   f"{program} carries ICU: something under it imports all of Foundation")
        check_pages_and_completions(tree / "share")
        root = scratch / "root"
        chrooted = bare_root(tree, root)
        try:
            run_the_archive(root, v)
        finally:
            if chrooted:
                run("umount", str(root / "proc"))
    where = "in a root without Swift" if chrooted else "without Swift in its environment " \
        "(mounting /proc was refused: no chroot)"
    print(f"ok: make dist ({archive.stat().st_size // 1024} KiB) runs {where}")


def run_the_archive(root, v):
    """Every --version, and a question asked by the archive's qna and stored by its server."""
    for program, subcommand in [("qna", []), ("qna", ["join"]), ("qna", ["present"]),
                                ("qna-server", []), ("qna-server", ["session"]),
                                ("qna-server", ["export"]), ("wsc", [])]:
        out, err = in_root(root, f"/qna/bin/{program}", *subcommand, "--version") \
            .communicate(timeout=30)
        expect(out.strip() == v, f"{program} {subcommand} --version said {out!r} {err!r}")
    server = in_root(root, "/qna/bin/qna-server", "--port", "0", "--db", "/tmp/qna.sqlite")
    try:
        listening = server.stdout.readline()
        match = re.search(r"ws://127\.0\.0\.1:(\d+)/socket", listening)
        expect(match, f"qna-server from the archive said {listening!r}: "
                      f"{server.stderr.read() if server.poll() is not None else ''}")
        asker = in_root(root, "/qna/bin/qna", "--headless", "--url",
                        f"ws://127.0.0.1:{match.group(1)}/socket", "--ask",
                        "Asked from the archive?", "--exit-after-send", "--timeout", "30s")
        out, err = asker.communicate(timeout=60)
        expect(asker.returncode == 0, f"qna --headless exited {asker.returncode}: {err}")
        expect('"event":"created"' in out, f"no question created: {out}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    exported = in_root(root, "/qna/bin/qna-server", "export", "--db", "/tmp/qna.sqlite",
                       "--format", "json").communicate(timeout=30)[0]
    expect("Asked from the archive?" in exported, f"the question was not stored: {exported}")
    # The archive's catalogues, found beside its program (../share/locale).
    refusal = in_root(root, "/qna/bin/qna", "join", "0O0O0O", language="de_DE.UTF-8")
    err = refusal.communicate(timeout=30)[1]
    expect("ist kein Beitrittscode" in err, f"the archive's qna did not speak German: {err!r}")


def unit_settings(unit_text):
    """The [Service] keys of a unit, with continued lines joined."""
    settings = {}
    for line in unit_text.replace("\\\n", " ").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    return settings


def environment_file(path):
    """systemd's EnvironmentFile: KEY=VALUE lines, double quotes around a value removed."""
    values = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip().strip('"')
    return values


def systemd_command(command, environment):
    """An Exec line as systemd runs it: $NAME becomes its words, ${NAME} one word, $$ a $."""
    words = []
    for word in re.findall(r"'[^']*'|\"[^\"]*\"|\S+", command):
        if word.startswith("'") or word.startswith('"'):
            words.append(word[1:-1].replace("$$", "$"))
        elif re.fullmatch(r"\$[A-Za-z_][A-Za-z0-9_]*", word):
            words += environment.get(word[1:], "").split()
        else:
            words.append(word.replace("$$", "$"))
    return words


def unit_environment(settings):
    """The unit's Environment= defaults, overridden by its EnvironmentFile (- : optional)."""
    key, _, value = settings["Environment"].strip('"').partition("=")
    environment = {key: value}
    path = settings["EnvironmentFile"]
    if not path.startswith("-") or os.path.exists(path[1:]):
        environment |= environment_file(path.lstrip("-"))
    return environment


def as_unit(settings, command, **options):
    """A command of the unit, run as its User and Group, in its WorkingDirectory, with its
    environment: how systemd would run it (a container has no systemd to ask)."""
    environment = unit_environment(settings)
    words = systemd_command(command, environment)
    return subprocess.Popen(
        ["setpriv", f"--reuid={settings['User']}", f"--regid={settings['Group']}",
         "--init-groups", "--", *words],
        env={"PATH": "/usr/bin:/bin", **environment}, cwd=settings["WorkingDirectory"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)


def set_default(key, value):
    """An operator's edit of /etc/default/qna-server: the setting replaced, or added."""
    path = pathlib.Path("/etc/default/qna-server")
    lines = [line for line in path.read_text().splitlines() if not line.startswith(f"{key}=")]
    path.write_text("\n".join(lines + [f"{key}={value}"]) + "\n")


def test_deb(bin_dir):
    v = version()
    arch = run("dpkg", "--print-architecture").strip()
    package = ROOT / ".build/deb" / f"qna_{v}_{arch}.deb"
    expect(package.is_file(), f"make deb made no {package}")
    expect(run("dpkg-deb", "-f", str(package), "Version").strip() == v, "the package's version")
    # The test installs, then purges: it must find nothing of a qna it could destroy.
    installed_before = subprocess.run(["dpkg", "-s", "qna"], capture_output=True).returncode == 0
    expect(not installed_before, "a qna package is installed here: the test would purge it")
    for path in ("/usr/bin/qna", "/var/lib/qna-server", "/etc/default/qna-server",
                 "/etc/systemd/system/qna-server.service"):
        expect(not os.path.lexists(path), f"{path} exists here: the test would replace it")
    user_before = subprocess.run(["getent", "passwd", "qna"], capture_output=True).returncode == 0
    group_before = subprocess.run(["getent", "group", "qna"], capture_output=True).returncode == 0
    try:
        run("dpkg", "-i", str(package))
        listed = set(run("dpkg", "-L", "qna").split())
        expected = set(expected_install("/usr", zsh="zsh/vendor-completions", man_suffix=".1.gz"))
        expected |= {"/usr/lib/systemd/system/qna-server.service", "/etc/default/qna-server",
                     "/usr/share/doc/qna/copyright", "/usr/share/doc/qna/changelog.gz",
                     "/usr/share/doc/qna/README.Debian"}
        missing = sorted(expected - listed)
        expect(not missing, f"the package lacks {missing}")
        for p in PROGRAMS:
            expect(run(f"/usr/bin/{p}", "--version").strip() == v, f"/usr/bin/{p} --version")
        check_pages_and_completions(pathlib.Path("/usr/share"), gzipped=True)
        passwd = run("getent", "passwd", "qna").strip().split(":")
        expect(passwd[5] == "/var/lib/qna-server" and passwd[6] == "/usr/sbin/nologin",
               f"the qna user: {passwd}")
        state = os.stat("/var/lib/qna-server")
        expect(state.st_uid == int(passwd[2]) and state.st_mode & 0o777 == 0o750,
               "/var/lib/qna-server is not the qna user's, mode 0750")
        defaults = os.stat("/etc/default/qna-server")
        expect(defaults.st_uid == 0 and defaults.st_mode & 0o777 == 0o600,
               "/etc/default/qna-server is readable by others")
        unit = "/usr/lib/systemd/system/qna-server.service"
        verify = subprocess.run(["systemd-analyze", "verify", unit], capture_output=True,
                                text=True)
        # Only what it says of this unit: it also loads the machine's own, which may warn.
        ours = [line for line in verify.stderr.splitlines() if "qna" in line]
        expect(verify.returncode == 0 and not ours, f"systemd-analyze verify: {verify.stderr}")
        expect(os.path.islink(
            "/etc/systemd/system/multi-user.target.wants/qna-server.service"), "not enabled")
        settings = unit_settings(pathlib.Path(unit).read_text())

        # As installed: no token, so the unit's condition skips the service.
        condition = as_unit(settings, settings["ExecCondition"])
        _, err = condition.communicate(timeout=30)
        expect(condition.returncode == 1 and "QNA_ADMIN_TOKEN" in err,
               f"the service would start without a token: {condition.returncode} {err!r}")

        # A token too short is refused before qna-server would refuse it in a restart loop.
        set_default("QNA_ADMIN_TOKEN", "short")
        condition = as_unit(settings, settings["ExecCondition"])
        condition.communicate(timeout=30)
        expect(condition.returncode == 1, "the unit's condition let a short token through")

        # The operator sets a token. The port moves off the default 8080 only because this
        # machine may run a qna-server there already (`make run`); every other option stays.
        set_default("QNA_ADMIN_TOKEN", TOKEN)
        port = free_port()
        options = unit_environment(settings)["QNA_SERVER_OPTIONS"]
        set_default("QNA_SERVER_OPTIONS", '"' + options.replace("--port 8080", f"--port {port}")
                    + '"')
        condition = as_unit(settings, settings["ExecCondition"])
        condition.communicate(timeout=30)
        expect(condition.returncode == 0, "the unit's condition refuses a configured token")
        answer_through_the_service(settings, port)

        # An upgrade (the same package, a later version) keeps the settings and the database.
        upgrade_to_a_later_version(package, v)
        expect("QNA_ADMIN_TOKEN=" + TOKEN in pathlib.Path("/etc/default/qna-server").read_text(),
               "the upgrade lost the settings")
        expect(os.stat("/var/lib/qna-server/qna.sqlite").st_uid == int(passwd[2]),
               "the upgrade changed the database's owner")
        answer_through_the_service(settings, port)

        run("dpkg", "-r", "qna")
        expect(not os.path.exists("/usr/bin/qna-server"), "remove left the programs")
        expect("QNA_ADMIN_TOKEN=" + TOKEN in pathlib.Path("/etc/default/qna-server").read_text(),
               "remove did not keep the settings")
        expect(os.path.exists("/var/lib/qna-server/qna.sqlite"), "remove lost the database")
        run("dpkg", "-P", "qna")
        for gone in ("/etc/default/qna-server", "/var/lib/qna-server", unit):
            expect(not os.path.exists(gone), f"purge left {gone}")
        expect(subprocess.run(["dpkg", "-s", "qna"], capture_output=True).returncode != 0,
               "purge left the package known to dpkg")
    finally:
        subprocess.run(["dpkg", "-P", "qna"], capture_output=True)
        # The package keeps its user (policy); this machine had none.
        if not user_before:
            subprocess.run(["userdel", "qna"], capture_output=True)
        if not group_before:
            subprocess.run(["groupdel", "qna"], capture_output=True)
    print(f"ok: make deb ({package.stat().st_size // 1024} KiB) installs, serves, removes, purges")


def upgrade_to_a_later_version(package, v):
    """The package rebuilt as version V+upgrade, installed over this one (prerm upgrade,
    postinst configure with the old version), with the settings edited meanwhile."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = pathlib.Path(scratch) / "tree"
        run("dpkg-deb", "-R", str(package), str(tree))
        control = tree / "DEBIAN/control"
        control.write_text(control.read_text().replace(f"Version: {v}\n",
                                                       f"Version: {v}+upgrade\n"))
        later = pathlib.Path(scratch) / "later.deb"
        # Uncompressed: xz on the 300 MB of programs took half a minute, for a file
        # thrown away after the install.
        run("dpkg-deb", "--root-owner-group", "-Znone", "-b", str(tree), str(later))
        run("dpkg", "--force-confold", "-i", str(later))
    expect(run("dpkg-query", "-W", "-f=${Version}", "qna") == f"{v}+upgrade", "not upgraded")


def answer_through_the_service(settings, port):
    """qna-server as the unit starts it; an attendee's question answered by the presenter."""
    server = as_unit(settings, settings["ExecStart"])
    try:
        listening = server.stdout.readline()
        expect(f"127.0.0.1:{port}" in listening, f"the service said {listening!r}")
        home = tempfile.mkdtemp()  # the attendee's own state: nothing kept from other runs
        asker = subprocess.Popen(
            ["/usr/bin/qna", "--headless", "--url", f"ws://127.0.0.1:{port}/socket", "--ask",
             "Served by the package?", "--wait-answered", "--timeout", "60s"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={"PATH": "/usr/bin:/bin", "HOME": home})
        seen, question = [], None
        while question is None and (line := asker.stdout.readline()):
            seen.append(line)
            event = json.loads(line)
            if event.get("event") == "created":
                question = event["id"]
        if question is None:
            raise AssertionError(f"no question created: {seen} {asker.communicate()[1]}")
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/questions/{question}/answer", method="POST",
            headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            expect(response.status == 200, f"the answer was {response.status}")
        rest, err = asker.communicate(timeout=60)
        shutil.rmtree(home, ignore_errors=True)
        expect(asker.returncode == 0 and '"event":"answered"' in rest,
               f"the attendee did not see the answer: {asker.returncode} {seen} {rest} {err}")
    except AssertionError as failure:
        server.terminate()
        raise AssertionError(f"{failure}\nqna-server said: {server.communicate()[1]}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    expect(server.returncode == 0, f"qna-server exited {server.returncode} on SIGTERM")


def main():
    # A CI timeout's SIGTERM still runs the clean-ups (purge, unmount) on its way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("packaging_test: terminated"))
    bin_dir = pathlib.Path(sys.argv[1])
    collect_help(bin_dir)
    test_install(bin_dir)
    test_dist(bin_dir)
    if os.geteuid() != 0:
        print("skipped: the package's test installs it with dpkg -i, as root (CI is root)")
        return
    test_deb(bin_dir)


if __name__ == "__main__":
    main()
