#!/usr/bin/env python3
"""A venue's crowd behind one address, and an attacker beside it (issue 46).

Usage: crowd_bench.py QNA_SERVER [--clients 2000] [--arrival 120] [--attacker] [options]

Starts QNA_SERVER as a child (`--port 0 --db TMP/qna.sqlite --trusted-proxy 127.0.0.1
--admin-token RANDOM`, every other setting its default) and puts every client behind one
address: each WebSocket upgrade and HTTP request says `X-Forwarded-For: 198.51.100.77`, as
the venue's reverse proxy would. A presenter's socket seeds two questions first: one the
crowd votes for, one the attacker stuffs.

The crowd: N page-like attendees arriving evenly over T seconds (in --crowd-procs
processes). Each loads the attendee page (page, script, style), opens the socket, reads the
handshake, joins with a random attendee id (`counts` when offered, as the page does), waits
for `joined` with a credential (a refusal's `retryAfter` obeyed: it joins again after it),
takes the room's snapshot, then votes for the crowd's question and asks one question of its
own (a token each), sending each again after a refusal's `retryAfter`. It reconnects as the
page does (0.5 s doubling to 10 s, jittered) and holds its socket until the end. With
--qna, one attendee in --qna-share is a `qna --headless --vote ID --ask TEXT
--exit-after-send` process instead, reached through a small relay that adds the header.

The attacker (--attacker): --attacker-procs processes, from --attack-at for --attack-seconds,
--attacker-sockets sockets in all: farming identities (fresh attendee ids, obeying
`retryAfter`, a new socket after five joins), every identity voting for the target question
and asking questions until refused (up to the holders' share of the sockets keep their
identity open and keep asking, obeying `retryAfter`), sockets that never join flooding
questions (4 in flight each), and a screen socket (`"screen":true`) reading `audience`.

Prints progress on stderr, then a summary, then one JSON line of results.
"""
import argparse, asyncio, json, os, random, re, resource, secrets, shutil, signal, sys, tempfile
import time, uuid

VENUE = "198.51.100.77"
HANDSHAKE_TIMEOUT = 10.0
OPEN_TIMEOUT = 10.0


def now():
    # CLOCK_MONOTONIC is one clock for every process of the machine: times from the workers,
    # the attacker and the orchestrator compare directly.
    return time.monotonic()


def uid():
    return str(uuid.uuid4()).upper()


def later(seconds):
    """A server's retryAfter, bounded as the page bounds it (50 ms to 10 min)."""
    try:
        return min(600.0, max(0.05, float(seconds)))
    except (TypeError, ValueError):
        return 1.0


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def short(error):
    text = f"{type(error).__name__}: {error}"
    return text[:160]


async def open_ws(url, headers):
    from websockets.asyncio.client import connect
    return await connect(url, additional_headers=headers, open_timeout=OPEN_TIMEOUT,
                         ping_interval=None, close_timeout=2, max_size=1 << 20, max_queue=8,
                         proxy=None)


async def handshake_message(ws):
    message = json.loads(await asyncio.wait_for(ws.recv(), HANDSHAKE_TIMEOUT))
    if not isinstance(message, dict) or message.get("type") != "handshake":
        raise RuntimeError("the first message was not a handshake")
    return message


async def handshake(ws):
    message = await handshake_message(ws)
    return message["id"], message.get("extensions") or []


def price_of(handshake_or_refusal, key):
    """The price of a new identity a handshake (`identityWork`) or a refusal (`work`) names."""
    price = handshake_or_refusal.get(key)
    return price if isinstance(price, dict) and "bits" in price and "count" in price else None


class Solver:
    """Pays identities with Benchmarks/crowd/work_solver.c in a child process (one request at
    a time; each process of the crowd or the attacker has its own). Keeps what paying cost."""

    def __init__(self, path, nice=0):
        self.path, self.nice, self.process, self.lock = path, nice, None, asyncio.Lock()
        self.paid, self.seconds = 0, 0.0

    def cpu_seconds(self):
        """The solver's CPU time so far (user and system), from /proc."""
        if self.process is None:
            return 0.0
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

    async def pay(self, connection, price):
        async with self.lock:
            if self.process is None:
                self.process = await asyncio.create_subprocess_exec(
                    self.path, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    preexec_fn=(lambda: os.nice(self.nice)) if self.nice else None)
            started = now()
            self.process.stdin.write(f"{connection} {price['bits']} {price['count']}\n".encode())
            await self.process.stdin.drain()
            line = await self.process.stdout.readline()
            self.seconds += now() - started
            self.paid += 1
            return [int(n) for n in line.split()]


# The room's messages are most of what a socket reads, and a snapshot page is 12 KB of
# questions: their type and page numbers are read without decoding the page. A question's
# text is a JSON string (its quotes escaped), so these keys can only be the message's own.
TYPE = re.compile(rb'"type"\s*:\s*"(\w+)"')
PAGE = {k: re.compile(rb'"' + k.encode() + rb'"\s*:\s*(\d+)') for k in ("seq", "part", "parts")}
SKIPPED = {b"room", b"roomDelta", b"roomOwn", b"audience", b"session"}


def peek(raw):
    """The message, decoded unless it is the room's: then only `type` (and a page's numbers)."""
    data = raw if isinstance(raw, bytes) else raw.encode()
    t = TYPE.search(data)
    if t is None or t.group(1) not in SKIPPED:
        return decode(data)
    m = {"type": t.group(1).decode()}
    if t.group(1) == b"room":
        for key, pattern in PAGE.items():
            found = pattern.search(data)
            if found:
                m[key] = int(found.group(1))
    return m


def decode(raw):
    try:
        message = json.loads(raw)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


class Tally:
    """Refusal messages seen, by text, bounded."""

    def __init__(self, limit=20):
        self.counts, self.limit = {}, limit

    def add(self, kind, message):
        key = f"{kind}: {str(message)[:100]}"
        if key in self.counts or len(self.counts) < self.limit:
            self.counts[key] = self.counts.get(key, 0) + 1


async def watch_screen(url, samples, until, t0):
    """A projector's socket (extension `audience`): every head count it is told, with its time."""
    while now() < until:
        try:
            ws = await open_ws(url, {"X-Forwarded-For": VENUE})
            try:
                connection, _ = await handshake(ws)
                await ws.send(json.dumps({"type": "join", "id": connection, "attendee": uid(),
                                          "screen": True, "counts": True}))
                while True:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, until - now()))
                    if b"audience" in (raw if isinstance(raw, bytes) else raw.encode()):
                        message = decode(raw)
                        if message.get("type") == "audience" and len(samples) < 100_000:
                            samples.append((now() - t0, message.get("count")))
            finally:
                await ws.close()
        except asyncio.CancelledError:
            raise
        except Exception:
            # A timeout at `until` ends the watch; anything else tries again.
            if now() < until:
                await asyncio.sleep(0.5)


# ---------------------------------------------------------------- the crowd (a worker process)

PENDING, INFLIGHT, DONE, FAILED = "pending", "inflight", "done", "failed"


class Attendee:
    def __init__(self, index, arrival, cfg):
        self.index, self.arrival, self.cfg = index, arrival, cfg
        self.kind = "page"
        self.attendee, self.credential = uid(), None
        tickets = cfg.get("tickets")
        self.ticket = tickets[index] if tickets else None
        self.vote_token, self.question_token = uid(), uid()
        self.content = f"Crowd {index}: will the slides and the recording be shared after the talk?"
        self.t_page = self.t_handshake = self.t_identity = self.t_room = None
        self.t_vote = self.t_question = self.t_closed = None
        self.vote, self.question = PENDING, PENDING
        self.vote_due = self.question_due = 0.0
        self.joins = self.join_refusals = self.vote_refusals = self.question_refusals = 0
        self.connects = self.connect_failures = 0
        self.vote_error = self.question_error = self.identity_error = self.last_error = None
        self.page_error = None
        self.paying = None

    @property
    def finished(self):
        return self.vote in (DONE, FAILED) and self.question in (DONE, FAILED)

    def record(self):
        out = {k: getattr(self, k) for k in (
            "index", "kind", "arrival", "t_page", "t_handshake", "t_identity", "t_room", "t_vote",
            "t_question", "t_closed", "joins", "join_refusals", "vote_refusals",
            "question_refusals", "connects", "connect_failures", "vote_error", "question_error",
            "identity_error", "last_error", "page_error", "paying")}
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in out.items()
                if v not in (None, 0) or k in ("index", "arrival")}


class Crowd:
    def __init__(self, cfg):
        self.cfg = cfg
        self.t0 = cfg["t0"]
        self.attendees = []
        self.refusals = Tally()
        self.http = None
        self.solver = Solver(cfg["solver"])

    def rel(self):
        return now() - self.t0

    async def load_page(self, a):
        import aiohttp
        base = f"http://127.0.0.1:{self.cfg['port']}"
        page = self.cfg["page_path"]
        headers = {"X-Forwarded-For": VENUE, "Accept-Language": "en"}
        try:
            async def get(path):
                async with self.http.get(base + path, headers=headers) as response:
                    await response.read()
                    if response.status != 200:
                        raise RuntimeError(f"{path}: HTTP {response.status}")
            await asyncio.wait_for(get(page), 15)
            await asyncio.wait_for(asyncio.gather(get("/assets/room.js"), get("/assets/room.css")), 15)
            a.t_page = self.rel()
        except Exception as error:
            a.page_error = short(error)

    async def attend(self, a):
        await asyncio.sleep(max(0.0, self.t0 + a.arrival - now()))
        if self.cfg["page_load"]:
            await self.load_page(a)
        backoff = 0.5
        try:
            while True:
                try:
                    ws = await open_ws(self.cfg["ws_url"], {"X-Forwarded-For": VENUE})
                except Exception as error:
                    a.connect_failures += 1
                    a.last_error = short(error)
                else:
                    a.connects += 1
                    backoff = 0.5
                    try:
                        await self.converse(a, ws)
                    except Exception as error:
                        a.last_error = short(error)
                    finally:
                        await ws.close()
                # Reconnect as the page does: doubling to 10 s, jittered.
                await asyncio.sleep(backoff * (0.5 + random.random()))
                backoff = min(backoff * 2, 10.0)
        finally:
            a.t_closed = self.rel()

    async def converse(self, a, ws):
        first = await handshake_message(ws)
        connection, extensions = first["id"], first.get("extensions") or []
        if a.t_handshake is None:
            a.t_handshake = self.rel()
        counts = "counts" in extensions
        price = price_of(first, "identityWork") if "identityWork" in extensions else None
        paid = False

        async def join(asked=False):
            nonlocal paid
            message = {"type": "join", "id": connection, "attendee": a.attendee}
            if a.credential:
                message["credential"] = a.credential
            elif a.ticket:
                # A personal ticket (extension `tickets`) pays for the identity.
                message["ticket"] = a.ticket
            if counts:
                message["counts"] = True
            # As the page: a new identity is paid for first, once per connection, unless a
            # ticket pays for it (then only when a refusal names a price).
            if price and not paid and (not a.credential or asked) and (not a.ticket or asked):
                paid = True
                started = now()
                message["work"] = await self.solver.pay(connection, price)
                a.paying = (a.paying or 0) + now() - started
            a.joins += 1
            await ws.send(json.dumps(message))

        await join()
        identity = room = False
        pages, join_due = None, None
        if a.vote == INFLIGHT:
            a.vote = PENDING
        if a.question == INFLIGHT:
            a.question = PENDING
        ask_early = self.cfg["ask_before_identity"]
        while True:
            t = now()
            if join_due is not None and t >= join_due:
                join_due = None
                await join()
            if identity and room and a.vote == PENDING and a.vote_due <= t:
                a.vote = INFLIGHT
                await ws.send(json.dumps({"type": "vote", "id": connection, "question":
                                          self.cfg["question"], "up": True, "token": a.vote_token}))
            if room and (identity or ask_early) and a.question == PENDING and a.question_due <= t:
                a.question = INFLIGHT
                await ws.send(json.dumps({"type": "newQuestion", "id": connection,
                                          "content": a.content, "token": a.question_token}))
            if a.finished:
                # Done: hold the socket, reading what the room sends, as an open page does.
                async for _ in ws:
                    pass
                return
            dues = [join_due] if join_due is not None else []
            if identity and room and a.vote == PENDING:
                dues.append(a.vote_due)
            if room and (identity or ask_early) and a.question == PENDING:
                dues.append(a.question_due)
            try:
                if dues:
                    raw = await asyncio.wait_for(ws.recv(), max(0.0, min(dues) - now()))
                else:
                    raw = await ws.recv()
            except (asyncio.TimeoutError, TimeoutError):
                continue
            m = peek(raw)
            kind = m.get("type")
            if kind == "joined":
                if m.get("credential"):
                    a.attendee, a.credential = m.get("attendee", a.attendee), m["credential"]
                    identity = True
                    if a.t_identity is None:
                        a.t_identity = self.rel()
                elif price_of(m, "work") and "identityWork" in extensions and not paid:
                    price = price_of(m, "work")
                    await join(asked=True)
                elif m.get("retryAfter") is not None:
                    a.join_refusals += 1
                    self.refusals.add("join", m.get("message"))
                    join_due = now() + later(m["retryAfter"])
                else:
                    a.identity_error = str(m.get("message"))[:160]
                    self.refusals.add("join, final", m.get("message"))
            elif kind == "room":
                if pages is None or pages[0] != m.get("seq"):
                    pages = (m.get("seq"), set())
                pages[1].add(m.get("part", 1))
                if len(pages[1]) >= (m.get("parts") or 1):
                    room = True
                    if a.t_room is None:
                        a.t_room = self.rel()
            elif kind == "voteResponse" and m.get("token") == a.vote_token:
                self.settle(a, "vote", m)
            elif kind == "questionResponse" and m.get("token") == a.question_token:
                self.settle(a, "question", m)

    def settle(self, a, step, m):
        """A response to an attendee's vote or question (`step`): done, due again after its
        retryAfter, or failed for good. Both steps keep the same fields under their name."""
        if m.get("success"):
            setattr(a, step, DONE)
            setattr(a, f"t_{step}", self.rel())
        elif m.get("retryAfter") is not None:
            setattr(a, step, PENDING)
            setattr(a, f"{step}_refusals", getattr(a, f"{step}_refusals") + 1)
            self.refusals.add(step, m.get("message"))
            setattr(a, f"{step}_due", now() + later(m["retryAfter"]))
        else:
            setattr(a, step, FAILED)
            setattr(a, f"{step}_error", str(m.get("message"))[:160])
            self.refusals.add(f"{step}, final", m.get("message"))

    # `qna --headless` attendees, through a relay that adds the venue's header.
    async def relay(self, reader, writer):
        upstream = None
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 15)
            line, rest = head.split(b"\r\n", 1)
            head = line + f"\r\nX-Forwarded-For: {VENUE}\r\n".encode() + rest
            up_reader, upstream = await asyncio.open_connection("127.0.0.1", self.cfg["port"])
            upstream.write(head)

            async def pipe(source, sink):
                try:
                    while data := await source.read(65536):
                        sink.write(data)
                        await sink.drain()
                finally:
                    sink.close()
            await asyncio.gather(pipe(reader, upstream), pipe(up_reader, writer),
                                 return_exceptions=True)
        except Exception:
            pass
        finally:
            writer.close()
            if upstream is not None:
                upstream.close()

    async def attend_qna(self, a, relay_port):
        await asyncio.sleep(max(0.0, self.t0 + a.arrival - now()))
        state = os.path.join(self.cfg["tmp"], f"qna-{a.index}")
        os.makedirs(state, exist_ok=True)
        remaining = max(1.0, self.cfg["end"] - now())
        argv = [self.cfg["qna"], "--headless", "--no-stdin", "--url",
                f"ws://127.0.0.1:{relay_port}{self.cfg['base']}/socket", "--ask", a.content,
                "--vote", self.cfg["question"], "--exit-after-send", "--timeout",
                f"{remaining:.0f}s", "--state-dir", state]
        if a.ticket:
            argv += ["--ticket", a.ticket]
        env = dict(os.environ, XDG_STATE_HOME=state, HOME=state)
        proc = None
        a.connects = 1
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, env=env)
            while line := await proc.stdout.readline():
                event = decode(line).get("event")
                if event == "handshake" and a.t_handshake is None:
                    a.t_handshake = self.rel()
                elif event == "created":
                    a.question, a.t_question = DONE, self.rel()
                elif event == "waiting":
                    a.question_refusals += 1
                elif event == "failed":
                    a.question = FAILED
                    a.question_error = str(decode(line).get("reason"))[:160]
            code = await proc.wait()
            if code == 0:
                # --exit-after-send: out once the question is stored and the vote answered.
                a.vote, a.t_vote = DONE, self.rel()
            else:
                a.vote = FAILED if a.vote == PENDING else a.vote
                a.vote_error = f"qna exited {code}"
                if a.question == PENDING:
                    a.question = FAILED
        except asyncio.CancelledError:
            if proc is not None and proc.returncode is None:
                proc.terminate()
                try:
                    await asyncio.wait_for(proc.wait(), 5)
                except (asyncio.TimeoutError, TimeoutError):
                    proc.kill()
            raise
        except Exception as error:
            a.last_error = short(error)
        finally:
            a.t_closed = self.rel()

    async def run(self):
        cfg = self.cfg
        worker, workers, n, spread = cfg["worker"], cfg["workers"], cfg["clients"], cfg["arrival"]
        share_every = round(1 / cfg["qna_share"]) if cfg.get("qna") and cfg["qna_share"] > 0 else 0
        for i in range(worker, n, workers):
            a = Attendee(i, spread * i / n, cfg)
            if share_every and i % share_every == share_every - 1:
                a.kind = "qna"
            self.attendees.append(a)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(signal.SIGINT, stop.set)
        import aiohttp
        self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64),
                                          timeout=aiohttp.ClientTimeout(total=20))
        relay_server = None
        if any(a.kind == "qna" for a in self.attendees):
            relay_server = await asyncio.start_server(self.relay, "127.0.0.1", 0)
        relay_port = relay_server.sockets[0].getsockname()[1] if relay_server else 0
        tasks = [asyncio.create_task(self.attend_qna(a, relay_port) if a.kind == "qna"
                                     else self.attend(a)) for a in self.attendees]
        lags = []

        async def lag_monitor():
            while True:
                before = now()
                await asyncio.sleep(0.05)
                if len(lags) < 20_000:
                    lags.append(now() - before - 0.05)

        async def progress():
            while True:
                await asyncio.sleep(1)
                t = self.rel()
                print(json.dumps({"progress": {
                    "worker": worker, "total": len(self.attendees),
                    "arrived": sum(1 for a in self.attendees if a.arrival <= t),
                    "identity": sum(1 for a in self.attendees if a.t_identity is not None),
                    "voted": sum(1 for a in self.attendees if a.vote == DONE),
                    "asked": sum(1 for a in self.attendees if a.question == DONE),
                    "finished": sum(1 for a in self.attendees if a.finished)}}), flush=True)
        helpers = [asyncio.create_task(lag_monitor()), asyncio.create_task(progress())]
        try:
            await asyncio.wait_for(stop.wait(), max(0.0, cfg["end"] - now()))
        except (asyncio.TimeoutError, TimeoutError):
            pass
        for task in tasks + helpers:
            task.cancel()
        await asyncio.wait(tasks + helpers, timeout=15)
        await self.http.close()
        if relay_server:
            relay_server.close()
        for a in self.attendees:
            print(json.dumps({"client": a.record()}))
        lags.sort()
        print(json.dumps({"worker": {
            "worker": worker, "cpu_s": round(cpu_self(), 2),
            "loop_lag_p99_ms": round(lags[int(0.99 * (len(lags) - 1))] * 1000, 1) if lags else None,
            "loop_lag_max_ms": round(lags[-1] * 1000, 1) if lags else None,
            "refusals": self.refusals.counts}}), flush=True)


# ---------------------------------------------------------------- the attacker (its own process)

class Attacker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.t0, self.start, self.end = cfg["t0"], cfg["attack_start"], cfg["attack_end"]
        self.proc = cfg["proc"]
        sockets = cfg["sockets"]
        self.flooders = max(1, sockets // 10)
        self.farmers = max(1, sockets // 5)
        self.holder_cap = max(0, sockets - self.flooders - self.farmers)
        self.holders = 0
        self.open_identities = 0
        self.open_series = []
        self.c = dict(identities=0, join_refusals=0, votes_counted=0, vote_refusals=0,
                      votes_refused_final=0, questions_stored=0, question_refusals=0,
                      questions_refused_final=0, sockets_opened=0, connect_failures=0,
                      errors=0)
        self.identities_per_second = {}
        # Distinct attendees its sockets were issued: with a personal ticket each socket gets
        # the one identity the ticket holds.
        self.attendees = set()
        self.refusals = Tally()
        self.samples = []
        self.serial = 0
        # Niced: on a machine the attacker shares with the server and the crowd, its solving
        # takes what they leave, as if it had cores of its own; its take is then scaled to
        # two whole cores from what each identity cost it (identities_per_two_cores).
        self.solver = Solver(cfg["solver"], nice=cfg["solver_nice"])

    def content(self):
        self.serial += 1
        return f"Flood {self.proc}-{self.serial}: buy cheap tickets now"

    async def connect(self):
        try:
            ws = await open_ws(self.cfg["ws_url"], {"X-Forwarded-For": VENUE})
        except Exception:
            self.c["connect_failures"] += 1
            await asyncio.sleep(0.05)
            return None
        self.c["sockets_opened"] += 1
        return ws

    async def identity_socket(self, slot):
        """Farm one identity on a fresh socket; vote for the target with it; ask questions with it.
        `slot` is the farmer's: released once this socket holds an identity (as a holder) or
        closes."""
        released = False
        identity = False

        def release():
            nonlocal released
            if not released:
                released = True
                slot.release()
        holding = False
        try:
            ws = await self.connect()
            if ws is None:
                return
            try:
                first = await handshake_message(ws)
                connection = first["id"]
                price = price_of(first, "identityWork") if self.cfg["pays"] else None
                attendee = uid()
                joins = 0

                async def join():
                    nonlocal joins, price
                    joins += 1
                    message = {"type": "join", "id": connection, "attendee": attendee,
                               "counts": True}
                    if self.cfg.get("ticket"):
                        # Its one personal ticket (extension `tickets`), on every socket.
                        message["ticket"] = self.cfg["ticket"]
                    if price and not self.cfg.get("ticket"):
                        # Once per socket: a socket gets one identity.
                        message["work"] = await self.solver.pay(connection, price)
                        price = None
                    await ws.send(json.dumps(message))
                await join()
                identity = False
                join_due = None
                vote_token, vote_state, vote_due = uid(), PENDING, 0.0
                question_token, question_inflight, question_due = None, False, 0.0
                spent = False  # a question refused: this identity's burst is used up
                while now() < self.end:
                    t = now()
                    if join_due is not None and t >= join_due:
                        if joins >= 5:
                            return  # joins past five are slowed: a new socket is quicker
                        join_due = None
                        await join()
                    if identity and vote_state == PENDING and vote_due <= t:
                        vote_state = INFLIGHT
                        await ws.send(json.dumps({"type": "vote", "id": connection, "question":
                                                  self.cfg["target"], "up": True, "token": vote_token}))
                    if identity and vote_state in (DONE, FAILED) and not holding:
                        if self.holders < self.holder_cap:
                            self.holders += 1
                            holding = True
                            release()
                        elif spent:
                            return
                    if identity and not question_inflight and question_due <= t:
                        question_inflight, question_token = True, uid()
                        await ws.send(json.dumps({"type": "newQuestion", "id": connection,
                                                  "content": self.content(),
                                                  "token": question_token}))
                    dues = [self.end]
                    if join_due is not None:
                        dues.append(join_due)
                    if identity and vote_state == PENDING:
                        dues.append(vote_due)
                    if identity and not question_inflight:
                        dues.append(question_due)
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.0, min(dues) - now()))
                    except (asyncio.TimeoutError, TimeoutError):
                        continue
                    m = peek(raw)
                    kind = m.get("type")
                    if kind == "joined":
                        if m.get("credential"):
                            identity = True
                            self.open_identities += 1
                            self.c["identities"] += 1
                            self.attendees.add(m.get("attendee"))
                            second = int(now() - self.start)
                            self.identities_per_second[second] = self.identities_per_second.get(second, 0) + 1
                        elif m.get("retryAfter") is not None:
                            self.c["join_refusals"] += 1
                            self.refusals.add("join", m.get("message"))
                            join_due = now() + later(m["retryAfter"])
                        else:
                            self.refusals.add("join, final", m.get("message"))
                            return
                    elif kind == "voteResponse" and m.get("token") == vote_token:
                        if m.get("success"):
                            vote_state = DONE
                            self.c["votes_counted"] += 1
                        elif m.get("retryAfter") is not None:
                            vote_state, vote_due = PENDING, now() + later(m["retryAfter"])
                            self.c["vote_refusals"] += 1
                            self.refusals.add("vote", m.get("message"))
                        else:
                            vote_state = FAILED
                            self.c["votes_refused_final"] += 1
                            self.refusals.add("vote, final", m.get("message"))
                    elif kind == "questionResponse" and m.get("token") == question_token:
                        question_inflight = False
                        if m.get("success"):
                            self.c["questions_stored"] += 1
                        elif m.get("retryAfter") is not None:
                            self.c["question_refusals"] += 1
                            self.refusals.add("question", m.get("message"))
                            question_due = now() + later(m["retryAfter"])
                            spent = True
                        else:
                            self.c["questions_refused_final"] += 1
                            self.refusals.add("question, final", m.get("message"))
                            question_due = now() + 1.0
                            spent = True
            finally:
                await ws.close()
        except asyncio.CancelledError:
            raise
        except Exception:
            self.c["errors"] += 1
        finally:
            if holding:
                self.holders -= 1
            if identity:
                self.open_identities -= 1
            release()

    async def farm(self):
        slot = asyncio.Semaphore(self.farmers)
        running = set()
        try:
            while now() < self.end:
                await slot.acquire()
                task = asyncio.create_task(self.identity_socket(slot))
                running.add(task)
                task.add_done_callback(running.discard)
        finally:
            for task in list(running):
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def flood(self):
        """A socket that never joins, sending questions as fast as they are taken."""
        while now() < self.end:
            ws = await self.connect()
            if ws is None:
                continue
            try:
                connection, _ = await handshake(ws)
                inflight, pause = set(), 0.0
                while now() < self.end:
                    while len(inflight) < 4 and now() >= pause:
                        token = uid()
                        inflight.add(token)
                        await ws.send(json.dumps({"type": "newQuestion", "id": connection,
                                                  "content": self.content(), "token": token}))
                    wait = self.end - now()
                    if not inflight:
                        wait = min(wait, pause - now())
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.0, wait))
                    except (asyncio.TimeoutError, TimeoutError):
                        continue
                    m = peek(raw)
                    if m.get("type") == "questionResponse" and m.get("token") in inflight:
                        inflight.discard(m.get("token"))
                        if m.get("success"):
                            self.c["questions_stored"] += 1
                        elif m.get("retryAfter") is not None:
                            self.c["question_refusals"] += 1
                            self.refusals.add("question (no join)", m.get("message"))
                            pause = now() + later(m["retryAfter"])
                        else:
                            self.c["questions_refused_final"] += 1
                            self.refusals.add("question (no join), final", m.get("message"))
                            pause = now() + 1.0
            except asyncio.CancelledError:
                raise
            except Exception:
                self.c["errors"] += 1
                await asyncio.sleep(0.05)
            finally:
                await ws.close()

    async def run(self):
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(signal.SIGINT, stop.set)
        await asyncio.sleep(max(0.0, self.start - now()))
        async def series():
            while True:
                self.open_series.append((round(now() - self.t0, 2), self.open_identities))
                await asyncio.sleep(0.5)
        tasks = [asyncio.create_task(self.farm()), asyncio.create_task(series())]
        tasks += [asyncio.create_task(self.flood()) for _ in range(self.flooders)]
        if self.proc == 0:
            tasks.append(asyncio.create_task(
                watch_screen(self.cfg["ws_url"], self.samples, self.end, self.t0)))
        try:
            await asyncio.wait_for(stop.wait(), max(0.0, self.end - now()))
        except (asyncio.TimeoutError, TimeoutError):
            pass
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=15)
        print(json.dumps({"attacker": dict(
            self.c, proc=self.proc, cpu_s=round(cpu_self(), 2), flooders=self.flooders,
            farmers=self.farmers, holder_cap=self.holder_cap, paid=self.solver.paid,
            paying_s=round(self.solver.seconds, 2), solver_cpu_s=round(self.solver.cpu_seconds(), 2),
            identities_per_second=self.identities_per_second,
            attendees=sorted(a for a in self.attendees if a), audience=self.samples, open_identities=self.open_series,
            refusals=self.refusals.counts)}), flush=True)


# ---------------------------------------------------------------- the orchestrator

def parse_duration(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)?", text.strip())
    if not m:
        raise ValueError(text)
    return float(m.group(1)) * {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]


async def server_defaults(binary):
    proc = await asyncio.create_subprocess_exec(binary, "--help", stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    text = " ".join(out.decode(errors="replace").split())
    found = {}
    for name in ("rate-limit", "rate-window", "vote-rate-limit", "new-attendee-rate-limit",
                 "new-attendee-window", "max-connections"):
        m = re.search(rf"--{name} <[^>]+> (?:(?!--[a-z-]+ [<A-Z]).)*?\(default ([^)]+)\)", text)
        if m:
            found[name] = m.group(1)
    return found


async def http(port, method, path, token, body=None):
    import aiohttp
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=180)) as session:
        async with session.request(method, f"http://127.0.0.1:{port}{path}", headers=headers,
                                   json=body) as response:
            data = await response.read()
            if response.status >= 300:
                raise RuntimeError(f"{method} {path}: HTTP {response.status} {data[:200]!r}")
            return json.loads(data)


async def seed(port, base, token, contents):
    """The presenter's socket asks the questions the crowd and the attacker vote for."""
    ws = await open_ws(f"ws://127.0.0.1:{port}{base}/socket?role=presenter",
                       {"Authorization": f"Bearer {token}"})
    try:
        connection, _ = await handshake(ws)
        ids = {}
        tokens = {uid(): content for content in contents}
        for t, content in tokens.items():
            await ws.send(json.dumps({"type": "newQuestion", "id": connection, "content": content,
                                      "token": t}))
        deadline = now() + 30
        while len(ids) < len(tokens):
            m = decode(await asyncio.wait_for(ws.recv(), max(0.01, deadline - now())))
            if m.get("type") == "questionResponse" and m.get("token") in tokens:
                if m.get("success"):
                    ids[m["token"]] = m["id"]
                elif m.get("retryAfter") is not None:
                    await asyncio.sleep(later(m["retryAfter"]))
                    await ws.send(json.dumps({"type": "newQuestion", "id": connection,
                                              "content": tokens[m["token"]], "token": m["token"]}))
                else:
                    raise RuntimeError(f"seeding refused: {m.get('message')}")
        return [ids[t] for t in tokens]
    finally:
        await ws.close()


def proc_stats(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        out["cpu_s"] = round((int(fields[11]) + int(fields[12])) / ticks, 2)
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    out["peak_rss_mib"] = round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return out


def percentile(values, p):
    """Nearest rank over every client, a client that never managed counted as infinite."""
    if not values:
        return None
    ordered = sorted(values)
    v = ordered[max(0, min(len(ordered) - 1, int(-(-p * len(ordered) // 100)) - 1))]
    return None if v == float("inf") else round(v, 3)


def latency_stats(clients, key, since_arrival=True):
    values = [(c[key] - (c["arrival"] if since_arrival else 0)) if c.get(key) is not None
              else float("inf") for c in clients]
    done = [v for v in values if v != float("inf")]
    return {"n": len(values), "managed": len(done), "never": len(values) - len(done),
            "within_10s": sum(1 for v in done if v <= 10),
            "p50": percentile(values, 50), "p90": percentile(values, 90),
            "p99": percentile(values, 99), "max": percentile(values, 100)}


def fmt(stats):
    def s(v):
        return "never" if v is None else f"{v:.2f} s"
    if not stats["n"]:
        return "no clients"
    return (f"p50 {s(stats['p50'])}, p90 {s(stats['p90'])}, p99 {s(stats['p99'])}, "
            f"max {s(stats['max'])}; {stats['within_10s']} of {stats['n']} within 10 s, "
            f"{stats['never']} never")


async def orchestrate(args):
    raise_file_limit()
    binary = os.path.abspath(args.server)
    defaults = await server_defaults(binary)
    tmp = tempfile.mkdtemp(prefix="crowd-bench-")
    token = secrets.token_hex(12)  # 24 characters
    server = None
    children = []
    server_log = os.path.join(tmp, "server.log")
    try:
        with open(server_log, "wb") as log:
            server = await asyncio.create_subprocess_exec(
                binary, "--port", "0", "--db", os.path.join(tmp, "qna.sqlite"),
                "--trusted-proxy", "127.0.0.1", "--admin-token", token, *args.server_arg,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=log)
        line = (await asyncio.wait_for(server.stdout.readline(), 60)).decode()
        m = re.search(r"listening on ws://[^:]+:(\d+)/socket", line)
        if not m:
            raise RuntimeError(f"qna-server said {line!r} (log: {server_log})")
        port = int(m.group(1))

        async def drain():
            while await server.stdout.read(65536):
                pass
        drainer = asyncio.create_task(drain())

        base = ""
        tickets = []
        if args.session or args.tickets:
            created = await http(port, "POST", "/api/sessions", token, {"title": "Crowd bench"})
            base = f"/s/{created['code']}"
        if args.tickets:
            issued = await asyncio.create_subprocess_exec(
                binary, "session", "tickets", created["code"], "--count", str(args.clients + 1),
                "--db", os.path.join(tmp, "qna.sqlite"), stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL)
            out, _ = await issued.communicate()
            tickets = [line.split()[0] for line in out.decode().splitlines() if line.strip()]
            if issued.returncode != 0 or len(tickets) != args.clients + 1:
                raise RuntimeError(f"qna-server session tickets: {len(tickets)} tickets")
        question, target = await seed(port, base, token, [
            "Seeded: what should the next talk be about?",
            "Seeded: the attacker's target question"])
        ws_url = f"ws://127.0.0.1:{port}{base}/socket"
        t0 = now() + 2.0
        attack_start = t0 + args.attack_at
        attack_end = attack_start + args.attack_seconds
        last = max(args.arrival, args.attack_at + args.attack_seconds if args.attacker else 0)
        end = t0 + last + args.tail
        solver = os.path.join(tmp, "work_solver")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "work_solver.c")
        compiled = await asyncio.create_subprocess_exec(
            os.environ.get("CC", "cc"), "-O3", "-march=native", "-o", solver, source)
        if await compiled.wait() != 0:
            raise RuntimeError(f"could not compile {source}")
        common = {"t0": t0, "end": end, "port": port, "base": base, "ws_url": ws_url,
                  "tmp": tmp, "solver": solver}
        crowd_cfg = dict(common, clients=args.clients, arrival=args.arrival, question=question,
                         workers=args.crowd_procs, page_load=not args.no_page_load,
                         page_path=(base + "/") if base else "/room/",
                         ask_before_identity=args.ask_before_identity,
                         qna=os.path.abspath(args.qna) if args.qna else None,
                         qna_share=args.qna_share, tickets=tickets[:args.clients] or None)
        script = os.path.abspath(__file__)
        progress, records, workers_out, attackers_out = {}, [], [], []

        async def spawn(role, cfg):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, script, "--role", role, "--config", json.dumps(cfg),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                limit=1 << 24)
            children.append(proc)

            async def read():
                while line := await proc.stdout.readline():
                    message = decode(line)
                    if "progress" in message:
                        progress[(role, cfg.get("worker"))] = message["progress"]
                    elif "client" in message:
                        records.append(message["client"])
                    elif "worker" in message:
                        workers_out.append(message["worker"])
                    elif "attacker" in message:
                        attackers_out.append(message["attacker"])
                await proc.wait()
            return proc, asyncio.create_task(read())

        crowd = [await spawn("crowd", dict(crowd_cfg, worker=w)) for w in range(args.crowd_procs)]
        attackers = []
        if args.attacker:
            share = [args.attacker_sockets // args.attacker_procs] * args.attacker_procs
            share[0] += args.attacker_sockets - sum(share)
            for p in range(args.attacker_procs):
                attackers.append(await spawn("attacker", dict(
                    common, proc=p, sockets=share[p], target=target,
                    attack_start=attack_start, attack_end=attack_end,
                    pays=not args.attacker_never_pays, solver_nice=args.attacker_nice,
                    ticket=tickets[-1] if tickets else None)))
        observed = []
        observer = asyncio.create_task(watch_screen(ws_url, observed, end + 5, t0))
        print(f"crowd_bench: qna-server on port {port} ({'session ' + base[3:] if base else 'the default room'}), "
              f"{args.clients} attendees over {args.arrival:g} s"
              + (f", attacker from {args.attack_at:g} s for {args.attack_seconds:g} s with "
                 f"{args.attacker_sockets} sockets in {args.attacker_procs} processes" if args.attacker else ""),
              file=sys.stderr, flush=True)
        shown = 0.0
        while now() < end:
            await asyncio.sleep(0.5)
            if server.returncode is not None:
                raise RuntimeError(f"qna-server exited with {server.returncode} (log: {server_log})")
            rows = [v for (role, _), v in progress.items() if role == "crowd"]
            finished = sum(r["finished"] for r in rows)
            if now() - shown >= 5:
                shown = now()
                totals = {k: sum(r[k] for r in rows) for k in ("arrived", "identity", "voted", "asked")}
                print(f"  t={now() - t0:6.1f} s  arrived {totals['arrived']}  identity "
                      f"{totals['identity']}  voted {totals['voted']}  asked {totals['asked']}"
                      f"  (attacker {'running' if any(p.returncode is None for p, _ in attackers) else 'done' if attackers else 'off'})",
                      file=sys.stderr, flush=True)
            crowd_done = len(rows) == args.crowd_procs and finished >= args.clients
            attack_done = all(p.returncode is not None for p, _ in attackers)
            if now() >= t0 + args.arrival and crowd_done and attack_done:
                await asyncio.sleep(1.0)  # a last second of every socket held open
                break
        t_end = now() - t0
        for proc, _ in crowd + attackers:
            if proc.returncode is None:
                proc.terminate()
        done, pending = await asyncio.wait([r for _, r in crowd + attackers], timeout=40)
        for proc, _ in crowd + attackers:
            if proc.returncode is None:
                proc.kill()
        observer.cancel()
        export = await http(port, "GET", f"{base}/api/export?format=json", token)
        server_stats = proc_stats(server.pid)
        stopped = now()
        server.terminate()
        try:
            await asyncio.wait_for(server.wait(), 30)
        except (asyncio.TimeoutError, TimeoutError):
            server.kill()
            await server.wait()
        server_stats["sigterm_to_exit_s"] = round(now() - stopped, 2)
        server_stats["exit_code"] = server.returncode
        drainer.cancel()

        return report(args, defaults, records, workers_out, attackers_out, observed, export,
                      question, target, server_stats, t0, attack_start, attack_end, t_end)
    finally:
        for proc in children:
            if proc.returncode is None:
                proc.kill()
        if server is not None and server.returncode is None:
            server.kill()
        if args.keep:
            print(f"crowd_bench: kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def report(args, defaults, records, workers_out, attackers_out, observed, export, question,
           target, server_stats, t0, attack_start, attack_end, t_end):
    records.sort(key=lambda c: c["index"])
    crowd = {"clients": args.clients, "reported": len(records),
             "kinds": {k: sum(1 for c in records if c["kind"] == k) for k in ("page", "qna")},
             # qna --headless does not print its identity: page-like attendees only.
             "identity": latency_stats([c for c in records if c["kind"] == "page"], "t_identity"),
             "vote": latency_stats(records, "t_vote"),
             "question": latency_stats(records, "t_question"),
             # Seconds each page-like attendee's solver took to pay its identity (queued
             # behind others of its process: a phone pays alone, with its own cores).
             "paying": latency_stats([c for c in records if c.get("paying") is not None],
                                     "paying", since_arrival=False),
             "join_refusals": sum(c.get("join_refusals", 0) for c in records),
             "vote_refusals": sum(c.get("vote_refusals", 0) for c in records),
             "question_refusals": sum(c.get("question_refusals", 0) for c in records),
             "reconnects": sum(max(0, c.get("connects", 0) - 1) for c in records),
             "connect_failures": sum(c.get("connect_failures", 0) for c in records),
             "page_errors": sum(1 for c in records if c.get("page_error")),
             "final_errors": sum(1 for c in records if c.get("vote_error") or c.get("question_error")
                                 or c.get("identity_error"))}
    crowd["refusals"] = merge(w.get("refusals", {}) for w in workers_out)
    rows = {q["id"].upper(): q for q in export}
    crowd["stored_questions"] = sum(1 for q in export if q["text"].startswith("Crowd "))
    crowd["votes_on_crowd_question"] = rows.get(question.upper(), {}).get("votes")
    a0, a1 = attack_start - t0, attack_end - t0
    during = [c for c in records if a0 <= c["arrival"] < a1]
    result = {"bench": "crowd", "address": VENUE,
              "config": {"clients": args.clients, "arrival_s": args.arrival,
                         "session": args.session or args.tickets, "tickets": args.tickets,
                         "page_load": not args.no_page_load,
                         "ask_before_identity": args.ask_before_identity,
                         "qna_share": args.qna_share if args.qna else 0,
                         "crowd_procs": args.crowd_procs, "attacker": args.attacker,
                         "attack_at_s": args.attack_at, "attack_s": args.attack_seconds,
                         "attacker_sockets": args.attacker_sockets,
                         "attacker_procs": args.attacker_procs, "server_args": args.server_arg,
                         "run_s": round(t_end, 1)},
              "server_defaults": defaults, "crowd": crowd}
    if args.attacker:
        result["crowd_during_attack"] = {"arrived_during_attack": len(during),
                                         "vote": latency_stats(during, "t_vote"),
                                         "question": latency_stats(during, "t_question")}
    # The head count: what the screens were told, against the crowd's identities open then
    # (the largest count within -1.5..+1 s of the message: the server reads the count up to a
    # second before it tells it, and a client notes its identity a little after it is issued),
    # and against the attacker's own identities open then.
    def honest(t):
        return sum(1 for c in records if c.get("t_identity") is not None and c["t_identity"] <= t
                   and (c.get("t_closed") is None or c["t_closed"] >= t))

    def crowd_then(t):
        return max(honest(t - 1.5), honest(t), honest(t + 1))

    def attacker_then(t):
        total = 0
        for a in attackers_out:
            before = [n for (at, n) in a.get("open_identities", []) if at <= t]
            total += before[-1] if before else 0
        return total
    samples = observed + [tuple(s) for a in attackers_out for s in a.get("audience", [])]
    head = {"samples": len(samples)}
    if samples:
        top = max(samples, key=lambda s: s[1])
        worst = max(samples, key=lambda s: s[1] - crowd_then(s[0]))
        head.update(max_count=top[1], at_s=round(top[0], 1), crowd_identities_then=crowd_then(top[0]),
                    attacker_identities_open_then=attacker_then(top[0]),
                    max_excess=worst[1] - crowd_then(worst[0]), max_excess_at_s=round(worst[0], 1),
                    attacker_identities_open_at_max_excess=attacker_then(worst[0]))
    result["head_count"] = head
    if args.attacker:
        total = {k: sum(a.get(k, 0) for a in attackers_out) for k in (
            "identities", "join_refusals", "votes_counted", "vote_refusals", "votes_refused_final",
            "questions_stored", "question_refusals", "questions_refused_final", "sockets_opened",
            "connect_failures", "errors")}
        try:
            limit = float(defaults["rate-limit"])
            window = parse_duration(defaults["rate-window"])
            honest_questions = limit * (1 + args.attack_seconds / window)
        except (KeyError, ValueError):
            honest_questions = None
        distinct = len(set().union(*[set(a.get("attendees", [])) for a in attackers_out]))
        stuffed = rows.get(target.upper(), {}).get("votes")
        stored = sum(1 for q in export if q["text"].startswith("Flood "))
        excess = head.get("max_excess")
        result["attacker"] = dict(
            total, distinct_identities=distinct, votes_on_target_stored=stuffed, questions_stored_in_export=stored,
            max_head_count_excess=excess, cpu_s=round(sum(a.get("cpu_s", 0) for a in attackers_out), 2),
            identities_paid=sum(a.get("paid", 0) for a in attackers_out),
            paying_s=round(sum(a.get("paying_s", 0) for a in attackers_out), 2),
            solver_cpu_s=round(sum(a.get("solver_cpu_s", 0) for a in attackers_out), 2),
            reports=len(attackers_out),
            refusals=merge(a.get("refusals", {}) for a in attackers_out),
            identities_per_10s=bucket(attackers_out),
            honest_weight={"identities": 1, "votes_on_one_question": 1,
                           "questions_in_attack": honest_questions, "head_count": 1},
            multiple_of_one_attendee={
                "identities": distinct,
                "votes_on_one_question": stuffed,
                "questions": round(stored / honest_questions, 2) if honest_questions else None,
                "head_count": excess})
    result["server"] = server_stats
    result["records"] = records
    result["harness"] = {"crowd_workers": workers_out,
                         "crowd_cpu_s": round(sum(w.get("cpu_s", 0) for w in workers_out), 2)}
    return result


def merge(tallies):
    out = {}
    for tally in tallies:
        for k, v in tally.items():
            out[k] = out.get(k, 0) + v
    return out


def bucket(attackers_out):
    per = {}
    for a in attackers_out:
        for second, n in a.get("identities_per_second", {}).items():
            per[int(second) // 10 * 10] = per.get(int(second) // 10 * 10, 0) + n
    return {f"{k}-{k + 10}s": per[k] for k in sorted(per)}


def summary(r):
    c = r["crowd"]
    lines = [f"crowd_bench: {c['clients']} attendees from {r['address']} over "
             f"{r['config']['arrival_s']:g} s ({c['kinds']['page']} page-like, {c['kinds']['qna']} qna "
             f"--headless), qna-server "
             + (f"with {' '.join(r['config']['server_args'])}" if r['config']['server_args'] else "on its defaults")
             + f"; run {r['config']['run_s']:g} s",
             f"  arrival → identity:        {fmt(c['identity'])} (page-like)",
             f"  paying for it (solver):    {fmt(c['paying'])} (page-like, queued in its process)",
             f"  arrival → vote counted:    {fmt(c['vote'])}",
             f"  arrival → question stored: {fmt(c['question'])}",
             f"  refusals obeyed: {c['join_refusals']} joins, {c['vote_refusals']} votes, "
             f"{c['question_refusals']} questions; reconnects {c['reconnects']}, final errors "
             f"{c['final_errors']}, page errors {c['page_errors']}",
             f"  stored: {c['stored_questions']} crowd questions; the crowd's question has "
             f"{c['votes_on_crowd_question']} votes"]
    if "crowd_during_attack" in r:
        d = r["crowd_during_attack"]
        lines.append(f"  arrived during the attack ({d['arrived_during_attack']}): vote "
                     f"{fmt(d['vote'])}")
    if "attacker" in r:
        a, w = r["attacker"], r["attacker"]["multiple_of_one_attendee"]
        lines += [f"attacker ({r['config']['attack_s']:g} s, {r['config']['attacker_sockets']} "
                  f"sockets, {a['sockets_opened']} opened, {a['cpu_s']:g} s of CPU):",
                  f"  identities {a['distinct_identities']} distinct, on {a['identities']} sockets "
                  f"(×{w['identities']} one attendee's 1); "
                  f"{a['identities_paid']} paid for with {a['solver_cpu_s']:g} s of its solvers' CPU"
                  + (f": with two cores of its own for {r['config']['attack_s']:g} s, about "
                     f"{round(a['identities_paid'] * 2 * r['config']['attack_s'] / a['solver_cpu_s'])}"
                     if a['solver_cpu_s'] else ""),
                  f"  votes on one question {a['votes_on_target_stored']} stored "
                  f"({a['votes_counted']} answered counted; ×{w['votes_on_one_question']} one attendee's 1)",
                  f"  questions stored {a['questions_stored_in_export']} (one attendee: "
                  f"{a['honest_weight']['questions_in_attack']} in {r['config']['attack_s']:g} s; "
                  f"×{w['questions']})",
                  f"  head count: max {r['head_count'].get('max_count')} (crowd identities "
                  f"then {r['head_count'].get('crowd_identities_then')}); most above the crowd "
                  f"{a['max_head_count_excess']} (×{w['head_count']} one attendee's 1; the attacker "
                  f"held {r['head_count'].get('attacker_identities_open_at_max_excess')} identities open then)"]
    elif r["head_count"].get("samples"):
        h = r["head_count"]
        lines.append(f"  head count: max {h['max_count']} (crowd identities then "
                     f"{h['crowd_identities_then']})")
    s = r["server"]
    lines.append(f"server: {s.get('cpu_s')} s of CPU, peak RSS {s.get('peak_rss_mib')} MiB, "
                 f"SIGTERM → exit {s.get('sigterm_to_exit_s')} s (code {s.get('exit_code')}); "
                 f"crowd harness {r['harness']['crowd_cpu_s']} s of CPU, loop lag max "
                 f"{max((w.get('loop_lag_max_ms') or 0) for w in r['harness']['crowd_workers']) if r['harness']['crowd_workers'] else None} ms")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("server", nargs="?", help="the qna-server binary")
    parser.add_argument("--clients", type=int, default=2000, help="attendees (default 2000)")
    parser.add_argument("--arrival", type=float, default=120.0,
                        help="seconds over which they arrive, evenly (default 120)")
    parser.add_argument("--tail", type=float, default=60.0,
                        help="seconds the run goes on after the last arrival (or the attack's "
                             "end) for those still waiting; it ends sooner once everyone is done "
                             "(default 60)")
    parser.add_argument("--session", action="store_true",
                        help="a session made with POST /api/sessions (/s/CODE/socket) instead of "
                             "the default room (/socket)")
    parser.add_argument("--tickets", action="store_true",
                        help="the session admits by personal ticket (extension `tickets`, "
                             "implies --session): one per attendee from `qna-server session "
                             "tickets`, and one for the attacker, which it uses on every socket")
    parser.add_argument("--no-page-load", action="store_true",
                        help="attendees open the socket without loading the page first")
    parser.add_argument("--ask-before-identity", action="store_true",
                        help="ask once the room is there, not waiting for an identity (what the "
                             "page's script does with a question typed before `joined`)")
    parser.add_argument("--crowd-procs", type=int, default=2, help="crowd processes (default 2)")
    parser.add_argument("--qna", help="the qna binary: some attendees are `qna --headless`")
    parser.add_argument("--qna-share", type=float, default=0.1,
                        help="with --qna, the share of attendees that are qna (default 0.1)")
    parser.add_argument("--attacker", action="store_true", help="run the attacker alongside")
    parser.add_argument("--attack-at", type=float, default=0.0,
                        help="seconds after the first arrival the attack starts (default 0)")
    parser.add_argument("--attack-seconds", type=float, default=60.0,
                        help="how long the attack lasts (default 60)")
    parser.add_argument("--attacker-sockets", type=int, default=1000,
                        help="the attacker's sockets at once, in all (default 1000)")
    parser.add_argument("--attacker-nice", type=int, default=19,
                        help="the attacker's solver's niceness (19: it takes the CPU the server "
                             "and the crowd leave, standing in for cores of its own)")
    parser.add_argument("--attacker-never-pays", action="store_true",
                        help="the attacker sends no work (the lane of clients that cannot pay)")
    parser.add_argument("--attacker-procs", type=int, default=2,
                        help="attacker processes (default 2: both cores)")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for qna-server, e.g. "
                             "--server-arg=--new-attendee-rate-limit=5 (repeatable; the results "
                             "are then not the defaults)")
    parser.add_argument("--records", metavar="FILE",
                        help="write every attendee's times (seconds from the first arrival) to "
                             "FILE, one JSON line each")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory "
                        "(the server's log and database)")
    parser.add_argument("--role", help=argparse.SUPPRESS)
    parser.add_argument("--config", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role:
        raise_file_limit()
        cfg = json.loads(args.config)
        runner = Crowd(cfg) if args.role == "crowd" else Attacker(cfg)
        asyncio.run(runner.run())
        return
    if not args.server:
        parser.error("the qna-server binary is needed")
    if args.clients < 1 or args.arrival <= 0 or args.crowd_procs < 1 or args.attacker_procs < 1:
        parser.error("--clients, --arrival, --crowd-procs and --attacker-procs must be positive")
    result = asyncio.run(orchestrate(args))
    if args.records:
        with open(args.records, "w") as f:
            for record in result.pop("records"):
                f.write(json.dumps(record) + "\n")
    else:
        result.pop("records")
    print(summary(result))
    print(json.dumps(result, separators=(",", ":")))


if __name__ == "__main__":
    main()
