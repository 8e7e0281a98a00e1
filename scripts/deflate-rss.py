#!/usr/bin/env python3
"""qna-server's memory per 1,000 sockets, with permessage-deflate off and on.

Usage: deflate-rss.py QNA_SERVER [SOCKETS] -- [server flags]

Starts qna-server (--mock, :memory:, a room of 50 seeded questions), opens SOCKETS
(default 1000) attendee sockets with Python websockets (which offers permessage-deflate),
joins each to the room so that its snapshot is compressed, then deltas flow (one question
asked), and prints the server's RSS growth per 1,000 sockets. Run it once per setting.
"""
import asyncio, json, subprocess, sys, urllib.request, uuid
import websockets

def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

async def attendee(url, ready, go):
    ws = await websockets.connect(url, max_size=None, open_timeout=60)
    hello = json.loads(await ws.recv())
    await ws.send(json.dumps({"type": "join", "id": hello["id"], "attendee": str(uuid.uuid4())}))
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "room" and msg.get("part") == msg.get("parts"):
            break
    ready.release()
    await go.wait()
    try:
        await asyncio.wait_for(ws.recv(), 5)  # the delta of the question asked
    except asyncio.TimeoutError:
        pass
    return ws

async def main():
    server_path = sys.argv[1]
    sockets = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "--" else 1000
    flags = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    server = subprocess.Popen(
        [server_path, "--port", "0", "--db", ":memory:", "--mock", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    base = f"http://127.0.0.1:{port}"
    urllib.request.urlopen(urllib.request.Request(base + "/control/room/seed?n=50", method="POST")).read()
    await asyncio.sleep(0.5)
    before = rss_kb(server.pid)
    ready = asyncio.Semaphore(0)
    go = asyncio.Event()
    tasks = [asyncio.create_task(attendee(f"ws://127.0.0.1:{port}/socket", ready, go))
             for _ in range(sockets)]
    for _ in range(sockets):
        await ready.acquire()
    go.set()
    # One more attendee asks: every socket gets a delta.
    async with websockets.connect(f"ws://127.0.0.1:{port}/socket") as asker:
        hello = json.loads(await asker.recv())
        await asker.send(json.dumps({"type": "newQuestion", "id": hello["id"], "content": "x" * 300}))
        await asker.recv()
    sockets_open = await asyncio.gather(*tasks)
    await asyncio.sleep(1)
    after = rss_kb(server.pid)
    print(json.dumps({"flags": " ".join(flags) or "(defaults)", "sockets": sockets,
                      "rss_before_mb": round(before / 1024, 1), "rss_after_mb": round(after / 1024, 1),
                      "mb_per_1000": round((after - before) / 1024 / sockets * 1000, 1)}))
    for ws in sockets_open:
        await ws.close()
    server.terminate()
    server.wait()

asyncio.run(main())
