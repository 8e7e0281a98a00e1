// An attendee's poll answers the server has not answered yet (extension `polls`), kept in the
// browser's storage like votes (room-outbox.js): the latest answer per poll, each with the
// token it was given, so that one sent again after a reconnect or by another tab counts once.
// Only the room's sending tab sends them (tab-sender.js); a save keeps what another tab wrote
// since, less what this one took out, and the later answer to a poll wins. The storage and
// the clock come from `environment`, so that Tests/Web drives it without a browser.
import { uuid } from './common.js';

/** Answers kept waiting, at most (a session has at most 100 polls). */
export const PENDING_LIMIT = 100;

export class PollAnswers {
  /** `load(name, fallback)` and `save(name, value)`: the room's storage ('polls'). */
  constructor({ load, save, environment = {} }) {
    this.load = load;
    this.save = save;
    this.env = { now: Date.now, token: uuid, ...environment };
    /** By poll id: {value, token, at}; `sent` on this connection, `waitUntil` when told to wait. */
    this.pending = this.read();
    /** By poll id: why the server refused the last answer (this tab's, or the sender's). */
    this.refused = new Map();
    /** By poll id: what the server said of an answer it took (an open text's held for review). */
    this.notes = new Map();
    this.takenOut = new Set();
  }

  read() {
    const value = this.load('polls', {});
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value)
      .filter(([, a]) => a && typeof a.token === 'string' && a.value && typeof a.value === 'object'));
  }

  /** An answer given: it replaces any waiting for that poll. */
  answer(poll, value) {
    this.pending[poll] = { value, token: this.env.token(), at: this.env.now() };
    this.refused.delete(poll);
    this.notes.delete(poll);
    const polls = Object.keys(this.pending);
    if (polls.length > PENDING_LIMIT) {
      polls.sort((a, b) => this.pending[a].at - this.pending[b].at);
      for (const old of polls.slice(0, polls.length - PENDING_LIMIT)) this.drop(old);
    }
    this.store();
  }

  /** The answer waiting for `poll`, or null. */
  waiting(poll) { return this.pending[poll] || null; }

  /**
   * The answers to send now (each marked sent) and how long until the next one told to wait
   * may go (null: none waits).
   */
  due() {
    const now = this.env.now(), due = [];
    let wait = null;
    for (const [poll, a] of Object.entries(this.pending)) {
      if (a.sent) continue;
      if (a.waitUntil > now) { wait = Math.min(wait ?? Infinity, a.waitUntil - now); continue; }
      a.sent = true;
      due.push({ poll, token: a.token, value: a.value });
    }
    return { due, wait };
  }

  /**
   * The server's `pollAnswerResponse`: 'retry' (sent again after `retryMs`), 'done' (counted,
   * or refused for good: `refused` says why) or null (not the waiting answer's).
   */
  answered(m, retryMs = null) {
    const a = this.pending[m.poll];
    if (!a || a.token !== m.token) return null;
    if (!m.success && retryMs !== null) {
      a.sent = false;
      a.waitUntil = this.env.now() + retryMs;
      return 'retry';
    }
    this.heard(m);
    this.drop(m.poll);
    this.store();
    return 'done';
  }

  /**
   * What became of an answer, as the sending tab heard it: a refusal's reason is kept to show
   * (unless a later answer to the poll waits here), and so is what the server said of one it
   * took (an open text's answer waits for the presenters' review).
   */
  heard(m) {
    const a = this.pending[m.poll];
    if (a && a.token !== m.token) return;
    const message = typeof m.message === 'string' ? m.message : '';
    if (m.success) this.refused.delete(m.poll);
    else this.refused.set(m.poll, message);
    this.notes.delete(m.poll);
    if (!m.success || !message) return;
    // Bounded whatever a server says: the oldest note goes first.
    if (this.notes.size >= PENDING_LIMIT) this.notes.delete(this.notes.keys().next().value);
    this.notes.set(m.poll, message);
  }

  drop(poll) {
    if (this.pending[poll]) this.takenOut.add(this.pending[poll].token);
    delete this.pending[poll];
  }

  /** Nothing is on the wire any more (a new connection): every answer goes again. */
  unsent() {
    for (const a of Object.values(this.pending)) a.sent = false;
  }

  /**
   * The storage changed (another tab, or this tab takes over sending): taken as it is now,
   * each answer with what this tab knows of it (sent, told to wait).
   */
  changed() {
    const before = this.pending;
    this.pending = this.read();
    for (const [poll, a] of Object.entries(this.pending)) {
      const old = before[poll];
      if (old && old.token === a.token) Object.assign(a, { sent: old.sent, waitUntil: old.waitUntil });
      else { this.refused.delete(poll); this.notes.delete(poll); }
    }
  }

  /** Saved with what other tabs wrote since: the later answer to each poll wins. */
  store() {
    for (const [poll, kept] of Object.entries(this.read())) {
      if (this.takenOut.has(kept.token)) continue;
      const here = this.pending[poll];
      if (!here || (here.token !== kept.token && (kept.at || 0) > (here.at || 0))) this.pending[poll] = kept;
    }
    this.save('polls', Object.fromEntries(Object.entries(this.pending)
      .map(([poll, { value, token, at }]) => [poll, { value, token, at }])));
  }
}
