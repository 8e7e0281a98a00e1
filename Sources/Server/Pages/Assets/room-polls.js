// The session's polls as the server tells them (extension `polls`), written once for every
// page, with no DOM: whole polls from a snapshot's pages and from deltas, results that moved
// (`pollResults`, by number), polls removed, and this attendee's answers (in a per-attendee
// snapshot's `mine`, or in `roomOwn` by number). Bounded as QnA's RoomPolls bounds them.
// An answer a response settled at a room sequence number stays until a snapshot as new comes
// (`settledAt`, as QnA's RoomPolls keeps it): an older snapshot or roomOwn does not undo it.

/** Polls a page keeps, and options and results per poll, at most. */
export const POLL_LIMIT = 200;
export const OPTION_LIMIT = 80;
export const COUNT_LIMIT = 101;
export const WORD_LIMIT = 100;
/** An open text's entries kept, live and waiting each (the server sends 20 at most). */
export const TEXT_ENTRY_LIMIT = 40;
/** Places of a quiz's leaderboard kept (the server sends the best ten). */
export const LEADERBOARD_LIMIT = 20;
/** Characters of a prompt, an option or a word kept (the server's bounds are far below). */
export const POLL_TEXT_LIMIT = 600;

export class RoomPolls {
  constructor() {
    /** By id; `numbers` maps each poll's number to its id. */
    this.byId = new Map();
    this.numbers = new Map();
    /** This attendee's answers, by poll id, as the server last said. */
    this.answers = new Map();
    /** By poll id: the room's sequence number at which a response settled the answer. */
    this.settledAt = new Map();
  }

  /** The polls in the order presenters made them. */
  get ordered() { return [...this.byId.values()].sort((a, b) => a.n - b.n); }

  /**
   * Every poll of a whole snapshot (its pages' `polls` together), as of `seq`: an answer a
   * response settled past `seq` stays as the response said it.
   */
  replace(polls, seq = null) {
    const before = this.answers;
    this.byId = new Map();
    this.numbers = new Map();
    this.answers = new Map();
    this.put(polls);
    if (!whole(seq)) return;
    for (const id of this.byId.keys()) {
      if (!((this.settledAt.get(id) ?? -Infinity) > seq)) continue;
      if (before.has(id)) this.answers.set(id, before.get(id)); else this.answers.delete(id);
    }
    // A snapshot at or past a response has what it settled.
    for (const [id, at] of this.settledAt) if (at <= seq) this.settledAt.delete(id);
  }

  /** Polls that changed, whole: their results as sent (absent: not shown). */
  put(polls) {
    for (const raw of Array.isArray(polls) ? polls : []) {
      const poll = pollOf(raw);
      if (!poll || (!this.byId.has(poll.id) && this.byId.size >= POLL_LIMIT)) continue;
      const old = this.byId.get(poll.id);
      // A reset since: the answer counted is gone.
      if (old && old.round !== poll.round) this.answers.delete(poll.id);
      if (old && old.n !== poll.n) this.numbers.delete(old.n);
      if (raw.mine !== undefined) {
        const mine = valueOf(raw.mine);
        if (mine) this.answers.set(poll.id, mine);
      }
      this.byId.set(poll.id, poll);
      this.numbers.set(poll.n, poll.id);
    }
  }

  /** Results that moved, by poll number. */
  results(list) {
    for (const raw of Array.isArray(list) ? list : []) {
      const poll = raw && this.byId.get(this.numbers.get(raw.n));
      const results = resultsOf(raw);
      if (poll && results) poll.results = results;
    }
  }

  remove(ids) {
    for (const id of Array.isArray(ids) ? ids : []) {
      const poll = this.byId.get(id);
      if (!poll) continue;
      this.byId.delete(id);
      // Only when the number still names this poll: a newer poll may have it by now.
      if (this.numbers.get(poll.n) === id) this.numbers.delete(poll.n);
      this.answers.delete(id);
      this.settledAt.delete(id);
    }
  }

  /** This attendee's answers by poll number (`roomOwn`, as of `seq`), less those settled later. */
  own(list, seq = null) {
    for (const raw of Array.isArray(list) ? list : []) {
      const id = raw && this.numbers.get(raw.n);
      const value = raw && valueOf(raw.value);
      if (!id || !value) continue;
      if (whole(seq) && (this.settledAt.get(id) ?? -Infinity) > seq) continue;
      this.answers.set(id, value);
    }
  }

  /** A delta's polls, results and removals. */
  delta(m) {
    this.put(m.polls);
    this.results(m.pollResults);
    this.remove(m.removedPolls);
  }

  /** This attendee's answer, as the server confirmed it. */
  answered(id, value) {
    const answer = valueOf(value);
    if (answer) this.answers.set(id, answer); else this.answers.delete(id);
  }

  /**
   * A `pollAnswerResponse` (not one that says to retry): the answer counted now (a refusal
   * that does not say it leaves the answer as it was) and the room sequence number it is
   * settled at.
   */
  responded(m) {
    if (!m || typeof m.poll !== 'string') return;
    if (m.success || m.value) this.answered(m.poll, m.value);
    if (!whole(m.seq)) return;
    this.settledAt.delete(m.poll);
    // Bounded whatever a server answers: the oldest settled goes first.
    if (this.settledAt.size >= POLL_LIMIT) this.settledAt.delete(this.settledAt.keys().next().value);
    this.settledAt.set(m.poll, m.seq);
  }
}

const text = (t) => (typeof t === 'string' ? Array.from(t).slice(0, POLL_TEXT_LIMIT).join('') : null);
const whole = (n) => Number.isInteger(n);
const wholes = (list, limit) => (Array.isArray(list) ? list.filter(whole).slice(0, limit) : null);

// A poll as a page can show it; null for anything else a server sends in its place.
const pollOf = (p) => {
  if (!p || typeof p !== 'object' || typeof p.id !== 'string' || !whole(p.n)
    || typeof p.kind !== 'string' || typeof p.prompt !== 'string' || typeof p.state !== 'string') {
    return null;
  }
  const poll = { id: p.id, n: p.n, kind: p.kind, prompt: text(p.prompt), state: p.state, shown: p.shown === true };
  if (Array.isArray(p.options)) {
    poll.options = p.options.filter((o) => typeof o === 'string').slice(0, OPTION_LIMIT).map(text);
  }
  if (whole(p.max)) poll.max = p.max;
  if (p.scale && whole(p.scale.min) && whole(p.scale.max)) poll.scale = { min: p.scale.min, max: p.scale.max };
  if (p.quiz === true) poll.quiz = true;
  if (whole(p.round)) poll.round = p.round;
  const correct = wholes(p.correct, OPTION_LIMIT);
  if (correct) poll.correct = correct;
  if (typeof p.closesAt === 'number') poll.closesAt = p.closesAt;
  if (whole(p.timeLimit)) poll.timeLimit = p.timeLimit;
  if (p.namedBoard === true) poll.namedBoard = true;
  if (Array.isArray(p.leaderboard)) {
    poll.leaderboard = p.leaderboard.filter((e) => e && whole(e.place) && whole(e.score))
      .slice(0, LEADERBOARD_LIMIT)
      .map((e) => (typeof e.name === 'string' ? { place: e.place, name: text(e.name), score: e.score } : { place: e.place, score: e.score }));
  }
  const results = resultsOf(p.results);
  if (results) poll.results = results;
  return poll;
};

// Entries with a text and a count (a word cloud's words, an open text's answers), at most `limit`.
const entries = (list, limit) => list.filter((w) => w && typeof w.text === 'string' && whole(w.count))
  .slice(0, limit).map((w) => ({ text: text(w.text), count: Math.max(0, w.count) }));

// Results as a page can show them: the answers, the counts, the top words; an open text's
// live entries, and (presenters) those waiting and how many wait.
const resultsOf = (r) => {
  if (!r || typeof r !== 'object' || !whole(r.answers)) return null;
  const results = { answers: Math.max(0, r.answers) };
  const counts = wholes(r.counts, COUNT_LIMIT);
  if (counts) results.counts = counts.map((c) => Math.max(0, c));
  if (Array.isArray(r.words)) results.words = entries(r.words, WORD_LIMIT);
  if (Array.isArray(r.texts)) results.texts = entries(r.texts, TEXT_ENTRY_LIMIT);
  if (Array.isArray(r.review)) results.review = entries(r.review, TEXT_ENTRY_LIMIT);
  if (whole(r.held)) results.held = Math.max(0, r.held);
  return results;
};

// An answer: its choices, its rating, its words or its line of text.
export const valueOf = (v) => {
  if (!v || typeof v !== 'object') return null;
  const value = {};
  const choices = wholes(v.choices, OPTION_LIMIT);
  if (choices) value.choices = choices;
  if (whole(v.rating)) value.rating = v.rating;
  if (Array.isArray(v.words)) value.words = v.words.filter((w) => typeof w === 'string').slice(0, 3).map(text);
  if (typeof v.text === 'string') value.text = text(v.text);
  return Object.keys(value).length ? value : null;
};
