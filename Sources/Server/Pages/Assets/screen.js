// The projector view's script (ProjectorPage): joins the room as a screen (extension
// `audience`: it is not counted, and it is told how many are), and shows the highlighted
// question and the most-voted live ones as they change. Its words come translated in
// `data-messages` (ProjectorScript.messages lists them).
import { printable, uuid, applyCounts } from './common.js';

const body = document.body;
const SOCKET = body.dataset.socket || '/socket';
const UP_NEXT = Number(body.dataset.upNext) || 5;
const words = (() => { try { return JSON.parse(body.dataset.messages || '{}'); } catch { return {}; } })();
const word = (id) => words[id] || id;
const $ = (id) => document.getElementById(id);
const decoded = (data) => (typeof data === 'string' ? data : new TextDecoder().decode(data));
const questions = new Map(), numbers = new Map();
let seq = null, epoch = null, highlighted = null, pages = null, socket = null, retry = 500;
// Extension queue: the presenters' next questions, when they show them.
let nextUp = [];
const learnNextUp = (n) => { nextUp = n && n.shown && Array.isArray(n.ids) ? n.ids.slice(0, 50) : []; };
let connection = null, gapAt = null;
const me = uuid();
const stateOf = (q) => q.state || (q.answered ? 'answered' : 'live');
const learn = (q) => { questions.set(q.id, q); if (Number.isInteger(q.n)) numbers.set(q.n, q.id); };
// Extension announcements: the presenter's banner, above the question being answered.
const banner = (a) => {
  const text = a && typeof a.text === 'string' ? printable(a.text).slice(0, 280) : '';
  $('banner').textContent = text;
  $('banner').hidden = !text;
};

function render() {
  // Until the room comes, what the server wrote stays.
  if (seq === null) return;
  const now = highlighted && questions.get(highlighted);
  $('now-text').textContent = now ? printable(now.content) : word('No question is being answered.');
  // A long question in a smaller size, so that all of it stays on the screen.
  $('now-text').className = now ? (now.content.length > 120 ? 'long' : '') : 'idle';
  const queued = nextUp.map((id) => questions.get(id)).filter((q) => q && q.id !== highlighted);
  const next = (queued.length ? queued : [...questions.values()]
    .filter((q) => stateOf(q) === 'live' && !q.answered && q.id !== highlighted)
    .sort((a, b) => (b.votes - a.votes) || (a.createdAt - b.createdAt)))
    .slice(0, UP_NEXT);
  const empty = document.createElement('li');
  empty.className = 'empty';
  empty.textContent = word('No questions yet.');
  $('next').replaceChildren(...(next.length ? [] : [empty]), ...next.map((q) => {
    const li = document.createElement('li');
    const votes = document.createElement('span');
    votes.className = 'votes';
    votes.textContent = `▲ ${q.votes}`;
    votes.setAttribute('aria-label', `${word('Votes')}: ${q.votes}`);
    const text = document.createElement('span');
    text.className = 'text';
    text.textContent = printable(q.content);
    li.append(votes, text);
    if (typeof q.label === 'string' && q.label) {
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = Array.from(printable(q.label)).slice(0, 40).join('');
      text.prepend(label, ' ');
    }
    return li;
  }));
}

function connect() {
  if (socket) return;
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  socket = new WebSocket(`${scheme}${location.host}${SOCKET}`);
  const current = socket;
  // The server's frames may be binary (one shared frame for every kind of client).
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => { retry = 500; $('status').textContent = word('Live'); };
  socket.onclose = () => {
    if (current !== socket) return;
    socket = null;
    body.dataset.live = 'false';
    $('status').textContent = word('Reconnecting…');
    setTimeout(connect, retry * (0.5 + Math.random()));
    retry = Math.min(retry * 2, 10000);
  };
  socket.onmessage = (event) => {
    const m = JSON.parse(decoded(event.data));
    if (m.type === 'handshake') {
      const extensions = m.extensions || [];
      // A screen needs no identity: it never votes or asks.
      connection = m.id;
      const join = { type: 'join', id: m.id, attendee: me };
      if (seq !== null && epoch) { join.since = seq; join.epoch = epoch; }
      if (extensions.includes('counts')) join.counts = true;
      if (extensions.includes('audience')) join.screen = true;
      socket.send(JSON.stringify(join));
    } else if (m.type === 'room') {
      if (!pages || pages.seq !== m.seq) pages = { seq: m.seq, parts: m.parts || 1, got: new Map() };
      pages.got.set(m.part || 1, m.questions);
      if (pages.got.size < pages.parts) return;
      questions.clear(); numbers.clear();
      for (const page of pages.got.values()) for (const q of page) learn(q);
      seq = m.seq; epoch = m.epoch || null; highlighted = m.highlighted || null; pages = null;
      gapAt = null;
      banner(m.announcement);
      learnNextUp(m.nextUp);
      body.dataset.live = 'true';
      render();
    } else if (m.type === 'roomDelta') {
      if (seq === null || m.to <= seq) return;
      // A gap: join again from here (asked again after 5 s); nothing past it applies.
      if (m.from > seq + 1) {
        if (gapAt === null || Date.now() - gapAt > 5000) {
          gapAt = Date.now();
          socket.send(JSON.stringify({ type: 'join', id: connection, attendee: me, since: seq, epoch, counts: true, screen: true }));
        }
        return;
      }
      gapAt = null;
      for (const q of m.questions || []) learn(q);
      applyCounts(m.counts, questions, numbers);
      for (const id of m.removed || []) questions.delete(id);
      if (m.highlight) highlighted = m.highlight.id || null;
      if (m.announcement) banner(m.announcement);
      if (m.nextUp) learnNextUp(m.nextUp);
      if ((m.part || 1) === (m.parts || 1)) seq = m.to;
      render();
    } else if (m.type === 'audience') {
      $('audience').textContent = `${word('In the room:')} ${m.count}`;
      body.dataset.audience = String(m.count);
    }
  };
}
render();
connect();
