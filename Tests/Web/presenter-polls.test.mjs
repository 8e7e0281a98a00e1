// The presenter page's polls (presenter-polls.js), the parts without a page: the form's
// fields as a spec, checked as the server checks it (PollRules, docs/protocol-extensions.md's
// bounds) with the field to fix; a poll back into the form; an import; a refusal's reason;
// each poll's facts, buttons and leaderboard; and every word offered for translation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  RULES, actionProblem, actionsOf, bodyOf, closesAt, fieldsOf, hasOptions, importOf, leaderboardLines,
  lineProblem, numbersOf, optionLines, pollFacts, refusalOf, scaleFrom, specBytes, specOf, specProblem, stateWord,
} from '../../Sources/Server/Pages/Assets/presenter-polls.js';

const fields = (extra = {}) => ({
  kind: 'single', prompt: 'Tabs or spaces?', options: 'Tabs\nSpaces', max: '', scale: '1-5', quiz: false,
  correct: [], order: '', timeLimit: '', namedBoard: false, ...extra,
});
const problemOf = (extra) => (specOf(fields(extra)).problem || null);

test('the form makes each kind\'s spec, with only what the kind has', () => {
  assert.deepEqual(specOf(fields({ prompt: '  Tabs or spaces?  ', options: ' Tabs \n\n Spaces\r\n', max: '2' })).spec,
    { kind: 'single', prompt: 'Tabs or spaces?', options: ['Tabs', 'Spaces'] });
  assert.deepEqual(specOf(fields({ kind: 'multiple', options: 'A\nB\nC', max: '2' })).spec,
    { kind: 'multiple', prompt: 'Tabs or spaces?', options: ['A', 'B', 'C'], max: 2 });
  assert.deepEqual(specOf(fields({ kind: 'multiple', options: 'A\nB\nC' })).spec.max, undefined);
  assert.deepEqual(specOf(fields({ kind: 'rating', scale: '0-100', max: '3', quiz: true })).spec,
    { kind: 'rating', prompt: 'Tabs or spaces?', scale: { min: 0, max: 100 } });
  assert.deepEqual(specOf(fields({ kind: 'words', max: '2' })).spec, { kind: 'words', prompt: 'Tabs or spaces?', max: 2 });
  assert.deepEqual(specOf(fields({ kind: 'ranking', options: 'A\nB\nC' })).spec,
    { kind: 'ranking', prompt: 'Tabs or spaces?', options: ['A', 'B', 'C'] });
});

test('a quiz: its correct options, a ranking\'s order, a time limit and a named board', () => {
  assert.deepEqual(specOf(fields({ quiz: true, correct: [1], timeLimit: ' 30 ', namedBoard: true })).spec,
    { kind: 'single', prompt: 'Tabs or spaces?', options: ['Tabs', 'Spaces'], correct: [1], timeLimit: 30, namedBoard: true });
  assert.deepEqual(specOf(fields({ kind: 'multiple', options: 'A\nB\nC', quiz: true, correct: [2, 0] })).spec.correct, [0, 2]);
  assert.deepEqual(specOf(fields({ kind: 'ranking', options: 'A\nB\nC', quiz: true, order: '3, 1 2' })).spec.correct, [2, 0, 1]);
  // Quiz settings left for a poll that is no quiz go nowhere.
  assert.deepEqual(specOf(fields({ correct: [1], timeLimit: '30', namedBoard: true })).spec.correct, undefined);
  assert.equal(problemOf({ quiz: true }).field, 'correct');
  assert.equal(problemOf({ quiz: true, correct: [0, 1] }).text, 'A single choice quiz has one correct option.');
  assert.equal(problemOf({ kind: 'multiple', options: 'A\nB\nC', max: '1', quiz: true, correct: [0, 1] }).text,
    'A quiz cannot need more options than an answer may choose.');
  assert.equal(problemOf({ kind: 'ranking', options: 'A\nB\nC', quiz: true, order: '1, 2' }).field, 'correct');
  assert.equal(problemOf({ kind: 'ranking', options: 'A\nB\nC', quiz: true, order: '1, 1, 2' }).field, 'correct');
  assert.equal(problemOf({ kind: 'ranking', options: 'A\nB\nC', quiz: true, order: '1, 4, 2' }).field, 'correct');
  assert.equal(problemOf({ kind: 'ranking', options: 'A\nB\nC', quiz: true, order: 'first' }).field, 'correct');
  for (const limit of ['4', '3601', '1.5', 'soon']) {
    assert.equal(problemOf({ quiz: true, correct: [0], timeLimit: limit }).field, 'timeLimit', limit);
  }
  assert.equal(problemOf({ quiz: true, correct: [0], timeLimit: '5' }), null);
  assert.equal(problemOf({ quiz: true, correct: [0], timeLimit: '3600' }), null);
});

test('what the server refuses is refused here first, with the field to fix', () => {
  assert.equal(problemOf({ prompt: '   ' }).field, 'prompt');
  assert.equal(problemOf({ prompt: '\u200B\u200D' }).field, 'prompt');
  assert.equal(problemOf({ prompt: 'x'.repeat(301) }).text, 'The question has at most 300 characters.');
  assert.equal(problemOf({ prompt: 'x'.repeat(300) }), null);
  // Characters as people see them (200 here, of 400 code points), and at most 600 bytes.
  assert.equal(problemOf({ prompt: 'e\u0301'.repeat(200) }), null);
  assert.equal(problemOf({ prompt: '🇵🇱'.repeat(75) }), null);
  assert.equal(problemOf({ prompt: '🇵🇱'.repeat(76) }).text, 'The question has at most 300 characters.');
  assert.equal(problemOf({ prompt: 'Pick\u202Egnp.exe' }).text, 'The question is one line, without control, bidi or invisible characters.');
  // At most 16 scalars in one character (QuestionText.maxScalarsPerCharacter), its base too.
  assert.equal(problemOf({ prompt: `Z${'\u0301'.repeat(16)}` }).text, 'The question has a character with more than 16 marks.');
  assert.equal(problemOf({ prompt: `Z${'\u0301'.repeat(15)}` }), null);
  assert.equal(problemOf({ options: 'Tabs' }).text, 'Give two options or more, one per line.');
  assert.equal(problemOf({ options: Array.from({ length: 21 }, (_, i) => `O${i}`).join('\n') }).text, 'A poll has at most 20 options.');
  assert.equal(problemOf({ options: `A\n${'x'.repeat(121)}` }).text, 'Option 2 has at most 120 characters.');
  assert.equal(problemOf({ options: 'A\nB\u200Bc' }).text, 'Option 2 has control, bidi or invisible characters.');
  assert.equal(problemOf({ options: 'Tabs\nSpaces\ntabs' }).text, 'Option 3 is option 1 again: each option is there once.');
  assert.equal(problemOf({ kind: 'multiple', options: 'A\nB', max: '3' }).text, 'An answer chooses 1 to 2 options.');
  assert.equal(problemOf({ kind: 'multiple', options: 'A\nB', max: '0' }).field, 'max');
  assert.equal(problemOf({ kind: 'multiple', options: 'A\nB', max: 'two' }).field, 'max');
  assert.equal(problemOf({ kind: 'words', max: '4' }).text, 'A word cloud takes 1 to 3 entries from each attendee.');
  assert.equal(problemOf({ kind: 'rating', scale: 'huge' }).field, 'scale');
  assert.equal(problemOf({ kind: 'nothing' }).field, 'kind');
  // Each part within its bounds, the whole at most 6 KiB as the server encodes it.
  const options = (width) => Array.from({ length: 20 }, (_, i) => `${i} ${'€'.repeat(width)}`).join('\n');
  assert.equal(problemOf({ options: options(110) }).text, "A poll's text is at most 6 KiB together: shorten its options.");
  assert.equal(problemOf({ options: options(80) }), null);
  assert.equal(specBytes({ prompt: 'a/b' }), 17);
});

test('a spec from elsewhere (an import) is held to the same rules as the server holds it', () => {
  const ok = [
    { kind: 'single', prompt: 'Tabs or spaces?', options: ['Tabs', 'Spaces'] },
    { kind: 'multiple', prompt: 'Which?', options: ['A', 'B', 'C'], max: 2 },
    { kind: 'rating', prompt: 'How was it?' },
    { kind: 'rating', prompt: 'Slide', scale: { min: 0, max: 100 } },
    { kind: 'rating', prompt: 'Seven', scale: { min: 1, max: 7 } },
    { kind: 'rating', prompt: 'A maximum the server leaves unread', max: 2 },
    { kind: 'ranking', prompt: 'Order', options: ['A', 'B', 'C'] },
    { kind: 'words', prompt: 'One word?' },
    { kind: 'single', prompt: '2+2?', options: ['3', '4'], correct: [1], timeLimit: 30 },
    { kind: 'ranking', prompt: 'Order', options: ['A', 'B', 'C'], correct: [2, 0, 1], namedBoard: true },
  ];
  for (const spec of ok) assert.equal(specProblem(spec), null, JSON.stringify(spec));
  const refused = [
    [{ kind: 'rating', prompt: 'Rate', scale: { min: 5, max: 1 } }, 'scale'],
    [{ kind: 'rating', prompt: 'Rate', scale: { min: 2, max: 10 } }, 'scale'],
    [{ kind: 'rating', prompt: 'Rate', scale: { min: 0, max: 101 } }, 'scale'],
    [{ kind: 'single', prompt: 'Q', options: ['A', 'B'], timeLimit: 10 }, 'correct'],
    [{ kind: 'single', prompt: 'Q', options: ['A', 'B'], max: 1 }, 'max'],
    [{ kind: 'words', prompt: 'Q', options: ['A', 'B'] }, 'options'],
    [{ kind: 'words', prompt: 'Q', correct: [0] }, 'kind'],
    [{ kind: 'single', prompt: 'Q', options: ['A', 'B'], scale: { min: 1, max: 5 } }, 'scale'],
    [{ kind: 'single', prompt: 'Q', options: ['A', 'B'], correct: [2] }, 'correct'],
    [{ kind: 'single', prompt: 'Q', options: ['A', 'B'], correct: [] }, 'correct'],
    [{ kind: 'single', prompt: 'Q', options: ['A\nB', 'C'] }, 'options'],
    [{ kind: 'single', prompt: 42, options: ['A', 'B'] }, 'prompt'],
    [{ kind: 'single', prompt: 'Q', options: 'A, B' }, 'options'],
    [null, 'kind'],
  ];
  for (const [spec, field] of refused) assert.equal(specProblem(spec).field, field, JSON.stringify(spec));
});

test('a draft back into the form gives the same spec', () => {
  const polls = [
    { id: 'P1', n: 1, kind: 'single', prompt: 'Q', options: ['A', 'B'], state: 'draft', shown: false, quiz: true, correct: [1], timeLimit: 20, namedBoard: true },
    { id: 'P2', n: 2, kind: 'multiple', prompt: 'Q', options: ['A', 'B', 'C'], max: 2, state: 'draft', shown: false },
    { id: 'P3', n: 3, kind: 'rating', prompt: 'Q', scale: { min: 0, max: 100 }, state: 'draft', shown: false },
    { id: 'P4', n: 4, kind: 'ranking', prompt: 'Q', options: ['A', 'B', 'C'], correct: [2, 0, 1], state: 'draft', shown: false },
    { id: 'P5', n: 5, kind: 'words', prompt: 'Q', max: 1, state: 'draft', shown: false },
  ];
  const specs = polls.map((p) => specOf(fieldsOf(p)).spec);
  assert.deepEqual(specs, [
    { kind: 'single', prompt: 'Q', options: ['A', 'B'], correct: [1], timeLimit: 20, namedBoard: true },
    { kind: 'multiple', prompt: 'Q', options: ['A', 'B', 'C'], max: 2 },
    { kind: 'rating', prompt: 'Q', scale: { min: 0, max: 100 } },
    { kind: 'ranking', prompt: 'Q', options: ['A', 'B', 'C'], correct: [2, 0, 1] },
    { kind: 'words', prompt: 'Q', max: 1 },
  ]);
  assert.equal(fieldsOf(polls[3]).order, '3, 1, 2');
  assert.equal(fieldsOf({ kind: 'rating', prompt: 'Q' }).scale, '1-5');
});

test('an import: a JSON array of specs the server would take, within the session\'s polls', () => {
  const specs = [{ kind: 'single', prompt: 'Q', options: ['A', 'B'] }, { kind: 'words', prompt: 'W' }];
  assert.deepEqual(importOf(JSON.stringify(specs)).specs, specs);
  assert.equal(importOf('not json').problem, 'An import is a JSON array of polls, as the export writes them.');
  assert.equal(importOf('{"kind":"words"}').problem, 'An import is a JSON array of polls, as the export writes them.');
  assert.equal(importOf('[]').problem, 'An import is a JSON array of polls, as the export writes them.');
  assert.equal(importOf(JSON.stringify([specs[0], { kind: 'single', prompt: 'Q', options: ['A'] }])).problem,
    'Poll 2 of the import: Give two options or more, one per line.');
  assert.equal(importOf(JSON.stringify(specs), RULES.polls - 1).problem, 'A session has at most 100 polls: delete one first.');
  assert.ok(importOf(JSON.stringify(specs), RULES.polls - 2).specs);
});

test('a refusal says the server\'s reason, printable; a network failure is not sent', () => {
  assert.equal(refusalOf({ ok: false, status: 409, text: '{"error":{"message":"At most 10 polls are open at once: close one first."}}' }),
    'At most 10 polls are open at once: close one first.');
  assert.equal(refusalOf({ ok: false, status: 400, text: '{"error":{"message":"Evil\u202Etxt"}}' }), 'Evil\\u{202E}txt');
  assert.equal(refusalOf({ ok: false, status: 503, text: '{"error":{"message":"Busy."}}' }), '503 Busy.');
  assert.equal(refusalOf({ ok: false, status: 401, text: 'Unauthorized' }), '401 Unauthorized');
  assert.equal(refusalOf({ ok: false, status: 0, text: 'Failed to fetch' }), 'Not sent: Failed to fetch');
  assert.equal(refusalOf({ ok: false, status: 409, text: 'x'.repeat(1000) }).length, 400);
  assert.deepEqual(bodyOf({ ok: true, status: 200, text: '{"n":3}' }), { n: 3 });
  assert.equal(bodyOf({ ok: true, status: 200, text: '' }), null);
});

test('each poll\'s facts and buttons by its state; Open and Close in one place', () => {
  const draft = { id: 'P1', n: 1, kind: 'single', prompt: 'Q', options: ['A', 'B'], state: 'draft', shown: false };
  const open = { ...draft, state: 'open', shown: true };
  const closed = { ...draft, state: 'closed' };
  assert.deepEqual(actionsOf(draft).map((a) => a.act), ['open', 'show', 'edit', 'delete']);
  assert.deepEqual(actionsOf(open).map((a) => a.act), ['close', 'hide', 'reset', 'delete']);
  assert.deepEqual(actionsOf(closed).map((a) => [a.act, a.label]),
    [['open', 'Reopen'], ['show', 'Show results'], ['reset', 'Reset…'], ['delete', 'Delete…']]);
  assert.deepEqual(actionsOf(draft).map((a) => a.slot), actionsOf(closed).map((a) => a.slot).map((s) => (s === 'reset' ? 'edit' : s)));
  assert.equal(actionsOf(open)[0].slot, actionsOf(draft)[0].slot);
  assert.deepEqual(pollFacts(draft), ['Draft', 'Results hidden']);
  assert.deepEqual(pollFacts({ ...open, kind: 'rating', options: undefined, scale: { min: 0, max: 100 } }),
    ['Open for answers', 'Results shown', '0–100']);
  assert.deepEqual(pollFacts({ ...closed, kind: 'words', options: undefined, max: 2 }), ['Closed', 'Results hidden', 'up to 2 entries']);
  // A timed quiz: until when it takes answers (seconds since 2001), then that the time is up.
  const ends = { ...open, quiz: true, correct: [1], timeLimit: 30, namedBoard: true, closesAt: 100 };
  assert.equal(closesAt(ends), (978307200 + 100) * 1000);
  const before = pollFacts(ends, undefined, closesAt(ends) - 1000);
  assert.deepEqual(before.slice(0, 5), ['Open for answers', 'Results shown', 'Quiz', '30 s to answer', 'Leaderboard with names']);
  assert.match(before[5], /^Answers until /);
  assert.equal(pollFacts(ends, undefined, closesAt(ends) + 1)[5], 'Time is up.');
  assert.equal(stateWord({ state: 'later\u202E' }), 'later\\u{202E}');
});

test('past ten open polls, opening one more is refused here first', () => {
  const polls = Array.from({ length: 10 }, (_, i) => ({ id: `P${i}`, n: i + 1, state: 'open' }));
  const draft = { id: 'D', n: 11, state: 'draft' };
  assert.equal(actionProblem(draft, 'open', [...polls, draft]), 'At most 10 polls are open at once: close one first.');
  assert.equal(actionProblem(draft, 'open', [...polls.slice(1), draft]), null);
  assert.equal(actionProblem(polls[0], 'close', polls), null);
});

test('a leaderboard: places shared, names printable, anonymous without one', () => {
  const poll = { leaderboard: [{ place: 1, name: 'Ada', score: 3 }, { place: 1, name: 'Bob\u202E', score: 3 }, { place: 3, score: 1 }] };
  assert.deepEqual(leaderboardLines(poll), ['1. Ada · score 3', '1. Bob\\u{202E} · score 3', '3. (no name) · score 1']);
  assert.deepEqual(leaderboardLines({}), []);
});

test('small readers: lines, numbers, scales, kinds', () => {
  assert.deepEqual(optionLines(' a \n\n b\r\nc '), ['a', 'b', 'c']);
  assert.deepEqual(numbersOf('3, 1 2'), [2, 0, 1]);
  assert.deepEqual(numbersOf(''), []);
  assert.equal(numbersOf('0, 1'), null);
  assert.equal(numbersOf('1, -2'), null);
  assert.deepEqual(scaleFrom('0-100'), { min: 0, max: 100 });
  assert.equal(scaleFrom('1 to 5'), null);
  assert.deepEqual(['single', 'multiple', 'rating', 'ranking', 'words'].map(hasOptions), [true, true, false, true, false]);
  assert.equal(lineProblem('ok', 10), null);
  assert.equal(lineProblem('\u0301', 10), 'empty');
  assert.equal(lineProblem('a\nb', 10), 'hidden');
});
