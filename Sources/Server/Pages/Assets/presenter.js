// The presenter page's script (PresenterPage): the room over the page's own WebSocket (a
// presenter's, authorised by the login cookie), every question in every state as a card (its
// two likely actions at hand, the rest in its menu), tabs with counts, sort and search, each
// action posted to the JSON API; the console's keys and undo (presenter-keys.js); the
// session's polls (presenter-polls.js). Content goes in as text, never as markup. Its words
// come translated in `data-messages` (PresenterScript.messages lists them).
import { printable } from './common.js';
import { PresenterAPI } from './presenter-api.js';
import { PresenterPolls } from './presenter-polls.js';
import { RoomIdentity } from './room-identity.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomState } from './room-state.js';
import { actionFor, commandFor, focusAfter, HELP, menuKey, undoOf } from './presenter-keys.js';

const BASE = document.body.dataset.base || '/';
const api = new PresenterAPI({ base: BASE });
// What a refused action said, on the status line (`prefix`: which action); whether it went.
const told = (result, prefix = '') => {
  if (!result.ok) say(`${prefix}${result.status} ${printable(result.text)}`);
  return result.ok;
};
const since2001 = 978307200;
// The session's report in the reader's time zone, not the server's.
(() => {
  const link = document.getElementById('report-link');
  const zone = (() => { try { return Intl.DateTimeFormat().resolvedOptions().timeZone; } catch { return ''; } })();
  if (link && zone) link.setAttribute('href', `${BASE}report?tz=${encodeURIComponent(zone)}`);
})();
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
// The card selected (its id): where the keys act, kept while the room changes.
let selected = null;
// The card whose menu is open (its id), kept open while the list is drawn again.
let menuOpen = null;
// The ids listed, in order, as last drawn (focusAfter: where the focus goes after a move).
let listed = [];
const cardOf = (id) => [...$('rows').children].find((li) => li.dataset.id === id) || null;
function render() {
  const { questions, highlighted } = room;
  const counts = Object.fromEntries(tabs.map((t) => [t, 0]));
  for (const q of questions.values()) counts[stateOf(q)] += 1;
  // The tabs are made once and only their counts change: they stay put, and keep the focus.
  if (!$('tabs').children.length) {
    $('tabs').replaceChildren(...tabs.map((t, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.tab = t;
      b.setAttribute('aria-keyshortcuts', String(i + 1));
      const name = document.createElement('span');
      name.textContent = word(tabNames[t]);
      const count = document.createElement('span');
      count.className = 'count';
      b.append(name, ' ', count);
      return b;
    }));
  }
  for (const b of $('tabs').children) {
    b.lastChild.textContent = `(${counts[b.dataset.tab]})`;
    b.setAttribute('aria-pressed', String(b.dataset.tab === tab));
  }
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
  // Where the focus is, to put it back after the list is drawn again: the same button of the
  // same card, or the card that took the place of one that moved to another list.
  /** @type {any} */
  const active = document.activeElement;
  const focusedCard = active && active.closest && active.closest('#rows > .card');
  const focus = focusedCard ? {
    id: focusedCard.dataset.id,
    action: active.dataset.action || (active.classList.contains('more') ? 'more' : ''),
  } : null;
  const ids = shown.map((q) => q.id);
  if (selected && !ids.includes(selected)) selected = focusAfter(listed, ids, selected);
  if (menuOpen && !ids.includes(menuOpen)) menuOpen = null;
  $('rows').replaceChildren(...shown.map(card));
  listed = ids;
  if (focus) {
    const id = focusAfter(listed.length ? listed : ids, ids, focus.id);
    const li = id && cardOf(id);
    if (!li) $('rows').focus();
    else if (id !== focus.id || !focus.action) li.focus();
    else {
      const again = focus.action === 'more' ? li.querySelector('button.more')
        : li.querySelector(`button[data-action="${focus.action}"]`);
      (again || li).focus();
    }
  }
}

// A question's actions: the two likely ones at hand, the rest in its menu; each
// [label, action] (actions as the API takes them, or the page's own: answer-text, edit-text…).
function actionsOf(q) {
  const { highlighted } = room, nextUp = room.nextUp.ids;
  const state = stateOf(q), isNow = q.id === highlighted;
  const main = [], more = [];
  const highlight = [word(isNow ? 'Stop answering' : 'Now answering'), isNow ? 'unhighlight' : 'highlight'];
  if (state === 'review') main.push([word('Approve'), 'approve'], [word('Dismiss'), 'dismiss']);
  else if (state === 'live') {
    main.push(highlight, [word('Answered'), 'answer']);
  } else if (state === 'answered') main.push([word('Dismiss'), 'dismiss']);
  else main.push([word('Restore'), 'restore']);
  if (state !== 'dismissed') {
    more.push([word('Answer with text…'), 'answer-text'], [word('Answer privately…'), 'answer-private']);
    if (state === 'live') more.push([word('Dismiss'), 'dismiss']);
    if (state === 'answered' && isNow) more.push(highlight);
  }
  // Extension moderation: correct the text; silence the asker (their new questions to
  // review).
  more.push([word('Edit…'), 'edit-text'], [word('Silence asker'), 'silence'], [word('Let the asker be heard'), 'unsilence']);
  // Extension queue: a star, and the place next up.
  more.push([word(q.starred ? 'Unstar' : 'Star'), q.starred ? 'unstar' : 'star']);
  if (room.labels.length) more.push([word('Label…'), 'relabel']);
  if (nextUp.includes(q.id)) {
    more.push([word('Not next'), 'dequeue'], [word('Up the queue'), 'moveUp'],
      [word('Down the queue'), 'moveDown'], [word('Top of the queue'), 'moveToTop']);
  } else if (state === 'live' && !q.answered) {
    more.push([word('Next up'), 'enqueue']);
  }
  return { main, more };
}

function card(q) {
  const { highlighted } = room, nextUp = room.nextUp.ids;
  const li = document.createElement('div');
  li.setAttribute('role', 'listitem');
  li.dataset.id = q.id;
  li.tabIndex = -1;
  const state = stateOf(q);
  li.className = `card ${state}${q.id === highlighted ? ' now' : ''}${q.id === selected ? ' selected' : ''}`;
  const meta = document.createElement('p');
  meta.className = 'card-meta';
  const add = (parent, className, text) => {
    const span = document.createElement('span');
    span.className = className;
    span.textContent = text;
    parent.append(span);
    return span;
  };
  add(meta, 'votes', `▲ ${q.votes}`);
  add(meta, 'when', new Date((since2001 + q.createdAt) * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    + (q.name ? ` · ${printable(q.name)}` : ''));
  if (q.id === highlighted) add(meta, 'badge now-badge', word('Now answering'));
  if (nextUp.includes(q.id)) add(meta, 'badge', `${word('Next up')} ${nextUp.indexOf(q.id) + 1}`);
  if (q.starred) add(meta, 'badge', `★ ${word('Starred')}`);
  if (typeof q.label === 'string' && q.label) add(meta, 'badge label', shortLabel(q.label));
  const text = document.createElement('p');
  text.className = 'text';
  text.textContent = printable(q.content);
  if (q.edited === true) add(text, 'edited', ` (${word('edited')})`);
  li.append(meta, text);
  if (Array.isArray(q.flagged) && q.flagged.length) {
    // Extension wordFilter: what the filter matched (why it waits in review).
    add(li, 'flagged', `${word('Filtered:')} ${q.flagged.slice(0, 5).map((w) => printable(String(w))).join(', ')}`);
  }
  if (q.answer) {
    add(li, 'answer', word(q.private ? 'Answered privately:' : 'Answer:') + ' ' + printable(q.answer));
  }
  const { main, more } = actionsOf(q);
  const actions = document.createElement('div');
  actions.className = 'card-actions';
  /** @param {string[]} pair @param {string} [className] */
  const button = ([label, action], className = '') => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.action = action;
    if (className) b.className = className;
    return b;
  };
  actions.append(...main.map((m, i) => button(m, i === 0 ? 'primary' : '')));
  // The rest: a disclosure button and its list (arrow keys move, Esc closes, the focus goes
  // back to the button).
  const menuId = `menu-${q.id}`;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'more';
  toggle.textContent = word('More');
  toggle.setAttribute('aria-label', `${word('More actions')}: ${Array.from(printable(q.content)).slice(0, 40).join('')}`);
  toggle.setAttribute('aria-haspopup', 'true');
  toggle.setAttribute('aria-controls', menuId);
  const list = document.createElement('ul');
  list.id = menuId;
  list.className = 'menu';
  list.setAttribute('role', 'menu');
  list.append(...more.map((m) => {
    const item = document.createElement('li');
    item.setAttribute('role', 'none');
    const b = button(m);
    b.setAttribute('role', 'menuitem');
    b.tabIndex = -1;
    item.append(b);
    return item;
  }));
  const isOpen = menuOpen === q.id;
  toggle.setAttribute('aria-expanded', String(isOpen));
  list.hidden = !isOpen;
  const wrap = document.createElement('div');
  wrap.className = 'more-wrap';
  wrap.append(toggle, list);
  actions.append(wrap);
  li.append(actions);
  return li;
}

const menuItems = (li) => [...li.querySelectorAll('[role="menuitem"]')];
function openMenu(li, focusItem = 0) {
  closeMenu(false);
  menuOpen = li.dataset.id;
  li.querySelector('button.more').setAttribute('aria-expanded', 'true');
  li.querySelector('.menu').hidden = false;
  const items = menuItems(li);
  if (focusItem !== null && items.length) items[focusItem < 0 ? items.length - 1 : focusItem].focus();
}
function closeMenu(refocus = true) {
  const li = menuOpen && cardOf(menuOpen);
  menuOpen = null;
  if (!li) return;
  li.querySelector('button.more').setAttribute('aria-expanded', 'false');
  li.querySelector('.menu').hidden = true;
  if (refocus) li.querySelector('button.more').focus();
}

// The card selected and focused (the keys act on it).
function select(id, focus = true) {
  selected = id;
  for (const li of $('rows').children) li.classList.toggle('selected', li.dataset.id === id);
  const li = id && cardOf(id);
  if (li && focus) { li.focus(); li.scrollIntoView({ block: 'nearest' }); }
}

// Undo, as the console's `u` has it (presenter-keys.js, undoOf): the last action, with what
// it replaced; an undo is not undone by the next one.
let last = null;
const remember = (action, id, body) => {
  const q = id ? room.questions.get(id) : null;
  last = { action, id, body, before: {
    highlighted: room.highlighted || null, content: q ? q.content : undefined,
    label: q ? q.label || '' : undefined, announcement,
  } };
};

// Extension announcements: the room's banner as the server last said; the field
// follows it unless the presenter is typing there.
let announcement = '';
const showAnnouncement = (a) => {
  announcement = a && typeof a.text === 'string' ? a.text : '';
  if (document.activeElement !== $('announcement')) $('announcement').value = announcement;
};
async function announce(text) {
  const before = announcement;
  if (told(await api.announce(text))) last = { action: 'announce', body: { text }, before: { announcement: before } };
}

// Extension wordFilter: a word into or out of the session's own list ("custom").
async function filterWord(remove) {
  const entry = $('filter-word').value.trim();
  if (!entry) return;
  const body = remove ? { remove: [entry] } : { add: [entry] };
  if (!told(await api.filter(body))) return;
  last = { action: 'filter', body };
  say('');
  $('filter-word').value = '';
}

// Extension labels: one label more for the session, or one fewer (a label the session
// already has, or lacks, changes nothing: there is nothing to undo).
async function changeLabel(remove) {
  const name = $('label-name').value.trim();
  if (!name) return;
  const had = room.labels.includes(name);
  if (!told(await (remove ? api.removeLabel(name) : api.addLabel(name)))) return;
  last = had === remove ? { action: remove ? 'label-remove' : 'label-add', body: { name } } : null;
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
  } else if (action === 'answer-text' || action === 'answer-private') {
    const isPrivate = action === 'answer-private';
    const text = prompt(word(isPrivate ? 'Answer, for the asker only:' : 'Answer, for the room:'));
    if (text === null) return;
    body = { text, private: isPrivate };
    action = 'answer';
  }
  remember(action, id, body);
  const sent = last;
  if (!told(await api.act(id, action, body), `${action}: `) && last === sent) last = null;
}

// Takes the last action back (presenter-keys.js, undoOf), and says so on the status line.
async function undo() {
  const inverse = undoOf(last);
  const what = last && last.action;
  last = null;
  if (inverse.none) {
    say(word(inverse.none === 'nothing' ? 'Nothing to undo.' : 'The last action cannot be undone.'));
    return;
  }
  let result;
  if (inverse.room === 'announce') result = await api.announce(inverse.body.text);
  else if (inverse.room === 'label-add') result = await api.addLabel(inverse.body.name);
  else if (inverse.room === 'label-remove') result = await api.removeLabel(inverse.body.name);
  else if (inverse.room === 'filter') result = await api.filter(inverse.body);
  else if (inverse.room === 'queue') result = await api.queue(inverse.body.step);
  else result = await api.act(inverse.id, inverse.action, inverse.body);
  if (told(result, `${word('Undo')}: `)) say(`${word('Undone:')} ${what}`);
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

const chooseTab = (chosen) => { tab = chosen; selected = null; menuOpen = null; render(); };
$('tabs').addEventListener('click', (e) => {
  const b = targetOf(e).closest('button');
  if (b && b.dataset.tab) chooseTab(b.dataset.tab);
});
$('rows').addEventListener('click', (e) => {
  const target = targetOf(e);
  const li = target.closest('#rows > .card');
  if (!li) return;
  const b = target.closest('button');
  if (b && b.classList.contains('more')) {
    if (menuOpen === li.dataset.id) closeMenu();
    else openMenu(li, e.detail === 0 ? 0 : null);
    return;
  }
  const action = b && b.dataset.action;
  select(li.dataset.id, !b);
  if (!action) return;
  if (b.getAttribute('role') === 'menuitem') closeMenu();
  act(li.dataset.id, action);
});
// The menu's keys: ↑ ↓ Home End move, Esc and Tab close it (the focus back on its button);
// ↓ or ↑ on the button opens it.
$('rows').addEventListener('keydown', (e) => {
  const target = targetOf(e);
  const li = target.closest('#rows > .card');
  if (!li) return;
  if (target.classList.contains('more') && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
    e.preventDefault();
    openMenu(li, e.key === 'ArrowDown' ? 0 : -1);
    return;
  }
  if (target.getAttribute('role') !== 'menuitem') return;
  const items = menuItems(li);
  const next = menuKey(e.key, items.indexOf(target), items.length);
  if (next === null) return;
  if (e.key !== 'Tab') e.preventDefault();
  if (next === 'close') closeMenu(e.key !== 'Tab');
  else items[next].focus();
});
$('rows').addEventListener('focusin', (e) => {
  const li = targetOf(e).closest('#rows > .card');
  if (li && li.dataset.id !== selected) select(li.dataset.id, false);
});
// A click elsewhere closes an open menu.
document.addEventListener('click', (e) => {
  if (menuOpen && !targetOf(e).closest('.more-wrap')) closeMenu(false);
});

// The help overlay (`?`): a modal dialog (the page behind it inert, the focus kept inside),
// Esc or its button closes it, the focus goes back where it was.
let helpFrom = null;
function showHelp() {
  let dialog = $('help');
  if (!dialog) {
    dialog = document.createElement('dialog');
    dialog.id = 'help';
    dialog.setAttribute('aria-labelledby', 'help-title');
    const title = document.createElement('h2');
    title.id = 'help-title';
    title.textContent = word('Keyboard shortcuts');
    const list = document.createElement('dl');
    for (const [keys, what] of HELP) {
      const dt = document.createElement('dt');
      const kbd = document.createElement('kbd');
      kbd.textContent = keys;
      dt.append(kbd);
      const dd = document.createElement('dd');
      dd.textContent = word(what);
      list.append(dt, dd);
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'primary';
    close.textContent = word('Close');
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => { if (helpFrom && helpFrom.isConnected) helpFrom.focus(); helpFrom = null; });
    dialog.append(title, list, close);
    document.body.append(dialog);
  }
  if (dialog.open) return;
  helpFrom = document.activeElement;
  dialog.showModal();
  dialog.querySelector('button').focus();
}

// The console's keys (presenter-keys.js), on the selected card; none while typing.
function run(command, event) {
  const cards = [...$('rows').children];
  const at = cards.findIndex((li) => li.dataset.id === selected);
  const move = (i) => { if (cards.length) select(cards[Math.max(0, Math.min(cards.length - 1, i))].dataset.id); };
  switch (command) {
    case 'select-next': move(at < 0 ? 0 : at + 1); return true;
    case 'select-previous': move(at < 0 ? 0 : at - 1); return true;
    case 'select-first': move(0); return true;
    case 'select-last': move(cards.length - 1); return true;
    case 'help': showHelp(); return true;
    case 'undo': undo(); return true;
    case 'next': queue('next'); return true;
    case 'queue': queue(room.nextUp.shown ? 'hide' : 'show'); return true;
    case 'sort':
      sort = sort === 'votes' ? 'time' : 'votes';
      $('sort').value = sort;
      render();
      return true;
    case 'search': $('search').focus(); return true;
    default:
  }
  if (command.startsWith('tab-')) { chooseTab(command.slice(4)); return true; }
  const q = selected && room.questions.get(selected);
  if (!q) { if (event.key.length === 1) say(word('Select a question first (↑ ↓).')); return event.key.length === 1; }
  const action = actionFor(command, q, stateOf(q), { highlighted: room.highlighted, nextUp: room.nextUp.ids });
  if (!action) return false;
  act(q.id, action);
  return true;
}
document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented) return;
  if (e.key === 'Escape' && targetOf(e).id === 'search' && $('search').value) {
    $('search').value = ''; filter = ''; render(); return;
  }
  const command = commandFor(e);
  if (command && run(command, e)) e.preventDefault();
});
// The tools' drawer stays as the presenter left it, across reloads (the polls are in it).
try { if (localStorage.getItem('qna-presenter-tools') === 'open') $('tools').open = true; } catch {}
$('tools').addEventListener('toggle', () => {
  try { localStorage.setItem('qna-presenter-tools', $('tools').open ? 'open' : 'closed'); } catch {}
});
$('keys').addEventListener('click', showHelp);
$('undo').addEventListener('click', () => undo());
// The lists' tabs, the filters and the keys: only with this script (without it the server's
// cards are the page, each unanswered one with its Answer button).
$('tabs').hidden = false;
$('search').parentElement.hidden = false;

$('announce').addEventListener('submit', (e) => {
  e.preventDefault();
  announce($('announcement').value.trim());
});
$('unannounce').addEventListener('click', () => { $('announcement').value = ''; announce(''); });
$('filter').addEventListener('submit', (e) => { e.preventDefault(); filterWord(false); });
const queue = async (step) => { if (told(await api.queue(step))) last = { action: 'queue', body: { step } }; };
$('next').addEventListener('click', () => queue('next'));
$('show-queue').addEventListener('click', () => queue(room.nextUp.shown ? 'hide' : 'show'));
$('unfilter').addEventListener('click', () => filterWord(true));
$('labels').addEventListener('submit', (e) => { e.preventDefault(); changeLabel(false); });
$('unlabel').addEventListener('click', () => changeLabel(true));
$('label-filter').addEventListener('change', (e) => { labelFilter = targetOf(e).value; render(); });
$('sort').addEventListener('change', (e) => { sort = targetOf(e).value; render(); });
$('search').addEventListener('input', (e) => { filter = targetOf(e).value.toLowerCase(); render(); });
socket.connect();
