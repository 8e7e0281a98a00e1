"""`make deb`: qna's Debian package with dpkg-deb, the way debhelper would lay it out.

The programs, pages, completions and catalogues come from release.py's staging; this adds the
service (docs/deploy/qna-server.service), /etc/default/qna-server, the maintainer scripts in
packaging/debian/, the copyright and changelog, and the dependencies dpkg-shlibdeps finds.
"""

import gzip
import os
import pathlib
import shutil
import subprocess
import tempfile

import release

DEBIAN = release.PACKAGING / "debian"


def shared_library_depends(binaries):
    """The packages of the libraries the programs link dynamically, with dpkg-shlibdeps (which
    wants a debian/control to read: a throwaway one)."""
    with tempfile.TemporaryDirectory() as work:
        (pathlib.Path(work) / "debian").mkdir()
        (pathlib.Path(work) / "debian/control").write_text(
            "Source: qna\n\nPackage: qna\nArchitecture: any\n")
        output = release.run(
            "dpkg-shlibdeps", "-O", *[str(b.resolve()) for b in binaries], cwd=work)
    for line in output.splitlines():
        if line.startswith("shlibs:Depends="):
            return line.split("=", 1)[1]
    raise SystemExit("dpkg-shlibdeps found no dependencies: " + output)


def changelog(version):
    date = release.run("date", "-u", "-R", "-d", f"@{release.source_date()}").strip()
    entry = (
        f"qna ({version}) unstable; urgency=medium\n\n"
        f"  * Release {version}: docs/ in the source describe what it holds.\n\n"
        f" -- qna developers <qna@qna.invalid>  {date}\n")
    return gzip.compress(entry.encode(), compresslevel=9, mtime=0)


def copyright_file():
    """Debian's machine-readable copyright: qna, and what its programs link in statically."""
    header = (DEBIAN / "copyright").read_text()
    return header + "\n" + "".join(
        f"License: {name}\n" + "".join(
            f" {line}\n" if line.strip() else " .\n" for line in text.splitlines()) + "\n"
        for name, text in licence_texts().items())


def licence_texts():
    """The licences copyright's stanzas name that Debian's common-licenses lacks in full."""
    checkouts = release.ROOT / ".build/checkouts"
    return {
        "Expat": (checkouts / "GRDB.swift/LICENSE").read_text().split("\n", 2)[2].strip(),
    }


def deb(bin_dir, out):
    version, architecture = release.version(bin_dir), release.run(
        "dpkg", "--print-architecture").strip()
    out.mkdir(parents=True, exist_ok=True)
    root = out / "root"
    shutil.rmtree(root, ignore_errors=True)
    layout = release.Layout("/usr", zsh="share/zsh/vendor-completions", gzip_pages=True)
    release.stage(bin_dir, root, layout)
    release.write(root, "usr/lib/systemd/system/qna-server.service",
                  (release.ROOT / "docs/deploy/qna-server.service").read_bytes())
    release.write(root, "etc/default/qna-server", (DEBIAN / "qna-server.default").read_bytes(),
                  0o600)
    release.write(root, "usr/share/doc/qna/copyright", copyright_file().encode())
    release.write(root, "usr/share/doc/qna/changelog.gz", changelog(version))
    release.write(root, "usr/share/doc/qna/README.Debian",
                  (DEBIAN / "README.Debian").read_bytes())
    release.write(root, "usr/share/lintian/overrides/qna",
                  (DEBIAN / "lintian-overrides").read_bytes())
    for directory in root.rglob("*"):
        if directory.is_dir():
            directory.chmod(0o755)

    control = root / "DEBIAN"
    control.mkdir()
    depends = shared_library_depends([root / layout.program(p) for p in release.PROGRAMS])
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) // 1024 + 1
    (control / "control").write_text(
        (DEBIAN / "control").read_text().replace("@VERSION@", version)
        .replace("@ARCHITECTURE@", architecture).replace("@DEPENDS@", depends)
        .replace("@INSTALLED_SIZE@", str(size)))
    (control / "conffiles").write_text("/etc/default/qna-server\n")
    sums = subprocess.run(
        "find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum", shell=True, cwd=root,
        check=True, capture_output=True, text=True).stdout
    (control / "md5sums").write_text(sums)
    for script in ("postinst", "prerm", "postrm"):
        shutil.copy(DEBIAN / script, control / script)
        (control / script).chmod(0o755)
    for name in ("control", "conffiles", "md5sums"):
        (control / name).chmod(0o644)

    package = out / f"qna_{version}_{architecture}.deb"
    # Entries dated by the last commit rather than by the build.
    release.run("dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(root), str(package),
                env={**os.environ, "SOURCE_DATE_EPOCH": str(release.source_date())})
    print(package)
    if shutil.which("lintian"):
        report = subprocess.run(
            ["lintian", "--fail-on", "error,warning", "--info", str(package)],
            capture_output=True, text=True)
        print(report.stdout + report.stderr, end="")
        if report.returncode != 0:
            raise SystemExit(f"lintian found errors or warnings in {package.name}")
    else:
        print("lintian is missing (apt-get install lintian): the package was not checked")
