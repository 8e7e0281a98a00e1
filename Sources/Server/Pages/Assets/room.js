// The attendee page's script (AttendeePage): the room over the room's socket as `qna` speaks
// it (tokens, resume, the compact room, votes, identity). What is typed offline — questions
// and votes — waits in the browser's storage and goes once, in order, when the socket is
// back. Content goes in as text, never as markup. In order: its state and what it sends; what
// it receives (the handshake, identity, snapshots and deltas, responses, resumes); which of a
// room's tabs sends what waits; what it shows, and what clicks and keys do. Polls (extension
// `polls`) are answered like votes are sent: kept until the server answers, sent by the
// sending tab (poll-answers.js), shown by poll-view.js. Its words come translated in
// `data-messages` (AttendeeScript.messages lists them).
import { printable, uuid } from './common.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomIdentity, ticketInFragment } from './room-identity.js';
import { RoomOutbox } from './room-outbox.js';
import { RoomState } from './room-state.js';
import { LEASE_RENEW, TabSender } from './tab-sender.js';
import { PollAnswers } from './poll-answers.js';
import { TEXT_LENGTH, answerText, answerValue, attendeePolls, format, maxChoices, maxWords, ranked, sameAnswer, scaleOf, showPolls, toggled } from './poll-view.js';

const body = document.body;
const SOCKET = body.dataset.socket || '/socket';
const words = (() => { try { return JSON.parse(body.dataset.messages || '{}'); } catch { return {}; } })();
const word = (id) => words[id] || id;
/**
 * The page's element with this id (the page's own markup has it), typed loosely: what the
 * checker sees of the DOM here is names, not each element's kind.
 * @param {string} id
 * @returns {any}
 */
const $ = (id) => document.getElementById(id);
/** An event's target, typed as loosely. @param {Event} event @returns {any} */
const targetOf = (event) => event.target;
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
// A personal ticket (extension tickets) comes in the address's fragment, which no server
// sees: kept with the identity, and taken out of the address bar (a screenshot or a shared
// address does not show it).
const linkedTicket = ticketInFragment(location.hash);
if (linkedTicket) history.replaceState(null, '', location.pathname + location.search);
const identity = new RoomIdentity({
  load: (name) => load(name, null), save, first: () => (asker ? asker.toUpperCase() : uuid()),
  ticket: linkedTicket,
});
// The link opened while this page is already open is the same document: no reload.
window.addEventListener('hashchange', () => {
  const ticket = ticketInFragment(location.hash);
  if (!ticket) return;
  history.replaceState(null, '', location.pathname + location.search);
  if (identity.credential || !identity.useTicket(ticket)) return;
  $('notice').textContent = '';
  socket.join();
});
// What was typed and not yet answered (questions, votes), and my confirmed questions.
const outbox = new RoomOutbox({ load, save });
const mine = outbox.mine;
// Poll answers not yet answered (kept like votes), and what is picked and not sent, by poll.
const pollAnswers = new PollAnswers({ load, save });
const drafts = new Map();
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
// Whether this tab sends what waits (questions and votes): one tab of a room at a time
// does, while its socket is joined (tab-sender.js decides which); the others leave what they
// are given in the storage for it, and hear from it what became of it.
const election = new TabSender({ name: key('sender'), became: become, resigned: resign });
body.dataset.sender = 'false';

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

const send = (message) => socket.send(message);
const later = (seconds) => Math.min(600, Math.max(0.05, Number(seconds) || 1)) * 1000;

// One question on the wire at a time, the oldest first: nothing typed later overtakes it,
// not even one told to wait.
function pump() {
  if (!joined || !election.isSender || inFlight) return;
  const next = outbox.next();
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
  if (!joined || !election.isSender || !has('room')) return;
  let wait = null;
  for (const [question, intent] of Object.entries(outbox.votes)) {
    if (intent.sent) continue;
    if (intent.waitUntil > Date.now()) { wait = Math.min(wait ?? Infinity, intent.waitUntil - Date.now()); continue; }
    intent.sent = true;
    send({ type: 'vote', id: socket.connection, question, up: intent.up, token: intent.token });
  }
  if (wait !== null) { clearTimeout(votesTimer); votesTimer = setTimeout(sendVotes, wait); }
}
let votesTimer = 0;
// Each poll answer once per connection, as votes are; one told to wait goes after its delay.
function sendPolls() {
  if (!joined || !election.isSender || !has('polls')) return;
  const { due, wait } = pollAnswers.due();
  for (const a of due) send({ type: 'pollAnswer', id: socket.connection, poll: a.poll, token: a.token, value: a.value });
  if (wait !== null) { clearTimeout(pollsTimer); pollsTimer = setTimeout(sendPolls, wait); }
}
let pollsTimer = 0;
// This attendee's fields of a join: who, the credential the server issued, the name typed,
// and the compact room (extension counts).
const joinFields = (extensions) => {
  const fields = identity.fields();
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
    if (election.isSender && ['questionResponse', 'voteResponse', 'questionAnswer', 'pollAnswerResponse'].includes(m.type)) relay(m);
  },
  closed: () => {
    joined = false; inFlight = null;
    election.leave();
    body.dataset.live = 'false';
    say(navigator.onLine === false ? word('Offline: your questions wait here.') : word('Reconnecting…'));
  },
});

// What it receives: the handshake, identity, the room's snapshots and deltas, responses
// to questions and votes, and the answers to resumes.

function handshake(m) {
  if (m.session) closed(m.session.open === false);
  outbox.unsent();
  pollAnswers.unsent();
  if (has('room')) {
    socket.join();
    // Answers given while away come back (in pages of 256, the newest first).
    const open = outbox.open((id) => !!(room.questions.get(id) || {}).answered);
    for (let i = 0; has('resume') && i < open.length; i += 256) {
      send({ type: 'resume', id: socket.connection, questions: open.slice(i, i + 256), tokens: [] });
    }
  }
  joined = true;
  body.dataset.live = 'true';
  say(word('Live'));
  election.join();
  pump();
  sendVotes();
  sendPolls();
}

function receive(m) {
  switch (m.type) {
    case 'joined':
      if (identity.took(m)) {
        sendVotes();
        sendPolls();
      } else if (m.retryAfter) {
        // No identity yet: join again when the server said; votes wait for it.
        const connection = socket.connection;
        setTimeout(() => { if (socket.connection === connection) socket.join({}); }, later(m.retryAfter));
      } else if (typeof m.message === 'string') {
        // Refused for good (a session that admits by ticket): the room stays, votes wait.
        $('notice').textContent = printable(m.message);
      }
      break;
    case 'session':
      // Extension sessionState: closed, reopened or deleted by the presenter (room-socket.js
      // passes on only news of this session, which the room holds).
      if (room.deleted) {
        socket.stop();
        closed(true);
        body.dataset.live = 'false';
        say(word('The presenter deleted this session.'));
        $('notice').textContent = word('The presenter deleted this session.');
      } else {
        closed(!room.session.open);
        if (room.session.open) $('notice').textContent = word('The presenter reopened this session: it takes questions again.');
      }
      break;
    case 'resumed': {
      // Questions the server no longer has (a restored database): asked again, first.
      if (!outbox.restore(Array.isArray(m.missing) ? m.missing : [])) return;
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
      const result = outbox.voteAnswered(m, !m.success && m.retryAfter ? later(m.retryAfter) : null);
      if (!result) return;
      if (result === 'retry') {
        sendVotes();
      } else {
        if (m.success) {
          if (m.voted) room.voted.add(m.question); else room.voted.delete(m.question);
          const q = room.questions.get(m.question);
          if (q && Number.isInteger(m.seq) && m.seq >= room.seq) q.votes = m.votes;
        } else {
          announce(printable(m.message || ''));
        }
      }
      render();
      break;
    }
    case 'pollAnswerResponse': {
      if (typeof m.poll !== 'string') return;
      const result = pollAnswers.answered(m, !m.success && m.retryAfter ? later(m.retryAfter) : null);
      if (result === 'retry') {
        sendPolls();
      } else {
        // The answer counted now, as the server reads it (on a refusal, the one before), and
        // the room's change it is settled at (an older snapshot does not undo it).
        room.polls.responded(m);
        if (result === 'done' && !m.success) announce(`${word('Not sent:')} ${printable(m.message || '')}`);
        // Taken, with a word: an open text's answer waits for the presenters' review.
        if (result === 'done' && m.success && pollAnswers.notes.has(m.poll)) announce(noteOf(m.poll));
      }
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
  outbox.answered(token, m, {
    retryMs: !m.success && m.retryAfter ? later(m.retryAfter) : null,
    reason: printable(m.message || ''),
  });
  if (m.success && m.id && mine.has(m.id)) own(m);
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

// This tab sends from now on.
function become() {
  body.dataset.sender = 'true';
  // What waits, as the other tabs left it.
  outbox.takeOver();
  pollAnswers.changed();
  render();
  pump();
  sendVotes();
  sendPolls();
}
function resign() {
  body.dataset.sender = 'false';
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
  if (!m || election.isSender) return;
  if (m.type === 'questionAnswer') { receive(m); return; }
  if (m.type === 'questionResponse' && m.success && m.id && mine.has(m.id)) own(m);
  if (m.type === 'voteResponse' && m.success) {
    if (m.voted) room.voted.add(m.question); else room.voted.delete(m.question);
  }
  if (m.type === 'pollAnswerResponse' && typeof m.poll === 'string' && !m.retryAfter) {
    room.polls.responded(m);
    pollAnswers.heard(m);
  }
  render();
}
if (election.usesLease) {
  setInterval(() => election.renew(), LEASE_RENEW);
  window.addEventListener('pagehide', () => election.leave());
}

// What it shows, and what the attendee's clicks and keys do.
const intended = (id) => (outbox.intent(id) ? outbox.intent(id).up : room.voted.has(id));
// While a vote is on its way the room's count may or may not have it yet: the count shown
// is the one the click made, until the server answers.
const shownVotes = (q) => {
  const intent = outbox.intent(q.id);
  return intent && Number.isInteger(intent.shown) ? intent.shown : q.votes;
};
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
  const focused = /** @type {any} */ (document.activeElement);
  const active = focused && focused.dataset ? focused.dataset : {};
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
  const waiting = outbox.questions.map((q) => q.failed
    ? mineItem(`${word('Not sent:')} ${q.failed}`, q.content,
      [button(word('Try again'), 'retry', q.token), button(word('Discard'), 'discard', q.token)])
    : mineItem(word('Waiting to send'), q.content, []));
  $('mine-list').replaceChildren(...waiting, ...own);
  $('mine').hidden = waiting.length + own.length === 0;
  renderPolls();
  if (focus) {
    const again = /** @type {HTMLElement | null} */ (document.querySelector(`button[data-${focus}="${CSS.escape(active[focus])}"]`));
    if (again) again.focus();
  }
}

// What the server said of an answer it took (an open text's, held for review), to show.
const noteOf = (poll) => Array.from(printable(pollAnswers.notes.get(poll) || '')).slice(0, 300).join('');
// Whether an open text's answer is among the entries the room sees (its note said it waited).
const isLive = (poll, answer) => !!answer && typeof answer.text === 'string'
  && ((poll.results && poll.results.texts) || []).some((e) => e.text === answer.text);

// Extension polls: the open ones (and closed ones whose results are shown) above the
// questions, each with what this attendee answered, or is sending, or was refused.
function renderPolls() {
  const polls = has('polls') ? attendeePolls(room.polls.ordered) : [];
  $('polls').hidden = !polls.length;
  if (!polls.length) return;
  showPolls($('poll-list'), polls, (poll) => {
    const waiting = pollAnswers.waiting(poll.id), counted = room.polls.answers.get(poll.id) || null;
    const refused = pollAnswers.refused.get(poll.id);
    const status = waiting
      ? `${word('Your answer, being sent:')} ${answerText(poll, waiting.value)}`
      : [refused === undefined ? '' : `${word('Not sent:')} ${Array.from(printable(refused)).slice(0, 300).join('')}`,
        counted ? `${word('Your answer:')} ${answerText(poll, counted)}` : ''].filter((line) => line).join(' ');
    // What the server said of the answer, on a line of its own under it, until it is live.
    const note = waiting || isLive(poll, counted) ? '' : noteOf(poll.id);
    return { current: waiting ? waiting.value : counted, draft: drafts.get(poll.id) || {}, status, note };
  }, word, document.documentElement.lang || 'en');
}
// An answer given: it waits until the server answers it (what was picked is let go); the
// answer counted or on its way already is not sent again.
function answerPoll(id, value) {
  if (!value) return;
  drafts.delete(id);
  const current = (pollAnswers.waiting(id) || {}).value || room.polls.answers.get(id);
  if (!sameAnswer(value, current) || pollAnswers.refused.has(id)) pollAnswers.answer(id, value);
  render();
  sendPolls();
}

$('ask').addEventListener('submit', (event) => {
  event.preventDefault();
  const content = $('question').value.trim();
  if (!content) return;
  outbox.ask(content, $('label').value);
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
  const target = targetOf(event).closest('button');
  const id = target && target.dataset.vote;
  const q = id && room.questions.get(id);
  if (!q) return;
  outbox.vote(id, !intended(id), q.votes);
  render();
  sendVotes();
});
$('mine-list').addEventListener('click', (event) => {
  const { retry: again, discard } = targetOf(event).dataset;
  if (again) outbox.retry(again); else if (discard) outbox.discard(discard); else return;
  render();
  pump();
});
// A poll's controls: a single choice or a small scale's value answers at once; options
// picked for a multiple choice or a ranking, a slider's value, a word cloud's words and an
// open text's line go with Send.
$('poll-list').addEventListener('click', (event) => {
  const target = targetOf(event).closest('button');
  const poll = target && room.polls.byId.get(target.dataset.poll);
  // A form's Send is its submit.
  if (!poll || poll.state !== 'open' || target.form) return;
  const index = Number(target.dataset.index);
  const draft = drafts.get(poll.id) || {};
  const current = (pollAnswers.waiting(poll.id) || {}).value || room.polls.answers.get(poll.id) || {};
  const picked = draft.choices || current.choices || [];
  switch (target.dataset.act) {
    case 'choose': answerPoll(poll.id, answerValue(poll, { choices: [index] })); return;
    case 'rate': answerPoll(poll.id, answerValue(poll, { rating: index })); return;
    case 'toggle': drafts.set(poll.id, { ...draft, choices: toggled(picked, index, maxChoices(poll)) }); break;
    case 'rank': drafts.set(poll.id, { ...draft, choices: ranked(picked, index) }); break;
    case 'send': {
      const value = answerValue(poll, { choices: picked });
      if (value) { answerPoll(poll.id, value); return; }
      break;
    }
    default: return;
  }
  render();
});
$('poll-list').addEventListener('input', (event) => {
  const target = targetOf(event), poll = room.polls.byId.get(target.dataset.poll);
  if (!poll) return;
  const draft = drafts.get(poll.id) || {};
  if (target.dataset.act === 'slide') {
    drafts.set(poll.id, { ...draft, rating: Number(target.value) });
    const label = target.form && target.form.querySelector('.rating-label');
    if (label) label.textContent = format(word('Your rating: %1$d of %2$d'), target.value, scaleOf(poll).max);
  } else if (target.dataset.act === 'type') {
    drafts.set(poll.id, { ...draft, text: target.value });
  }
});
$('poll-list').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = targetOf(event), poll = room.polls.byId.get(form.dataset.poll);
  if (!poll || poll.state !== 'open') return;
  const field = form.querySelector('input');
  const value = poll.kind === 'rating'
    ? answerValue(poll, { rating: Number(field.value) })
    : answerValue(poll, { text: field.value });
  if (value) answerPoll(poll.id, value);
  else if (poll.kind === 'words') announce(format(word('Commas between entries, at most %d.'), maxWords(poll)));
  else if (poll.kind === 'text') announce(format(word('One line, at most %d characters.'), TEXT_LENGTH));
});
$('sort').addEventListener('change', (e) => { sort = targetOf(e).value; render(); });
$('search').addEventListener('input', (e) => { filter = targetOf(e).value.toLowerCase(); render(); });
$('label-filter').addEventListener('change', (e) => { labelFilter = targetOf(e).value; render(); });
window.addEventListener('online', () => socket.reconnectNow());
// Another tab of this room changed what waits, or its questions: taken as they are now.
window.addEventListener('storage', (event) => {
  if (event.key === key('polls')) {
    pollAnswers.changed();
    render();
    sendPolls();
  }
  for (const name of ['outbox', 'votes', 'kept']) {
    if (event.key !== key(name) || !outbox.changed(name)) continue;
    render();
    if (name === 'outbox') pump();
    if (name === 'votes') sendVotes();
  }
  if (event.key === key('heard') && event.newValue) {
    let m = null;
    try { m = JSON.parse(event.newValue).m; } catch {}
    heard(m);
  }
  if (event.key === key('sender')) election.renew();
});
say(word('Loading…'));
render();
socket.connect();
