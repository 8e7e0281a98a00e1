// A Web Worker that pays one index of a new identity's price at a time (identity-work.js).
import { solveIndex } from './identity-work.js';

globalThis.onmessage = (event) => {
  const { id, index, bits } = event.data;
  globalThis.postMessage({ index, nonce: solveIndex(id, index, bits) });
};
