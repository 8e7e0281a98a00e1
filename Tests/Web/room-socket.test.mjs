// The pages' socket (room-socket.js) with a fake WebSocket, clock and randomness: joining
// after the handshake and again from the last change, a gap's join and its patience, the
// backoff with jitter, and what a hostile or broken server sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIRST_RETRY, GAP_PATIENCE, LAST_RETRY, RoomSocket, socketURL } from '../../Sources/Server/Pages/Assets/room-socket.js';
import { RoomState } from '../../Sources/Server/Pages/Assets/room-state.js';

class FakeSocket {
  static made = [];
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; FakeSocket.made.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  open() { this.readyState = 1; this.onopen?.(); }
  drop() { this.readyState = 3; this.onclose?.(); }
  hear(message) {
    const data = typeof message === 'string' || message instanceof ArrayBuffer ? message : JSON.stringify(message);
    this.onmessage?.({ data });
  }
}

const environment = () => {
  const timers = [];
  const env = {
    WebSocket: FakeSocket,
    random: () => env.nextRandom,
    nextRandom: 0.5,
    clock: 1000,
    now: () => env.clock,
    setTimeout: (f, ms) => { timers.push({ f, ms }); return timers.length; },
    clearTimeout: (id) => { if (id) timers[id - 1].f = null; },
    timers,
  };
  return env;
};

const start = () => {
  FakeSocket.made = [];
  const env = environment();
  const room = new RoomState();
  const told = [];
  const client = new RoomSocket({
    url: 'ws://hall/socket', room, environment: env,
    join: (extensions) => ({ attendee: 'ME', ...(extensions.includes('counts') ? { counts: true } : {}) }),
    opened: () => { told.push('opened'); client.join(); },
    changed: (kind) => told.push(kind),
    received: (m) => told.push(m.type),
    closed: () => told.push('closed'),
  });
  client.connect();
  const socket = FakeSocket.made.at(-1);
  socket.open();
  return { env, room, told, client, socket };
};

const snapshot = (seq) => ({ type: 'room', seq, part: 1, parts: 1, epoch: 'E', questions: [] });

test('the handshake is answered with a join, from the last change once the room is known', () => {
  const { client, socket, told, env } = start();
  assert.equal(socket.url, 'ws://hall/socket');
  assert.equal(socket.binaryType, 'arraybuffer');
  socket.hear({ type: 'handshake', id: 'C1', extensions: ['room', 'counts'] });
  assert.deepEqual(socket.sent, [{ type: 'join', id: 'C1', attendee: 'ME', counts: true }]);
  socket.hear(snapshot(7));
  socket.hear({ type: 'questionAnswer', questionId: 'Q' });
  assert.deepEqual(told, ['opened', 'snapshot', 'questionAnswer']);
  // Dropped: told, and a reconnect after the first wait, with jitter.
  socket.drop();
  assert.deepEqual(told.at(-1), 'closed');
  assert.equal(env.timers.at(-1).ms, FIRST_RETRY * (0.5 + 0.5));
  env.timers.at(-1).f();
  const again = FakeSocket.made.at(-1);
  assert.notEqual(again, socket);
  again.open();
  again.hear({ type: 'handshake', id: 'C2', extensions: ['room'] });
  assert.deepEqual(again.sent, [{ type: 'join', id: 'C2', attendee: 'ME', since: 7, epoch: 'E' }]);
  assert.equal(client.connection, 'C2');
  assert.ok(client.has('room') && !client.has('counts'));
});

test('reconnects back off with jitter up to a limit, and start short again once open', () => {
  const { env, socket } = start();
  let current = socket;
  const waits = [];
  for (let i = 0; i < 8; i += 1) {
    env.nextRandom = i % 2 ? 0 : 0.999;
    current.drop();
    waits.push(env.timers.at(-1).ms);
    env.timers.at(-1).f();
    current = FakeSocket.made.at(-1);
  }
  assert.deepEqual(waits.map((w, i) => Math.round(w / (0.5 + (i % 2 ? 0 : 0.999)))),
    [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  assert.ok(waits.every((w) => w <= LAST_RETRY * 1.5));
  current.open();
  env.nextRandom = 0.5;
  current.drop();
  assert.equal(env.timers.at(-1).ms, FIRST_RETRY);
});

test('a gap joins again from the last change, once a while, and the catch-up applies', () => {
  const { env, socket, room, told } = start();
  socket.hear({ type: 'handshake', id: 'C1', extensions: ['room'] });
  socket.hear(snapshot(10));
  socket.sent.length = 0;
  socket.hear({ type: 'roomDelta', from: 12, to: 12, questions: [{ id: 'B', content: 'b', votes: 0 }] });
  socket.hear({ type: 'roomDelta', from: 13, to: 13, questions: [] });
  assert.deepEqual(socket.sent, [{ type: 'join', id: 'C1', attendee: 'ME', since: 10, epoch: 'E' }]);
  env.clock += GAP_PATIENCE + 1;
  socket.hear({ type: 'roomDelta', from: 14, to: 14, questions: [] });
  assert.equal(socket.sent.length, 2, 'asked again after its patience');
  socket.hear({ type: 'roomDelta', from: 11, to: 14, questions: [{ id: 'B', content: 'b', votes: 1 }] });
  assert.equal(room.seq, 14);
  assert.equal(room.questions.get('B').votes, 1);
  assert.deepEqual(told.filter((t) => t === 'delta'), ['delta']);
});

test('what is not JSON, or not an object, is passed over; a stopped socket stays down', () => {
  const { socket, told, client, env } = start();
  socket.hear('{"type":');
  socket.hear('42');
  socket.hear('{"no":"type"}');
  socket.hear(new TextEncoder().encode(JSON.stringify({ type: 'audience', count: 3 })).buffer);
  assert.deepEqual(told, ['audience']);
  client.stop();
  const timers = env.timers.length;
  socket.drop();
  assert.equal(env.timers.length, timers);
  assert.deepEqual(told, ['audience']);
  client.connect();
  assert.equal(FakeSocket.made.at(-1), socket);
});

test('nothing is sent while the socket is not open; a dropped socket says nothing after', () => {
  FakeSocket.made = [];
  const client = new RoomSocket({ url: 'ws://x/socket', room: new RoomState(), join: () => ({}), environment: environment() });
  assert.equal(client.send({ type: 'vote' }), false);
  client.connect();
  const socket = FakeSocket.made[0];
  assert.equal(client.send({ type: 'vote' }), false);
  socket.open();
  assert.equal(client.send({ type: 'vote' }), true);
  socket.drop();
  socket.hear({ type: 'handshake', id: 'late' });
  assert.equal(client.connection, null);
});

test('the socket is on the page’s origin, secure under https', () => {
  assert.equal(socketURL('/s/ABC/socket', { protocol: 'https:', host: 'q.example.org' }), 'wss://q.example.org/s/ABC/socket');
  assert.equal(socketURL('/socket', { protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/socket');
});

/** A start whose payments wait until the test settles them, with the page's credential given. */
const startPaying = (credential) => {
  FakeSocket.made = [];
  const env = environment();
  const payments = [];
  env.pay = (price, connection) => new Promise((resolve) => payments.push({ price, connection, resolve }));
  const told = [];
  const client = new RoomSocket({
    url: 'ws://hall/socket', room: new RoomState(), environment: env,
    join: () => ({ attendee: 'ME', ...(credential ? { credential } : {}) }),
    opened: () => { client.join(); client.send({ type: 'newQuestion', id: client.connection, content: 'Q' }); },
    received: (m) => told.push(m),
  });
  client.connect();
  const socket = FakeSocket.made.at(-1);
  socket.open();
  return { client, socket, payments, told };
};
const paid = { type: 'handshake', id: 'C1', extensions: ['room', 'identityWork'], identityWork: { bits: 15, count: 16 } };
const settle = async (payment, nonces) => { payment.resolve(nonces); await Promise.resolve(); };

test('a new identity is paid for before the join, and what the page sends meanwhile follows it', async () => {
  const { socket, payments } = startPaying(null);
  socket.hear(paid);
  assert.deepEqual(socket.sent, [], 'nothing before the join is paid');
  assert.deepEqual(payments.map(({ price, connection }) => ({ price, connection })),
    [{ price: { bits: 15, count: 16 }, connection: 'C1' }]);
  await settle(payments[0], [1, 2]);
  assert.deepEqual(socket.sent.map((m) => m.type), ['join', 'newQuestion']);
  assert.deepEqual(socket.sent[0].work, [1, 2]);
});

test('a page with a credential pays nothing, unless the server asks; a server that does not announce it is not paid', async () => {
  const known = startPaying('CRED');
  known.socket.hear(paid);
  assert.deepEqual(known.socket.sent.map((m) => m.type), ['join', 'newQuestion']);
  assert.equal(known.socket.sent[0].work, undefined);
  // The credential was unknown there: the refusal's price is paid once, at once.
  known.socket.hear({ type: 'joined', id: 'C1', message: 'no', retryAfter: 3, work: { bits: 15, count: 16 } });
  assert.equal(known.payments.length, 1);
  await settle(known.payments[0], [7]);
  assert.deepEqual(known.socket.sent.at(-1).work, [7]);
  assert.deepEqual(known.told, [], 'the paid refusal is not the page\'s');
  // Refused again: not paid twice on one connection; the page hears it.
  known.socket.hear({ type: 'joined', id: 'C1', message: 'no', work: { bits: 15, count: 16 } });
  assert.equal(known.payments.length, 1);
  assert.equal(known.told.length, 1);

  const old = startPaying(null);
  old.socket.hear({ ...paid, extensions: ['room'] });
  assert.deepEqual(old.socket.sent.map((m) => m.type), ['join', 'newQuestion']);
  assert.equal(old.payments.length, 0);
});

test('a hostile price is not paid, and a payment for a dropped connection sends nothing', async () => {
  const hostile = startPaying(null);
  hostile.socket.hear({ ...paid, identityWork: { bits: 40, count: 16 } });
  assert.equal(hostile.payments.length, 0);
  assert.equal(hostile.socket.sent[0].work, undefined);

  const dropped = startPaying(null);
  dropped.socket.hear(paid);
  dropped.socket.drop();
  await settle(dropped.payments[0], [1]);
  assert.deepEqual(dropped.socket.sent, []);
});

test('news of this session is passed on once the room holds it; another session\'s, or none new, is not', () => {
  const { socket, room, told } = start();
  socket.hear({ type: 'handshake', id: 'C1', extensions: ['room', 'sessions', 'sessionState'], session: { code: 'K7QX2M', title: 'Talk', open: true } });
  assert.deepEqual(room.session, { code: 'K7QX2M', title: 'Talk', open: true });
  socket.hear({ type: 'session', session: { code: 'OTHER1', title: 'Else', open: false } });
  socket.hear({ type: 'session', session: { code: 'K7QX2M', title: 'Talk', open: true } });
  assert.deepEqual(told, ['opened']);
  socket.hear({ type: 'session', session: { code: 'K7QX2M', title: 'Talk', open: false } });
  assert.deepEqual(told, ['opened', 'session']);
  assert.equal(room.session.open, false);
  socket.hear({ type: 'session', session: { code: 'K7QX2M', title: 'Talk', open: false }, deleted: true });
  assert.deepEqual(told, ['opened', 'session', 'session']);
  assert.ok(room.deleted);
});
