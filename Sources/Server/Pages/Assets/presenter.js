// The presenter page's script (PresenterPage): the room over the page's own WebSocket (a
// presenter's, authorised by the login cookie), every question in every state, tabs with
// counts, sort and search, and each action posted to the JSON API. Content goes in as text,
// never as markup. Its words come translated in `data-messages` (PresenterScript.messages
// lists them).
import { printable, uuid, applyCounts } from './common.js';

const BASE = document.body.dataset.base || '/';
const since2001 = 978307200;
const questions = new Map();
// Each question's number in the room, which count-only changes name it by.
const numbers = new Map();
const learn = (q) => {
  questions.set(q.id, q);
  if (Number.isInteger(q.n)) numbers.set(q.n, q.id);
};
let highlighted = null, seq = null, tab = 'live', sort = 'votes', filter = '';
// Extension queue: the next questions in order, and whether the room sees them.
let nextUp = [], nextUpShown = false;
const learnNextUp = (n) => {
  nextUp = n && Array.isArray(n.ids) ? n.ids.slice(0, 50) : [];
  nextUpShown = !!(n && n.shown);
  $('show-queue').textContent = word(nextUpShown ? 'Hide the queue' : 'Show the queue');
};
const $ = (id) => document.getElementById(id);
// Extension labels: the session's labels, and the one the list shows ('' for all).
let labels = [], labelFilter = '';
const shortLabel = (l) => Array.from(printable(l)).slice(0, 40).join('');
const learnLabels = (list) => {
  if (!Array.isArray(list)) return;
  labels = list.filter((l) => typeof l === 'string' && l.length <= 320).slice(0, 20);
  const select = $('label-filter');
  const option = (value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; };
  select.replaceChildren(option('', word('All labels')), ...labels.map((l) => option(l, shortLabel(l))));
  if (!labels.includes(labelFilter)) labelFilter = '';
  select.value = labelFilter;
};
// The page's language: the server put this script's words in it (PresenterScript.messages).
const words = (() => {
  try { return JSON.parse(document.body.dataset.messages || '{}'); } catch { return {}; }
})();
const word = (id) => words[id] || id;
const tabNames = { review: 'Review', live: 'Live', answered: 'Answered', dismissed: 'Dismissed' };
// One presenter per browser, across reloads (not a new attendee on each load): the id,
// and the credential the server issued for it (extension identity).
const kept = (key, make) => {
  try {
    const value = localStorage.getItem(key);
    if (value || !make) return value;
    const made = make();
    localStorage.setItem(key, made);
    return made;
  } catch { return make ? make() : null; }
};
let attendee = kept('qna-presenter', uuid);
let credential = kept('qna-presenter-credential', null);
const keep = (key, value) => { try { localStorage.setItem(key, value); } catch {} };
const stateOf = (q) => q.state || (q.answered ? 'answered' : 'live');
const tabs = ['review', 'live', 'answered', 'dismissed'];
const say = (text) => { $('status').textContent = text; };
function render() {
  const counts = Object.fromEntries(tabs.map((t) => [t, 0]));
  for (const q of questions.values()) counts[stateOf(q)] += 1;
  $('tabs').replaceChildren(...tabs.map((t) => {
    const b = document.createElement('button');
    b.textContent = `${word(tabNames[t])} (${counts[t]})`;
    b.dataset.tab = t;
    if (t === tab) b.className = 'current';
    return b;
  }));
  const now = highlighted && questions.get(highlighted);
  $('banner').textContent = now ? `${word('Now answering:')} ${printable(now.content)}` : '';
  $('banner').hidden = !now;
  const shown = [...questions.values()]
    .filter((q) => stateOf(q) === tab)
    .filter((q) => !filter || q.content.toLowerCase().includes(filter))
    .filter((q) => !labelFilter || q.label === labelFilter)
    .sort((a, b) => sort === 'votes'
      ? (b.votes - a.votes) || (a.createdAt - b.createdAt)
      : (b.createdAt - a.createdAt));
  $('rows').replaceChildren(...shown.map(row));
}

function row(q) {
  const tr = document.createElement('tr');
  tr.dataset.id = q.id;
  tr.className = stateOf(q) + (q.id === highlighted ? ' now' : '');
  const text = document.createElement('td');
  text.textContent = printable(q.content);
  if (q.edited === true) text.append(` (${word('edited')})`);
  if (typeof q.label === 'string' && q.label) {
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = shortLabel(q.label);
    text.prepend(label);
  }
  if (nextUp.includes(q.id)) text.prepend(`${word('Next up')} ${nextUp.indexOf(q.id) + 1} · `);
  if (Array.isArray(q.flagged) && q.flagged.length) {
    // Extension wordFilter: what the filter matched (why it waits in review).
    const flagged = document.createElement('div');
    flagged.className = 'flagged';
    flagged.textContent = `${word('Filtered:')} ${q.flagged.slice(0, 5).map((w) => printable(String(w))).join(', ')}`;
    text.append(flagged);
  }
  if (q.answer) {
    const answer = document.createElement('div');
    answer.className = 'answer';
    answer.textContent =
      word(q.private ? 'Answered privately:' : 'Answer:') + ' ' + printable(q.answer);
    text.append(answer);
  }
  const votes = document.createElement('td');
  votes.textContent = `▲ ${q.votes}`;
  const asked = document.createElement('td');
  asked.textContent = new Date((since2001 + q.createdAt) * 1000).toLocaleTimeString();
  if (q.name) asked.textContent += ` · ${printable(q.name)}`;
  const actions = document.createElement('td');
  const state = stateOf(q);
  const add = (label, action) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset.action = action;
    actions.append(b);
  };
  if (state === 'review') add(word('Approve'), 'approve');
  if (state === 'live') {
    add(word(q.id === highlighted ? 'Unhighlight' : 'Highlight'),
      q.id === highlighted ? 'unhighlight' : 'highlight');
  }
  if (state !== 'dismissed') {
    if (!q.answered) add(word('Answer'), 'answer');
    add(word('Answer with text…'), 'answer-text');
    add(word('Dismiss'), 'dismiss');
  } else {
    add(word('Restore'), 'restore');
  }
  // Extension moderation: correct the text; silence the asker (their new questions to
  // review).
  add(word('Edit…'), 'edit-text');
  add(word('Silence asker'), 'silence');
  // Extension queue: a star, and the place next up.
  add(q.starred ? '★' : '☆', q.starred ? 'unstar' : 'star');
  if (labels.length) add(word('Label…'), 'relabel');
  if (nextUp.includes(q.id)) {
    add(word('Not next'), 'dequeue');
    add('↑', 'moveUp');
    add('↓', 'moveDown');
  } else if (state === 'live' && !q.answered) {
    add(word('Next up'), 'enqueue');
  }
  tr.append(text, votes, asked, actions);
  return tr;
}

// Extension announcements: the room's banner as the server last said; the field
// follows it unless the presenter is typing there.
let announcement = '';
const showAnnouncement = (a) => {
  announcement = a && typeof a.text === 'string' ? a.text : '';
  if (document.activeElement !== $('announcement')) $('announcement').value = announcement;
};
async function announce(text) {
  const response = await fetch(`${BASE}api/announcement`, {
    method: text ? 'PUT' : 'DELETE', credentials: 'same-origin',
    body: text ? JSON.stringify({ text }) : undefined,
    headers: { 'Idempotency-Key': uuid(), 'Content-Type': 'application/json' },
  });
  if (!response.ok) say(`${response.status} ${await response.text()}`);
}

// Extension wordFilter: a word into or out of the session's own list ("custom").
async function filterWord(remove) {
  const entry = $('filter-word').value.trim();
  if (!entry) return;
  const response = await fetch(`${BASE}api/filters/custom`, {
    method: 'POST', credentials: 'same-origin',
    body: JSON.stringify(remove ? { remove: [entry] } : { add: [entry] }),
    headers: { 'Idempotency-Key': uuid(), 'Content-Type': 'application/json' },
  });
  say(response.ok ? '' : `${response.status} ${await response.text()}`);
  if (response.ok) $('filter-word').value = '';
}

// Extension labels: one label more for the session, or one fewer.
async function changeLabel(remove) {
  const name = $('label-name').value.trim();
  if (!name) return;
  const response = await fetch(
    remove ? `${BASE}api/labels?name=${encodeURIComponent(name)}` : `${BASE}api/labels`, {
      method: remove ? 'DELETE' : 'POST', credentials: 'same-origin',
      body: remove ? undefined : JSON.stringify({ name }),
      headers: { 'Idempotency-Key': uuid(), 'Content-Type': 'application/json' },
    });
  say(response.ok ? '' : `${response.status} ${await response.text()}`);
  if (response.ok) $('label-name').value = '';
}

async function act(id, action) {
  let body;
  if (action === 'relabel') {
    const q = questions.get(id);
    const label = prompt(`${word('Label of the question (empty: none):')} ${labels.map(shortLabel).join(', ')}`, (q && q.label) || '');
    if (label === null) return;
    body = JSON.stringify(label.trim() ? { label: label.trim() } : {});
  } else if (action === 'edit-text') {
    const q = questions.get(id);
    const text = prompt(word('New text of the question:'), q ? q.content : '');
    if (text === null || !text.trim()) return;
    body = JSON.stringify({ text: text.trim() });
    action = 'edit';
  } else if (action === 'answer-text') {
    const text = prompt(word('Answer:'));
    if (text === null) return;
    const isPrivate = confirm(word('Only for the asker? (Cancel: the whole room sees it)'));
    body = JSON.stringify({ text, private: isPrivate });
    action = 'answer';
  }
  const response = await fetch(`${BASE}api/questions/${id}/${action}`, {
    method: 'POST', credentials: 'same-origin', body,
    headers: { 'Idempotency-Key': uuid(), 'Content-Type': 'application/json' },
  });
  if (!response.ok) say(`${action}: ${response.status} ${await response.text()}`);
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const socket = new WebSocket(`${scheme}${location.host}${BASE}socket?role=presenter`);
  socket.binaryType = 'arraybuffer';
  let pages = null;
  socket.onopen = () => say(word('Live'));
  socket.onclose = () => { say(word('Reconnecting…')); setTimeout(connect, 1000); };
  socket.onmessage = (event) => {
    const text = typeof event.data === 'string'
      ? event.data : new TextDecoder().decode(event.data);
    const m = JSON.parse(text);
    if (m.type === 'handshake') {
      const join = { type: 'join', id: m.id, attendee };
      if (credential) join.credential = credential;
      // The compact room: count-only changes as numbers (extension counts).
      if ((m.extensions || []).includes('counts')) join.counts = true;
      socket.send(JSON.stringify(join));
    } else if (m.type === 'joined') {
      if (!m.attendee || !m.credential) return;
      attendee = m.attendee;
      credential = m.credential;
      keep('qna-presenter', attendee);
      keep('qna-presenter-credential', credential);
    } else if (m.type === 'room') {
      if (!pages || pages.seq !== m.seq) pages = { seq: m.seq, parts: m.parts, got: new Map() };
      pages.got.set(m.part, m.questions);
      if (pages.got.size < pages.parts) return;
      questions.clear();
      numbers.clear();
      for (const page of pages.got.values()) for (const q of page) learn(q);
      highlighted = m.highlighted || null;
      showAnnouncement(m.announcement);
      learnNextUp(m.nextUp);
      learnLabels(m.labels || []);
      seq = m.seq;
      pages = null;
      document.body.dataset.live = 'true';
      render();
    } else if (m.type === 'roomOwn') {
      if (m.seq !== seq) return;
      for (const q of m.questions) learn(q);
      render();
    } else if (m.type === 'roomDelta') {
      if (seq === null || m.to <= seq) return;
      // A gap: a fresh snapshot from a new connection.
      if (m.from > seq + 1) { seq = null; socket.close(); return; }
      for (const q of m.questions) learn(q);
      applyCounts(m.counts, questions, numbers);
      for (const id of m.removed || []) questions.delete(id);
      if (m.highlight) highlighted = m.highlight.id || null;
      if (m.announcement) showAnnouncement(m.announcement);
      if (m.nextUp) learnNextUp(m.nextUp);
      if (m.labels) learnLabels(m.labels);
      // A large delta comes in pages of one from/to: the last one completes it.
      if ((m.part || 1) === (m.parts || 1)) seq = m.to;
      render();
    }
  };
}

$('tabs').addEventListener('click', (e) => {
  if (e.target.dataset.tab) { tab = e.target.dataset.tab; render(); }
});
$('rows').addEventListener('click', (e) => {
  const action = e.target.dataset.action;
  if (action) act(e.target.closest('tr').dataset.id, action);
});
$('announce').addEventListener('submit', (e) => {
  e.preventDefault();
  announce($('announcement').value.trim());
});
$('unannounce').addEventListener('click', () => { $('announcement').value = ''; announce(''); });
$('filter').addEventListener('submit', (e) => { e.preventDefault(); filterWord(false); });
const queue = async (path) => {
  const response = await fetch(`${BASE}api/queue/${path}`, {
    method: 'POST', credentials: 'same-origin', headers: { 'Idempotency-Key': uuid() },
  });
  if (!response.ok) say(`${response.status} ${await response.text()}`);
};
$('next').addEventListener('click', () => queue('next'));
$('show-queue').addEventListener('click', () => queue(nextUpShown ? 'hide' : 'show'));
$('unfilter').addEventListener('click', () => filterWord(true));
$('labels').addEventListener('submit', (e) => { e.preventDefault(); changeLabel(false); });
$('unlabel').addEventListener('click', () => changeLabel(true));
$('label-filter').addEventListener('change', (e) => { labelFilter = e.target.value; render(); });
$('sort').addEventListener('change', (e) => { sort = e.target.value; render(); });
$('search').addEventListener('input', (e) => { filter = e.target.value.toLowerCase(); render(); });
connect();
