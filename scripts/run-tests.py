#!/usr/bin/env python3
"""Runs the test binary's suites in several processes at once (`make test`'s test phase).

Most of the suite's time is spent waiting (servers starting, reconnects backing off, tmux and
Chromium drawing), not computing, so suites run side by side: JOBS worker processes, each
running one suite at a time, serially inside (`--no-parallel`), and taking the next suite
from one queue, the longest first. A process of its own per suite keeps what one suite does
to its process (a raised descriptor limit, thousands of sockets, the locale) away from the
others.

What Tests/serial-suites.txt names (suites, or whole test targets) runs afterwards, one suite
at a time, with nothing beside it: suites that time an answer, or that read a room right
after changing it, and failed beside others on two cores.

--beside CMD runs a shell command (the package tests) beside the suites that run side by
side, and waits for it before the suites that run alone: it fails the run as a suite would.

Every listed test must run: the run fails when the tests that ran are fewer than those the
binary lists, or when any suite fails. Tests/suite-durations.json (seconds per suite, written
by --record) only orders the queue; a suite it lacks goes first.

Usage: run-tests.py BIN_DIR [--jobs N] [--record] [--filter REGEX] [--beside CMD]
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DURATIONS = ROOT / "Tests" / "suite-durations.json"
SERIAL = ROOT / "Tests" / "serial-suites.txt"
# Two cores: four processes keep both busy while most of them wait on a socket or a timer;
# six starved the heavy suites' timers (nine failed).
DEFAULT_JOBS = 4
# A suite that takes longer than this is stopped with its children and fails (the longest
# takes under two minutes beside the others).
SUITE_TIMEOUT = 15 * 60
# swift-testing's last line ("Test run with N tests in M suites passed"), and a skipped test,
# which is counted in N but did not run.
RUN_RESULT = re.compile(r"^\S+ Test run with (\d+) tests?", re.MULTILINE)
SKIPPED = re.compile(r"^\S+ Test \S.* skipped", re.MULTILINE)


def listed_suites(binary):
    """Suite → number of tests, from the binary's own list: "Module.Suite/test()", or
    "Module.test()/File.swift:line:column" for a test outside any suite (its own unit)."""
    out = subprocess.run([binary, "--testing-library", "swift-testing", "--list-tests"],
                         capture_output=True, text=True, check=True).stdout
    suites = collections.Counter(line.split("/", 1)[0] for line in out.splitlines() if line)
    if not suites:
        sys.exit(f"{binary} --list-tests listed no tests")
    return suites


def serial_suites():
    if not SERIAL.exists():
        return set()
    return {line.split("#", 1)[0].strip() for line in SERIAL.read_text().splitlines()} - {""}


def stop_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended as its time ran out


def run_suite(binary, suite, logs):
    started = time.monotonic()
    log = logs / f"{suite}.log"
    with open(log, "w") as out:
        # A session of its own: a suite stopped for its time is stopped with its children.
        child = subprocess.Popen(
            [binary, "--testing-library", "swift-testing", "--no-parallel",
             "--filter", f"^{re.escape(suite)}(/|$)"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        timer = threading.Timer(SUITE_TIMEOUT, stop_group, (child.pid,))
        timer.start()
        # wait4: the CPU time of this suite's process and the children it waited for.
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
    text = log.read_text(errors="replace")
    if child.returncode == -signal.SIGKILL:
        text += f"\nstopped after {SUITE_TIMEOUT} s\n"
    counts = RUN_RESULT.findall(text)
    # A skipped test did not run: the suite counts as short of it.
    ran = int(counts[-1]) - len(SKIPPED.findall(text)) if counts else 0
    cpu = usage.ru_utime + usage.ru_stime
    return suite, child.returncode, ran, time.monotonic() - started, cpu, text


def start_beside(command, logs):
    """`command` in a shell and a session of its own, its output in the logs."""
    out = open(logs / "beside.log", "w")
    child = subprocess.Popen(command, shell=True, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
    return child, out, time.monotonic()


def finish_beside(beside, command, failed):
    """Waits for the command beside the suites, then prints its line and its output (what
    it checked, or why it failed or skipped)."""
    child, out, started = beside
    _, status, usage = os.wait4(child.pid, 0)
    out.close()
    ok = os.waitstatus_to_exitcode(status) == 0
    print(f"{'passed' if ok else 'FAILED'}  {time.monotonic() - started:6.1f} s  "
          f"{usage.ru_utime + usage.ru_stime:6.1f} s CPU  beside: {command}", flush=True)
    print(pathlib.Path(out.name).read_text(errors="replace"), end="", flush=True)
    if not ok:
        failed.append(f"beside: {command}")
    return usage.ru_utime + usage.ru_stime


def stop_beside(beside):
    """On the way out with the command still running (an error, Ctrl-C): stopped with its
    children, and waited for."""
    child, out, _ = beside
    if child.poll() is None:
        stop_group(child.pid)
        child.wait()
    out.close()


def report(result, listed, failed):
    """Prints a suite's line (and its whole log if it failed, adding it to `failed`): it
    passed if its process exited 0 having run every test the binary lists for it."""
    suite, status, ran, seconds, cpu, text = result
    expected = listed[suite]
    ok = status == 0 and ran == expected
    print(f"{'passed' if ok else 'FAILED'}  {seconds:6.1f} s  {cpu:6.1f} s CPU  "
          f"{ran:3d}/{expected:<3d} {suite}", flush=True)
    if not ok:
        print(text, flush=True)
        failed.append(suite)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS)
    parser.add_argument("--record", action="store_true",
                        help="write each suite's time to Tests/suite-durations.json")
    parser.add_argument("--filter", default="", help="only suites matching this regex")
    parser.add_argument("--beside", help="a shell command to run beside the side-by-side suites")
    options = parser.parse_args()
    binary = str(pathlib.Path(options.bin_dir) / "qnaPackageTests.xctest")
    listed = listed_suites(binary)
    suites = {s: n for s, n in listed.items() if re.search(options.filter, s)}
    if not suites:
        sys.exit(f"no suite matches {options.filter!r}")
    durations = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    # An entry names a suite ("Module.Suite") or every suite of a test target ("Module").
    entries = serial_suites()
    modules = {s.split(".", 1)[0] for s in listed}
    unknown = entries - set(listed) - modules
    if unknown:
        sys.exit(f"Tests/serial-suites.txt names what the binary lacks: {sorted(unknown)}")
    alone = {s for s in suites if s in entries or s.split(".", 1)[0] in entries}
    queue = sorted((s for s in suites if s not in alone),
                   key=lambda s: -durations.get(s, float("inf")))
    started = time.monotonic()
    failed, ran, cpu, timings = [], 0, 0.0, {}
    with tempfile.TemporaryDirectory(prefix="qna-tests-") as logs:
        logs = pathlib.Path(logs)
        print(f"{len(queue)} suites in {options.jobs} processes"
              + (", and beside them: " + options.beside if options.beside else "")
              + f"; then {len(alone)} alone", flush=True)
        beside = start_beside(options.beside, logs) if options.beside else None
        try:
            with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
                running = [pool.submit(run_suite, binary, s, logs) for s in queue]
                finished = []
                for future in concurrent.futures.as_completed(running):
                    finished.append(future.result())
                    report(finished[-1], suites, failed)
            if beside:
                cpu += finish_beside(beside, options.beside, failed)
        finally:
            if beside:
                stop_beside(beside)
        for suite in sorted(alone):
            finished.append(run_suite(binary, suite, logs))
            report(finished[-1], suites, failed)
    for suite, _, count, seconds, used, _ in finished:
        ran += count
        cpu += used
        timings[suite] = round(seconds, 1)
    expected = sum(suites.values())
    print(f"{ran} of {expected} tests in {len(suites)} suites ran in "
          f"{time.monotonic() - started:.0f} s, {cpu:.0f} s of CPU; {len(failed)} suites failed"
          + (": " + ", ".join(sorted(failed)) if failed else ""), flush=True)
    if options.record:
        durations.update(timings)
        DURATIONS.write_text(json.dumps(dict(sorted(durations.items())), indent=1) + "\n")
    return 1 if failed or ran != expected else 0


if __name__ == "__main__":
    sys.exit(main())
