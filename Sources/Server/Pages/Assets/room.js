// The attendee page's script (AttendeePage): the room over the room's socket as `qna` speaks
// it (tokens, resume, the compact room, votes, identity). What is typed offline — questions
// and votes — waits in the browser's storage and goes once, in order, when the socket is
// back. Content goes in as text, never as markup. In order: its state and what it sends; what
// it receives (the handshake, identity, snapshots and deltas, responses, resumes); which of a
// room's tabs sends what waits; what it shows, and what clicks and keys do. Its words come
// translated in `data-messages` (AttendeeScript.messages lists them).
import { printable, uuid } from './common.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomState } from './room-state.js';

const body = document.body;
const SOCKET = body.dataset.socket || '/socket';
const words = (() => { try { return JSON.parse(body.dataset.messages || '{}'); } catch { return {}; } })();
const word = (id) => words[id] || id;
const $ = (id) => document.getElementById(id);
const since2001 = 978307200;
// Kept per room, across reloads and restarts of the browser.
const key = (name) => `qna:${SOCKET}:${name}`;
const load = (name, fallback) => {
  try { const v = localStorage.getItem(key(name)); return v ? JSON.parse(v) : fallback; } catch { return fallback; }
};
const save = (name, value) => { try { localStorage.setItem(key(name), JSON.stringify(value)); } catch {} };
// A question the page's form stored (scripts off) has an attendee of its own, named by
// the form's cookie: a browser with no attendee in this room yet joins as that one (the
// server issues it the credential no join has proved), so the question is its own.
const asker = (document.cookie.match(/(?:^|;\s*)qna-asker=([0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12})(?:;|$)/i) || [])[1];
const secure = location.protocol === 'https:' ? '; Secure' : '';
if (asker) document.cookie = `qna-asker=; Max-Age=0; Path=${body.dataset.base || '/room/'}; SameSite=Strict${secure}`;
let attendee = load('attendee', null) || (asker && asker.toUpperCase()) || uuid();
let credential = load('credential', null);
save('attendee', attendee);
// Questions typed and not yet confirmed, in typed order: {token, content, label?, failed?}.
let outbox = load('outbox', []);
// Votes not yet answered, by question: {up, token, shown}; `sent` on this connection.
let votes = load('votes', {});
// My confirmed questions, newest last: {id, token, content}, for resume and "yours".
let kept = load('kept', []);
const mine = new Set(kept.map((q) => q.id));
// The room: my questions stay when removed (shown dismissed), and their answers are read out.
const room = new RoomState({
  keeps: (id) => mine.has(id),
  answered: (q) => { if (mine.has(q.id)) tellAnswered(q); },
});
// Extension labels: the label the list shows ('' for all).
let labelFilter = '';
// Joined on the current connection (what waits is sent then); the question on the wire.
let joined = false, inFlight = null;
let sort = 'votes', filter = '';
const keepLimit = 500;
// Whether this tab sends what waits (questions and votes): one tab of a room at a time
// does, while its socket is joined (which one: below); the others leave what they are given
// in the storage for it, and hear from it what became of it.
let sender = false;

const say = (text) => { $('status').textContent = text; };
const announce = (text) => { $('announcements').textContent = text; };
// Extension announcements: the presenter's banner; read out when it changes.
const banner = (a) => {
  const text = a && typeof a.text === 'string' ? printable(a.text).slice(0, 280) : '';
  if (text === $('banner-text').textContent) return;
  $('banner-text').textContent = text;
  $('banner').hidden = !text;
  if (text) announce(`${word('Announcement:')} ${text}`);
};
const shortLabel = (l) => Array.from(printable(l)).slice(0, 40).join('');
// A select's options: the first (no label, all labels), then the session's labels.
const fill = (select, first) => {
  const chosen = select.value;
  const option = (value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; };
  select.replaceChildren(option('', word(first)), ...room.labels.map((l) => option(l, shortLabel(l))));
  select.value = room.labels.includes(chosen) ? chosen : '';
};
// Extension labels: the session's labels (the room's), in both selects. The names as the
// server sends them (the value a question is asked under); shown made printable and cut at
// 40 characters.
const setLabels = (labels) => {
  fill($('label'), 'No label');
  fill($('label-filter'), 'All labels');
  for (const id of ['label', 'label-caption', 'label-filter-caption']) $(id).hidden = !labels.length;
  if (!labels.includes(labelFilter)) labelFilter = '';
};
const stateOf = RoomState.stateOf;
const has = (name) => socket.has(name);
// The live region reads out an answer to one of my questions as it comes.
function tellAnswered(q) {
  announce(`${word('Your question was answered:')} ${printable(q.content)}`
    + (q.answer ? ` ${word(q.private ? 'Answered privately:' : 'Answer:')} ${printable(q.answer)}` : ''));
}
// A question of mine as the server restates it; `news`: a change as it happens.
const learn = (q, news) => {
  const old = room.questions.get(q.id);
  const now = room.learn(q, old);
  if (news && mine.has(now.id) && now.answered && old && !old.answered) tellAnswered(now);
};
const remember = (id, token, content) => {
  if (mine.has(id)) return;
  mine.add(id);
  kept.push({ id, token, content });
  // Bounded: the oldest leave first (their answers came long ago).
  if (kept.length > keepLimit) kept = kept.slice(-keepLimit);
  save('kept', kept);
};

const send = (message) => socket.send(message);
const later = (seconds) => Math.min(600, Math.max(0.05, Number(seconds) || 1)) * 1000;

// One question on the wire at a time, the oldest first: nothing typed later overtakes it,
// not even one told to wait.
function pump() {
  if (!joined || !sender || inFlight) return;
  const next = outbox.find((q) => !q.failed);
  if (!next) return;
  if (next.waitUntil > Date.now()) {
    clearTimeout(next.timer);
    next.timer = setTimeout(pump, next.waitUntil - Date.now());
    return;
  }
  inFlight = next.token;
  const message = { type: 'newQuestion', id: socket.connection, content: next.content, token: next.token };
  if (next.label && has('labels')) message.label = next.label;
  send(message);
}
// Each vote once per connection; one told to wait goes again after its delay.
function sendVotes() {
  if (!joined || !sender || !has('room')) return;
  let wait = null;
  for (const [question, intent] of Object.entries(votes)) {
    if (intent.sent) continue;
    if (intent.waitUntil > Date.now()) { wait = Math.min(wait ?? Infinity, intent.waitUntil - Date.now()); continue; }
    intent.sent = true;
    send({ type: 'vote', id: socket.connection, question, up: intent.up, token: intent.token });
  }
  if (wait !== null) { clearTimeout(sendVotes.timer); sendVotes.timer = setTimeout(sendVotes, wait); }
}
// This attendee's fields of a join: who, the credential the server issued, the name typed,
// and the compact room (extension counts).
const joinFields = (extensions) => {
  const fields = { attendee };
  if (credential) fields.credential = credential;
  const name = $('name').value.trim();
  if (name) fields.name = name;
  if (extensions.includes('counts')) fields.counts = true;
  return fields;
};

// The room's socket (after a drop: again with backoff and jitter, the room resumed from
// the last change seen). What the tab that sends heard of what it sent, the others hear too.
const socket = new RoomSocket({
  url: socketURL(SOCKET),
  room,
  join: joinFields,
  opened: handshake,
  changed: roomChanged,
  received: (m) => {
    receive(m);
    if (sender && ['questionResponse', 'voteResponse', 'questionAnswer'].includes(m.type)) relay(m);
  },
  closed: () => {
    joined = false; inFlight = null;
    quit();
    body.dataset.live = 'false';
    say(navigator.onLine === false ? word('Offline: your questions wait here.') : word('Reconnecting…'));
  },
});

// What it receives: the handshake, identity, the room's snapshots and deltas, responses
// to questions and votes, and the answers to resumes.

// The storage is every tab's of the room, and another tab may have added to it since this
// one last read it (its storage event still on the way): a save keeps what is there, less
// what this tab took out (answered, discarded), so no tab's write erases another's.
const takenOut = new Set();
const saveOutbox = () => {
  const here = new Set(outbox.map((q) => q.token));
  for (const q of load('outbox', [])) {
    if (q && q.token && !here.has(q.token) && !takenOut.has(q.token)) outbox.push(q);
  }
  save('outbox', outbox.map(({ token, content, label, failed }) => ({ token, content, label, failed })));
};
// A vote's latest intent wins, whichever tab made it (`at`, when it was made).
const saveVotes = () => {
  for (const [id, kept] of Object.entries(load('votes', {}))) {
    if (!kept || !kept.token || takenOut.has(kept.token)) continue;
    const here = votes[id];
    if (!here || (here.token !== kept.token && (kept.at || 0) > (here.at || 0))) votes[id] = kept;
  }
  save('votes', Object.fromEntries(Object.entries(votes)
    .map(([id, { up, token, shown, at }]) => [id, { up, token, shown, at }])));
};

function handshake(m) {
  if (m.session) closed(m.session.open === false);
  for (const intent of Object.values(votes)) intent.sent = false;
  if (has('room')) {
    socket.join();
    // Answers given while away come back (in pages of 256, the newest first).
    const open = kept.filter((q) => !(room.questions.get(q.id) || {}).answered).map((q) => q.id).reverse();
    for (let i = 0; has('resume') && i < open.length; i += 256) {
      send({ type: 'resume', id: socket.connection, questions: open.slice(i, i + 256), tokens: [] });
    }
  }
  joined = true;
  body.dataset.live = 'true';
  say(word('Live'));
  seek();
  pump();
  sendVotes();
}

function receive(m) {
  switch (m.type) {
    case 'joined':
      if (m.attendee && m.credential) {
        attendee = m.attendee; credential = m.credential;
        save('attendee', attendee); save('credential', credential);
        sendVotes();
      } else if (m.retryAfter) {
        // No identity yet: join again when the server said; votes wait for it.
        const connection = socket.connection;
        setTimeout(() => { if (socket.connection === connection) socket.join({}); }, later(m.retryAfter));
      }
      break;
    case 'session':
      // Extension sessionState: closed, reopened or deleted by the presenter.
      if (m.deleted === true) {
        socket.stop();
        closed(true);
        body.dataset.live = 'false';
        say(word('The presenter deleted this session.'));
        $('notice').textContent = word('The presenter deleted this session.');
      } else {
        closed(m.session && m.session.open === false);
        if (m.session && m.session.open) $('notice').textContent = word('The presenter reopened this session: it takes questions again.');
      }
      break;
    case 'resumed': {
      // Questions the server no longer has (a restored database): asked again, first, under
      // the tokens they were typed with, so that the server stores each once.
      const missing = new Set(m.missing || []);
      const lost = kept.filter((q) => missing.has(q.id));
      if (!lost.length) return;
      kept = kept.filter((q) => !missing.has(q.id));
      for (const q of lost) mine.delete(q.id);
      outbox = [...lost.map(({ token, content }) => ({ token, content })), ...outbox];
      save('kept', kept); saveOutbox();
      render(); pump();
      break;
    }
    case 'questionResponse': response(m); break;
    case 'questionAnswer': {
      const q = room.questions.get(m.questionId);
      if (!q) return;
      const copy = { ...q, answered: true };
      if (m.text) { copy.answer = m.text; copy.private = !!m.private; }
      learn(copy, true);
      render();
      break;
    }
    case 'voteResponse': {
      const intent = votes[m.question];
      if (!intent || intent.token !== m.token) return;
      if (!m.success && m.retryAfter) {
        intent.sent = false;
        intent.waitUntil = Date.now() + later(m.retryAfter);
        sendVotes();
      } else {
        takenOut.add(intent.token);
        delete votes[m.question];
        if (m.success) {
          if (m.voted) room.voted.add(m.question); else room.voted.delete(m.question);
          const q = room.questions.get(m.question);
          if (q && Number.isInteger(m.seq) && m.seq >= room.seq) q.votes = m.votes;
        } else {
          announce(printable(m.message || ''));
        }
      }
      saveVotes();
      render();
      break;
    }
  }
}

// The room changed: a snapshot, my part of it, or a delta (`before`: the room's highlight and
// labels before it). The live region reads out a new question being answered.
function roomChanged(_kind, before) {
  if (before) {
    const now = room.highlighted && room.questions.get(room.highlighted);
    if (now && now.id !== before.highlighted) announce(`${word('Now answering:')} ${printable(now.content)}`);
  }
  banner(room.announcement);
  if (!before || room.labels !== before.labels) setLabels(room.labels);
  render();
}

function response(m) {
  // Without tokens (a server without extensions) the one question in flight is the one
  // answered: there is never more than one.
  const token = has('token') ? m.token : (m.token || inFlight);
  if (token && token === inFlight) inFlight = null;
  const index = outbox.findIndex((q) => q.token === token);
  if (m.success && m.id) {
    const typed = index >= 0 ? outbox[index] : null;
    if (typed) { outbox.splice(index, 1); takenOut.add(typed.token); remember(m.id, typed.token, typed.content); }
    if (mine.has(m.id)) own(m);
  } else if (index >= 0) {
    if (m.retryAfter) outbox[index].waitUntil = Date.now() + later(m.retryAfter);
    else outbox[index].failed = printable(m.message || '');
  }
  saveOutbox();
  render();
  pump();
}

// One of my questions as the server restates it (a response, a resume's, the sender's).
function own(m) {
  const base = room.questions.get(m.id) || { id: m.id, content: m.content, votes: 0, createdAt: m.createdAt };
  const copy = { ...base, mine: true, answered: !!m.answered };
  if (m.state) copy.state = m.state;
  if (m.answer) { copy.answer = m.answer; copy.private = !!m.private; }
  learn(copy, !!room.questions.get(m.id));
}

function closed(isClosed) {
  for (const element of $('ask').elements) element.disabled = isClosed;
  if (isClosed) $('notice').textContent = word('This session is closed: it takes no new questions.');
}

// Which of a room's tabs sends what waits. Every tab of a room shares its storage, so each
// would send every question and vote left there; one at a time does (a token makes a
// second send harmless, but it is still a second send and a second answer).
// With Web Locks, the sender is the tab holding the room's lock, asked for while its
// socket is joined and let go when the socket or the tab closes: a tab that can send
// takes over. Without them (a page on plain http:// is no secure context), a lease in
// the storage, renewed every 2 s and free after 6 s or when its tab lets it go; two
// senders for a moment cost a resend, no more. Nothing goes with a sender: what waits
// stays in the storage until the server has answered it.
const locks = navigator.locks && typeof navigator.locks.request === 'function' ? navigator.locks : null;
const tab = uuid();
let release = null, waiting = null;
body.dataset.sender = 'false';

function become() {
  if (sender) return;
  sender = true;
  body.dataset.sender = 'true';
  // What waits, as the other tabs left it.
  outbox = load('outbox', []);
  votes = load('votes', {});
  render();
  pump();
  sendVotes();
}
function resign() {
  sender = false;
  body.dataset.sender = 'false';
}
// When the socket is joined; for a lease also every 2 s, and when another tab's changes.
function seek() {
  if (!joined) return quit();
  if (locks) {
    if (release || waiting) return;
    const asked = waiting = new AbortController();
    locks.request(key('sender'), { signal: asked.signal }, () => {
      // Granted after this tab gave up asking: let it go at once.
      if (waiting !== asked || !joined) return undefined;
      waiting = null;
      return new Promise((done) => { release = done; become(); });
    }).catch(() => {});
    return;
  }
  const held = load('sender', null);
  if (held && held.tab !== tab && Date.now() - held.at < 6000) return resign();
  save('sender', { tab, at: Date.now() });
  become();
}
function quit() {
  if (waiting) { waiting.abort(); waiting = null; }
  if (release) { release(); release = null; }
  if (!locks && (load('sender', null) || {}).tab === tab) {
    try { localStorage.removeItem(key('sender')); } catch {}
  }
  resign();
}
// What the server told the sender of what it sent, for the other tabs: each write is
// news to them, and it is removed at once (the storage keeps none of it).
function relay(m) {
  try {
    localStorage.setItem(key('heard'), JSON.stringify({ m, n: uuid() }));
    localStorage.removeItem(key('heard'));
  } catch {}
}
// In a tab that does not send: what the sender heard, shown here as there.
function heard(m) {
  if (!m || sender) return;
  if (m.type === 'questionAnswer') { receive(m); return; }
  if (m.type === 'questionResponse' && m.success && m.id && mine.has(m.id)) own(m);
  if (m.type === 'voteResponse' && m.success) {
    if (m.voted) room.voted.add(m.question); else room.voted.delete(m.question);
  }
  render();
}
if (!locks) {
  setInterval(() => { if (joined) seek(); }, 2000);
  window.addEventListener('pagehide', quit);
}

// What it shows, and what the attendee's clicks and keys do.
const intended = (id) => (votes[id] ? votes[id].up : room.voted.has(id));
// While a vote is on its way the room's count may or may not have it yet: the count shown
// is the one the click made, until the server answers.
const shownVotes = (q) => (votes[q.id] && Number.isInteger(votes[q.id].shown) ? votes[q.id].shown : q.votes);
const isMine = (q) => mine.has(q.id) || q.mine;

function paragraph(className, text) {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

function answerOf(q) {
  return q.answer
    ? [paragraph('answer', `${word(q.private ? 'Answered privately:' : 'Answer:')} ${printable(q.answer)}`)]
    : [];
}

function item(q) {
  const li = document.createElement('li');
  li.dataset.id = q.id;
  li.className = stateOf(q) + (q.id === room.highlighted ? ' now' : '');
  li.append(paragraph('text', printable(q.content)), ...answerOf(q));
  const meta = document.createElement('p');
  meta.className = 'meta';
  const count = shownVotes(q);
  if (has('room') && !isMine(q) && (!q.answered || intended(q.id))) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'vote';
    button.dataset.vote = q.id;
    button.setAttribute('aria-pressed', String(intended(q.id)));
    button.setAttribute('aria-label', `${word(intended(q.id) ? 'Take back your vote' : 'Vote')} (${word('Votes')}: ${count})`);
    button.textContent = `▲ ${count}`;
    meta.append(button);
  } else {
    const span = document.createElement('span');
    span.className = 'votes';
    span.textContent = `▲ ${count}`;
    span.setAttribute('aria-label', `${word('Votes')}: ${count}`);
    meta.append(span);
  }
  const when = new Date((since2001 + q.createdAt) * 1000);
  meta.append(' ' + when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
  if (isMine(q)) meta.append(` · ${word('yours')}`);
  if (q.edited === true) meta.append(` · ${word('edited by the presenter')}`);
  // Extension queue: the presenters' next questions, while they show them.
  const next = room.shownNextUp.indexOf(q.id);
  if (next >= 0) meta.append(` · ${word('next up')} ${next + 1}`);
  if (typeof q.label === 'string' && q.label) {
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = shortLabel(q.label);
    meta.append(' · ', label);
  }
  li.append(meta);
  return li;
}

function mineItem(label, content, extra) {
  const li = document.createElement('li');
  li.append(paragraph('text', printable(content)), paragraph('meta', label), ...extra);
  return li;
}

function button(text, data, value) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.dataset[data] = value;
  return b;
}

function render() {
  // Focus follows its button across the re-render (screen readers keep their place).
  const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset : {};
  const focus = ['vote', 'retry', 'discard'].find((name) => active[name]);
  // Until the room comes, what the server wrote stays.
  const { questions, highlighted } = room;
  if (room.known) {
    const now = highlighted && questions.get(highlighted);
    $('now').hidden = !now;
    $('now-text').textContent = now ? printable(now.content) : '';
    const shown = [...questions.values()]
      .filter((q) => ['live', 'answered'].includes(stateOf(q)))
      .filter((q) => !filter || q.content.toLowerCase().includes(filter))
      .filter((q) => !labelFilter || q.label === labelFilter)
      .sort((a, b) => sort === 'votes'
        ? (shownVotes(b) - shownVotes(a)) || (a.createdAt - b.createdAt)
        : (b.createdAt - a.createdAt));
    const empty = document.createElement('li');
    empty.className = 'empty';
    empty.textContent = word('No questions yet.');
    $('questions').replaceChildren(...(shown.length ? shown.map(item) : [empty]));
  }
  const stateWords = { review: 'In review', live: 'Live in the room', answered: 'Answered', dismissed: 'Dismissed' };
  const own = [...questions.values()].filter(isMine)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((q) => mineItem(word(stateWords[stateOf(q)] || 'Sent'), q.content, answerOf(q)));
  const waiting = outbox.map((q) => q.failed
    ? mineItem(`${word('Not sent:')} ${q.failed}`, q.content,
      [button(word('Try again'), 'retry', q.token), button(word('Discard'), 'discard', q.token)])
    : mineItem(word('Waiting to send'), q.content, []));
  $('mine-list').replaceChildren(...waiting, ...own);
  $('mine').hidden = waiting.length + own.length === 0;
  if (focus) {
    const again = document.querySelector(`button[data-${focus}="${CSS.escape(active[focus])}"]`);
    if (again) again.focus();
  }
}

$('ask').addEventListener('submit', (event) => {
  event.preventDefault();
  const content = $('question').value.trim();
  if (!content) return;
  outbox.push({ token: uuid(), content, label: $('label').value || undefined });
  saveOutbox();
  $('question').value = '';
  $('notice').textContent = '';
  render();
  pump();
});
$('name').value = $('name').value || load('name', '');
$('name').addEventListener('change', () => {
  save('name', $('name').value.trim());
  // The same attendee, named now: the server records it from the join.
  if (joined && has('room')) socket.join();
});
$('questions').addEventListener('click', (event) => {
  const target = event.target.closest('button');
  const id = target && target.dataset.vote;
  const q = id && room.questions.get(id);
  if (!q) return;
  const up = !intended(id);
  const base = votes[id] && Number.isInteger(votes[id].shown) ? votes[id].shown : q.votes;
  votes[id] = { up, token: uuid(), shown: Math.max(0, base + (up ? 1 : -1)), at: Date.now() };
  saveVotes();
  render();
  sendVotes();
});
$('mine-list').addEventListener('click', (event) => {
  const { retry: again, discard } = event.target.dataset;
  const q = outbox.find((q) => q.token === (again || discard));
  if (!q) return;
  if (again) delete q.failed; else { outbox.splice(outbox.indexOf(q), 1); takenOut.add(q.token); }
  saveOutbox();
  render();
  pump();
});
$('sort').addEventListener('change', (e) => { sort = e.target.value; render(); });
$('search').addEventListener('input', (e) => { filter = e.target.value.toLowerCase(); render(); });
$('label-filter').addEventListener('change', (e) => { labelFilter = e.target.value; render(); });
window.addEventListener('online', () => socket.reconnectNow());
// Another tab of this room changed what waits: take its outbox and votes as they are now,
// each with what this tab knows of it (sent on this connection, told to wait), so that
// the sender does not send again what it has sent.
window.addEventListener('storage', (event) => {
  if (event.key === key('outbox')) {
    const before = new Map(outbox.map((q) => [q.token, q]));
    outbox = load('outbox', []);
    for (const q of outbox) if (before.has(q.token)) q.waitUntil = before.get(q.token).waitUntil;
    render(); pump();
  }
  if (event.key === key('votes')) {
    const before = votes;
    votes = load('votes', {});
    for (const [id, intent] of Object.entries(votes)) {
      const old = before[id];
      if (old && old.token === intent.token) Object.assign(intent, { sent: old.sent, waitUntil: old.waitUntil });
    }
    render(); sendVotes();
  }
  // The sender's questions are this tab's too.
  if (event.key === key('kept')) {
    kept = load('kept', []);
    for (const q of kept) mine.add(q.id);
    render();
  }
  if (event.key === key('heard') && event.newValue) {
    let m = null;
    try { m = JSON.parse(event.newValue).m; } catch {}
    heard(m);
  }
  if (!locks && event.key === key('sender') && joined) seek();
});
say(word('Loading…'));
render();
socket.connect();
