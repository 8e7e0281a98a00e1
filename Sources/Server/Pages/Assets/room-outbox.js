// What an attendee typed and the server has not answered yet, kept in the browser's storage
// across reloads, restarts and the room's other tabs: questions in typed order (each with the
// token it was typed with, so a resend is stored once), the latest vote intent per question,
// and the attendee's confirmed questions ("yours", and what a resume asks about). Every tab of
// a room shares the storage, and another tab may have written since this one read: a save
// keeps what is there, less what this tab took out (answered, discarded), so no tab's write
// erases another's. The storage and the clock come from `environment`, so that Tests/Web
// drives it without a browser.
import { uuid } from './common.js';

/** Confirmed questions kept, at most: the oldest leave first (their answers came long ago). */
export const KEEP_LIMIT = 500;

export class RoomOutbox {
  /**
   * `load(name, fallback)` and `save(name, value)`: the room's storage, by name ('outbox',
   * 'votes', 'kept').
   */
  constructor({ load, save, environment = {} }) {
    this.load = load;
    this.save = save;
    this.env = { now: Date.now, token: uuid, ...environment };
    /** Questions typed and not yet confirmed, in typed order: {token, content, label?, failed?}. */
    this.questions = this.read('outbox', []);
    /** Votes not yet answered, by question: {up, token, shown, at}; `sent` on this connection. */
    this.votes = this.read('votes', {});
    /** Confirmed questions, newest last: {id, token, content}. */
    this.kept = this.read('kept', []);
    this.mine = new Set(this.kept.map((q) => q.id));
    /** Tokens this tab took out: another tab's copy of them is not written back. */
    this.takenOut = new Set();
  }

  read(name, fallback) {
    const value = this.load(name, fallback);
    if (Array.isArray(fallback)) return Array.isArray(value) ? value.filter((q) => q && typeof q.token === 'string') : fallback;
    return value && typeof value === 'object' && !Array.isArray(value) ? value : fallback;
  }

  /** A question typed: it waits last. */
  ask(content, label) {
    this.questions.push({ token: this.env.token(), content, label: label || undefined });
    this.saveQuestions();
  }

  /** The question to send next: the oldest that has not failed for good (null: none). */
  next() {
    return this.questions.find((q) => !q.failed) || null;
  }

  /**
   * The server's answer to the question with `token`: stored (then it is the attendee's,
   * under `m.id`), to be sent again after `retryMs`, or refused for good with `reason`.
   */
  answered(token, m, { retryMs = null, reason = '' } = {}) {
    const index = this.questions.findIndex((q) => q.token === token);
    if (m.success && m.id) {
      const typed = index >= 0 ? this.questions[index] : null;
      if (typed) {
        this.questions.splice(index, 1);
        this.takenOut.add(typed.token);
        this.remember(m.id, typed.token, typed.content);
      }
    } else if (index >= 0) {
      if (retryMs !== null) this.questions[index].waitUntil = this.env.now() + retryMs;
      else this.questions[index].failed = reason;
    }
    this.saveQuestions();
  }

  /** A failed question sent again (`again`) or given up (`discard`). */
  retry(token) {
    const q = this.questions.find((q) => q.token === token);
    if (!q) return;
    delete q.failed;
    this.saveQuestions();
  }

  discard(token) {
    const index = this.questions.findIndex((q) => q.token === token);
    if (index < 0) return;
    this.takenOut.add(this.questions[index].token);
    this.questions.splice(index, 1);
    this.saveQuestions();
  }

  /** A confirmed question of this attendee's. */
  remember(id, token, content) {
    if (this.mine.has(id)) return;
    this.mine.add(id);
    this.kept.push({ id, token, content });
    if (this.kept.length > KEEP_LIMIT) this.kept = this.kept.slice(-KEEP_LIMIT);
    this.save('kept', this.kept);
  }

  /** The ids a resume asks about: confirmed and not answered, the newest first. */
  open(isAnswered) {
    return this.kept.filter((q) => !isAnswered(q.id)).map((q) => q.id).reverse();
  }

  /**
   * Questions the server no longer has (a restored database): asked again, first, under the
   * tokens they were typed with, so that the server stores each once. How many.
   */
  restore(missingIds) {
    const missing = new Set(missingIds);
    const lost = this.kept.filter((q) => missing.has(q.id));
    if (!lost.length) return 0;
    this.kept = this.kept.filter((q) => !missing.has(q.id));
    for (const q of lost) this.mine.delete(q.id);
    this.questions = [...lost.map(({ token, content }) => ({ token, content })), ...this.questions];
    this.save('kept', this.kept);
    this.saveQuestions();
    return lost.length;
  }

  /** A vote typed: its intent replaces any before it; `shown` is the count the click made. */
  vote(id, up, count) {
    const base = this.votes[id] && Number.isInteger(this.votes[id].shown) ? this.votes[id].shown : count;
    this.votes[id] = { up, token: this.env.token(), shown: Math.max(0, base + (up ? 1 : -1)), at: this.env.now() };
    this.saveVotes();
  }

  /** The intent a click made, or null: what the page shows until the server answers. */
  intent(id) { return this.votes[id] || null; }

  /**
   * The server's answer to a vote: 'retry' (sent again after `retryMs`), 'done' (its intent
   * is gone, counted or refused for good) or null (not this intent's answer).
   */
  voteAnswered(m, retryMs = null) {
    const intent = this.votes[m.question];
    if (!intent || intent.token !== m.token) return null;
    if (!m.success && retryMs !== null) {
      intent.sent = false;
      intent.waitUntil = this.env.now() + retryMs;
      this.saveVotes();
      return 'retry';
    }
    this.takenOut.add(intent.token);
    delete this.votes[m.question];
    this.saveVotes();
    return 'done';
  }

  /** Nothing is on the wire any more (a new connection): every vote goes again. */
  unsent() {
    for (const intent of Object.values(this.votes)) intent.sent = false;
  }

  /** This tab sends from now on: what waits, as the other tabs left it. */
  takeOver() {
    this.questions = this.read('outbox', []);
    this.votes = this.read('votes', {});
  }

  /**
   * Another tab wrote `name`: take it as it is now, each question and vote with what this
   * tab knows of it (told to wait, sent on this connection), so that it is not sent again
   * early. Whether anything here changed.
   */
  changed(name) {
    if (name === 'outbox') {
      const before = new Map(this.questions.map((q) => [q.token, q]));
      this.questions = this.read('outbox', []);
      for (const q of this.questions) if (before.has(q.token)) q.waitUntil = before.get(q.token).waitUntil;
      return true;
    }
    if (name === 'votes') {
      const before = this.votes;
      this.votes = this.read('votes', {});
      for (const [id, intent] of Object.entries(this.votes)) {
        const old = before[id];
        if (old && old.token === intent.token) Object.assign(intent, { sent: old.sent, waitUntil: old.waitUntil });
      }
      return true;
    }
    if (name === 'kept') {
      // The sender's questions are this tab's too.
      this.kept = this.read('kept', []);
      for (const q of this.kept) this.mine.add(q.id);
      return true;
    }
    return false;
  }

  saveQuestions() {
    const here = new Set(this.questions.map((q) => q.token));
    for (const q of this.read('outbox', [])) {
      if (!here.has(q.token) && !this.takenOut.has(q.token)) this.questions.push(q);
    }
    this.save('outbox', this.questions.map(({ token, content, label, failed }) => ({ token, content, label, failed })));
  }

  /** A vote's latest intent wins, whichever tab made it (`at`, when it was made). */
  saveVotes() {
    for (const [id, kept] of Object.entries(this.read('votes', {}))) {
      if (!kept || !kept.token || this.takenOut.has(kept.token)) continue;
      const here = this.votes[id];
      if (!here || (here.token !== kept.token && (kept.at || 0) > (here.at || 0))) this.votes[id] = kept;
    }
    this.save('votes', Object.fromEntries(Object.entries(this.votes)
      .map(([id, { up, token, shown, at }]) => [id, { up, token, shown, at }])));
  }
}
