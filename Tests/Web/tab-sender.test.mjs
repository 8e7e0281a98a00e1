// Which of a room's tabs sends (tab-sender.js): with Web Locks, the tab that holds the room's
// lock, handed over when it leaves; without them, a lease in the storage that expires.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LEASE_EXPIRY, TabSender } from '../../Sources/Server/Pages/Assets/tab-sender.js';

/** Web Locks as a browser grants them: one holder per name, the others queued in order. */
class FakeLocks {
  constructor() { this.held = new Map(); this.queue = []; }
  request(name, { signal }, callback) {
    return new Promise((resolve) => {
      const ask = { name, signal, callback, resolve };
      signal.addEventListener('abort', () => {
        this.queue = this.queue.filter((a) => a !== ask);
        resolve();
      });
      this.queue.push(ask);
      this.grant();
    });
  }
  grant() {
    for (const ask of [...this.queue]) {
      if (this.held.has(ask.name) || ask.signal.aborted) continue;
      this.queue = this.queue.filter((a) => a !== ask);
      this.held.set(ask.name, ask);
      Promise.resolve(ask.callback()).then(() => {
        this.held.delete(ask.name);
        ask.resolve();
        this.grant();
      });
    }
  }
}

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const tabs = (environment, count) => Array.from({ length: count }, (_, i) => {
  const told = [];
  const tab = new TabSender({
    name: 'qna:/socket:sender', became: () => told.push('became'), resigned: () => told.push('resigned'),
    environment: { ...environment, tab: `tab${i}` },
  });
  return { tab, told };
});

test('with Web Locks one joined tab sends, and the next takes over when it leaves', async () => {
  const locks = new FakeLocks();
  const [a, b] = tabs({ locks, storage: new FakeStorage(), now: () => 0 }, 2);
  assert.ok(!a.tab.usesLease);
  a.tab.join();
  b.tab.join();
  await settle();
  assert.ok(a.tab.isSender && !b.tab.isSender);
  a.tab.leave();
  await settle();
  assert.ok(!a.tab.isSender && b.tab.isSender);
  assert.deepEqual(a.told, ['became', 'resigned']);
  assert.deepEqual(b.told, ['became']);
});

test('a tab that leaves while it waits for the lock gives up asking, and sends nothing later', async () => {
  const locks = new FakeLocks();
  const [a, b, c] = tabs({ locks, storage: new FakeStorage(), now: () => 0 }, 3);
  a.tab.join();
  b.tab.join();
  c.tab.join();
  await settle();
  b.tab.leave();
  a.tab.leave();
  await settle();
  assert.ok(c.tab.isSender && !b.tab.isSender);
  assert.ok(!b.told.includes('became'));
});

test('without Web Locks a lease decides, renewed by its holder, free when it expires or is let go', () => {
  const storage = new FakeStorage();
  let clock = 1000;
  const environment = { locks: null, storage, now: () => clock };
  const [a, b] = tabs(environment, 2);
  assert.ok(a.tab.usesLease);
  a.tab.join();
  b.tab.join();
  assert.ok(a.tab.isSender && !b.tab.isSender);
  assert.equal(JSON.parse(storage.getItem('qna:/socket:sender')).tab, 'tab0');
  // Renewed by its holder: still its own after the expiry would have passed.
  clock += LEASE_EXPIRY - 1;
  a.tab.renew();
  clock += LEASE_EXPIRY - 1;
  b.tab.renew();
  assert.ok(!b.tab.isSender);
  // Not renewed (the tab froze): the other takes it.
  clock += LEASE_EXPIRY;
  b.tab.renew();
  assert.ok(b.tab.isSender);
  // Let go: free at once.
  b.tab.leave();
  assert.equal(storage.getItem('qna:/socket:sender'), null);
  a.tab.renew();
  assert.ok(a.tab.isSender);
});

test('a tab whose socket is not joined never sends, and a broken lease is no lease', () => {
  const storage = new FakeStorage();
  const [a] = tabs({ locks: null, storage, now: () => 0 }, 1);
  a.tab.renew();
  assert.ok(!a.tab.isSender);
  storage.setItem('qna:/socket:sender', '{"tab": 7, "at": "soon"}');
  a.tab.join();
  assert.ok(a.tab.isSender);
  const [b] = tabs({ locks: null, storage: { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); }, removeItem() {} }, now: () => 0 }, 1);
  b.tab.join();
  assert.ok(b.tab.isSender, 'storage that refuses leaves the tab alone, sending');
});
