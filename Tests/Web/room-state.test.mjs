// The pages' room (room-state.js) through every conversation of Tests/Fixtures/room: after
// each message, what the call answered and the room it left, as the fixture expects.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RoomState } from '../../Sources/Server/Pages/Assets/room-state.js';

const folder = new URL('../Fixtures/room/', import.meta.url);

/** What a fixture compares of the room: null before the first snapshot. */
export const view = (room) => (room.known ? {
  seq: room.seq,
  highlighted: room.highlighted,
  announcement: room.announcement,
  labels: room.labels,
  nextUp: room.nextUp,
  voted: [...room.voted].sort(),
  questions: [...room.questions.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map((q) => {
    const shown = { id: q.id, content: q.content, votes: q.votes, state: RoomState.stateOf(q) };
    if (q.label) shown.label = q.label;
    if (q.mine) shown.mine = true;
    return shown;
  }),
  // Extension polls: only when there are polls.
  ...(room.polls.byId.size ? {
    polls: room.polls.ordered.map((p) => {
      const shown = { id: p.id, n: p.n, kind: p.kind, prompt: p.prompt, state: p.state, shown: p.shown };
      if (p.options) shown.options = p.options;
      if (p.results) shown.results = p.results;
      const answer = room.polls.answers.get(p.id);
      if (answer) shown.answer = answer;
      return shown;
    }),
  } : {}),
  // Extension sessions: only in a session's room.
  ...(room.session ? { session: { ...room.session, deleted: room.deleted } } : {}),
} : null);

const apply = (room, m) => {
  switch (m.type) {
    case 'room': return room.snapshot(m) ? 'snapshot' : 'waiting';
    case 'roomOwn': return room.own(m) ? 'own' : 'old';
    case 'roomDelta': return room.delta(m);
    case 'handshake': room.joinedSession(m.session); return 'handshake';
    case 'session': return room.sessionNews(m);
    default: throw new Error(`no step for ${m.type}`);
  }
};

for (const name of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
  const fixture = JSON.parse(readFileSync(new URL(name, folder), 'utf8'));
  test(`${name}: ${fixture.about}`, () => {
    // An attendee's page: its own questions stay when removed.
    const room = new RoomState({ keeps: (id) => !!(room.questions.get(id) || {}).mine });
    fixture.steps.forEach((step, index) => {
      const where = `${name}, step ${index + 1} (${step.receive.type})`;
      assert.equal(apply(room, step.receive), step.result, where);
      assert.deepEqual(view(room), step.room, where);
    });
  });
}

test('a delta that answers a known question says so once', () => {
  const told = [];
  const room = new RoomState({ answered: (q) => told.push(q.id) });
  room.snapshot({ type: 'room', seq: 1, questions: [{ id: 'A', content: 'a', votes: 0, answered: false }] });
  const answer = { id: 'A', content: 'a', votes: 0, answered: true, state: 'answered' };
  room.delta({ type: 'roomDelta', from: 2, to: 2, questions: [answer] });
  room.delta({ type: 'roomDelta', from: 3, to: 3, questions: [answer] });
  assert.deepEqual(told, ['A']);
});

test('a restated question keeps its answer text and that it is mine', () => {
  const room = new RoomState();
  room.snapshot({ type: 'room', seq: 1, questions: [] });
  room.learn({ id: 'A', content: 'a', votes: 0, answered: true, answer: 'Yes', private: true, mine: true });
  room.delta({ type: 'roomDelta', from: 2, to: 2, questions: [{ id: 'A', content: 'a', votes: 2, answered: true }] });
  const q = room.questions.get('A');
  assert.equal(q.answer, 'Yes');
  assert.equal(q.private, true);
  assert.equal(q.mine, true);
  assert.equal(q.votes, 2);
});

test('what a hostile server sends is bounded', () => {
  const room = new RoomState();
  const many = Array.from({ length: 500 }, (_, i) => `id-${i}`);
  room.snapshot({
    type: 'room', seq: 1, questions: [],
    nextUp: { ids: [...many, 7, null], shown: 'yes' },
    labels: [...many, 'x'.repeat(321), 42],
    announcement: { text: 17 },
  });
  assert.equal(room.nextUp.ids.length, 50);
  assert.equal(room.nextUp.shown, true);
  assert.equal(room.labels.length, 20);
  assert.equal(room.announcement, null);
  room.snapshot({ type: 'room', seq: 2, questions: [], labels: ['x'.repeat(321), 42, '', 'x'.repeat(40)] });
  assert.deepEqual(room.labels, ['x'.repeat(40)], 'cut to 40 characters, each once');
});

test('what a broken or hostile server sends in place of a message leaves the room as it was', () => {
  const room = new RoomState();
  const good = { id: 'A', content: 'a', votes: 1, answered: false, n: 1 };
  // Pages out of their bounds, and entries that are no questions, are passed over.
  for (const page of [{ seq: 1, parts: 1e9 }, { seq: 1, part: 'x1', parts: 2 }, { seq: 'one' }, { seq: 1, part: 3, parts: 2 }]) {
    assert.equal(room.snapshot({ type: 'room', questions: [good], ...page }), false);
  }
  assert.equal(room.known, false);
  assert.equal(room.snapshot({ type: 'room', seq: 1, questions: [null, 5, {}, { id: 'B' }, good] }), true);
  assert.deepEqual([...room.questions.keys()], ['A']);
  assert.equal(room.snapshot({ type: 'room', seq: 2, questions: {} }), true, 'no list: an empty room');
  assert.equal(room.questions.size, 0);
  room.snapshot({ type: 'room', seq: 3, questions: [good] });
  // A delta without whole numbers for its changes is none.
  assert.equal(room.delta({ type: 'roomDelta', from: 4, questions: [] }), 'old');
  assert.equal(room.delta({ type: 'roomDelta', from: '4', to: '4', questions: [] }), 'old');
  assert.equal(room.seq, 3);
  // Lists that are not lists, and counts that never end, change nothing and end at once.
  const started = Date.now();
  assert.equal(room.delta({
    type: 'roomDelta', from: 4, to: 4, questions: { length: 1e300 }, removed: 5,
    counts: { length: 1e300 }, highlight: 'A',
  }), 'applied');
  assert.ok(Date.now() - started < 1000);
  assert.equal(room.questions.get('A').votes, 1);
  assert.equal(room.own({ type: 'roomOwn', seq: 4, questions: 7, voted: 5 }), true);
  room.delta({ type: 'roomDelta', from: 5, to: 5, questions: [], counts: [1, 'many', 1, -3] });
  assert.equal(room.questions.get('A').votes, 0, 'a count is a whole number, never below 0');
});
