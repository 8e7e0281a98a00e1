// The projector view's script (ProjectorPage): joins the room as a screen (extension
// `audience`: it is not counted, and it is told how many are), and shows the highlighted
// question and the most-voted live ones as they change, and the poll the room looks at
// (extension `polls`): its results as bars that move, a word cloud as words that never
// overlap (word-cloud.js), an open text's newest entries as a list. Its words come
// translated in `data-messages` (ProjectorScript.messages lists them).
import { printable, uuid } from './common.js';
import { RoomSocket, socketURL } from './room-socket.js';
import { RoomState } from './room-state.js';
import { entriesThatFit, featuredPoll, format, showResults } from './poll-view.js';
import { bounds, layout } from './word-cloud.js';

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
const lang = document.documentElement.lang || 'en';
// An open text's newest entries the screen lists: as many as stay readable from the back.
const SCREEN_TEXTS = 8;

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
  renderPoll();
}

// Extension polls: the newest open poll, else the newest whose results are shown, above the
// question being answered (the queue gives it its room): its question, how many answered,
// and its results while the presenters show them.
function renderPoll() {
  const poll = featuredPoll(room.polls.ordered);
  $('poll').hidden = !poll;
  if (!poll) {
    delete body.dataset.poll;
    delete $('poll-chart').dataset.kind;
    $('poll-chart').replaceChildren();
    return;
  }
  body.dataset.poll = poll.state === 'open' ? 'open' : 'results';
  $('poll-heading').textContent = word(poll.state === 'open' ? 'Poll: answer on your phone' : 'Poll results');
  $('poll-prompt').textContent = printable(poll.prompt);
  $('poll-answers').textContent = poll.results ? format(word('Answers: %d'), poll.results.answers) : '';
  const chart = $('poll-chart');
  const kind = `${poll.id}:${poll.results ? 'results' : 'options'}`;
  if (chart.dataset.kind !== kind) {
    chart.dataset.kind = kind;
    delete chart.dataset.words;
    chart.replaceChildren();
  }
  if (poll.kind === 'words') {
    cloud(chart, poll);
  } else if (poll.results) {
    if (!chart.firstElementChild) chart.append(Object.assign(document.createElement('div'), { className: 'results' }));
    showResults(chart.firstElementChild, poll, word, lang, { answers: false, texts: SCREEN_TEXTS });
    if (poll.kind === 'text') fitEntries(chart);
  } else if (poll.options && !chart.firstElementChild) {
    // Open, its results not shown: the options, for the room to read.
    const list = document.createElement('ol');
    list.className = 'poll-options';
    list.append(...poll.options.map((o) => Object.assign(document.createElement('li'), { textContent: printable(o) })));
    chart.append(list);
  }
}

// An open text's newest entries that fit the screen above its bottom padding, whole: the
// older ones past it are taken off (showResults lists them all again at the next change, or
// a resize), rather than the page running past the screen, and the question being answered
// with it. Not where the page is one column (a small window).
function fitEntries(chart) {
  const entries = [...chart.querySelectorAll('.text-entry')];
  const main = document.querySelector('main');
  if (!entries.length || !main || getComputedStyle(main).gridTemplateColumns.split(' ').length < 2) return;
  const bottom = Math.max(...Array.from(main.querySelector('.stage').children)
    .filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().bottom));
  const overflow = bottom - (window.innerHeight - parseFloat(getComputedStyle(main).paddingBottom));
  if (overflow <= 0) return;
  const keep = entriesThatFit(entries.map((li) => li.getBoundingClientRect().height), overflow);
  entries.slice(keep).forEach((li) => li.remove());
}
addEventListener('resize', () => { if (room.known) renderPoll(); });

// A word cloud in an SVG laid out at CLOUD's size (scaled to the screen), laid out again
// only when its words or their counts change.
// Its shape is the box's on the screen (about 3:1 under the poll's question), and its
// smallest words readable from the back of a hall (about 1/25 of a 720-line screen).
const CLOUD = { width: 960, height: 340, minSize: 34 };
const SVG = 'http://www.w3.org/2000/svg';
const pen = document.createElement('canvas').getContext('2d');
// A text's width at a size, in the cloud's font (.cloud text in room.css).
const measure = (text, size) => {
  if (!pen) return 0.6 * size * Array.from(text).length;
  pen.font = `600 ${size}px system-ui, sans-serif`;
  return pen.measureText(text).width;
};
// At most once a second: a storm of answers moves the words once in a while, not at each.
let cloudAt = 0, cloudTimer = 0;
function cloud(chart, poll) {
  const words = (poll.results && poll.results.words) || [];
  const key = JSON.stringify(words);
  if (chart.dataset.words === key) return;
  const wait = cloudAt + 1000 - Date.now();
  clearTimeout(cloudTimer);
  if (wait > 0) { cloudTimer = setTimeout(renderPoll, wait); return; }
  cloudAt = Date.now();
  chart.dataset.words = key;
  const placed = layout(words.map((w) => ({ text: printable(w.text), count: w.count })), { ...CLOUD, measure });
  if (!placed.length) { chart.replaceChildren(); return; }
  const svg = document.createElementNS(SVG, 'svg');
  // Zoomed in on the words while they are few.
  const box = bounds(placed, { width: CLOUD.width, height: CLOUD.height });
  svg.setAttribute('viewBox', [box.x, box.y, box.width, box.height].map((v) => v.toFixed(1)).join(' '));
  svg.setAttribute('class', 'cloud');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', placed.map((p) => `${p.text}: ${p.count}`).join(', '));
  svg.append(...placed.map((p, i) => {
    const text = document.createElementNS(SVG, 'text');
    for (const [name, value] of [['x', p.x.toFixed(1)], ['y', p.y.toFixed(1)], ['font-size', String(p.size)]]) {
      text.setAttribute(name, value);
    }
    // The accent for the most counted, never for a tie with the least counted.
    if (i < 3 && p.count > placed[placed.length - 1].count) text.setAttribute('class', 'top');
    text.textContent = p.text;
    return text;
  }));
  chart.replaceChildren(svg);
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
