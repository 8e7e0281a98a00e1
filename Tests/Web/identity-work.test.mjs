// The page's payment for a new identity (identity-work.js) against the vectors Python's
// hashlib made (Tests/Fixtures/identity-work.json), which the Swift side checks too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  firstWord, isPayable, isProved, pay, schedule, solveIndex, uuidBytes,
} from '../../Sources/Server/Pages/Assets/identity-work.js';

const vectors = JSON.parse(readFileSync(new URL('../Fixtures/identity-work.json', import.meta.url)));

test('the first word of each digest is hashlib\'s', () => {
  for (const { connection, nonce, index, digest } of vectors.digests) {
    const w = schedule(uuidBytes(connection), index);
    w[4] = nonce | 0;
    assert.equal(firstWord(w), parseInt(digest.slice(0, 8), 16), `${connection} ${nonce} ${index}`);
  }
});

test('the lowest nonces that pay are found, and they prove the price', () => {
  for (const { connection, price, nonces } of vectors.solved) {
    const found = nonces.map((_, index) => solveIndex(uuidBytes(connection), index, price.bits));
    assert.deepEqual(found, nonces);
    assert.ok(isProved(price, connection, nonces));
  }
});

test('work that does not pay is refused: a wrong nonce, too few, too many, another connection', () => {
  const [{ connection, price, nonces }] = vectors.solved;
  assert.ok(!isProved(price, connection, [nonces[0] + 1, ...nonces.slice(1)]));
  assert.ok(!isProved(price, connection, nonces.slice(1)));
  assert.ok(!isProved(price, connection, [...nonces, 0]));
  assert.ok(!isProved(price, vectors.solved[1].connection, nonces));
  assert.ok(!isProved(price, connection, nonces.map(String)));
});

test('a hostile price is not paid', () => {
  for (const price of [null, {}, { bits: 25, count: 16 }, { bits: 15, count: 65 }, { bits: 0, count: 1 },
    { bits: 1.5, count: 2 }, { bits: '15', count: 16 }, { bits: 19, count: 16 }, { bits: 24, count: 1 }]) {
    assert.ok(!isPayable(price), JSON.stringify(price));
  }
  assert.ok(isPayable({ bits: 15, count: 16 }) && isPayable({ bits: 18, count: 16 }) && isPayable({ bits: 22, count: 1 }));
  assert.equal(uuidBytes('not a uuid'), null);
});

/** A worker that solves on this thread, answering on a later turn as a real one does. */
class InlineWorker {
  constructor() { this.terminated = false; }
  postMessage({ id, index, bits }) {
    setTimeout(() => {
      if (!this.terminated) this.onmessage({ data: { index, nonce: solveIndex(id, index, bits) } });
    }, 0);
  }
  terminate() { this.terminated = true; }
}

test('pay shares the indices among workers and gives the nonces in order', async () => {
  const { connection, price, nonces } = vectors.solved[1];
  const made = [];
  const makeWorker = () => { const w = new InlineWorker(); made.push(w); return w; };
  assert.deepEqual(await pay(price, connection, { makeWorker, cores: 2 }), nonces);
  assert.equal(made.length, 2);
  assert.ok(made.every((w) => w.terminated));
});

test('without workers the page pays on its own thread', async () => {
  const { connection, price, nonces } = vectors.solved[0];
  assert.deepEqual(await pay(price, connection, { makeWorker: () => null }), nonces);
});

test('the standard price is paid and proved on a fresh connection', async () => {
  const price = { bits: 15, count: 16 };
  const connection = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
  const nonces = await pay(price, connection, { makeWorker: () => null });
  assert.ok(isProved(price, connection, nonces));
});
