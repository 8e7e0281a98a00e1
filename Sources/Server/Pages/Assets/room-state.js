// The room as the server tells it, written once for every page (the attendee page, the
// projector and the presenter's page), with no DOM: a snapshot in pages (`room`), what is an
// attendee's own after it (`roomOwn`, extension `counts`), and the deltas from one change to
// the next (`roomDelta`: questions, compact counts, removals, the highlight, the banner, the
// queue and the labels). docs/protocol-extensions.md says what each carries;
// Tests/Fixtures/room holds conversations with the room expected after each message.

import { applyCounts } from './common.js';

/** What a server's message is cut to, as the terminal's reducer cuts it (QnA's NextUp,
 * SessionLabels and Announcement): ids of the queue, labels and their characters, and the
 * banner's characters. */
export const NEXT_UP_LIMIT = 50;
export const LABEL_LIMIT = 20;
export const LABEL_LENGTH_LIMIT = 40;
export const ANNOUNCEMENT_LENGTH_LIMIT = 280;

export class RoomState {
  /**
   * `keeps(id)`: whether a removed question stays, shown dismissed (an attendee's own);
   * `answered(question)`: told when a question known unanswered is answered by a delta.
   */
  constructor({ keeps = (_id) => false, answered = (_question) => {} } = {}) {
    this.keeps = keeps;
    this.answered = answered;
    /** By id; `numbers` maps each question's number in the room (extension `counts`) to it. */
    this.questions = new Map();
    this.numbers = new Map();
    /** The questions this attendee voted for, as the room says. */
    this.voted = new Set();
    /** The last change applied, and the room's epoch: a join resumes from them. */
    this.seq = null;
    this.epoch = null;
    this.highlighted = null;
    /** The banner (extension `announcements`): `{ text }` or null. */
    this.announcement = null;
    /** The queue (extension `queue`): its ids in order, and whether the room sees it. */
    this.nextUp = { ids: [], shown: false };
    /** The session's labels (extension `labels`). */
    this.labels = [];
    this.pages = null;
  }

  /** Whether a snapshot has come: until then there is no room to show or to resume. */
  get known() { return this.seq !== null; }

  /**
   * One page of a snapshot. The room is replaced when its last page comes: true then.
   * Pages of another `seq` start the gathering again.
   */
  snapshot(m) {
    const parts = Number.isInteger(m.parts) && m.parts > 0 ? m.parts : 1;
    if (!this.pages || this.pages.seq !== m.seq) this.pages = { seq: m.seq, parts, got: new Map() };
    this.pages.got.set(m.part || 1, Array.isArray(m.questions) ? m.questions : []);
    if (this.pages.got.size < this.pages.parts) return false;
    const before = this.questions;
    this.questions = new Map();
    this.numbers.clear();
    this.voted = new Set();
    for (const page of this.pages.got.values()) {
      for (const q of page) {
        this.learn(q, before.get(q.id));
        if (q.voted) this.voted.add(q.id);
      }
    }
    this.pages = null;
    this.seq = m.seq;
    this.epoch = m.epoch || null;
    this.highlighted = m.highlighted || null;
    this.announcement = announcementOf(m.announcement);
    this.nextUp = nextUpOf(m.nextUp);
    this.labels = labelsOf(m.labels) || [];
    return true;
  }

  /** An attendee's own questions and votes after the shared pages: true when applied. */
  own(m) {
    if (m.seq !== this.seq) return false;
    for (const q of m.questions || []) {
      this.learn({ ...q, mine: true }, this.questions.get(q.id));
    }
    for (const n of m.voted || []) {
      const id = this.numbers.get(n);
      if (id) this.voted.add(id);
    }
    return true;
  }

  /**
   * A delta: 'applied'; 'old' when it brings nothing past `seq` (or no snapshot came yet);
   * 'gap' when changes are missing before it, which the page asks for by joining again from
   * `seq` and `epoch` (nothing past a gap applies). A large delta comes in pages of one
   * from/to: the last completes it.
   */
  delta(m) {
    if (this.seq === null || m.to <= this.seq) return 'old';
    if (m.from > this.seq + 1) return 'gap';
    for (const q of m.questions || []) {
      const old = this.questions.get(q.id);
      this.learn(q, old);
      if (old && !old.answered && q.answered) this.answered(this.questions.get(q.id));
    }
    applyCounts(m.counts, this.questions, this.numbers);
    for (const id of m.removed || []) {
      const q = this.questions.get(id);
      if (q && this.keeps(id)) {
        q.state = 'dismissed';
      } else if (this.questions.delete(id)) {
        // Gone from the room: no longer answered now, nor voted for.
        this.voted.delete(id);
        if (this.highlighted === id) this.highlighted = null;
      }
    }
    if (m.highlight) this.highlighted = m.highlight.id || null;
    if (m.announcement) this.announcement = announcementOf(m.announcement);
    if (m.nextUp) this.nextUp = nextUpOf(m.nextUp);
    const labels = labelsOf(m.labels);
    if (labels) this.labels = labels;
    if ((m.part || 1) === (m.parts || 1)) this.seq = m.to;
    return 'applied';
  }

  /**
   * A question as the server restates it: what the room knew of it that the message leaves
   * out is kept (that it is this attendee's; an answer's text, sent only to the asker).
   */
  learn(q, old = this.questions.get(q.id)) {
    const copy = { ...q };
    if (old && old.mine) copy.mine = true;
    if (old && old.answer && copy.answer === undefined && copy.answered) {
      copy.answer = old.answer;
      copy.private = old.private;
    }
    this.questions.set(copy.id, copy);
    if (Number.isInteger(copy.n)) this.numbers.set(copy.n, copy.id);
    return copy;
  }

  /** What the room shows of a question: its state, from older servers' `answered` too. */
  static stateOf(q) { return q.state || (q.answered ? 'answered' : 'live'); }
}

// The first `limit` characters of a text.
const cut = (text, limit) => Array.from(text).slice(0, limit).join('');

// The banner, cut to its length; null when none (cleared: `{}`, or an empty text).
const announcementOf = (a) => {
  const text = a && typeof a.text === 'string' ? cut(a.text, ANNOUNCEMENT_LENGTH_LIMIT) : '';
  return text ? { text } : null;
};

// The queue: each id once, within its length.
const nextUpOf = (n) => ({
  ids: n && Array.isArray(n.ids)
    ? [...new Set(n.ids.filter((id) => typeof id === 'string'))].slice(0, NEXT_UP_LIMIT) : [],
  shown: !!(n && n.shown),
});

// The labels, each cut to its length, empty ones dropped, each once, within their number;
// null when the message has none (a delta that leaves them).
const labelsOf = (list) => (Array.isArray(list)
  ? [...new Set(list.filter((l) => typeof l === 'string').map((l) => cut(l, LABEL_LENGTH_LIMIT))
    .filter((l) => l))].slice(0, LABEL_LIMIT)
  : null);
