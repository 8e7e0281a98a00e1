"""Interop peer: a stand-in for the existing Q&A back ends of docs/protocol.md, on aiohttp (an
independent WebSocket and HTTP implementation). It behaves as that document observes the
reference back end: binary frames, "/" escaped as "\\/", raw UTF-8, no reply at all to malformed
or unknown messages, no check of the sender id, answers sent only to the asking connection id
and before the 303.

Prints "listening on PORT" once ready. Routes:
  GET  /socket              the attendee WebSocket
  GET  /                    the presenter page
  POST /{id}/answer         answer a question (400 malformed id, 404 unknown), 303 to /
  GET  /api/questions       every question as JSON (for the tests)
  POST /control/drop        drop every socket without a close frame
  POST /control/send        send the request body, as is, to every socket (binary frames)
Options: --reject REGEX     fail questions whose content matches, as a failed save does
"""

import argparse
import asyncio
import datetime
import html
import json
import re
import uuid

from aiohttp import web, WSMsgType

import peer_runtime

REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def now_since_reference():
    return (datetime.datetime.now(datetime.timezone.utc) - REFERENCE_DATE).total_seconds()


def encode(message):
    # Foundation's JSONEncoder: "/" escaped, non-ASCII raw. ("/" occurs only inside strings.)
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/").encode()


class Backend:
    def __init__(self, reject):
        self.reject = re.compile(reject) if reject else None
        self.questions = {}  # id -> dict(id, content, answered, askedFrom, createdAt)
        self.sockets = {}  # connection id -> WebSocketResponse

    async def socket(self, request):
        ws = web.WebSocketResponse(max_msg_size=16 * 1024)
        await ws.prepare(request)
        connection = str(uuid.uuid4()).upper()
        self.sockets[connection] = ws
        await ws.send_bytes(encode({"type": "handshake", "id": connection}))
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    data = msg.data if msg.type == WSMsgType.TEXT else msg.data.decode("utf-8", "replace")
                    await self.receive(ws, data)
        finally:
            self.sockets.pop(connection, None)
        return ws

    async def receive(self, ws, data):
        try:
            message = json.loads(data)
            if message.get("type") != "newQuestion":
                raise ValueError(f"unknown type {message.get('type')!r}")
            content, asked_from = message["content"], message["id"]
        except Exception as error:  # The reference back end logs and does not reply.
            print(f"ignored: {error}", flush=True)
            return
        question_id = str(uuid.uuid4()).upper()
        record = {"id": question_id, "content": content, "answered": False,
                  "askedFrom": str(asked_from).upper(), "createdAt": now_since_reference()}
        success = not (self.reject and self.reject.search(content))
        if success:
            self.questions[question_id] = record
        reply = {"type": "questionResponse", "success": success,
                 "message": "Question created. We will answer it as soon as possible :]" if success
                 else "Something went wrong creating the question.",
                 "id": question_id, "answered": False, "content": content,
                 "createdAt": record["createdAt"]}
        await ws.send_bytes(encode(reply))

    async def page(self, request):
        rows = "".join(
            f"<tr><td>{html.escape(q['content'])}</td><td>{q['answered']}</td>"
            f"<td><form method=post action=/{q['id']}/answer><button>Answer</button></form></td></tr>"
            for q in self.questions.values())
        return web.Response(text=f"<table>{rows}</table>", content_type="text/html")

    async def answer(self, request):
        try:
            question_id = str(uuid.UUID(request.match_info["id"])).upper()
        except ValueError:
            raise web.HTTPBadRequest()
        question = self.questions.get(question_id)
        if question is None:
            raise web.HTTPNotFound()
        question["answered"] = True
        asker = self.sockets.get(question["askedFrom"])
        if asker is not None:
            await asker.send_bytes(encode({"type": "questionAnswer", "questionId": question_id}))
        raise web.HTTPSeeOther("/")

    async def list_questions(self, request):
        return web.json_response(list(self.questions.values()))

    async def drop(self, request):
        for ws in list(self.sockets.values()):
            transport = request.transport if ws._req is None else ws._req.transport
            if transport is not None:
                transport.abort()
        return web.Response(text="dropped\n")

    async def send(self, request):
        body = await request.read()
        for ws in list(self.sockets.values()):
            await ws.send_bytes(body)
        return web.Response(text=f"sent to {len(self.sockets)}\n")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reject", default=None)
    args = parser.parse_args()
    backend = Backend(args.reject)
    app = web.Application()
    app.add_routes([
        web.get("/socket", backend.socket),
        web.get("/", backend.page),
        web.post("/control/drop", backend.drop),
        web.post("/control/send", backend.send),
        web.get("/api/questions", backend.list_questions),
        web.post("/{id}/answer", backend.answer),
    ])
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", args.port)
    await site.start()
    peer_runtime.announce(site._server.sockets[0].getsockname()[1])
    await asyncio.Event().wait()


if __name__ == "__main__":
    peer_runtime.run(main)
