// The pages' polls (room-polls.js): bounded whatever a server sends, answers by number.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoomPolls, POLL_LIMIT, OPTION_LIMIT, valueOf } from '../../Sources/Server/Pages/Assets/room-polls.js';

const poll = (i, extra = {}) => ({ id: `P${i}`, n: i, kind: 'single', prompt: `Poll ${i}`, options: ['A', 'B'], state: 'open', shown: true, ...extra });

test('what a hostile server sends is bounded', () => {
  const polls = new RoomPolls();
  polls.put([...Array.from({ length: 500 }, (_, i) => poll(i)), null, 7, { id: 'X' }]);
  assert.equal(polls.byId.size, POLL_LIMIT);
  polls.replace([poll(1, { options: Array.from({ length: 1000 }, (_, i) => `O${i}`), prompt: 'x'.repeat(5000), results: { answers: -3, counts: [1, 'two', 3] } })]);
  const one = polls.byId.get('P1');
  assert.equal(one.options.length, OPTION_LIMIT);
  assert.equal(one.prompt.length, 600);
  assert.deepEqual(one.results, { answers: 0, counts: [1, 3] });
});

test('answers come with a snapshot, by number after a shared one, and go with their poll', () => {
  const polls = new RoomPolls();
  polls.replace([poll(1, { mine: { choices: [1] } }), poll(2)]);
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] });
  polls.own([{ n: 2, value: { words: ['swift', 42] } }, { n: 9, value: { rating: 1 } }]);
  assert.deepEqual(polls.answers.get('P2'), { words: ['swift'] });
  polls.delta({ removedPolls: ['P1'], pollResults: [{ n: 2, answers: 1, counts: [0, 1] }] });
  assert.equal(polls.answers.has('P1'), false);
  assert.deepEqual(polls.byId.get('P2').results, { answers: 1, counts: [0, 1] });
  assert.equal(valueOf({ nothing: true }), null);
});
