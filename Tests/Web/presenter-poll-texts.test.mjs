// An open text's moderation on the presenter page (presenter-poll-texts.js and its part of
// presenter-polls.js and presenter-api.js): the entries waiting and the live ones, drawn as
// text only, each button sending its action with the entry's text as the results name it;
// the form's new kind, checked as the server checks it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PresenterAPI } from '../../Sources/Server/Pages/Assets/presenter-api.js';
import { entryKey, moderationOf, nearestEntry, showModeration } from '../../Sources/Server/Pages/Assets/presenter-poll-texts.js';
import { PresenterPolls, fieldsOf, specOf, specProblem } from '../../Sources/Server/Pages/Assets/presenter-polls.js';
import { installDocument, markupIn } from './fake-dom.mjs';

const same = (w) => w;
const textPoll = (results, extra = {}) => ({
  id: 'C0000000-0000-4000-8000-0000000000C3', n: 3, kind: 'text', prompt: 'What next?', state: 'open', shown: true,
  results, ...extra,
});
const results = {
  answers: 6,
  texts: [{ text: 'Macros', count: 2 }, { text: 'Slides online?', count: 1 }],
  review: [{ text: '<img src=x onerror=alert(1)>', count: 1 }, { text: 'Bidi\u202Etrick', count: 3 }],
  held: 5,
};

test('the entries a presenter acts on: waiting ones with Approve and Dismiss, live ones with Dismiss', () => {
  const m = moderationOf(textPoll(results));
  assert.deepEqual(m.review.map((e) => [e.text, e.shown, e.times, e.acts]), [
    ['<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>', '', ['approve', 'dismiss']],
    ['Bidi\u202Etrick', 'Bidi\\u{202E}trick', '×3', ['approve', 'dismiss']],
  ]);
  assert.deepEqual(m.live.map((e) => [e.text, e.times, e.acts]), [['Macros', '×2', ['dismiss']], ['Slides online?', '', ['dismiss']]]);
  assert.equal(m.held, 5);
  assert.equal(m.more, 3);
  // No results (or none of an open text's): nothing to act on; `held` never below those listed.
  assert.deepEqual(moderationOf(textPoll(undefined)), { review: [], live: [], held: 0, more: 0 });
  assert.equal(moderationOf(textPoll({ answers: 1, review: [{ text: 'a', count: 1 }], held: -2 })).held, 1);
  assert.equal(entryKey(textPoll(results), 'review', 'approve', 'a'), 'C0000000-0000-4000-8000-0000000000C3:review:approve:a');
});

test('drawn as text, never markup: a hostile entry stays words, its button carries it as data', () => {
  installDocument();
  const box = document.createElement('div');
  const poll = textPoll({ ...results, texts: [...results.texts, { text: 'L'.repeat(10_000), count: 1 }] });
  showModeration(box, poll, same);
  assert.deepEqual(markupIn(box), []);
  const [waiting, live] = box.querySelectorAll('h4').map((h) => h.textContent);
  assert.deepEqual([waiting, live], ['Waiting for review: 5', 'Live in the room']);
  assert.equal(box.querySelector('p.meta').textContent, 'And 3 more.');
  const review = box.querySelector('ol.review').children;
  assert.deepEqual(review.map((li) => li.querySelector('.entry-text').textContent),
    ['<img src=x onerror=alert(1)>', 'Bidi\\u{202E}trick']);
  const buttons = review[1].querySelectorAll('button');
  assert.deepEqual(buttons.map((b) => [b.textContent, b.dataset.act, b.dataset.text]),
    [['Approve', 'approve', 'Bidi\u202Etrick'], ['Dismiss', 'dismiss', 'Bidi\u202Etrick']]);
  // Each button says which entry it acts on to a screen reader.
  assert.equal(buttons[0].getAttribute('aria-describedby'), review[1].querySelector('.entry-text').id);
  const liveItems = box.querySelector('ol.live').children;
  assert.deepEqual(liveItems.map((li) => li.querySelectorAll('button').map((b) => b.dataset.act)), [['dismiss'], ['dismiss'], ['dismiss']]);
  assert.equal(liveItems[2].querySelector('.entry-text').textContent, `${'L'.repeat(140)}…`);
  assert.equal(liveItems[2].querySelector('button').dataset.text.length, 10_000, 'the entry as the results name it');
  // The action under way: its button marked busy.
  showModeration(box, poll, same, { act: 'approve', text: 'Bidi\u202Etrick' });
  const busy = box.querySelectorAll('button').filter((b) => b.getAttribute('aria-disabled') === 'true');
  assert.deepEqual(busy.map((b) => [b.dataset.act, b.dataset.text]), [['approve', 'Bidi\u202Etrick']]);
  // Nothing waiting, nothing live: said so.
  showModeration(box, textPoll({ answers: 0, texts: [], review: [], held: 0 }), same);
  assert.deepEqual(box.querySelectorAll('li.empty').map((li) => li.textContent), ['Nothing waits for review.', 'Nothing in the room yet.']);
  assert.equal(box.querySelector('p.meta'), null);
});

test('the focus, its entry gone, goes to the entry that took its place', () => {
  installDocument();
  const cards = document.createElement('ol');
  const card = document.createElement('li');
  card.dataset.poll = textPoll(results).id;
  const box = document.createElement('div');
  box.className = 'poll-texts';
  card.append(box);
  cards.append(card);
  showModeration(box, textPoll(results), same);
  const spot = { poll: card.dataset.poll, list: 'review', act: 'dismiss', index: 1 };
  assert.equal(nearestEntry(cards, spot).dataset.text, 'Bidi\u202Etrick');
  // The second waiting entry dismissed: the first one's Dismiss.
  showModeration(box, textPoll({ ...results, review: results.review.slice(0, 1) }), same);
  const next = nearestEntry(cards, spot);
  assert.deepEqual([next.dataset.act, next.dataset.text], ['dismiss', '<img src=x onerror=alert(1)>']);
  assert.equal(nearestEntry(cards, { ...spot, poll: 'other' }), null);
});

// The panel with a fake API: what each button asked it to do.
const panel = () => {
  installDocument();
  const calls = [];
  const api = {
    pollTextAction: async (...args) => { calls.push(['text', ...args]); return { ok: true, status: 200, text: '{}' }; },
    pollAction: async (...args) => { calls.push(['poll', ...args]); return { ok: true, status: 200, text: '{"state":"closed"}' }; },
    polls: async () => ({ ok: true, status: 200, text: '{"polls":[]}' }),
    pollsExportURL: () => '/api/polls/export',
    pollResultsURL: (format) => `/api/polls/results?format=${format}`,
  };
  const root = document.createElement('section');
  return { polls: new PresenterPolls({ root, api, word: same }), calls, root };
};
const click = (root, button) => root.querySelector('ol.poll-cards').dispatch('click', button);

test('Approve and Dismiss send their action with the entry\'s text, and say what became of it', async () => {
  const { polls, calls, root } = panel();
  polls.show([textPoll(results)]);
  // (A card is made again when an action starts or ends: found afresh each time.)
  const card = () => root.querySelector('li.poll-card');
  assert.equal(card().querySelector('.meta').textContent, 'Poll 3 · a line of text');
  // The card's results: the line of answers; the entries are the moderation's.
  assert.equal(card().querySelector('.results .summary').textContent, 'Answers: 6');
  assert.equal(card().querySelector('.results .texts').hidden, true);
  const find = (list, act, text) => card().querySelectorAll('button')
    .find((b) => b.dataset.list === list && b.dataset.act === act && b.dataset.text === text);
  click(root, find('review', 'approve', 'Bidi\u202Etrick'));
  // On its way: its button marked busy, and no other action on the poll meanwhile.
  assert.equal(find('review', 'approve', 'Bidi\u202Etrick').getAttribute('aria-disabled'), 'true');
  click(root, find('review', 'dismiss', 'Bidi\u202Etrick'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(calls, [['text', textPoll(results).id, 'approve', 'Bidi\u202Etrick']]);
  assert.equal(root.querySelector('.poll-news').textContent, 'Poll 3 · Approved');
  // Live entries too can be kept out.
  click(root, find('live', 'dismiss', 'Macros'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(calls.at(-1), ['text', textPoll(results).id, 'dismiss', 'Macros']);
  assert.equal(root.querySelector('.poll-news').textContent, 'Poll 3 · Dismissed');
  // The card's own buttons still go the way they went.
  click(root, card().querySelectorAll('button').find((b) => b.dataset.act === 'close'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(calls.at(-1), ['poll', textPoll(results).id, 'close']);
  assert.deepEqual(markupIn(root), []);
});

test('a refused entry action says why on its card', async () => {
  const { polls, root } = panel();
  polls.api.pollTextAction = async () => ({ ok: false, status: 404, text: '{"error":{"message":"No one gave that answer."}}' });
  polls.show([textPoll(results)]);
  const approve = root.querySelectorAll('button').find((b) => b.dataset.act === 'approve');
  click(root, approve);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(root.querySelector('li.poll-card .problem').textContent, 'No one gave that answer.');
});

test('the API: POST api/polls/ID/approve or /dismiss with the entry as JSON', async () => {
  const sent = [];
  const api = new PresenterAPI({
    base: '/s/K7QX2M',
    environment: { fetch: async (url, init) => { sent.push({ url, ...init }); return { ok: true, status: 200, text: async () => '{}' }; }, key: () => 'KEY' },
  });
  const id = 'C0000000-0000-4000-8000-0000000000C3';
  await api.pollTextAction(id, 'approve', 'Slides "online"?');
  await api.pollTextAction(id, 'dismiss', 'Macros');
  assert.deepEqual(sent.map(({ method, url, body, headers }) => [method, url, body, headers['Content-Type']]), [
    ['POST', `/s/K7QX2M/api/polls/${id}/approve`, '{"text":"Slides \\"online\\"?"}', 'application/json'],
    ['POST', `/s/K7QX2M/api/polls/${id}/dismiss`, '{"text":"Macros"}', 'application/json'],
  ]);
  assert.deepEqual(await api.pollTextAction(id, 'open', 'x'), { ok: false, status: 0, text: 'no poll action open' });
  assert.deepEqual(await api.pollTextAction(id, 'approve'), { ok: false, status: 0, text: 'no poll action approve' });
  assert.equal(sent.length, 2);
});

test('the form makes an open text: a prompt, nothing more', () => {
  const fields = { kind: 'text', prompt: ' What next? ', options: 'A\nB', max: '2', scale: '1-5', quiz: true, correct: [0], order: '', timeLimit: '30', namedBoard: true };
  assert.deepEqual(specOf(fields).spec, { kind: 'text', prompt: 'What next?' });
  assert.deepEqual(specOf(fieldsOf({ kind: 'text', prompt: 'What next?' })).spec, { kind: 'text', prompt: 'What next?' });
  assert.equal(specProblem({ kind: 'text', prompt: 'Q' }), null);
  assert.equal(specProblem({ kind: 'text', prompt: 'Q', max: 1 }).field, 'max');
  assert.equal(specProblem({ kind: 'text', prompt: 'Q', options: ['A', 'B'] }).field, 'options');
  assert.equal(specProblem({ kind: 'text', prompt: 'Q', correct: [0] }).field, 'kind');
  const { root } = panel();
  const kinds = root.querySelector('select').children.map((o) => [o.value, o.textContent]);
  assert.deepEqual(kinds.at(-1), ['text', 'Open text']);
});

test('its entry gone from the queue, the focus goes to the entry nearest its place', () => {
  const { polls, root } = panel();
  const focus = (list, act, index) => root.querySelectorAll('button')
    .find((b) => b.dataset.list === list && b.dataset.act === act && b.dataset.index === String(index)).focus();
  const now = () => [document.activeElement.dataset.list, document.activeElement.dataset.act, document.activeElement.dataset.text];
  polls.show([textPoll(results)]);
  focus('review', 'approve', 0);
  // The room's results after the approval: the first waiting entry is live, the next in its place.
  polls.show([textPoll({ ...results, texts: [results.review[0], ...results.texts], review: results.review.slice(1), held: 4 })]);
  assert.deepEqual(now(), ['review', 'approve', 'Bidi\u202Etrick']);
  // The last one dismissed: the one before it, the same action.
  polls.show([textPoll(results)]);
  focus('review', 'dismiss', 1);
  polls.show([textPoll({ ...results, review: results.review.slice(0, 1), held: 4 })]);
  assert.deepEqual(now(), ['review', 'dismiss', '<img src=x onerror=alert(1)>']);
  // The queue emptied: its line saying so, never a live entry's Dismiss (a second Enter
  // would keep that one out of the room); it stays there across a redraw.
  polls.show([textPoll({ ...results, review: [], held: 0 })]);
  assert.equal(document.activeElement.className, 'empty');
  assert.equal(document.activeElement.textContent, 'Nothing waits for review.');
  assert.equal(document.activeElement.tabIndex, -1);
  const empty = document.activeElement;
  polls.show([textPoll({ ...results, answers: 7, texts: [{ text: 'Live now', count: 1 }, ...results.texts], review: [], held: 0 })]);
  assert.notEqual(document.activeElement, empty, 'the entries drawn again');
  assert.equal(document.activeElement.textContent, 'Nothing waits for review.');
  // A new entry to review in its place: its first button.
  polls.show([textPoll({ ...results, review: [{ text: 'New one', count: 1 }], held: 1 })]);
  assert.deepEqual(now(), ['review', 'approve', 'New one']);
});
