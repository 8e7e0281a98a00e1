#!/usr/bin/env python3
"""permessage-deflate side by side: `wsc` (our engine) against Python websockets' client.

Usage: deflate_bench.py WSC

One Python websockets server on loopback (compression on, its defaults) sends, on
  /json      20,000 JSON-like text messages of about 4 KiB (questions with ids and votes),
  /snapshot  a 10,000-question room snapshot in `room` pages of at most 12,000 bytes of
             questions, as qna-server pages it;
and counts the bytes it writes on each connection. Each client runs as its own process,
reads every message, and exits; its CPU time (user + system, whole process, start-up
included) comes from the kernel. Rows with --no-deflate show what compression saves on the
wire. Fastest of 3 runs each, alternating between the clients.
"""
import asyncio, json, os, random, resource, subprocess, sys, time, uuid

from websockets.asyncio.server import serve

WORDS = ("why how when does swift linux server async actor memory test room vote answer "
         "presenter question network wifi compression window latency").split()


def question(rng, index):
    return {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
            "content": " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 24))) + "?",
            "votes": rng.randint(0, 200), "answered": rng.random() < 0.3,
            "createdAt": f"2026-11-24T10:{index // 60 % 60:02d}:{index % 60:02d}.000Z",
            "state": rng.choice(["live", "live", "answered"])}


def json_messages(count):
    rng = random.Random(20)
    out = []
    for n in range(count):
        qs, text = [], ""
        while True:
            qs.append(question(rng, n))
            text = json.dumps({"type": "roomDelta", "from": n, "to": n + 1, "questions": qs})
            if len(text) >= 4096:
                break
        out.append(text)
    return out


def snapshot_pages(count):
    rng = random.Random(10)
    questions = [question(rng, i) for i in range(count)]
    pages, page, size = [], [], 0
    for q in questions:
        n = len(json.dumps(q))
        if size + n > 12000 and page:
            pages.append(page)
            page, size = [], 0
        page.append(q)
        size += n
    pages.append(page)
    return [json.dumps({"type": "room", "seq": 1, "part": i + 1, "parts": len(pages),
                        "questions": p, "epoch": "E"}) for i, p in enumerate(pages)]


CONTENT = {"/json": json_messages(20_000), "/snapshot": snapshot_pages(10_000)}
written = {}


async def handler(ws):
    transport = ws.transport
    counter = {"bytes": 0}
    original = transport.write

    def counting(data):
        counter["bytes"] += len(data)
        original(data)
    transport.write = counting
    for message in CONTENT[ws.request.path]:
        await ws.send(message)
    written[ws.id] = counter
    await ws.wait_closed()
    written["last"] = counter["bytes"]


PY_CLIENT = r'''
import asyncio, sys
from websockets.asyncio.client import connect
async def main(url, count, compression):
    async with connect(url, max_size=None, compression=compression) as ws:
        for _ in range(count):
            await ws.recv()
asyncio.run(main(sys.argv[1], int(sys.argv[2]), None if sys.argv[3] == "off" else "deflate"))
'''


def run_client(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


async def measure(argv):
    written.pop("last", None)
    cpu, wall = await asyncio.to_thread(run_client, argv)
    for _ in range(100):
        if "last" in written:
            break
        await asyncio.sleep(0.01)
    return cpu, wall, written.get("last", 0)


async def main():
    wsc = sys.argv[1]
    async with serve(handler, "127.0.0.1", 0, max_size=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        print("permessage-deflate: wsc against Python websockets' client (same server, same run)")
        print("| row | deflate | wsc CPU (ms) | websockets CPU (ms) | ratio (×, >1 = wsc cheaper) "
              "| bytes on the wire (wsc / websockets) |")
        print("|---|---|---:|---:|---:|---:|")
        for path, label in [("/json", "receive 20k × 4 KiB JSON text"),
                            ("/snapshot", "10,000-question room snapshot")]:
            count = len(CONTENT[path])
            url = f"ws://127.0.0.1:{port}{path}"
            for mode in ["on", "off"]:
                ours_argv = [wsc, "--quiet", "--count", str(count)] + (
                    ["--no-deflate"] if mode == "off" else []) + [url]
                theirs_argv = [sys.executable, "-c", PY_CLIENT, url, str(count), mode]
                best = {"ours": (float("inf"), 0), "theirs": (float("inf"), 0)}
                for _ in range(3):
                    for name, argv in [("ours", ours_argv), ("theirs", theirs_argv)]:
                        cpu, _, wire = await measure(argv)
                        if cpu < best[name][0]:
                            best[name] = (cpu, wire)
                ours, theirs = best["ours"], best["theirs"]
                print(f"| {label} ({count} messages) | {mode} | {ours[0] * 1000:.0f} | "
                      f"{theirs[0] * 1000:.0f} | {theirs[0] / ours[0]:.2f} | {ours[1]:,} / {theirs[1]:,} |")


asyncio.run(main())
