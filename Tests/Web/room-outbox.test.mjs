// What waits in the browser (room-outbox.js): questions in typed order until answered, told
// to wait or refused; the latest vote intent per question; confirmed questions and a restored
// database's; and two tabs sharing one storage without erasing each other's writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEEP_LIMIT, RoomOutbox } from '../../Sources/Server/Pages/Assets/room-outbox.js';
import { storage } from './shared-storage.mjs';

let tokens = 0;
const tab = (shared, clock = { now: 1000 }) => new RoomOutbox({
  load: shared.load, save: shared.save,
  environment: { now: () => clock.now, token: () => `T${++tokens}` },
});

test('questions wait in typed order; an answer takes one out and makes it mine', () => {
  const shared = storage();
  const outbox = tab(shared);
  outbox.ask('First?', '');
  outbox.ask('Second?', 'Ops');
  assert.deepEqual(outbox.questions.map((q) => [q.content, q.label]), [['First?', undefined], ['Second?', 'Ops']]);
  const first = outbox.next();
  outbox.answered(first.token, { success: true, id: 'Q1' });
  assert.equal(outbox.next().content, 'Second?');
  assert.ok(outbox.mine.has('Q1'));
  assert.deepEqual(shared.load('kept'), [{ id: 'Q1', token: first.token, content: 'First?' }]);
  assert.deepEqual(shared.load('outbox').map((q) => q.content), ['Second?']);
  // A reload finds what waits and what is mine.
  const again = tab(shared);
  assert.deepEqual(again.questions.map((q) => q.content), ['Second?']);
  assert.ok(again.mine.has('Q1'));
});

test('a question told to wait keeps its place; one refused for good waits to be sent again or discarded', () => {
  const clock = { now: 1000 };
  const outbox = tab(storage(), clock);
  outbox.ask('Rate limited?');
  outbox.ask('After it');
  const [limited, after] = outbox.questions;
  outbox.answered(limited.token, { success: false }, { retryMs: 2500 });
  assert.equal(outbox.next(), limited, 'nothing overtakes it');
  assert.equal(limited.waitUntil, 3500);
  outbox.answered(limited.token, { success: false, message: 'No' }, { reason: 'No' });
  assert.equal(limited.failed, 'No');
  assert.equal(outbox.next(), after, 'one refused for good no longer holds the rest');
  outbox.retry(limited.token);
  assert.equal(outbox.next(), limited);
  outbox.discard(limited.token);
  assert.deepEqual(outbox.questions.map((q) => q.content), ['After it']);
});

test('a vote\'s latest intent is kept, counted once answered, sent again when told to wait', () => {
  const clock = { now: 1000 };
  const outbox = tab(storage(), clock);
  outbox.vote('Q', true, 4);
  assert.deepEqual([outbox.intent('Q').up, outbox.intent('Q').shown], [true, 5]);
  outbox.vote('Q', false, 4);
  assert.deepEqual([outbox.intent('Q').up, outbox.intent('Q').shown], [false, 4], 'taken back from what the click showed');
  const { token } = outbox.intent('Q');
  assert.equal(outbox.voteAnswered({ question: 'Q', token: 'other', success: true }), null);
  outbox.intent('Q').sent = true;
  assert.equal(outbox.voteAnswered({ question: 'Q', token, success: false }, 800), 'retry');
  assert.deepEqual([outbox.intent('Q').sent, outbox.intent('Q').waitUntil], [false, 1800]);
  assert.equal(outbox.voteAnswered({ question: 'Q', token, success: true }), 'done');
  assert.equal(outbox.intent('Q'), null);
});

test('questions a restored database lost are asked again first, under their tokens', () => {
  const outbox = tab(storage());
  outbox.ask('Kept one');
  outbox.answered(outbox.next().token, { success: true, id: 'Q1' });
  outbox.ask('Still waiting');
  assert.deepEqual(outbox.open(() => false), ['Q1']);
  assert.deepEqual(outbox.open((id) => id === 'Q1'), [], 'answered ones are not asked about');
  assert.equal(outbox.restore(['Q9']), 0);
  assert.equal(outbox.restore(['Q1']), 1);
  assert.deepEqual(outbox.questions.map((q) => q.content), ['Kept one', 'Still waiting']);
  assert.ok(!outbox.mine.has('Q1'));
});

test('confirmed questions are bounded, the oldest leaving first', () => {
  const outbox = tab(storage());
  for (let i = 0; i < KEEP_LIMIT + 3; i++) outbox.remember(`Q${i}`, `T${i}`, `${i}`);
  assert.equal(outbox.kept.length, KEEP_LIMIT);
  assert.equal(outbox.kept[0].id, 'Q3');
});

test('two tabs of a room keep each other\'s writes, and what one took out stays out', () => {
  const shared = storage();
  const a = tab(shared);
  const b = tab(shared);
  a.ask('From A');
  b.ask('From B');
  assert.deepEqual(b.questions.map((q) => q.content), ['From B', 'From A'], 'B\'s save kept A\'s question');
  // A sends, as the sender, and hears the answer to B's question.
  assert.ok(a.changed('outbox'));
  const fromB = a.questions.find((q) => q.content === 'From B');
  a.answered(fromB.token, { success: true, id: 'QB' });
  // B hears of it (the storage event), then writes: B's question does not come back. (Had
  // B written first, from its older copy, it would be sent again: its token makes the
  // server store it once.)
  assert.ok(b.changed('outbox'));
  b.ask('Again from B');
  assert.ok(a.changed('outbox'));
  assert.deepEqual(a.questions.map((q) => q.content).sort(), ['Again from B', 'From A']);
  assert.ok(b.changed('kept') && b.mine.has('QB'), 'the sender\'s confirmed questions are every tab\'s');
  // Votes: the latest intent wins, whichever tab made it.
  const clock = { now: 1000 };
  const c = tab(shared, clock);
  const d = tab(shared, clock);
  c.vote('Q', true, 0);
  clock.now = 2000;
  d.vote('Q', false, 0);
  c.saveVotes();
  assert.equal(shared.load('votes').Q.up, false);
  assert.equal(c.changed('nothing'), false);
});

test('what another tab wrote keeps this tab\'s waits and sends', () => {
  const shared = storage();
  const clock = { now: 1000 };
  const a = tab(shared, clock);
  a.ask('Waiting');
  a.answered(a.next().token, { success: false }, { retryMs: 5000 });
  a.vote('Q', true, 0);
  a.intent('Q').sent = true;
  const b = tab(shared, clock);
  b.ask('Another');
  assert.ok(a.changed('outbox') && a.changed('votes'));
  assert.equal(a.next().waitUntil, 6000);
  assert.equal(a.intent('Q').sent, true);
  a.unsent();
  assert.equal(a.intent('Q').sent, false);
});

test('what the storage holds that is not what waits is passed over', () => {
  const shared = storage();
  shared.save('outbox', [null, 7, { content: 'no token' }, { token: 'T', content: 'fine' }]);
  shared.save('votes', ['not', 'a', 'map']);
  shared.save('kept', 'nothing');
  const outbox = tab(shared);
  assert.deepEqual(outbox.questions.map((q) => q.content), ['fine']);
  assert.deepEqual(outbox.votes, {});
  assert.deepEqual(outbox.kept, []);
});
