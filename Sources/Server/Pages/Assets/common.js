// What every page's script shares: how it shows what people typed, the ids it makes, and how
// it applies a compact delta's counts. An ES module: room.js, screen.js and presenter.js
// import it (`script-src 'self'` lets a page import from its own origin).

// Controls, bidi controls and invisible characters: PrintableText.controlRanges in Swift,
// which QnAPagesTests holds this class to.
const controls =
  /[\u0000-\u0008\u000B-\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E-\u200F\u2028-\u202E\u2066-\u2069\uFEFF]/g;

/** What people typed as the server's pages show it: each control, bidi control and invisible
 * character as a visible escape (`\e`, `\x07`, `\u{202E}`), never acting on the page. */
export const printable = (text) => String(text).replace(controls, (c) => {
  const code = c.codePointAt(0), hex = code.toString(16).toUpperCase();
  if (code === 0x1B) return '\\e';
  return code <= 0xFF ? `\\x${hex.padStart(2, '0')}` : `\\u{${hex}}`;
});

/** A random version 4 UUID, upper case as the protocol's ids are (crypto.randomUUID needs a
 * secure context, which a page on plain http:// in a hall's network does not have). */
export const uuid = () => {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)]
    .join('-').toUpperCase();
};

/** A compact delta's `counts` (extension `counts`), pairs of a question's number and its
 * whole count, onto the questions known (`questions` by id, `numbers` from number to id);
 * numbers not known, counts that are not whole numbers, an odd last element, and anything
 * but an array are passed over. */
export const applyCounts = (counts, questions, numbers) => {
  if (!Array.isArray(counts)) return;
  for (let i = 0; i + 1 < counts.length; i += 2) {
    const q = questions.get(numbers.get(counts[i]));
    if (q && Number.isInteger(counts[i + 1])) q.votes = Math.max(0, counts[i + 1]);
  }
};
