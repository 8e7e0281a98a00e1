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
} : null);

const apply = (room, m) => {
  switch (m.type) {
    case 'room': return room.snapshot(m) ? 'snapshot' : 'waiting';
    case 'roomOwn': return room.own(m) ? 'own' : 'old';
    case 'roomDelta': return room.delta(m);
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
