"""The attendee page of a session that admits by ticket, in Debian's Chromium (issue 46).

`qna-server session create` and `qna-server session tickets` beside the running server on
its SQLite file. Opened without a ticket, the page says the session admits by ticket and is
issued no identity; opened with its ticket's link (`…/s/CODE/#ticket=…`), it is issued one,
keeps the ticket, takes it out of the address bar, and a question asked on it is stored as
its own. No Content-Security-Policy violation. Exit 0 when all of that held.

Usage: python3 ticket_page.py --qna-server PATH
"""

import argparse
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request

from browser_support import Server, ask_on_page, free_port, kept
from presenter_page import Page, fail, start_chromium

TOKEN = "ticket-page-token-012345"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qna-server", required=True)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="qna-ticket-page-")
    database = f"{scratch}/qna.sqlite"
    port = free_port()
    server = Server(args.qna_server, port, database, "--admin-token", TOKEN)
    browser = None
    try:
        server.start()
        created = run(args.qna_server, "session", "create", "Ticketed", "--db", database)
        code = next(line[6:] for line in created.splitlines() if line.startswith("code: "))
        issued = run(args.qna_server, "session", "tickets", code, "--count", "2", "--db", database,
                     "--public-url", f"http://127.0.0.1:{port}")
        links = [line.split()[1] for line in issued.splitlines()]
        browser, browser_url = start_chromium(f"{scratch}/profile")
        page = Page(browser_url)
        page.watch()
        # Without a ticket: told so, in the notice; no identity.
        page.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{code}/")
        page.wait_for("the refusal", "(document.getElementById('notice')?.innerText || '').includes('personal ticket')",
                      seconds=20)
        if page.evaluate("Object.keys(localStorage).some((k) => k.endsWith(':credential'))"):
            fail("a page without a ticket was issued an identity")
        # With its link: an identity, and the ticket out of the address bar.
        started = time.time()
        page.call("Page.navigate", url=links[0])
        page.wait_for("a credential", "Object.keys(localStorage).some((k) => k.endsWith(':credential'))",
                      seconds=20)
        joined_in = time.time() - started
        if page.evaluate("location.hash") != "":
            fail(f"the ticket stayed in the address bar: {page.evaluate('location.href')}")
        ticket = kept(page, "ticket")
        if ticket != links[0].split("#ticket=")[1].replace("-", ""):
            fail(f"the ticket kept is {ticket!r}")
        ask_on_page(page, "Asked with a ticket")
        mine = [q for q in export(port, code) if q["text"] == "Asked with a ticket"]
        if len(mine) != 1:
            fail(f"the question is stored {len(mine)} times")
        used = run(args.qna_server, "session", "tickets", code, "--db", database)
        if used.strip() != "tickets: 2 issued, 1 used":
            fail(f"the session's tickets: {used!r}")
        print(json.dumps({"ticket_page": {"seconds_to_credential": round(joined_in, 2)}}))
    finally:
        if browser:
            browser.kill()
            browser.wait()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def run(*argv):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        fail(f"{' '.join(argv[1:])}: {result.stderr}")
    return result.stdout


def export(port, code):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/s/{code}/api/export?format=json",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    return json.load(urllib.request.urlopen(request, timeout=10))


if __name__ == "__main__":
    main()
