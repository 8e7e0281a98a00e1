// The pages' shared module, run by `node --test Tests/Web` (make test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyCounts, printable, uuid } from '../../Sources/Server/Pages/Assets/common.js';

test('printable shows controls, bidi controls and invisibles as escapes', () => {
  assert.equal(printable('plain text, ünïcödé and 😀'), 'plain text, ünïcödé and 😀');
  assert.equal(printable('bell\u0007 escape\u001B[31m'), 'bell\\x07 escape\\e[31m');
  assert.equal(printable('\u202Eevil\u2066'), '\\u{202E}evil\\u{2066}');
  assert.equal(printable('zero\u200Bwidth\uFEFF'), 'zero\\u{200B}width\\u{FEFF}');
  assert.equal(printable('del\u007F c1\u0085'), 'del\\x7F c1\\x85');
  // Tab, line feed and carriage return are the room's to lay out, not escapes.
  assert.equal(printable('a\tb\nc\rd'), 'a\tb\nc\rd');
  // Whatever it is given becomes text.
  assert.equal(printable(42), '42');
  assert.equal(printable(null), 'null');
});

test('uuid makes upper-case version 4 ids, each different', () => {
  const made = new Set();
  for (let i = 0; i < 1000; i += 1) {
    const id = uuid();
    assert.match(id, /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    made.add(id);
  }
  assert.equal(made.size, 1000);
});

test('applyCounts sets each numbered question’s whole count and passes over the rest', () => {
  const questions = new Map([
    ['A', { id: 'A', votes: 1 }],
    ['B', { id: 'B', votes: 2 }],
  ]);
  const numbers = new Map([[1, 'A'], [2, 'B'], [3, 'gone']]);
  applyCounts([2, 7, 3, 9, 4, 5, 1], questions, numbers);
  assert.equal(questions.get('A').votes, 1, 'an odd last element is no pair');
  assert.equal(questions.get('B').votes, 7);
  applyCounts(undefined, questions, numbers);
  applyCounts([1, 0], questions, numbers);
  assert.equal(questions.get('A').votes, 0);
});
