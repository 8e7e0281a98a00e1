// Who a browser is in a room (room-identity.js): kept across reloads, given in every join,
// replaced by what the server names, and what storage holds that is no id passed over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoomIdentity } from '../../Sources/Server/Pages/Assets/room-identity.js';

const storage = (items = {}) => ({
  items,
  load: (name) => (name in items ? items[name] : null),
  save: (name, value) => { items[name] = value; },
});

test('a browser new to the room starts with its first id and no credential, and keeps it', () => {
  const kept = storage();
  const identity = new RoomIdentity({ ...kept, first: () => 'ASKER-1' });
  assert.deepEqual(identity.fields(), { attendee: 'ASKER-1' });
  assert.equal(kept.items.attendee, 'ASKER-1');
  const reloaded = new RoomIdentity({ ...kept, first: () => 'OTHER' });
  assert.equal(reloaded.attendee, 'ASKER-1');
});

test('a joined that names an identity replaces it; a refusal does not', () => {
  const kept = storage({ attendee: 'A1' });
  const identity = new RoomIdentity({ ...kept });
  assert.equal(identity.took({ type: 'joined', message: 'Too many new attendees', retryAfter: 2 }), false);
  assert.equal(identity.took({ type: 'joined', attendee: 'A2', credential: 7 }), false);
  assert.equal(identity.took({ type: 'joined', attendee: 'A2', credential: 'C2' }), true);
  assert.deepEqual(identity.fields(), { attendee: 'A2', credential: 'C2' });
  assert.deepEqual(kept.items, { attendee: 'A2', credential: 'C2' });
});

test('what the storage holds that is no id is passed over', () => {
  const identity = new RoomIdentity({ ...storage({ attendee: { not: 'an id' }, credential: 'x'.repeat(65) }), first: () => 'FRESH' });
  assert.deepEqual(identity.fields(), { attendee: 'FRESH' });
});
