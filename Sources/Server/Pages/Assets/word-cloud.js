// A word cloud's layout (extension `polls`, kind `words`), with no DOM: each word's font size
// by its count, between a smallest and a largest, and its place on an Archimedean spiral out
// from the middle, the first free one where its box overlaps no box placed before it. The
// most counted word goes first, so it sits in the middle; a word with no free place left is
// dropped, never overlapped (the sizes are tried smaller first, a few times, while words are
// left out). `measure(text, size)` says how wide a text is at a size (the page measures with
// a canvas; Tests/Web with an estimate).

/** The layout's defaults, in the units of `width` and `height` (an SVG's viewBox). */
export const MIN_SIZE = 18;
export const MAX_SIZE = 80;
export const PADDING = 3;
/** A line's height for a font size: the box a word takes is this tall. */
export const LINE = 1.15;
/** Words laid out, at most. */
export const CLOUD_LIMIT = 50;

/**
 * The words placed: each `{ text, count, size, x, y, width, height }`, `x` and `y` its box's
 * centre; the most counted first (ties alphabetical), the ones that do not fit left out.
 * @param {{ text: string, count: number }[]} words
 * @param {{ width: number, height: number, measure: (text: string, size: number) => number,
 *   minSize?: number, maxSize?: number, padding?: number }} options
 */
export function layout(words, { width, height, measure, minSize = MIN_SIZE, maxSize = MAX_SIZE, padding = PADDING }) {
  const sorted = words.filter((w) => w && typeof w.text === 'string' && w.text && w.count > 0)
    .sort((a, b) => (b.count - a.count) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, CLOUD_LIMIT);
  if (!sorted.length || !(width > 0) || !(height > 0)) return [];
  // The largest size a little smaller when the most counted word would not fit across.
  const fits = (0.9 * width * maxSize) / Math.max(1, measure(sorted[0].text, maxSize) + 2 * padding);
  let top = Math.max(minSize, Math.min(maxSize, fits, height / (2 * LINE)));
  let best = [];
  for (let tries = 0; tries < TRIES; tries++, top = Math.max(minSize, top * 0.75)) {
    const placed = attempt(sorted, top, { width, height, measure, minSize, padding });
    if (placed.length > best.length) best = placed;
    if (placed.length === sorted.length || top === minSize) break;
  }
  return best;
}

/** Layouts tried, at most, each with sizes a quarter smaller than the one before. */
export const TRIES = 3;

// One layout, with `top` the largest size.
function attempt(sorted, top, { width, height, measure, minSize, padding }) {
  const most = sorted[0].count, least = sorted[sorted.length - 1].count;
  /** @type {{ text: string, count: number, size: number, x: number, y: number, width: number, height: number }[]} */
  const placed = [];
  // Boxes that found no place: one as wide and as tall finds none either.
  const failed = [];
  for (const word of sorted) {
    const share = most === least ? 1 : (word.count - least) / (most - least);
    const size = Math.round(minSize + (top - minSize) * share);
    // A gap that grows with the size: two neighbours never read as one entry of two words.
    const gap = Math.max(padding, size * 0.12);
    const w = measure(word.text, size) + 2 * gap, h = size * LINE + 2 * padding;
    const spot = failed.some((f) => w >= f.w && h >= f.h) ? null : free(w, h, width, height, placed);
    if (spot) placed.push({ text: word.text, count: word.count, size, x: spot.x, y: spot.y, width: w, height: h });
    else failed.push({ w, h });
  }
  return placed;
}

/**
 * The part of the area the placed words take, with a margin, as a box of the area's shape
 * (an SVG's viewBox that zooms in on a small cloud), at least `least` of the area across.
 */
export function bounds(placed, { width, height, least = 0.6, margin = 8 }) {
  if (!placed.length) return { x: 0, y: 0, width, height };
  const left = Math.min(...placed.map((p) => p.x - p.width / 2)) - margin;
  const right = Math.max(...placed.map((p) => p.x + p.width / 2)) + margin;
  const top = Math.min(...placed.map((p) => p.y - p.height / 2)) - margin;
  const bottom = Math.max(...placed.map((p) => p.y + p.height / 2)) + margin;
  const aspect = width / height;
  let w = Math.max(right - left, least * width), h = Math.max(bottom - top, least * height);
  if (w / h > aspect) h = w / aspect; else w = h * aspect;
  return { x: (left + right - w) / 2, y: (top + bottom - h) / 2, width: w, height: h };
}

/** Whether two boxes (by centre, width and height) overlap. */
export const overlaps = (a, b) => Math.abs(a.x - b.x) * 2 < a.width + b.width
  && Math.abs(a.y - b.y) * 2 < a.height + b.height;

// The first point of the spiral where a box of w×h fits inside the area and overlaps none
// placed; null when the spiral leaves the area first. The spiral is stretched to the area's
// shape (a wide screen fills sideways), its turns a few units apart.
function free(w, h, width, height, placed) {
  if (w > width || h > height) return null;
  const cx = width / 2, cy = height / 2, aspect = width / height, stretch = Math.max(1, aspect);
  // The spiral's radius, across the area unstretched, reaches its corners last.
  const reach = Math.hypot(width / aspect, height) / 2;
  // The box in the way last time is looked at first: the next point is most often behind it too.
  let last = null;
  for (let t = 0, r = 0; r <= reach; r = 1.5 * t) {
    const box = { x: cx + r * Math.cos(t) * aspect, y: cy + r * Math.sin(t), width: w, height: h };
    if (box.x - w / 2 >= 0 && box.x + w / 2 <= width && box.y - h / 2 >= 0 && box.y + h / 2 <= height
      && !(last && overlaps(last, box))) {
      last = placed.find((p) => overlaps(p, box)) || null;
      if (!last) return box;
    }
    // About four units along the spiral each step, whatever its radius.
    t += Math.min(0.5, 4 / Math.max(1, r * stretch));
  }
  return null;
}
