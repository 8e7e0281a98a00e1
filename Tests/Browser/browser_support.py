"""What the browser tests share: a qna-server of their own, tmux, screenshots and QR codes.

Everything is started on loopback and stopped by PID (or by its own tmux socket)."""

import argparse
import base64
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

from presenter_page import fail


def page_test_arguments():
    """A page test's arguments (--qna-server, --qna, --artefacts), the artefacts' folder made."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--qna-server", required=True)
    parser.add_argument("--qna", required=True)
    parser.add_argument("--artefacts", required=True)
    args = parser.parse_args()
    os.makedirs(args.artefacts, exist_ok=True)
    return args


def ask_on_page(page, text):
    """Asks `text` on the open attendee page and waits for it among the page's own; fails on
    any Content-Security-Policy violation so far."""
    page.evaluate(f"document.getElementById('question').value = {json.dumps(text)}")
    page.evaluate("document.getElementById('ask').requestSubmit()")
    page.wait_for("the question among its own",
                  f"(document.getElementById('mine-list')?.innerText || '').includes({json.dumps(text)})")
    violations = page.evaluate("window.cspViolations")
    if violations:
        fail(f"Content-Security-Policy violations: {violations}")


def kept(page, name):
    """What the page keeps in its storage under `…:name` (the attendee, credential, ticket)."""
    return page.evaluate(
        f"JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith(':{name}'))))")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`qna-server` on a fixed port and database file, so that a restart keeps both."""

    def __init__(self, binary, port, database, *options):
        self.binary, self.port, self.database, self.options = binary, port, database, options
        self.process = None
        self.url = f"http://127.0.0.1:{port}"

    def start(self, *extra):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--db", self.database, *self.options, *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/readyz", timeout=1)
                return
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None:
                    fail(f"qna-server exited {self.process.returncode}")
                time.sleep(0.1)
        fail("qna-server did not become ready")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def session(self, title):
        """A new session: its code and presenter token."""
        out = subprocess.run([self.binary, "session", "create", title, "--db", self.database],
                             capture_output=True, text=True, check=True).stdout
        fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
        return fields["code"], fields["token"]

    def api(self, method, path, token, body=None):
        request = urllib.request.Request(
            self.url + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


class Tmux:
    """A tmux server of our own (its own socket), one pane."""

    def __init__(self, columns=100, rows=30, environment=None):
        self.name = f"qna-browser-{os.getpid()}-{time.monotonic_ns()}"
        variables = []
        for key, value in {"HISTFILE": "/dev/null", "LANGUAGE": "", **(environment or {})}.items():
            variables += ["-e", f"{key}={value}"]
        self.run("new-session", "-d", "-x", str(columns), "-y", str(rows), "-s", "main",
                 *variables, "bash --norc --noprofile")
        self.pid = int(self.run("display", "-p", "#{pid}").strip())

    def run(self, *arguments):
        return subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", *arguments],
                              capture_output=True, text=True, check=True).stdout

    def keys(self, *keys):
        self.run("send-keys", "-t", "main", *keys)

    def type(self, text):
        self.run("send-keys", "-t", "main", "-l", text)

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "main")

    def wait_for(self, what, predicate, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(0.1)
        fail(f"no {what} in tmux within {seconds} s; the screen:\n{self.screen()}")

    def kill(self):
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)
        # A server that outlives kill-server (it has been seen to) is ended by its pid: ours.
        deadline = time.time() + 2
        while time.time() < deadline:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def whole_page(page, path):
    """A screenshot of the whole page, as long as it is, at the viewport's width."""
    width, height = page.evaluate("[document.documentElement.clientWidth,"
                                  " document.documentElement.scrollHeight]")
    data = page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                     clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})["data"]
    with open(path, "wb") as file:
        file.write(base64.b64decode(data))
    return path


def screenshot(page, path):
    data = page.call("Page.captureScreenshot", format="png")["data"]
    with open(path, "wb") as file:
        file.write(base64.b64decode(data))
    return path


def zbar(path):
    """The QR codes zbarimg reads in an image, as text."""
    run = subprocess.run(["zbarimg", "--quiet", "--raw", path], capture_output=True, text=True)
    return [line for line in run.stdout.splitlines() if line]


def viewport(page, width, height, mobile):
    page.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
              deviceScaleFactor=1, mobile=mobile)
