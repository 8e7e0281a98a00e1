// Poll answers waiting in the browser (poll-answers.js): the latest per poll until the server
// answers it, sent once per connection, told to wait or refused; kept across reloads; two
// tabs sharing one storage, the later answer winning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PENDING_LIMIT, PollAnswers } from '../../Sources/Server/Pages/Assets/poll-answers.js';
import { storage } from './shared-storage.mjs';

let tokens = 0;
const tab = (shared, clock = { now: 1000 }) => new PollAnswers({
  load: shared.load, save: shared.save,
  environment: { now: () => clock.now, token: () => `T${++tokens}` },
});

test('an answer waits, is sent once per connection, and goes when counted', () => {
  const shared = storage();
  const answers = tab(shared);
  answers.answer('P1', { choices: [0] });
  answers.answer('P1', { choices: [1] });
  const { due, wait } = answers.due();
  assert.equal(due.length, 1);
  assert.deepEqual(due[0].value, { choices: [1] });
  assert.equal(wait, null);
  // Sent on this connection: not again until a new one.
  assert.equal(answers.due().due.length, 0);
  answers.unsent();
  assert.equal(answers.due().due[0].token, due[0].token);
  // A reload finds it waiting, under the same token.
  assert.equal(tab(shared).waiting('P1').token, due[0].token);
  // Another token's answer is not this one's.
  assert.equal(answers.answered({ poll: 'P1', token: 'other', success: true }), null);
  assert.equal(answers.answered({ poll: 'P1', token: due[0].token, success: true, value: { choices: [1] } }), 'done');
  assert.equal(answers.waiting('P1'), null);
  assert.deepEqual(shared.load('polls'), {});
});

test('told to wait, it goes again after the delay; refused for good, it says why', () => {
  const clock = { now: 1000 };
  const answers = tab(storage(), clock);
  answers.answer('P1', { rating: 3 });
  const [first] = answers.due().due;
  assert.equal(answers.answered({ poll: 'P1', token: first.token, success: false, retryAfter: 2 }, 2000), 'retry');
  assert.deepEqual(answers.due(), { due: [], wait: 2000 });
  clock.now += 2000;
  assert.equal(answers.due().due[0].token, first.token);
  assert.equal(answers.answered({ poll: 'P1', token: first.token, success: false, message: 'That poll is closed.' }), 'done');
  assert.equal(answers.refused.get('P1'), 'That poll is closed.');
  // A new answer clears the refusal.
  answers.answer('P1', { rating: 4 });
  assert.equal(answers.refused.has('P1'), false);
});

test('two tabs: the one that sends takes what the other left; the later answer wins', () => {
  const shared = storage();
  const clock = { now: 1000 };
  const sender = tab(shared, clock), other = tab(shared, clock);
  other.answer('P1', { choices: [0] });
  sender.changed();
  const [sent] = sender.due().due;
  assert.deepEqual(sent.value, { choices: [0] });
  clock.now += 10;
  other.answer('P2', { words: ['swift'] });
  sender.changed();
  // What it sent stays sent; the new one is due.
  assert.deepEqual(sender.due().due.map((a) => a.poll), ['P2']);
  // The sender's answer to P1 is heard: it leaves the storage, and the other tab hears why.
  sender.answered({ poll: 'P1', token: sent.token, success: false, message: 'No.' });
  other.changed();
  assert.equal(other.waiting('P1'), null);
  other.heard({ poll: 'P1', token: sent.token, success: false, message: 'No.' });
  assert.equal(other.refused.get('P1'), 'No.');
  // A later answer made in one tab wins over an earlier one still in the other's memory.
  clock.now += 10;
  other.answer('P3', { rating: 1 });
  clock.now += 10;
  sender.answer('P3', { rating: 5 });
  other.changed();
  assert.deepEqual(other.waiting('P3').value, { rating: 5 });
  // A refusal heard for an answer that a newer one replaced says nothing.
  other.heard({ poll: 'P3', token: 'old', success: false, message: 'Late.' });
  assert.equal(other.refused.has('P3'), false);
});

test('at most PENDING_LIMIT answers wait: the oldest go first', () => {
  const clock = { now: 1000 };
  const answers = tab(storage(), clock);
  for (let i = 0; i < PENDING_LIMIT + 5; i++) { clock.now += 1; answers.answer(`P${i}`, { rating: 1 }); }
  assert.equal(Object.keys(answers.pending).length, PENDING_LIMIT);
  assert.equal(answers.waiting('P0'), null);
  assert.ok(answers.waiting(`P${PENDING_LIMIT + 4}`));
});

test('what the storage holds that is not an answer is passed over', () => {
  const shared = storage();
  shared.save('polls', { P1: { token: 'T', value: { choices: [0] }, at: 1 }, P2: null, P3: { token: 7 }, P4: { token: 'U' } });
  assert.deepEqual(Object.keys(tab(shared).pending), ['P1']);
  shared.save('polls', ['not', 'an', 'object']);
  assert.deepEqual(tab(shared).pending, {});
});

test('an answer taken with a word (an open text\'s, held for review) keeps the word to show', () => {
  const answers = tab(storage());
  answers.answer('P1', { text: 'Slides online?' });
  const [sent] = answers.due().due;
  const held = { poll: 'P1', token: sent.token, success: true, value: { text: 'Slides online?' }, message: 'Your answer waits for review.' };
  assert.equal(answers.answered(held), 'done');
  assert.equal(answers.notes.get('P1'), 'Your answer waits for review.');
  assert.equal(answers.refused.has('P1'), false);
  // A new answer forgets it; so does a response without a word, or a refusal.
  answers.answer('P1', { text: 'Demos?' });
  assert.equal(answers.notes.has('P1'), false);
  answers.heard({ poll: 'P2', token: 'T', success: true, message: 'Waits.' });
  answers.heard({ poll: 'P2', token: 'T', success: true });
  assert.equal(answers.notes.has('P2'), false);
  answers.heard({ poll: 'P3', token: 'T', success: false, message: 'No.' });
  assert.equal(answers.notes.has('P3'), false);
  assert.equal(answers.refused.get('P3'), 'No.');
  // However many polls a server names.
  for (let i = 0; i < 3 * PENDING_LIMIT; i++) answers.heard({ poll: `X${i}`, token: 'T', success: true, message: 'Waits.' });
  assert.equal(answers.notes.size, PENDING_LIMIT);
});
