// A word cloud's layout (word-cloud.js): no two words overlap, every word inside the area,
// the most counted first and in the middle, sizes by count, and what does not fit left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bounds, layout, overlaps, MIN_SIZE, MAX_SIZE, CLOUD_LIMIT } from '../../Sources/Server/Pages/Assets/word-cloud.js';

// About as wide as a sans-serif text is.
const measure = (text, size) => 0.6 * size * text.length;
const area = { width: 960, height: 540, measure };

const noOverlaps = (placed) => {
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      assert.ok(!overlaps(placed[i], placed[j]), `${placed[i].text} overlaps ${placed[j].text}`);
    }
  }
};
const inside = (placed, width, height) => {
  for (const p of placed) {
    assert.ok(p.x - p.width / 2 >= 0 && p.x + p.width / 2 <= width, `${p.text} leaves the sides`);
    assert.ok(p.y - p.height / 2 >= 0 && p.y + p.height / 2 <= height, `${p.text} leaves the top or bottom`);
  }
};
// A repeatable list of words and counts, as a hall's answers might be.
const sample = (n) => Array.from({ length: n }, (_, i) => ({
  text: ['swift', 'fast', 'linux', 'server', 'concurrency', 'actors', 'async', 'types'][i % 8] + (i >= 8 ? String(i) : ''),
  count: 1 + ((i * 37) % 23),
}));

test('the most counted word comes first, largest, in the middle', () => {
  const placed = layout([{ text: 'fast', count: 3 }, { text: 'swift', count: 40 }, { text: 'safe', count: 3 }], area);
  assert.equal(placed[0].text, 'swift');
  assert.equal(placed[0].size, MAX_SIZE);
  assert.deepEqual([placed[0].x, placed[0].y], [480, 270]);
  // Ties alphabetical; the least counted at the smallest size.
  assert.deepEqual(placed.map((p) => p.text), ['swift', 'fast', 'safe']);
  assert.equal(placed[2].size, MIN_SIZE);
  noOverlaps(placed);
});

test('no two words overlap, and all stay inside, in many shapes of area', () => {
  for (const [width, height] of [[960, 540], [400, 400], [300, 600], [1200, 200]]) {
    const placed = layout(sample(50), { width, height, measure });
    assert.ok(placed.length > 5, `${placed.length} words in ${width}×${height}`);
    noOverlaps(placed);
    inside(placed, width, height);
    // Sizes fall with the counts.
    for (let i = 1; i < placed.length; i++) assert.ok(placed[i].count <= placed[i - 1].count);
  }
});

test('words that do not fit are left out, never overlapped', () => {
  // A small area: the big words take it, the rest cannot all find room.
  const words = Array.from({ length: 40 }, (_, i) => ({ text: `word${i}`, count: 40 - i }));
  const placed = layout(words, { width: 200, height: 120, measure });
  assert.ok(placed.length > 0 && placed.length < 40, `${placed.length} placed`);
  noOverlaps(placed);
  inside(placed, 200, 120);
  // A word wider than the whole area is left out, the others kept.
  const wide = layout([{ text: 'x'.repeat(200), count: 9 }, { text: 'ok', count: 1 }], area);
  assert.deepEqual(wide.map((p) => p.text), ['ok']);
});

test('what is not a word is passed over; at most CLOUD_LIMIT words', () => {
  assert.deepEqual(layout([], area), []);
  assert.deepEqual(layout([{ text: '', count: 3 }, { text: 'zero', count: 0 }], area), []);
  assert.deepEqual(layout([{ text: 'a', count: 1 }], { ...area, width: 0 }), []);
  const many = layout(Array.from({ length: 80 }, (_, i) => ({ text: `w${i}`, count: 1 })), { width: 4000, height: 3000, measure });
  assert.equal(many.length, CLOUD_LIMIT);
  noOverlaps(many);
});

test('the layout is the same every time', () => {
  assert.deepEqual(layout(sample(30), area), layout(sample(30), area));
});

test('the bounds zoom in on a small cloud, keeping the area\'s shape, never under `least` of it', () => {
  const placed = layout([{ text: 'swift', count: 3 }], area);
  const box = bounds(placed, area);
  assert.ok(Math.abs(box.width / box.height - 960 / 540) < 1e-9);
  assert.ok(Math.abs(box.width - 0.6 * 960) < 1e-9, `${box.width}`);
  assert.ok(box.x <= placed[0].x - placed[0].width / 2 && box.x + box.width >= placed[0].x + placed[0].width / 2);
  const all = layout(sample(50), area);
  const wide = bounds(all, area);
  for (const p of all) {
    assert.ok(p.x - p.width / 2 >= wide.x && p.x + p.width / 2 <= wide.x + wide.width);
    assert.ok(p.y - p.height / 2 >= wide.y && p.y + p.height / 2 <= wide.y + wide.height);
  }
  assert.deepEqual(bounds([], area), { x: 0, y: 0, width: 960, height: 540 });
});

test('a long most counted word is made smaller to fit across, not left out', () => {
  const placed = layout([{ text: 'concurrency', count: 9 }, { text: 'go', count: 1 }], { width: 300, height: 300, measure });
  assert.equal(placed[0].text, 'concurrency');
  assert.ok(placed[0].size < MAX_SIZE && placed[0].width <= 300);
});

test('many words of one count are made smaller until they fit, rather than left out', () => {
  const words = Array.from({ length: 20 }, (_, i) => ({ text: `word${i}`, count: 1 }));
  const placed = layout(words, area);
  assert.equal(placed.length, 20);
  assert.ok(placed[0].size < MAX_SIZE);
  noOverlaps(placed);
  inside(placed, 960, 540);
});
