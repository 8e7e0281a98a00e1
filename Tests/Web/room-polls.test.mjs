// The pages' polls (room-polls.js): bounded whatever a server sends, answers by number, an
// answer a response settled not undone by an older snapshot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  RoomPolls, LEADERBOARD_LIMIT, POLL_LIMIT, POLL_TEXT_LIMIT, OPTION_LIMIT, TEXT_ENTRY_LIMIT, valueOf,
} from '../../Sources/Server/Pages/Assets/room-polls.js';
import { RoomState } from '../../Sources/Server/Pages/Assets/room-state.js';

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

test('an open text\'s results: its live entries, those waiting and how many wait, bounded', () => {
  const polls = new RoomPolls();
  const many = (prefix) => Array.from({ length: 100 }, (_, i) => ({ text: `${prefix}${i}`, count: i }));
  polls.replace([poll(1, {
    kind: 'text', options: undefined,
    results: {
      answers: 7,
      texts: [{ text: 'x'.repeat(10_000), count: 2 }, { text: 42, count: 1 }, null, { text: 'no count' }, ...many('t')],
      review: [{ text: 'Slides?', count: -4 }, ...many('r')],
      held: -1,
    },
  })]);
  const { results } = polls.byId.get('P1');
  assert.equal(results.texts.length, TEXT_ENTRY_LIMIT);
  assert.equal(results.texts[0].text.length, POLL_TEXT_LIMIT);
  assert.equal(results.texts[0].count, 2);
  assert.equal(results.texts[1].text, 't0', 'entries that are none are passed over');
  assert.equal(results.review.length, TEXT_ENTRY_LIMIT);
  assert.deepEqual(results.review[0], { text: 'Slides?', count: 0 });
  assert.equal(results.held, 0);
  polls.results([{ n: 1, answers: 8, texts: [{ text: 'Live', count: 1 }], held: 3 }]);
  assert.deepEqual(polls.byId.get('P1').results, { answers: 8, texts: [{ text: 'Live', count: 1 }], held: 3 });
  polls.results([{ n: 1, answers: 8, texts: 'all', review: {}, held: '3' }]);
  assert.deepEqual(polls.byId.get('P1').results, { answers: 8 });
});

test('an open text\'s answer is kept as the server said it, bounded', () => {
  assert.deepEqual(valueOf({ text: 'More live demos, please' }), { text: 'More live demos, please' });
  assert.equal(valueOf({ text: 'y'.repeat(10_000) }).text.length, POLL_TEXT_LIMIT);
  assert.equal(valueOf({ text: 42 }), null);
  const polls = new RoomPolls();
  polls.replace([poll(1, { kind: 'text', mine: { text: 'Slides online?' } })]);
  assert.deepEqual(polls.answers.get('P1'), { text: 'Slides online?' });
});

// A response settled the answer at `seq`: what the room said before it does not undo it.
const settled = () => {
  const polls = new RoomPolls();
  polls.replace([poll(1, { mine: { choices: [0] } })], 10);
  polls.responded({ type: 'pollAnswerResponse', poll: 'P1', token: 'T', success: true, value: { choices: [1] }, seq: 12 });
  return polls;
};

test('an older snapshot after a confirmed answer keeps the answer', () => {
  const polls = settled();
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] });
  polls.replace([poll(1, { mine: { choices: [0] } })], 11);
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] }, 'a snapshot older than the response');
  polls.replace([poll(1)], 11);
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] }, 'even one that has no answer yet');
  assert.equal(polls.settledAt.get('P1'), 12);
  // A snapshot at the response's change has it: the snapshot's answer is the one now.
  polls.replace([poll(1, { mine: { choices: [0] } })], 12);
  assert.deepEqual(polls.answers.get('P1'), { choices: [0] });
  assert.equal(polls.settledAt.has('P1'), false);
});

test('an older roomOwn after a confirmed answer keeps it; a newer one does not', () => {
  const polls = settled();
  polls.own([{ n: 1, value: { choices: [0] } }], 11);
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] });
  polls.own([{ n: 1, value: { choices: [0] } }], 12);
  assert.deepEqual(polls.answers.get('P1'), { choices: [0] });
});

test('a response settles its answer through the room: a reconnect\'s older snapshot keeps it', () => {
  const room = new RoomState();
  const text = { id: 'P1', n: 1, kind: 'text', prompt: 'Next talk?', state: 'open', shown: false };
  room.snapshot({ type: 'room', seq: 20, questions: [], polls: [text] });
  room.polls.responded({ type: 'pollAnswerResponse', poll: 'P1', token: 'T', success: true, value: { text: 'Macros' }, seq: 22 });
  // Another instance's snapshot, behind this one's answer.
  room.snapshot({ type: 'room', seq: 21, questions: [], polls: [text] });
  assert.deepEqual(room.polls.answers.get('P1'), { text: 'Macros' });
  room.own({ type: 'roomOwn', seq: 21, questions: [], polls: [{ n: 1, value: { text: 'Older' } }] });
  assert.deepEqual(room.polls.answers.get('P1'), { text: 'Macros' });
  room.snapshot({ type: 'room', seq: 22, questions: [], polls: [{ ...text, mine: { text: 'Macros!' } }] });
  assert.deepEqual(room.polls.answers.get('P1'), { text: 'Macros!' });
});

test('a refusal that names no answer leaves it; settled entries are bounded', () => {
  const polls = settled();
  polls.responded({ poll: 'P1', token: 'U', success: false, message: 'Busy.' });
  assert.deepEqual(polls.answers.get('P1'), { choices: [1] });
  polls.responded({ poll: 'P1', token: 'V', success: false, value: { choices: [0] }, seq: 13 });
  assert.deepEqual(polls.answers.get('P1'), { choices: [0] });
  assert.equal(polls.settledAt.get('P1'), 13);
  for (let i = 0; i < 3 * POLL_LIMIT; i++) polls.responded({ poll: `X${i}`, success: true, seq: i });
  assert.equal(polls.settledAt.size, POLL_LIMIT);
  polls.remove(['P1']);
  assert.equal(polls.settledAt.has('P1'), false);
});
