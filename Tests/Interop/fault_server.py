"""Fault-injecting WebSocket server for the Swift runtime's tests, on raw asyncio sockets so it
can misbehave in ways a real library will not. Prints "listening on PORT" once ready. Paths:
  /no-pong          handshake, then read everything and answer nothing (not even pings)
  /drop-mid-message handshake, then half of a binary frame, then TCP is dropped
  /status/N         refuse the upgrade with HTTP status N
  /frame-with-101   the 101 and a text frame "hello" in one write, then echo text frames
  /restart          handshake, close with 1001, then stop listening for 2 s and come back
  /bad-frame        handshake, then a frame with reserved opcode 0x3
  /no-101           read the request and never answer
  /no-read          handshake, then never read
  /echo-then-violation?report=FILE
                    a text frame "before", a frame with RSV2 set and a ping, in one write
                    (Autobahn 3.2); then the frames the client sends, up to its close, go to
                    FILE as "opcode:payload" lines (text payloads as text, the close as its code)
  /fail-fast-utf8   half of a 40-byte text frame whose 5th byte is invalid UTF-8, then the
                    rest only after 2 s (Autobahn 6.4.x: the client must not wait for it)
  /ping-flood?seconds=N
                    handshake, then pings as fast as the socket takes them for N seconds,
                    never reading; then TCP is dropped
  /hostile-close    handshake, a Q&A handshake message, then a close whose reason holds ESC
                    sequences and an OSC 52 clipboard write
  /hostile-status   refuse the upgrade with 302, ESC sequences and OSC 52 in the reason phrase
                    and in the Location header
  /room-flood?questions=N&deltas=M&done=FILE
                    a room server's handshake, a snapshot of N questions once the client
                    joins, then M one-question deltas as fast as the socket takes them; then
                    "done" in FILE, and the connection stays open, reading
With --portal, every connection gets a captive portal's HTML page at once, whatever it sent
(a TLS client sees bytes that are not TLS).
"""

import argparse
import asyncio
import base64
import hashlib
import struct

import peer_runtime

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


async def read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", await reader.readexactly(2))
    elif n == 127:
        (n,) = struct.unpack("!Q", await reader.readexactly(8))
    mask = await reader.readexactly(4) if b1 & 0x80 else b"\0\0\0\0"
    data = bytearray(await reader.readexactly(n))
    for i in range(n):
        data[i] ^= mask[i % 4]
    return b0 & 0x0F, bytes(data)


HOSTILE = "\x1b[2J\x1b]52;c;cHduZWQ=\x07\x1b[31m"

PORTAL = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n"
          b"<html><body><h1>Welcome to Conference Wi-Fi</h1><form>Accept</form></body></html>")


class FaultServer:
    def __init__(self, port, portal=False):
        self.port = port
        self.portal = portal
        self.server = None

    async def start(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def room_flood(self, path, reader, writer):
        await room_flood_body(path, reader, writer)

    async def restart_later(self):
        self.server.close()
        await asyncio.sleep(2)
        await self.start()

    async def handle(self, reader, writer):
        if self.portal:
            writer.write(PORTAL)
            await writer.drain()
            # Read the request that crossed the page before closing: closing with it unread
            # would send a reset, which can overtake the page.
            try:
                await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 1)
            except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                pass
            writer.close()
            return
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1]
            headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
            if path == "/no-101":
                while await reader.read(65536):
                    pass
                return
            if path == "/hostile-status":
                writer.write((f"HTTP/1.1 302 Found {HOSTILE}\r\nLocation: http://portal.example/{HOSTILE}\r\n"
                              "Content-Length: 0\r\nConnection: close\r\n\r\n").encode())
                await writer.drain()
                writer.close()
                return
            if path.startswith("/status/"):
                code = int(path.split("/")[2])
                writer.write(f"HTTP/1.1 {code} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
                await writer.drain()
                writer.close()
                return
            accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + GUID).encode()).digest()).decode()
            response = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode()
            if path == "/frame-with-101":
                writer.write(response + frame(0x1, b"hello"))
                await writer.drain()
                while True:
                    opcode, data = await read_frame(reader)
                    if opcode == 0x8:
                        writer.write(frame(0x8, data[:2]))
                        await writer.drain()
                        writer.close()
                        return
                    if opcode == 0x1:
                        writer.write(frame(0x1, data))
                        await writer.drain()
            writer.write(response)
            await writer.drain()
            if path.startswith("/echo-then-violation"):
                report = path.split("report=", 1)[1]
                bad = bytearray(frame(0x1, b"bad"))
                bad[0] |= 0x20
                writer.write(frame(0x1, b"before") + bytes(bad) + frame(0x9, b""))
                await writer.drain()
                seen = []
                while True:
                    opcode, data = await read_frame(reader)
                    if opcode == 0x8:
                        seen.append(f"8:{struct.unpack('!H', data[:2])[0]}")
                        break
                    seen.append(f"{opcode}:{data.decode('utf-8', 'replace')}")
                with open(report, "w") as out:
                    out.write("\n".join(seen) + "\n")
                writer.write(frame(0x8, struct.pack("!H", 1000)))
                await writer.drain()
                writer.close()
            elif path.startswith("/ping-flood"):
                seconds = float(path.split("seconds=", 1)[1]) if "seconds=" in path else 10
                burst = frame(0x9, b"ping") * 1000
                deadline = asyncio.get_running_loop().time() + seconds
                while asyncio.get_running_loop().time() < deadline:
                    writer.write(burst)
                    try:
                        await asyncio.wait_for(writer.drain(), deadline - asyncio.get_running_loop().time())
                    except asyncio.TimeoutError:
                        break
                writer.transport.abort()
            elif path.startswith("/room-flood"):
                await self.room_flood(path, reader, writer)
            elif path == "/hostile-close":
                writer.write(frame(0x2, b'{"type":"handshake","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3"}'))
                reason = ("bye" + HOSTILE).encode()
                writer.write(frame(0x8, struct.pack("!H", 1001) + reason))
                await writer.drain()
                while await reader.read(65536):
                    pass
            elif path == "/no-read":
                # Accepts, then never reads: the client's writes back up.
                await asyncio.sleep(3600)
            elif path == "/no-pong":
                while await reader.read(65536):
                    pass
            elif path == "/drop-mid-message":
                writer.write(frame(0x2, b"x" * 1000)[:500])
                await writer.drain()
                writer.transport.abort()
            elif path == "/fail-fast-utf8":
                payload = b"abcd\xf5" + b"x" * 35
                whole = frame(0x1, payload)
                writer.write(whole[:12])
                await writer.drain()
                await asyncio.sleep(2)
                writer.write(whole[12:])
                await writer.drain()
                while await reader.read(65536):
                    pass
            elif path == "/bad-frame":
                writer.write(frame(0x3, b""))
                await writer.drain()
                while await reader.read(65536):
                    pass
            elif path == "/restart":
                writer.write(frame(0x8, struct.pack("!H", 1001) + b"restarting"))
                await writer.drain()
                await asyncio.sleep(0.05)
                writer.close()
                asyncio.get_running_loop().create_task(self.restart_later())
            else:
                writer.close()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass


ROOM_EXTENSIONS = '["token","resume","retryAfter","room","lifecycle"]'


def room_question(index, votes):
    return (
        '{"id":"%s","content":"Question %d from the flood","votes":%d,"answered":false,'
        '"createdAt":785000000,"state":"live"}' % (question_id(index), index, votes)
    )


def question_id(index):
    return "00000000-0000-4000-8000-%012X" % index


def query(path):
    fields = path.split("?", 1)[1] if "?" in path else ""
    return dict(item.split("=", 1) for item in fields.split("&") if "=" in item)


async def room_flood_body(path, reader, writer):
    fields = query(path)
    count, deltas = int(fields.get("questions", 5000)), int(fields.get("deltas", 300000))
    writer.write(
        frame(
            0x2,
            (
                '{"type":"handshake","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3","extensions":'
                + ROOM_EXTENSIONS
                + "}"
            ).encode(),
        )
    )
    await writer.drain()
    # The client's join, before the room.
    await read_frame(reader)
    pages = [list(range(start, min(count, start + 60))) for start in range(0, count, 60)]
    for number, page in enumerate(pages, 1):
        body = ",".join(room_question(index, 0) for index in page)
        writer.write(
            frame(
                0x2,
                (
                    '{"type":"room","seq":1,"part":%d,"parts":%d,"epoch":"77E1B4B4-0000-4000-8000-000000000001","questions":[%s]}'
                    % (number, len(pages), body)
                ).encode(),
            )
        )
    await writer.drain()
    for step in range(deltas):
        seq = step + 2
        body = room_question(step % count, step // count + 1)
        writer.write(
            frame(0x2, ('{"type":"roomDelta","from":%d,"to":%d,"questions":[%s]}' % (seq, seq, body)).encode())
        )
        if step % 500 == 0:
            await writer.drain()
    await writer.drain()
    if "done" in fields:
        with open(fields["done"], "w") as out:
            out.write("done\n")
    while await reader.read(65536):
        pass


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--portal", action="store_true")
    args = parser.parse_args()
    server = FaultServer(args.port, portal=args.portal)
    await server.start()
    peer_runtime.announce(server.port)
    await asyncio.Future()


if __name__ == "__main__":
    peer_runtime.run(main)
