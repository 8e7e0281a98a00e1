// Paying for a new identity (extension identityWork), as qna pays natively: for each index
// 0..count-1, a nonce whose SHA-256 of (connection id, nonce big-endian, index) starts with
// `bits` zero bits. The message is 21 bytes, one block, so only the first word of the digest
// is computed; docs/protocol-extensions.md has the format, Tests/Fixtures/identity-work.json
// the vectors both languages check. The work is spread over Web Workers (one per core, at
// most MAX_WORKERS) so that the page stays responsive.

/**
 * A price past these is a hostile server's, which the page does not try to pay: each hash's
 * bits and the count within bounds, and the expected hashes in all at most MAX_WORK (8 times
 * the standard price: a few seconds for a slow phone), as IdentityWork.swift says.
 */
export const MAX_BITS = 24;
export const MAX_COUNT = 64;
export const MAX_WORK = 2 ** 22;
export const MAX_WORKERS = 4;

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Whether `price` is one the page pays: whole numbers within the bounds. */
export const isPayable = (price) => !!price && Number.isInteger(price.bits) && Number.isInteger(price.count)
  && price.bits >= 1 && price.bits <= MAX_BITS && price.count >= 1 && price.count <= MAX_COUNT
  && price.count * 2 ** price.bits <= MAX_WORK;

/** The UUID's 16 bytes, or null when it is not one. */
export const uuidBytes = (uuid) => {
  const hex = typeof uuid === 'string' ? uuid.replace(/-/g, '') : '';
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  return Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
};

/**
 * The one padded block of (id, nonce 0, index) as 64 words, the first 16 filled; the solver
 * changes word 4, the nonce, and the compression fills the rest.
 */
export const schedule = (idBytes, index) => {
  const w = new Int32Array(64);
  for (let i = 0; i < 16; i++) w[i >> 2] |= idBytes[i] << (24 - 8 * (i & 3));
  w[5] = ((index & 0xff) << 24) | (0x80 << 16);
  w[15] = 21 * 8;
  return w;
};

/** The digest's first word (unsigned) of the block in `w` (its words 16–63 overwritten). */
export const firstWord = (w) => {
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = H[0] | 0, b = H[1] | 0, c = H[2] | 0, d = H[3] | 0;
  let e = H[4] | 0, f = H[5] | 0, g = H[6] | 0, h = H[7] | 0;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7)))
      + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10)))
      + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  return (a + H[0]) >>> 0;
};

/** The first nonce that pays for `index` (null if none below 2^32 does). */
export const solveIndex = (idBytes, index, bits) => {
  const w = schedule(idBytes, index);
  // The compression writes only words 16–63: the block stays, but for the nonce.
  for (let nonce = 0; nonce <= 0xffffffff; nonce++) {
    w[4] = nonce | 0;
    if (firstWord(w) >>> (32 - bits) === 0) return nonce;
  }
  return null;
};

/** Whether `nonces` pay `price` on connection `id` (as the server checks). */
export const isProved = (price, id, nonces) => {
  const bytes = uuidBytes(id);
  if (!isPayable(price) || !bytes || !Array.isArray(nonces) || nonces.length !== price.count) return false;
  return nonces.every((nonce, index) => {
    if (!Number.isInteger(nonce) || nonce < 0 || nonce > 0xffffffff) return false;
    const w = schedule(bytes, index);
    w[4] = nonce | 0;
    return firstWord(w) >>> (32 - price.bits) === 0;
  });
};

/**
 * The nonces for `price` on connection `id`, the indices shared among workers made by
 * `makeWorker()` (null: none, then solved here, in slices that let the page breathe).
 * Resolves to null when the id is no UUID or a worker fails.
 */
export const pay = (price, id, { makeWorker = defaultWorker, cores = defaultCores() } = {}) => {
  const bytes = uuidBytes(id);
  if (!isPayable(price) || !bytes) return Promise.resolve(null);
  const nonces = new Array(price.count).fill(null);
  let next = 0;
  return new Promise((resolve) => {
    const workers = [];
    let left = price.count, failed = false;
    const finish = (result) => { for (const w of workers) w.terminate(); resolve(result); };
    const feed = (worker) => {
      if (next >= price.count) return;
      worker.postMessage({ id: bytes, index: next++, bits: price.bits });
    };
    const took = (index, nonce) => {
      if (failed) return;
      if (nonce === null) { failed = true; finish(null); return; }
      nonces[index] = nonce;
      if (--left === 0) finish(nonces);
    };
    for (let i = 0; i < Math.min(cores, MAX_WORKERS, price.count); i++) {
      const worker = makeWorker();
      if (!worker) break;
      worker.onmessage = (event) => { took(event.data.index, event.data.nonce); feed(worker); };
      worker.onerror = () => { failed = true; finish(null); };
      workers.push(worker);
      feed(worker);
    }
    if (workers.length > 0) return;
    // No workers: one index at a time on this thread, between the page's other work.
    const step = () => {
      if (next >= price.count) return;
      const index = next++;
      took(index, solveIndex(bytes, index, price.bits));
      if (!failed) setTimeout(step, 0);
    };
    step();
  });
};

function defaultWorker() {
  if (typeof Worker !== 'function') return null;
  try {
    return new Worker(new URL('identity-work-worker.js', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
}

function defaultCores() {
  const cores = globalThis.navigator && navigator.hardwareConcurrency;
  return Number.isInteger(cores) && cores > 0 ? cores : 2;
}
