"""The attendee page behind one address the server counts, in Debian's Chromium (issue 46).

Runs inside a network namespace of its own (`unshare -n`, as root), where 10.77.0.1 on the
namespace's loopback device is an address qna-server counts, as a venue's NAT is; the server
keeps its defaults but for the admin token a non-loopback --host needs. First ten clients
that cannot pay spend the address's lane for them (10 on the defaults); then the page opens,
pays for its identity in Web Workers (identity-work.js, extension identityWork), is issued
one, and a question asked on it is stored as its own. No Content-Security-Policy violation.
Prints how long the page took from loading to its credential. Exit 0 when all of that held.

Usage: unshare -n python3 paid_identity.py --qna-server PATH
"""

import argparse
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request

from websockets.sync.client import connect

from browser_support import Server, ask_on_page, free_port, kept
from presenter_page import Page, fail, start_chromium

ADDRESS = "10.77.0.1"
TOKEN = "paid-identity-token-0123"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qna-server", required=True)
    args = parser.parse_args()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "addr", "add", f"{ADDRESS}/32", "dev", "lo"], check=True)
    scratch = tempfile.mkdtemp(prefix="qna-paid-identity-")
    port = free_port()
    server = Server(args.qna_server, port, f"{scratch}/qna.sqlite", "--host", ADDRESS,
                    "--admin-token", TOKEN)
    server.url = f"http://{ADDRESS}:{port}"
    browser = None
    try:
        server.start()
        spend_the_lane(port)
        browser, browser_url = start_chromium(f"{scratch}/profile")
        page = Page(browser_url)
        page.watch()
        started = time.time()
        page.call("Page.navigate", url=f"{server.url}/room/")
        page.wait_for("a credential", "Object.keys(localStorage).some((k) => k.endsWith(':credential'))",
                      seconds=30)
        paid_in = time.time() - started
        # Paid in Web Workers, not on the page's own thread (its fallback without them).
        if not page.evaluate("performance.getEntriesByType('resource')"
                             ".some((e) => e.name.endsWith('/assets/identity-work-worker.js'))"):
            fail("the page paid without its workers")
        ask_on_page(page, "Asked by a page that paid")
        credential = kept(page, "credential")
        attendee = kept(page, "attendee")
        stored = export(port)
        mine = [q for q in stored if q["text"] == "Asked by a page that paid"]
        if len(mine) != 1:
            fail(f"the question is stored {len(mine)} times: {stored}")
        print(json.dumps({"paid_identity": {"seconds_to_credential": round(paid_in, 2),
                                            "attendee": attendee, "credential": bool(credential)}}))
    finally:
        if browser:
            browser.kill()
            browser.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def spend_the_lane(port):
    """Ten clients that send no work take the address's ten unpaid identities; an eleventh is
    refused, naming the price, so the page after them must pay."""
    sockets = []
    for index in range(11):
        socket = connect(f"ws://{ADDRESS}:{port}/socket")
        sockets.append(socket)
        handshake = json.loads(socket.recv(timeout=10))
        if handshake.get("identityWork") is None:
            fail(f"the handshake names no price: {handshake}")
        socket.send(json.dumps({"type": "join", "id": handshake["id"],
                                "attendee": "00000000-0000-4000-8000-%012d" % index}))
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message.get("type") == "joined":
                break
        if index < 10 and not message.get("credential"):
            fail(f"client {index} that cannot pay was refused within the lane: {message}")
        if index == 10 and (message.get("credential") or not message.get("work")):
            fail(f"the lane is not spent after ten: {message}")
    for socket in sockets:
        socket.close()


def export(port):
    request = urllib.request.Request(f"http://{ADDRESS}:{port}/api/export?format=json",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    return json.load(urllib.request.urlopen(request, timeout=10))


if __name__ == "__main__":
    main()
