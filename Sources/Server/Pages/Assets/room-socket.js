// The room's socket, written once for every page: connecting (on this page's origin), the
// handshake, joining (again from the last change seen, after a drop or a gap), the room's
// messages given to its RoomState, and reconnecting with backoff and jitter. The page says
// how it joins and what it does with the rest. Timers, randomness and the WebSocket class
// come from `environment`, so that Tests/Web drives it without a browser.
import { isPayable, pay } from './identity-work.js';

/** The first wait before reconnecting, the longest, and how long a gap's join is awaited. */
export const FIRST_RETRY = 500;
export const LAST_RETRY = 10000;
export const GAP_PATIENCE = 5000;
/** Extensions a handshake may name, at most (ours are about twenty). */
export const EXTENSIONS_LIMIT = 64;

export class RoomSocket {
  /**
   * `url`: the socket's address; `room`: the RoomState it keeps; `join(extensions)`: the
   * page's fields of a join (attendee, credential, counts…). Told: `opened(handshake)` (the
   * page joins from there, `join()`), `changed(kind, before)` after a snapshot ('snapshot'),
   * an attendee's own part ('own') or a delta ('delta', with what the room's banner, queue,
   * labels and highlight were before it), `received(message)` for every other message, and
   * `closed()` when the socket drops (a reconnect is then on its way).
   */
  constructor({
    url, room, join, opened = (_handshake) => {}, changed = (_kind, _before) => {},
    received = (_message) => {}, closed = () => {},
    environment = {},
  }) {
    this.url = url;
    this.room = room;
    this.fields = join;
    this.opened = opened;
    this.changed = changed;
    this.received = received;
    this.closed = closed;
    this.env = {
      WebSocket: globalThis.WebSocket,
      random: Math.random,
      now: Date.now,
      setTimeout: (f, ms) => globalThis.setTimeout(f, ms),
      clearTimeout: (t) => globalThis.clearTimeout(t),
      pay,
      ...environment,
    };
    this.socket = null;
    /** The handshake's connection id and extensions, for the messages the page sends. */
    this.connection = null;
    this.extensions = [];
    this.retry = FIRST_RETRY;
    this.timer = null;
    this.stopped = false;
    this.gapAt = null;
    this.resetWork(null);
  }

  /**
   * Extension identityWork, per connection: the price of a new identity here (null: free),
   * whether this connection paid already, whether the server asked though the page has a
   * credential (it did not know it), and the messages held while the join waits for its work.
   */
  resetWork(price) {
    this.work = isPayable(price) ? { bits: price.bits, count: price.count } : null;
    this.workSent = false;
    this.workAsked = false;
    this.held = null;
  }

  has(name) { return this.extensions.includes(name); }

  get isOpen() { return !!this.socket && this.socket.readyState === 1; }

  connect() {
    this.env.clearTimeout(this.timer);
    if (this.socket || this.stopped) return;
    const socket = new this.env.WebSocket(this.url);
    this.socket = socket;
    // The server's frames may be binary (one shared frame for every kind of client).
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => { this.retry = FIRST_RETRY; };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.held = null;
      if (this.stopped) return;
      this.closed();
      // Backoff with jitter: a room dropped together does not come back as one wave.
      this.timer = this.env.setTimeout(() => this.connect(), this.retry * (0.5 + this.env.random()));
      this.retry = Math.min(this.retry * 2, LAST_RETRY);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        const text = typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data);
        message = JSON.parse(text);
      } catch { return; }
      if (!message || typeof message.type !== 'string') return;
      // A message the page cannot make sense of is passed over; the socket goes on.
      try { this.take(message); } catch (error) { console.error('qna: message passed over', error); }
    };
  }

  /** Connects now rather than after the wait (the browser is back online), waiting short next. */
  reconnectNow() {
    this.retry = FIRST_RETRY;
    this.connect();
  }

  /** No more reconnecting (the session is gone). */
  stop() {
    this.stopped = true;
    this.env.clearTimeout(this.timer);
  }

  /**
   * Sends a message while the socket is open; false when it is not. While a join pays for its
   * identity, messages after it wait, in order, so that the server knows who sends them.
   */
  send(message) {
    if (!this.isOpen) return false;
    if (this.held) { this.held.push(message); return true; }
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Where a join resumes from: the last change this page has, once it has the room. */
  resumeFrom() {
    return this.room.known && this.room.epoch ? { since: this.room.seq, epoch: this.room.epoch } : {};
  }

  /** Joins the room, from `from` (default: where this page is). */
  join(from = this.resumeFrom()) {
    const join = { type: 'join', id: this.connection, ...this.fields(this.extensions), ...from };
    // A new identity is paid for first, once per connection; a screen needs none, and a
    // ticket (extension tickets) pays for it unless a refusal named a price.
    const paidFor = join.credential || join.ticket;
    if (!this.work || this.workSent || join.screen || (paidFor && !this.workAsked) || !this.isOpen) {
      return this.send(join);
    }
    this.workSent = true;
    this.held = [];
    const socket = this.socket, connection = this.connection;
    this.env.pay(this.work, connection).then((nonces) => {
      if (socket !== this.socket || connection !== this.connection || !this.isOpen) return;
      const held = this.held || [];
      this.held = null;
      this.send(nonces ? { ...join, work: nonces } : join);
      for (const message of held) this.send(message);
    });
    return true;
  }

  take(m) {
    const { room } = this;
    switch (m.type) {
      case 'handshake':
        this.connection = m.id;
        this.extensions = Array.isArray(m.extensions)
          ? m.extensions.filter((name) => typeof name === 'string').slice(0, EXTENSIONS_LIMIT) : [];
        this.gapAt = null;
        this.resetWork(this.has('identityWork') ? m.identityWork : null);
        room.joinedSession(m.session);
        this.opened(m);
        break;
      case 'session': {
        // Extension sessionState: passed on only when it is news of this session, which the
        // room then holds (closed, reopened, renamed, deleted).
        const result = room.sessionNews(m);
        if (result === 'changed' || result === 'deleted') this.received(m);
        break;
      }
      case 'joined':
        // A refusal naming a price is paid at once, once per connection; its retryAfter is
        // for clients that cannot pay.
        if (!m.credential && isPayable(m.work) && this.has('identityWork') && !this.workSent) {
          this.work = { bits: m.work.bits, count: m.work.count };
          this.workAsked = true;
          this.join();
          return;
        }
        this.received(m);
        break;
      case 'room':
        if (!room.snapshot(m)) return;
        this.gapAt = null;
        this.changed('snapshot', null);
        break;
      case 'roomOwn':
        if (room.own(m)) this.changed('own', null);
        break;
      case 'roomDelta': {
        const before = {
          highlighted: room.highlighted, announcement: room.announcement, nextUp: room.nextUp,
          labels: room.labels,
        };
        const result = room.delta(m);
        // A gap: join again from what this page has (asked again after a while); nothing past
        // it applies until the catch-up comes.
        if (result === 'gap' && (this.gapAt === null || this.env.now() - this.gapAt > GAP_PATIENCE)) {
          this.gapAt = this.env.now();
          this.join();
        }
        if (result !== 'applied') return;
        this.gapAt = null;
        this.changed('delta', before);
        break;
      }
      default:
        this.received(m);
    }
  }
}

/** The address of a socket at `path` on this page's origin (wss:// under https://). */
export const socketURL = (path, location = globalThis.location) =>
  `${location.protocol === 'https:' ? 'wss://' : 'ws://'}${location.host}${path}`;
