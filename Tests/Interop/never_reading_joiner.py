"""A hostile attendee that joins the room over and over and never reads what it is sent.

Usage: never_reading_joiner.py PORT COUNT

Upgrades /socket, reads the handshake message (for its connection id), then sends COUNT
`join` messages in one burst (half as one attendee, half as attendees it invents) with a tiny
receive buffer, prints "sent" and reads nothing more until its stdin closes.
"""

import base64
import json
import os
import socket
import struct
import sys
import uuid


def frame(payload: bytes) -> bytes:
    """One masked binary frame, as a client sends it."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x82, 0x80 | length)
    else:
        header = struct.pack("!BBH", 0x82, 0x80 | 126, length)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


def read_message(sock: socket.socket, buffered: bytes) -> tuple[bytes, bytes]:
    """The first server frame's payload (unmasked, short), and what came after it."""
    while len(buffered) < 2:
        buffered += sock.recv(4096)
    length = buffered[1] & 0x7F
    start = 2
    if length == 126:
        while len(buffered) < 4:
            buffered += sock.recv(4096)
        length = struct.unpack("!H", buffered[2:4])[0]
        start = 4
    while len(buffered) < start + length:
        buffered += sock.recv(4096)
    return buffered[start : start + length], buffered[start + length :]


def main() -> None:
    port, count = int(sys.argv[1]), int(sys.argv[2])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /socket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    buffered = b""
    while b"\r\n\r\n" not in buffered:
        buffered += sock.recv(4096)
    head, buffered = buffered.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    handshake, _ = read_message(sock, buffered)
    connection = json.loads(handshake)["id"]
    itself = str(uuid.uuid4()).upper()
    burst = b"".join(
        frame(
            json.dumps(
                {
                    "type": "join",
                    "id": connection,
                    "attendee": itself if index % 2 == 0 else str(uuid.uuid4()).upper(),
                }
            ).encode()
        )
        for index in range(count)
    )
    sock.sendall(burst)
    print("sent", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
