// The projector view's script (ProjectorPage): joins the room as a screen (extension
// `audience`: it is not counted, and it is told how many are), and shows the highlighted
// question and the most-voted live ones as they change. Its words come translated in
// `data-messages` (ProjectorScript.messages lists them).
import { printable, uuid } from './common.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomState } from './room-state.js';

const body = document.body;
const SOCKET = body.dataset.socket || '/socket';
const UP_NEXT = Number(body.dataset.upNext) || 5;
const words = (() => { try { return JSON.parse(body.dataset.messages || '{}'); } catch { return {}; } })();
const word = (id) => words[id] || id;
/**
 * The page's element with this id (the page's own markup has it), typed loosely: what the
 * checker sees of the DOM here is names, not each element's kind.
 * @param {string} id
 * @returns {any}
 */
const $ = (id) => document.getElementById(id);
const room = new RoomState();
const me = uuid();

function render() {
  // Until the room comes, what the server wrote stays.
  if (!room.known) return;
  const { questions, highlighted } = room;
  // Extension announcements: the presenter's banner, above the question being answered.
  const banner = room.announcement ? printable(room.announcement.text).slice(0, 280) : '';
  $('banner').textContent = banner;
  $('banner').hidden = !banner;
  const now = highlighted && questions.get(highlighted);
  $('now-text').textContent = now ? printable(now.content) : word('No question is being answered.');
  // A long question in a smaller size, so that all of it stays on the screen.
  $('now-text').className = now ? (now.content.length > 120 ? 'long' : '') : 'idle';
  // Extension queue: the presenters' next questions, when they show them.
  const queued = room.shownNextUp.map((id) => questions.get(id)).filter((q) => q && q.id !== highlighted);
  const next = (queued.length ? queued : [...questions.values()]
    .filter((q) => RoomState.stateOf(q) === 'live' && !q.answered && q.id !== highlighted)
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

// A screen needs no identity: it never votes or asks. It is not counted in the room, and
// is told how many are (extension audience).
const socket = new RoomSocket({
  url: socketURL(SOCKET),
  room,
  join: (extensions) => ({
    attendee: me,
    ...(extensions.includes('counts') ? { counts: true } : {}),
    ...(extensions.includes('audience') ? { screen: true } : {}),
  }),
  opened: () => { $('status').textContent = word('Live'); socket.join(); },
  changed: () => { body.dataset.live = 'true'; render(); },
  received: (m) => {
    if (m.type !== 'audience') return;
    $('audience').textContent = `${word('In the room:')} ${m.count}`;
    body.dataset.audience = String(m.count);
  },
  closed: () => {
    body.dataset.live = 'false';
    $('status').textContent = word('Reconnecting…');
  },
});
render();
socket.connect();
