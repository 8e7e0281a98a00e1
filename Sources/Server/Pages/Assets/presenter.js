// The presenter page's script (PresenterPage): the room over the page's own WebSocket (a
// presenter's, authorised by the login cookie), every question in every state, tabs with
// counts, sort and search, and each action posted to the JSON API; the session's polls
// (presenter-polls.js). Content goes in as text, never as markup. Its words come translated in `data-messages` (PresenterScript.messages
// lists them).
import { printable } from './common.js';
import { PresenterAPI } from './presenter-api.js';
import { PresenterPolls } from './presenter-polls.js';
import { RoomIdentity } from './room-identity.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomState } from './room-state.js';

const BASE = document.body.dataset.base || '/';
const api = new PresenterAPI({ base: BASE });
// What a refused action said, on the status line (`prefix`: which action); whether it went.
const told = (result, prefix = '') => {
  if (!result.ok) say(`${prefix}${result.status} ${printable(result.text)}`);
  return result.ok;
};
const since2001 = 978307200;
// Every question in every state; the queue (extension queue: its ids, and whether the room
// sees them); the session's labels (extension labels).
const room = new RoomState();
let tab = 'live', sort = 'votes', filter = '';
/**
 * The page's element with this id (the page's own markup has it), typed loosely: what the
 * checker sees of the DOM here is names, not each element's kind.
 * @param {string} id
 * @returns {any}
 */
const $ = (id) => document.getElementById(id);
/** An event's target, typed as loosely. @param {Event} event @returns {any} */
const targetOf = (event) => event.target;
// The label the list shows ('' for all).
let labelFilter = '';
const shortLabel = (l) => Array.from(printable(l)).slice(0, 40).join('');
const showLabels = () => {
  const { labels } = room;
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
// Extension polls: the session's polls, their results, buttons and form (its folding kept).
const polls = new PresenterPolls({
  root: $('polls'), api, word, locale: document.documentElement.lang || 'en',
  storage: {
    load: (name) => { try { return localStorage.getItem(`qna-presenter-polls-${name}`); } catch { return null; } },
    save: (name, value) => { try { localStorage.setItem(`qna-presenter-polls-${name}`, value); } catch {} },
  },
});
// One presenter per browser, across reloads (not a new attendee on each load): the id,
// and the credential the server issued for it (extension identity).
// Kept as plain strings under names of their own, as this page always kept them.
const stored = { attendee: 'qna-presenter', credential: 'qna-presenter-credential' };
const identity = new RoomIdentity({
  load: (name) => { try { return localStorage.getItem(stored[name]); } catch { return null; } },
  save: (name, value) => { try { localStorage.setItem(stored[name], value); } catch {} },
});
const stateOf = RoomState.stateOf;
const tabs = ['review', 'live', 'answered', 'dismissed'];
const say = (text) => { $('status').textContent = text; };
function render() {
  const { questions, highlighted } = room;
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
  const { highlighted } = room, nextUp = room.nextUp.ids;
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
  if (room.labels.length) add(word('Label…'), 'relabel');
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
  told(await api.announce(text));
}

// Extension wordFilter: a word into or out of the session's own list ("custom").
async function filterWord(remove) {
  const entry = $('filter-word').value.trim();
  if (!entry) return;
  if (!told(await api.filter(remove ? { remove: [entry] } : { add: [entry] }))) return;
  say('');
  $('filter-word').value = '';
}

// Extension labels: one label more for the session, or one fewer.
async function changeLabel(remove) {
  const name = $('label-name').value.trim();
  if (!name) return;
  if (!told(await (remove ? api.removeLabel(name) : api.addLabel(name)))) return;
  say('');
  $('label-name').value = '';
}

async function act(id, action) {
  let body;
  if (action === 'relabel') {
    const q = room.questions.get(id);
    const label = prompt(`${word('Label of the question (empty: none):')} ${room.labels.map(shortLabel).join(', ')}`, (q && q.label) || '');
    if (label === null) return;
    body = label.trim() ? { label: label.trim() } : {};
  } else if (action === 'edit-text') {
    const q = room.questions.get(id);
    const text = prompt(word('New text of the question:'), q ? q.content : '');
    if (text === null || !text.trim()) return;
    body = { text: text.trim() };
    action = 'edit';
  } else if (action === 'answer-text') {
    const text = prompt(word('Answer:'));
    if (text === null) return;
    const isPrivate = confirm(word('Only for the asker? (Cancel: the whole room sees it)'));
    body = { text, private: isPrivate };
    action = 'answer';
  }
  told(await api.act(id, action, body), `${action}: `);
}

// The room's socket, a presenter's (the login cookie goes with it), joined as this
// browser's presenter; after a drop or a gap, again from the last change seen.
const socket = new RoomSocket({
  url: socketURL(`${BASE}socket?role=presenter`),
  room,
  join: (extensions) => ({
    ...identity.fields(),
    // The compact room: count-only changes as numbers (extension counts).
    ...(extensions.includes('counts') ? { counts: true } : {}),
  }),
  opened: () => { say(word('Live')); socket.join(); },
  changed: (kind, before) => {
    if (kind === 'snapshot') document.body.dataset.live = 'true';
    showRoom(before);
  },
  received: (m) => { if (m.type === 'joined') identity.took(m); },
  closed: () => say(word('Reconnecting…')),
});

// What the room's news changes beside the list: the banner's field, the queue's button and
// the label filter, each when it changed since `before` (all of them after a snapshot,
// `before` null): the filter's list is made again only then.
function showRoom(before) {
  if (!before || room.announcement !== before.announcement) showAnnouncement(room.announcement);
  if (!before || room.nextUp !== before.nextUp) {
    $('show-queue').textContent = word(room.nextUp.shown ? 'Hide the queue' : 'Show the queue');
  }
  if (!before || room.labels !== before.labels) showLabels();
  polls.show(socket.has('polls') ? room.polls.ordered : null);
  render();
}

$('tabs').addEventListener('click', (e) => {
  const { tab: chosen } = targetOf(e).dataset;
  if (chosen) { tab = chosen; render(); }
});
$('rows').addEventListener('click', (e) => {
  const action = targetOf(e).dataset.action;
  if (action) act(targetOf(e).closest('tr').dataset.id, action);
});
$('announce').addEventListener('submit', (e) => {
  e.preventDefault();
  announce($('announcement').value.trim());
});
$('unannounce').addEventListener('click', () => { $('announcement').value = ''; announce(''); });
$('filter').addEventListener('submit', (e) => { e.preventDefault(); filterWord(false); });
const queue = async (step) => { told(await api.queue(step)); };
$('next').addEventListener('click', () => queue('next'));
$('show-queue').addEventListener('click', () => queue(room.nextUp.shown ? 'hide' : 'show'));
$('unfilter').addEventListener('click', () => filterWord(true));
$('labels').addEventListener('submit', (e) => { e.preventDefault(); changeLabel(false); });
$('unlabel').addEventListener('click', () => changeLabel(true));
$('label-filter').addEventListener('change', (e) => { labelFilter = targetOf(e).value; render(); });
$('sort').addEventListener('change', (e) => { sort = targetOf(e).value; render(); });
$('search').addEventListener('input', (e) => { filter = targetOf(e).value.toLowerCase(); render(); });
socket.connect();
