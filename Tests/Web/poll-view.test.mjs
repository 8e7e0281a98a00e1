// Polls as the pages show them (poll-view.js), the parts without a page: which polls show,
// an answer from what was picked, results as rows of bars, a rating's average, a ranking's
// scores (Slido's: with N options first place earns N … last 1), and the words' format; an
// open text's answer cleaned as the server cleans it, and its entries drawn as text only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  KINDS, TEXT_BYTES, TEXT_LENGTH, TEXT_ROWS, answerText, answerValue, attendeePolls, cleanText, decimal,
  entriesThatFit, featuredPoll, format, kindLine, maxChoices, maxWords, percent, pollControls, rankingScores, ranked,
  ratingAverage, resultRows, sameAnswer, scaleOf, showPolls, showResults, splitWords, textRows, toggled, usesSlider, width,
} from '../../Sources/Server/Pages/Assets/poll-view.js';
import { installDocument, markupIn } from './fake-dom.mjs';

const poll = (n, extra = {}) => ({ id: `P${n}`, n, kind: 'single', prompt: `Poll ${n}`, options: ['Tabs', 'Spaces'], state: 'open', shown: false, ...extra });

test('format fills %s, %d and numbered places as the catalogues write them', () => {
  assert.equal(format('Answers: %d', 12), 'Answers: 12');
  assert.equal(format('Poll %1$d · %2$s', 3, 'one choice'), 'Poll 3 · one choice');
  assert.equal(format('%2$s, %1$s', 'a', 'b'), 'b, a');
  assert.equal(format('100%% %s', 'sure'), '100% sure');
  assert.equal(format('%s and %s', 'one'), 'one and ');
});

test('the attendee sees open polls, newest first, then closed ones with results shown', () => {
  const polls = [
    poll(1, { state: 'closed', shown: true, results: { answers: 2, counts: [1, 1] } }),
    poll(2), poll(3, { state: 'closed', shown: false }), poll(4, { kind: 'future' }), poll(5),
    poll(6, { state: 'draft' }), poll(7, { state: 'closed', shown: true }),
  ];
  assert.deepEqual(attendeePolls(polls).map((p) => p.n), [5, 2, 1]);
  // The projector: the newest open one, else the newest whose results are shown.
  assert.equal(featuredPoll(polls).n, 5);
  assert.equal(featuredPoll(polls.filter((p) => p.state !== 'open')).n, 1);
  assert.equal(featuredPoll([poll(3, { state: 'closed' })]), null);
});

test('bars: counts against the answers, rounded, within 0 and 100', () => {
  assert.equal(percent(1, 3), 33);
  assert.equal(percent(2, 3), 67);
  assert.equal(percent(5, 0), 0);
  assert.equal(width(3, 4), 75);
  assert.equal(width(9, 4), 100);
  assert.equal(width(-1, 4), 0);
  assert.equal(width(1, 0), 0);
});

test('a choice poll\'s rows: each option, its count and share, the correct ones marked', () => {
  const rows = resultRows(poll(1, { kind: 'multiple', options: ['A', 'B\u202E', 'C'], correct: [1], results: { answers: 4, counts: [3, 2] } }));
  assert.equal(rows.answers, 4);
  assert.deepEqual(rows.rows.map((r) => [r.label, r.count, r.percent, r.width, r.correct]), [
    ['A', 3, 75, 75, false], ['B\\u{202E}', 2, 50, 50, true], ['C', 0, 0, 0, false],
  ]);
  assert.equal(resultRows(poll(1)), null);
});

test('a rating: its average, a row per value; a 0–100 slider in bands of ten', () => {
  assert.deepEqual(scaleOf(poll(1)), { min: 1, max: 5 });
  assert.equal(ratingAverage([0, 0, 1, 2, 1], { min: 1, max: 5 }), 4);
  assert.equal(ratingAverage([0, 0], { min: 1, max: 2 }), null);
  const small = resultRows(poll(1, { kind: 'rating', results: { answers: 4, counts: [0, 0, 1, 2, 1] } }));
  assert.equal(small.average, 4);
  assert.deepEqual(small.rows.map((r) => [r.label, r.count, r.percent]), [['1', 0, 0], ['2', 0, 0], ['3', 1, 25], ['4', 2, 50], ['5', 1, 25]]);
  const counts = Array.from({ length: 101 }, (_, i) => (i === 100 || i === 5 ? 1 : 0));
  const slider = resultRows(poll(1, { kind: 'rating', scale: { min: 0, max: 100 }, results: { answers: 2, counts } }));
  assert.equal(slider.average, 52.5);
  assert.equal(slider.rows.length, 11);
  assert.deepEqual([slider.rows[0].label, slider.rows[0].count], ['0–9', 1]);
  assert.deepEqual([slider.rows[10].label, slider.rows[10].count], ['100', 1]);
  assert.equal(usesSlider({ min: 1, max: 10 }), false);
  assert.equal(usesSlider({ min: 0, max: 10 }), true);
});

test('a ranking: the average score is points over answers, best first', () => {
  // Two answers over three options: [B, A, C] and [B, C, A] make A 2+1, B 3+3, C 1+2.
  assert.deepEqual(rankingScores([3, 6, 3], 2), [1.5, 3, 1.5]);
  assert.deepEqual(rankingScores([3, 6], 0), [0, 0]);
  const rows = resultRows(poll(1, { kind: 'ranking', options: ['A', 'B', 'C'], correct: [1, 0, 2], results: { answers: 2, counts: [3, 6, 3] } }));
  assert.deepEqual(rows.rows.map((r) => [r.label, r.score, r.width]), [['1. B', 3, 100], ['2. A', 1.5, 50], ['3. C', 1.5, 50]]);
  assert.deepEqual(rows.order, ['B', 'A', 'C']);
});

test('a word cloud\'s rows: each word against the most counted', () => {
  const rows = resultRows(poll(1, { kind: 'words', results: { answers: 5, words: [{ text: 'swift', count: 4 }, { text: 'fast', count: 1 }] } }));
  assert.deepEqual(rows.rows.map((r) => [r.label, r.count, r.width]), [['swift', 4, 100], ['fast', 1, 25]]);
});

test('one decimal, in the page\'s language', () => {
  assert.equal(decimal(3.14159), '3.1');
  assert.equal(decimal(2, 'en'), '2.0');
  assert.equal(decimal(2.25, 'de'), '2,3');
});

test('picking: a multiple choice within its maximum, a ranking place by place', () => {
  assert.deepEqual(toggled([], 2, 2), [2]);
  assert.deepEqual(toggled([2, 0], 1, 2), [2, 0]);
  assert.deepEqual(toggled([2, 0], 2, 2), [0]);
  assert.deepEqual(toggled([2], 1, 1), [1]);
  assert.deepEqual(ranked([], 2), [2]);
  assert.deepEqual(ranked([2, 0, 1], 0), [2, 1]);
  assert.deepEqual(ranked([2, 1], 0), [2, 1, 0]);
  assert.equal(maxChoices(poll(1, { kind: 'multiple', options: ['a', 'b', 'c'] })), 3);
  assert.equal(maxChoices(poll(1, { kind: 'multiple', options: ['a', 'b', 'c'], max: 2 })), 2);
  assert.equal(maxWords(poll(1, { kind: 'words' })), 3);
  assert.equal(maxWords(poll(1, { kind: 'words', max: 1 })), 1);
});

test('the answer from what was picked, or null when the poll would refuse it', () => {
  const single = poll(1);
  assert.deepEqual(answerValue(single, { choices: [1] }), { choices: [1] });
  assert.equal(answerValue(single, { choices: [2] }), null);
  assert.equal(answerValue(single, { choices: [0, 1] }), null);
  const multiple = poll(2, { kind: 'multiple', options: ['a', 'b', 'c'], max: 2 });
  assert.deepEqual(answerValue(multiple, { choices: [2, 0] }), { choices: [0, 2] });
  assert.equal(answerValue(multiple, { choices: [] }), null);
  assert.equal(answerValue(multiple, { choices: [0, 1, 2] }), null);
  assert.equal(answerValue(multiple, { choices: [1, 1] }), null);
  const ranking = poll(3, { kind: 'ranking', options: ['a', 'b', 'c'] });
  assert.deepEqual(answerValue(ranking, { choices: [2, 0, 1] }), { choices: [2, 0, 1] });
  assert.equal(answerValue(ranking, { choices: [2, 0] }), null);
  const rating = poll(4, { kind: 'rating', scale: { min: 0, max: 100 } });
  assert.deepEqual(answerValue(rating, { rating: 0 }), { rating: 0 });
  assert.equal(answerValue(rating, { rating: 101 }), null);
  assert.equal(answerValue(rating, { rating: 2.5 }), null);
  assert.equal(answerValue(poll(5, { kind: 'rating' }), { rating: 0 }), null);
  const words = poll(6, { kind: 'words', max: 2 });
  assert.deepEqual(answerValue(words, { text: ' Swift ,  fast  lane,,swift ' }), { words: ['Swift', 'fast lane'] });
  assert.equal(answerValue(words, { text: 'a, b, c' }), null);
  assert.equal(answerValue(words, { text: ' , ' }), null);
  assert.equal(answerValue(poll(7, { kind: 'future' }), { choices: [0] }), null);
});

test('words typed: split at commas, trimmed, each once', () => {
  assert.deepEqual(splitWords('a,b，c、 d  e '), ['a', 'b', 'c', 'd e']);
  assert.deepEqual(splitWords('Go, go, GO'), ['Go']);
  assert.deepEqual(splitWords(''), []);
});

test('an answer as text, printable', () => {
  const p = poll(1, { options: ['Tabs', 'Spa\u0007ces', 'Both'] });
  assert.equal(answerText(p, { choices: [1] }), 'Spa\\x07ces');
  assert.equal(answerText({ ...p, kind: 'ranking' }, { choices: [2, 0, 1] }), '1. Both, 2. Tabs, 3. Spa\\x07ces');
  assert.equal(answerText(p, { rating: 4 }), '4');
  assert.equal(answerText(p, { words: ['swift', 'fast'] }), 'swift, fast');
  assert.equal(answerText(p, null), '');
  assert.ok(sameAnswer({ choices: [1] }, { choices: [1] }));
  assert.ok(!sameAnswer({ choices: [1] }, null));
});

test('an open text\'s answer is cleaned as the server cleans it, or refused', () => {
  const text = poll(8, { kind: 'text', options: undefined });
  assert.ok(KINDS.includes('text'));
  assert.deepEqual(answerValue(text, { text: '  More\tlive \n demos,\u00A0 please  ' }), { text: 'More live demos, please' });
  // Controls, bidi and invisible characters off: what is left of them is read as the server reads it.
  assert.deepEqual(answerValue(text, { text: 'Sli\u200Bdes\u202E on\u0007line?\uFEFF' }), { text: 'Slides online?' });
  assert.deepEqual(answerValue(text, { text: 'a\u2028b' }), { text: 'a b' });
  for (const nothing of ['', '   ', '\u200B\u202E\u2066', '\u0301', '\u3164', '\n\t']) {
    assert.equal(answerValue(text, { text: nothing }), null, JSON.stringify(nothing));
  }
  assert.deepEqual(answerValue(text, { text: `${'x'.repeat(140)}   ` }), { text: 'x'.repeat(140) });
  assert.equal(answerValue(text, { text: 'x'.repeat(141) }), null);
  // Characters as people see them: 140 accented letters of two code points each fit,
  // composed as the server keeps them (NFC) …
  assert.equal(cleanText('e\u0301'.repeat(140)), '\u00e9'.repeat(140));
  // Letters that draw nothing go inside a word too (the filter reads it whole); the joiners
  // an emoji is spelled with stay.
  assert.equal(cleanText('id\u3164iot'), 'idiot');
  assert.equal(cleanText('👩\u200D💻'), '👩\u200D💻');
  // … within 560 bytes: 70 eight-byte thumbs fit, 71 do not.
  assert.equal(cleanText('👍🏽'.repeat(70)), '👍🏽'.repeat(70));
  assert.equal(cleanText('👍🏽'.repeat(71)), null);
  assert.equal(TEXT_BYTES, 560);
  // No character of more than 16 code points (QuestionText's marks); far past the bounds,
  // refused unread.
  assert.equal(cleanText(`a${'\u0301'.repeat(15)}`), `\u00e1${'\u0301'.repeat(14)}`);
  assert.equal(cleanText(`a${'\u0301'.repeat(16)}`), null);
  assert.equal(cleanText(`ok${' '.repeat(10_000)}`), null);
  assert.equal(cleanText(null), null);
});

test('an open text\'s answer as text is printable, and so is its kind', () => {
  const text = poll(8, { kind: 'text', options: undefined });
  assert.equal(answerText(text, { text: 'Evil\u202Etxt' }), 'Evil\\u{202E}txt');
  assert.equal(answerText(text, { text: 'z'.repeat(600) }), `${'z'.repeat(140)}…`);
  assert.equal(kindLine(text, (w) => w), 'Poll 8 · a line of text');
  assert.deepEqual(attendeePolls([text]).map((p) => p.n), [8]);
});

test('an open text\'s rows: printable, cut, "×N" past one, at most as many as asked', () => {
  const rows = textRows([
    { text: 'Slides?', count: 1 }, { text: '<script>alert(1)</script>', count: 3 },
    { text: '\u202Egnp.exe', count: 2 }, { text: 'w'.repeat(10_000), count: 1 }, null, { text: 7, count: 1 },
  ]);
  assert.deepEqual(rows.map((r) => [r.text, r.times]), [
    ['Slides?', ''], ['<script>alert(1)</script>', '×3'], ['\\u{202E}gnp.exe', '×2'], [`${'w'.repeat(TEXT_LENGTH)}…`, ''],
  ]);
  assert.equal(textRows(Array.from({ length: 50 }, (_, i) => ({ text: `t${i}`, count: 1 }))).length, TEXT_ROWS);
  assert.equal(textRows([{ text: 'a', count: 1 }, { text: 'b', count: 1 }], 1).length, 1);
  assert.deepEqual(textRows('none'), []);
});

test('an open text\'s results are drawn as text, never markup: a hostile entry stays words', () => {
  installDocument();
  const hostile = poll(9, {
    kind: 'text', options: undefined, shown: true,
    results: {
      answers: 4,
      texts: [{ text: '<script>alert(1)</script>', count: 2 }, { text: 'a\u202Eb\u2066c', count: 1 }, { text: 'q'.repeat(10_000), count: 1 }],
    },
  });
  const box = document.createElement('div');
  showResults(box, hostile, (w) => w, 'en');
  assert.deepEqual(markupIn(box), []);
  assert.equal(box.querySelector('.summary').textContent, 'Answers: 4');
  const items = box.querySelectorAll('li');
  assert.deepEqual(items.map((li) => li.querySelector('.entry-text').textContent), [
    '<script>alert(1)</script>', 'a\\u{202E}b\\u{2066}c', `${'q'.repeat(TEXT_LENGTH)}…`,
  ]);
  assert.deepEqual(items.map((li) => (li.querySelector('.entry-count') || { textContent: '' }).textContent), ['×2', '', '']);
  // The projector: no line of answers, at most the rows it asks for.
  const screen = document.createElement('div');
  showResults(screen, hostile, (w) => w, 'en', { answers: false, texts: 2 });
  assert.equal(screen.querySelector('.summary').hidden, true);
  assert.equal(screen.querySelectorAll('li').length, 2);
  // None live yet (all held, or none given): no list.
  showResults(screen, { ...hostile, results: { answers: 2, texts: [] } }, (w) => w, 'en');
  assert.equal(screen.querySelector('.texts').hidden, true);
});

test('an open text\'s form: one labelled line of 140 characters at most, and Send', () => {
  installDocument();
  const text = poll(8, { kind: 'text', options: undefined });
  const box = pollControls(text, { current: { text: 'Counted' }, draft: {} }, (w) => w);
  const input = box.querySelector('input');
  assert.equal(input.type, 'text');
  assert.equal(input.maxLength, TEXT_LENGTH);
  assert.equal(input.value, 'Counted');
  assert.equal(box.querySelector('label').htmlFor, input.id);
  assert.equal(box.querySelector(`p.meta`).id, input.getAttribute('aria-describedby'));
  assert.equal(box.querySelector('p.meta').textContent, 'One line, at most 140 characters.');
  assert.equal(box.querySelector('button').type, 'submit');
  assert.equal(box.querySelector('button').textContent, 'Send');
  // What is typed and not sent stays across a redraw.
  assert.equal(pollControls(text, { current: null, draft: { text: 'typing' } }, (w) => w).querySelector('input').value, 'typing');
});

test('an answer\'s note (an open text\'s, held for review) is a line of its own under the answer', () => {
  installDocument();
  const list = document.createElement('ol');
  const text = poll(8, { kind: 'text', options: undefined, shown: true, results: { answers: 1, texts: [] } });
  const held = 'Sent. The presenters review answers before the room sees them.';
  const state = (note) => () => ({ current: { text: 'Slides?' }, draft: {}, status: 'Your answer: Slides?', note });
  showPolls(list, [text], state(held), (w) => w, 'en');
  const li = list.querySelector('li.poll');
  assert.equal(li.querySelector('p.poll-status').textContent, 'Your answer: Slides?');
  assert.equal(li.querySelector('p.poll-note').textContent, held);
  // Live now: the note goes, the answer's line stays.
  showPolls(list, [text], state(''), (w) => w, 'en');
  assert.equal(list.querySelector('p.poll-note'), null);
  assert.equal(list.querySelector('p.poll-status').textContent, 'Your answer: Slides?');
  assert.deepEqual(markupIn(list), []);
});

test('the projector keeps the newest entries that fit: whole ones off the end, one at least', () => {
  // Entries 40, 80, 40 and 40 pixels high.
  const heights = [40, 80, 40, 40];
  assert.equal(entriesThatFit(heights, 0), 4);
  assert.equal(entriesThatFit(heights, -10), 4);
  assert.equal(entriesThatFit(heights, 1), 3);
  assert.equal(entriesThatFit(heights, 40), 3);
  assert.equal(entriesThatFit(heights, 40.3), 3, 'half a pixel is rounding');
  assert.equal(entriesThatFit(heights, 41), 2);
  assert.equal(entriesThatFit(heights, 81), 1);
  assert.equal(entriesThatFit(heights, 10_000), 1);
  assert.equal(entriesThatFit(heights, 10_000, 0), 0);
  assert.equal(entriesThatFit([], 50), 0);
});
