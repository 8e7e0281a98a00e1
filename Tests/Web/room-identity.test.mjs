// Who a browser is in a room (room-identity.js): kept across reloads, given in every join,
// replaced by what the server names, and what storage holds that is no id passed over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoomIdentity, canonicalTicket, ticketInFragment } from '../../Sources/Server/Pages/Assets/room-identity.js';

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

test('a ticket from the address is kept and joins until the server names an identity', () => {
  const kept = storage({ attendee: 'A1' });
  const identity = new RoomIdentity({ ...kept, ticket: 'k7m2-qx4p-9hrt-wz3c' });
  assert.deepEqual(identity.fields(), { attendee: 'A1', ticket: 'K7M2QX4P9HRTWZ3C' });
  // A reload without it in the address still has it.
  const reloaded = new RoomIdentity({ ...kept });
  assert.equal(reloaded.ticket, 'K7M2QX4P9HRTWZ3C');
  assert.equal(reloaded.took({ type: 'joined', attendee: 'A2', credential: 'C2' }), true);
  assert.deepEqual(reloaded.fields(), { attendee: 'A2', credential: 'C2' });
});

test('a ticket is read from the fragment only when it can be one', () => {
  assert.equal(ticketInFragment('#ticket=K7M2-QX4P-9HRT-WZ3C'), 'K7M2QX4P9HRTWZ3C');
  assert.equal(ticketInFragment('#x=1&ticket=k7m2qx4p9hrtwz3c'), 'K7M2QX4P9HRTWZ3C');
  for (const hash of ['', '#', '#ticket=', '#ticket=K7M2-QX4P-9HRT-WZ3', '#ticket=O7M2QX4P9HRTWZ3C',
    '#ticket=%E0%A4%A', '#tickets=K7M2QX4P9HRTWZ3C', null]) {
    assert.equal(ticketInFragment(hash), null, String(hash));
  }
  assert.equal(canonicalTicket('K7M2 QX4P 9HRT WZ3C'), 'K7M2QX4P9HRTWZ3C');
  assert.equal(canonicalTicket('x'.repeat(65)), null);
  // Storage holding no ticket is passed over.
  const identity = new RoomIdentity({ ...storage({ ticket: { not: 'a ticket' } }), first: () => 'F' });
  assert.deepEqual(identity.fields(), { attendee: 'F' });
});

test('a ticket given later is kept when it is one', () => {
  const kept = storage({ attendee: 'A1' });
  const identity = new RoomIdentity({ ...kept });
  assert.equal(identity.useTicket('nope'), false);
  assert.deepEqual(identity.fields(), { attendee: 'A1' });
  assert.equal(identity.useTicket('K7M2-QX4P-9HRT-WZ3C'), true);
  assert.equal(kept.items.ticket, 'K7M2QX4P9HRTWZ3C');
  assert.deepEqual(identity.fields(), { attendee: 'A1', ticket: 'K7M2QX4P9HRTWZ3C' });
});
