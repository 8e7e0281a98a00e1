// The pages' polls (room-polls.js): bounded whatever a server sends, answers by number.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoomPolls, LEADERBOARD_LIMIT, POLL_LIMIT, OPTION_LIMIT, valueOf } from '../../Sources/Server/Pages/Assets/room-polls.js';

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

test('a quiz keeps its time limit, its named board and its leaderboard, bounded', () => {
  const polls = new RoomPolls();
  const board = [{ place: 1, name: 'Ada', score: 3 }, { place: 2, score: 2 }, { place: 'x', score: 1 }, null,
    ...Array.from({ length: 50 }, (_, i) => ({ place: 3 + i, name: 'n'.repeat(5000), score: 1 }))];
  polls.put([poll(1, { quiz: true, correct: [1], timeLimit: 30, namedBoard: true, state: 'closed', leaderboard: board })]);
  const one = polls.byId.get('P1');
  assert.equal(one.timeLimit, 30);
  assert.equal(one.namedBoard, true);
  assert.equal(one.leaderboard.length, LEADERBOARD_LIMIT);
  assert.deepEqual(one.leaderboard.slice(0, 2), [{ place: 1, name: 'Ada', score: 3 }, { place: 2, score: 2 }]);
  assert.equal(one.leaderboard[2].name.length, 600);
  polls.put([poll(1, { timeLimit: 'soon', namedBoard: 'yes', leaderboard: 'top' })]);
  assert.deepEqual(Object.keys(polls.byId.get('P1')).sort(), ['id', 'kind', 'n', 'options', 'prompt', 'shown', 'state']);
});

test('a removed poll takes its number away only when the number is still its own', () => {
  const polls = new RoomPolls();
  polls.replace([poll(1)]);
  // One delta: a new poll under the old one's number, and the old one removed.
  polls.delta({ polls: [{ ...poll(1), id: 'NEW' }], removedPolls: ['P1'] });
  polls.results([{ n: 1, answers: 2, counts: [1, 1] }]);
  assert.deepEqual(polls.byId.get('NEW').results, { answers: 2, counts: [1, 1] });
});

test('a reset (a new round) forgets the answer counted', () => {
  const polls = new RoomPolls();
  polls.replace([poll(1, { mine: { choices: [0] } })]);
  polls.put([poll(1)]);
  assert.deepEqual(polls.answers.get('P1'), { choices: [0] }, 'restated, not reset');
  polls.put([poll(1, { round: 1 })]);
  assert.equal(polls.answers.has('P1'), false);
});
