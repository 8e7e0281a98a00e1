"""Interop peer: a Python `websockets` server the Swift tests start on loopback.

Prints "listening on PORT" once ready. Paths:
  /echo                  echo every message, text as text, binary as binary
  /headers               send the request headers back as one JSON text message, then echo
  /fragments?n=N         send one text message in N fragments, then echo
  /close?code=C&reason=R close with that code and reason
  /ping                  ping the client, say "pong received" once it answers, then echo
  /extensions            send the negotiated Sec-WebSocket-Extensions (or "") as text, then echo
  /say?text=T            send T (percent-decoded: any character, controls included) as text,
                         then echo
"""

import argparse
import asyncio
import json
import ssl
from urllib.parse import parse_qs, urlparse

from websockets.asyncio.server import serve

import peer_runtime


async def handler(websocket):
    url = urlparse(websocket.request.path)
    query = parse_qs(url.query)
    if url.path == "/headers":
        await websocket.send(json.dumps({k.lower(): v for k, v in websocket.request.headers.raw_items()}))
    elif url.path == "/fragments":
        count = int(query.get("n", ["3"])[0])
        await websocket.send([f"part{i}-" for i in range(count)])
    elif url.path == "/close":
        await websocket.close(int(query["code"][0]), query.get("reason", [""])[0])
        return
    elif url.path == "/say":
        await websocket.send(query.get("text", [""])[0])
    elif url.path == "/extensions":
        await websocket.send(websocket.response.headers.get("Sec-WebSocket-Extensions", ""))
    elif url.path == "/ping":
        pong = await websocket.ping(b"server-ping")
        await pong
        await websocket.send("pong received")
    async for message in websocket:
        await websocket.send(message)


def select_subprotocol(connection, offered):
    """The first offered subprotocol we speak, or none (websockets would refuse a client
    that offers none once the server lists subprotocols)."""
    for name in offered:
        if name in ("chat", "superchat"):
            return name
    return None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    context = None
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
    async with serve(
        handler, "127.0.0.1", args.port, ssl=context, max_size=16 * 1024 * 1024,
        select_subprotocol=select_subprotocol,
        ping_interval=None, compression="deflate",
    ) as server:
        port = server.sockets[0].getsockname()[1]
        peer_runtime.announce(port)
        await asyncio.Future()


if __name__ == "__main__":
    peer_runtime.run(main)
