"""Checks qna-server's shared broadcast frames from outside, as RFC 6455 and RFC 7692 read.

Usage: shared_frames.py PORT

Four raw sockets upgrade /socket: two offer permessage-deflate as browsers do, one asks the
server to keep to a 10-bit window, one offers nothing. Each reads its frames byte for byte.
A question's delta must reach the two alike sockets as the same bytes, compressed (RSV1)
and unmasked, and the socket without deflate uncompressed; a small count-only delta goes
uncompressed (RSV1 clear) on a compressing connection. Every compressed message must
inflate with a fresh zlib state (server_no_context_takeover). Then a client of Python's
`websockets` library (its own permessage-deflate) joins with the compact room and must
decode everything it gets. Prints one JSON line: {"ok": true} or {"ok": false, "why": ...}.
"""

import asyncio
import base64
import json
import os
import socket
import struct
import sys
import uuid
import zlib


def masked_frame(payload: bytes, opcode: int = 0x2) -> bytes:
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    else:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawSocket:
    def __init__(self, port: int, offer: str | None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET /socket HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if offer:
            lines.append(f"Sec-WebSocket-Extensions: {offer}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffered = b""
        while b"\r\n\r\n" not in self.buffered:
            self.buffered += self.sock.recv(4096)
        head, self.buffered = self.buffered.split(b"\r\n\r\n", 1)
        self.head = head.decode()
        if " 101 " not in self.head.split("\r\n")[0]:
            raise AssertionError(f"no upgrade: {self.head}")
        self.deflate = "permessage-deflate" in self.head.lower()
        if self.deflate and "server_no_context_takeover" not in self.head:
            raise AssertionError(f"no server_no_context_takeover: {self.head}")
        self.frames: list[tuple[bytes, dict]] = []

    def read_frame(self) -> tuple[bytes, dict]:
        """The next data frame whole (header and payload as sent) and its message."""
        while True:
            while len(self.buffered) < 2:
                self.buffered += self.sock.recv(65536)
            first, second = self.buffered[0], self.buffered[1]
            if second & 0x80:
                raise AssertionError("a server frame is masked")
            length, start = second & 0x7F, 2
            if length == 126:
                while len(self.buffered) < 4:
                    self.buffered += self.sock.recv(65536)
                length, start = struct.unpack("!H", self.buffered[2:4])[0], 4
            elif length == 127:
                while len(self.buffered) < 10:
                    self.buffered += self.sock.recv(65536)
                length, start = struct.unpack("!Q", self.buffered[2:10])[0], 10
            while len(self.buffered) < start + length:
                self.buffered += self.sock.recv(65536)
            raw = self.buffered[: start + length]
            payload = self.buffered[start : start + length]
            self.buffered = self.buffered[start + length :]
            opcode = first & 0x0F
            if opcode >= 0x8:
                continue  # a ping: the server's keep-alive
            if not first & 0x80:
                raise AssertionError("a fragmented server message")
            if first & 0x40:
                if not self.deflate:
                    raise AssertionError("RSV1 without permessage-deflate")
                # A fresh inflater for every message: no context taken over.
                payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
            message = json.loads(payload)
            self.frames.append((raw, message))
            return raw, message

    def wait_for(self, predicate) -> tuple[bytes, dict]:
        for raw, message in self.frames:
            if predicate(message):
                return raw, message
        while True:
            raw, message = self.read_frame()
            if predicate(message):
                return raw, message

    def send(self, message: dict) -> None:
        self.sock.sendall(masked_frame(json.dumps(message).encode()))


def check(port: int) -> None:
    browser = "permessage-deflate; client_max_window_bits"
    alike = [RawSocket(port, browser), RawSocket(port, browser)]
    narrow = RawSocket(port, "permessage-deflate; server_max_window_bits=10")
    plain = RawSocket(port, None)
    everyone = alike + [narrow, plain]
    ids = []
    for member in everyone:
        _, handshake = member.wait_for(lambda m: m["type"] == "handshake")
        if "counts" not in handshake.get("extensions", []):
            raise AssertionError(f"counts not announced: {handshake}")
        ids.append(handshake["id"])
        member.send(
            {"type": "join", "id": handshake["id"], "attendee": str(uuid.uuid4()).upper(),
             "counts": True})
        member.wait_for(lambda m: m["type"] == "roomOwn")
    asker = alike[0]
    token = str(uuid.uuid4()).upper()
    content = "Why do all of these sockets get the very same bytes for this question? " * 3
    asker.send({"type": "newQuestion", "id": ids[0], "content": content.strip(), "token": token})
    _, created = asker.wait_for(lambda m: m["type"] == "questionResponse")
    question = created["id"]

    def names_question(m):
        return m["type"] == "roomDelta" and any(q["id"] == question for q in m["questions"])

    frames = [member.wait_for(names_question)[0] for member in everyone]
    if frames[0] != frames[1]:
        raise AssertionError("two sockets with the same framing got different bytes")
    if not frames[0][0] & 0x40 or not frames[2][0] & 0x40:
        raise AssertionError("a question's delta went uncompressed to a compressing socket")
    if frames[3][0] & 0x40:
        raise AssertionError("compressed for a socket that did not agree to it")

    # A vote: a count-only delta, too small to compress.
    voter = alike[1]
    voter.send({"type": "vote", "id": ids[1], "question": question, "up": True,
                "token": str(uuid.uuid4()).upper()})

    def counts_only(m):
        return m["type"] == "roomDelta" and m.get("counts") and not m["questions"]

    raw, delta = asker.wait_for(counts_only)
    if raw[0] & 0x40:
        raise AssertionError(f"a {len(raw)}-byte delta was compressed")
    if delta["counts"][1] != 1:
        raise AssertionError(f"counts: {delta}")


async def library_client(port: int) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/socket") as ws:
        if "permessage-deflate" not in (ws.response.headers.get("Sec-WebSocket-Extensions") or ""):
            raise AssertionError("websockets did not negotiate permessage-deflate")
        handshake = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "join", "id": handshake["id"],
                                  "attendee": str(uuid.uuid4()).upper(), "counts": True}))
        kinds = set()
        while "roomOwn" not in kinds:
            kinds.add(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])


def main() -> None:
    port = int(sys.argv[1])
    try:
        check(port)
        asyncio.run(library_client(port))
    except Exception as error:  # noqa: BLE001 - reported to the Swift test
        print(json.dumps({"ok": False, "why": f"{type(error).__name__}: {error}"}), flush=True)
        return
    print(json.dumps({"ok": True}), flush=True)


main()
