// The room as the server tells it, written once for every page (the attendee page, the
// projector and the presenter's page), with no DOM: a snapshot in pages (`room`), what is an
// attendee's own after it (`roomOwn`, extension `counts`), and the deltas from one change to
// the next (`roomDelta`: questions, compact counts, removals, the highlight, the banner, the
// queue and the labels). docs/protocol-extensions.md says what each carries;
// Tests/Fixtures/room holds conversations with the room expected after each message.

import { applyCounts } from './common.js';
import { RoomPolls } from './room-polls.js';

/** What a server's message is cut to, as the terminal's reducer cuts it (QnA's NextUp,
 * SessionLabels and Announcement): ids of the queue, labels and their characters, and the
 * banner's characters. */
export const NEXT_UP_LIMIT = 50;
export const LABEL_LIMIT = 20;
export const LABEL_LENGTH_LIMIT = 40;
export const ANNOUNCEMENT_LENGTH_LIMIT = 280;
/** Pages of one snapshot, at most (as the terminal takes). */
export const PARTS_LIMIT = 10000;
/** A session's code and title as kept, at most (characters as people see them). */
export const SESSION_CODE_LIMIT = 16;
export const SESSION_TITLE_LIMIT = 200;

export class RoomState {
  /**
   * `keeps(id)`: whether a removed question stays, shown dismissed (an attendee's own);
   * `answered(question)`: told when a question known unanswered is answered by a delta.
   */
  /**
   * @param {{ keeps?: (id: string) => boolean, answered?: (question: any) => void }} options
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
    /** The session the handshake named (extension `sessions`): `{ code, title, open }` or null. */
    this.session = null;
    /** The presenter deleted it (extension `sessionState`). */
    this.deleted = false;
    /** The session's polls and this attendee's answers (extension `polls`). */
    this.polls = new RoomPolls();
  }

  /** The session a handshake names (absent: the default room, which has none). */
  joinedSession(info) {
    this.session = sessionOf(info);
    this.deleted = false;
  }

  /**
   * News of the session (extension `sessionState`): 'changed' (closed, reopened, renamed),
   * 'deleted', 'same', or 'ignored' (news of another session, or no session here).
   */
  sessionNews(m) {
    const news = sessionOf(m && m.session);
    if (!this.session || !news || news.code !== this.session.code) return 'ignored';
    const deleted = m.deleted === true;
    const same = news.title === this.session.title && news.open === this.session.open;
    if (same && !deleted) return 'same';
    this.session = news;
    if (deleted) this.deleted = true;
    return deleted ? 'deleted' : 'changed';
  }

  /** The queue as attendees see it: its ids while the presenters show it, else none. */
  get shownNextUp() { return this.nextUp.shown ? this.nextUp.ids : []; }

  /** Whether a snapshot has come: until then there is no room to show or to resume. */
  get known() { return this.seq !== null; }

  /**
   * One page of a snapshot. The room is replaced when its last page comes: true then.
   * Pages of another `seq` (or count) start the gathering again; a page out of its bounds is
   * passed over, as the terminal's reducer does.
   */
  snapshot(m) {
    const part = m.part ?? 1, parts = m.parts ?? 1;
    if (!Number.isInteger(m.seq) || !Number.isInteger(parts) || !Number.isInteger(part)
      || part < 1 || part > parts || parts > PARTS_LIMIT) return false;
    if (!this.pages || this.pages.seq !== m.seq || this.pages.parts !== parts) {
      this.pages = { seq: m.seq, parts, got: new Map(), polls: new Map() };
    }
    this.pages.got.set(part, questionsOf(m.questions));
    if (Array.isArray(m.polls)) this.pages.polls.set(part, m.polls);
    if (this.pages.got.size < parts) return false;
    // Made apart and put in place at once: nothing in a page can leave half a room.
    const before = this.questions;
    const pagesOfPolls = this.pages.polls;
    this.polls.replace([...pagesOfPolls.keys()].sort((a, b) => a - b).flatMap((k) => pagesOfPolls.get(k)), m.seq);
    const questions = new Map(), numbers = new Map(), voted = new Set();
    for (const index of [...this.pages.got.keys()].sort((a, b) => a - b)) {
      for (const q of this.pages.got.get(index)) {
        const copy = merged(q, before.get(q.id));
        questions.set(copy.id, copy);
        if (Number.isInteger(copy.n)) numbers.set(copy.n, copy.id);
        if (q.voted === true) voted.add(copy.id);
      }
    }
    Object.assign(this, { questions, numbers, voted, pages: null, seq: m.seq });
    this.epoch = typeof m.epoch === 'string' ? m.epoch : null;
    this.highlighted = typeof m.highlighted === 'string' ? m.highlighted : null;
    this.announcement = announcementOf(m.announcement);
    this.nextUp = nextUpOf(m.nextUp);
    this.labels = labelsOf(m.labels) || [];
    return true;
  }

  /** An attendee's own questions and votes after the shared pages: true when applied. */
  own(m) {
    if (!this.known || m.seq !== this.seq) return false;
    for (const q of questionsOf(m.questions)) this.learn({ ...q, mine: true });
    for (const n of Array.isArray(m.voted) ? m.voted : []) {
      const id = this.numbers.get(n);
      if (id) this.voted.add(id);
    }
    this.polls.own(m.polls, m.seq);
    return true;
  }

  /**
   * A delta: 'applied'; 'old' when it brings nothing past `seq` (or no snapshot came yet, or
   * it names no changes); 'gap' when changes are missing before it, which the page asks for
   * by joining again from `seq` and `epoch` (nothing past a gap applies). A large delta comes
   * in pages of one from/to: the last completes it.
   */
  delta(m) {
    if (!this.known || !Number.isInteger(m.from) || !Number.isInteger(m.to) || m.to <= this.seq) {
      return 'old';
    }
    if (m.from > this.seq + 1) return 'gap';
    for (const q of questionsOf(m.questions)) {
      const old = this.questions.get(q.id);
      const now = this.learn(q, old);
      if (old && !old.answered && now.answered) this.answered(now);
    }
    applyCounts(m.counts, this.questions, this.numbers);
    for (const id of Array.isArray(m.removed) ? m.removed : []) {
      const q = this.questions.get(id);
      if (!q) continue;
      if (this.keeps(id)) {
        q.state = 'dismissed';
        continue;
      }
      // Gone from the room: no longer answered now, nor voted for, nor numbered.
      this.questions.delete(id);
      this.voted.delete(id);
      if (this.highlighted === id) this.highlighted = null;
      if (Number.isInteger(q.n) && this.numbers.get(q.n) === id) this.numbers.delete(q.n);
    }
    if (m.highlight && typeof m.highlight === 'object') {
      this.highlighted = typeof m.highlight.id === 'string' ? m.highlight.id : null;
    }
    if (m.announcement) this.announcement = announcementOf(m.announcement);
    if (m.nextUp) this.nextUp = nextUpOf(m.nextUp);
    const labels = labelsOf(m.labels);
    if (labels) this.labels = labels;
    this.polls.delta(m);
    if ((m.part ?? 1) === (m.parts ?? 1)) this.seq = m.to;
    return 'applied';
  }

  /**
   * A question as the server restates it, kept in the room: what the room knew of it that the
   * message leaves out is kept (that it is this attendee's; an answer's text, sent only to the
   * asker). Returns the room's copy.
   */
  learn(q, old = this.questions.get(q.id)) {
    const copy = merged(q, old);
    this.questions.set(copy.id, copy);
    if (Number.isInteger(copy.n)) this.numbers.set(copy.n, copy.id);
    return copy;
  }

  /** What the room shows of a question: its state, from older servers' `answered` too. */
  static stateOf(q) { return q.state || (q.answered ? 'answered' : 'live'); }
}

// A question as a page can show it: an object with an id and a text; anything else a server
// sends in its place is passed over.
const isQuestion = (q) => !!q && typeof q === 'object' && typeof q.id === 'string'
  && typeof q.content === 'string';
const questionsOf = (list) => (Array.isArray(list) ? list.filter(isQuestion) : []);

// `q` as restated, with what `old` knew that it leaves out.
const merged = (q, old) => {
  const copy = { ...q };
  if (old && old.mine) copy.mine = true;
  if (old && old.answer && copy.answer === undefined && copy.answered) {
    copy.answer = old.answer;
    copy.private = old.private;
  }
  return copy;
};

// Characters as people see them (grapheme clusters, as Swift counts them), where the browser
// can tell; code points where it cannot.
const segmenter = typeof Intl === 'object' && Intl.Segmenter ? new Intl.Segmenter() : null;
const characters = (text) => (segmenter
  ? Array.from(segmenter.segment(text), (piece) => piece.segment) : Array.from(text));

// The first `limit` characters of a text.
const cut = (text, limit) => characters(text).slice(0, limit).join('');

// A session as the server names it, bounded (its code upper case, as the server writes it);
// null when it is none.
const sessionOf = (s) => (s && typeof s.code === 'string' && typeof s.title === 'string'
  && typeof s.open === 'boolean'
  ? { code: cut(s.code.toUpperCase(), SESSION_CODE_LIMIT), title: cut(s.title, SESSION_TITLE_LIMIT), open: s.open }
  : null);

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
