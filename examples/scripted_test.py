#!/usr/bin/env python3
"""A scripted test of the kind qna-server --mock exists for: start the server on a free port,
drive `qna --headless` against it, and assert on its JSON lines; then seed a room, vote in
it and read it back.

    python3 examples/scripted_test.py [--bin .build/debug]
"""

import argparse
import json
import subprocess
import sys
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/debug")
args = parser.parse_args()

# The server answers every question 300 ms after it is asked.
server = subprocess.Popen(
    [f"{args.bin}/qna-server", "--port", "0", "--db", ":memory:", "--mock",
     "--auto-answer-after", "300ms"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
try:
    first_line = server.stdout.readline()  # "listening on ws://127.0.0.1:PORT/socket"
    url = first_line.removeprefix("listening on ").strip()
    questions = ["Why Swift?", "What about Linux? 🐧"]
    client = subprocess.run(
        [f"{args.bin}/qna", "--headless", "--url", url, "--wait-answered", "--timeout", "20s"]
        + [arg for q in questions for arg in ("--ask", q)],
        capture_output=True, text=True, timeout=60)
    events = [json.loads(line) for line in client.stdout.splitlines()]

    assert client.returncode == 0, client.stderr
    created = [e["content"] for e in events if e["event"] == "created"]
    answered = [e["content"] for e in events if e["event"] == "answered"]
    assert sorted(created) == sorted(questions), created
    assert sorted(answered) == sorted(questions), answered

    # The server's API agrees.
    port = url.split(":")[2].split("/")[0]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/questions") as response:
        stored = json.load(response)
    assert all(q["answered"] for q in stored) and len(stored) == len(questions), stored

    # A busy room from one process: 50 questions from simulated attendees, 30 votes for one
    # of them; then an attendee of our own votes for it too and reads the room back.
    def post(path):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST")
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    post("/control/room/seed?n=50")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/questions?limit=1") as response:
        favourite = json.load(response)[0]["id"]
    post(f"/control/room/votes?question={favourite}&n=30")
    voter = subprocess.run(
        [f"{args.bin}/qna", "--headless", "--url", url, "--room", "--vote", favourite,
         "--exit-after-send", "--timeout", "20s"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert voter.returncode == 0, voter.stderr
    room = {}
    for line in voter.stdout.splitlines():
        event = json.loads(line)
        if event["event"] == "room":
            room[event["id"]] = event  # each line is the question's whole current state
    assert len(room) == len(questions) + 50, len(room)
    assert room[favourite]["votes"] == 31 and room[favourite]["voted"], room[favourite]
    print(f"ok: {len(questions)} asked, created and answered; a room of {len(room)} voted in")
finally:
    server.terminate()
    server.wait()
