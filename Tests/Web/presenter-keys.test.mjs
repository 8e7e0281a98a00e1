// The presenter page's keys, undo and menus (presenter-keys.js): the console's keys
// (Sources/QnATerminal/PresenterHelp.swift) and its undo (QnAState+Presenter.swift's `undo`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  actionFor, commandFor, focusAfter, HELP, KEYS, menuKey, QUESTION_COMMANDS, undoOf,
} from '../../Sources/Server/Pages/Assets/presenter-keys.js';
import { QUESTION_ACTIONS } from '../../Sources/Server/Pages/Assets/presenter-api.js';

const on = (tagName, { card = false, inside = [] } = {}) => ({
  tagName, isContentEditable: false,
  classList: { contains: (c) => card && c === 'card' },
  closest: (selector) => (inside.includes(selector) ? {} : null),
});
const press = (key, target = on('BODY'), mods = {}) => commandFor({ key, target, ...mods });

test("the console's keys, each to its command", () => {
  const expected = {
    a: 'approve', d: 'dismiss', r: 'restore', h: 'highlight', m: 'answer', t: 'answer-text',
    p: 'answer-private', e: 'edit-text', x: 'silence', X: 'unsilence', '*': 'star', n: 'enqueue',
    '[': 'moveUp', ']': 'moveDown', T: 'moveToTop', N: 'next', v: 'queue', l: 'relabel', u: 'undo',
    s: 'sort', '/': 'search', '?': 'help', 1: 'tab-review', 2: 'tab-live', 3: 'tab-answered',
    4: 'tab-dismissed',
  };
  for (const [key, command] of Object.entries(expected)) assert.equal(press(key), command, key);
  // Every key the console's help lists for a question or the page is here.
  const help = readFileSync(new URL('../../Sources/QnATerminal/PresenterHelp.swift', import.meta.url), 'utf8');
  for (const key of ['"a"', '"e"', '"d"', '"h"', '"t"', '"p"', '"*"', '"n"', '"N"', '"v"', '"l"', '"u"', '"/"']) {
    assert.ok(help.includes(`(${key},`), `the console has ${key}`);
    assert.ok(KEYS[key.slice(1, -1)], `the page has ${key}`);
  }
});

test('no command while typing, with a modifier, in a menu or a dialog', () => {
  for (const tag of ['INPUT', 'TEXTAREA', 'SELECT']) assert.equal(press('a', on(tag)), null);
  assert.equal(press('a', { ...on('DIV'), isContentEditable: true }), null);
  assert.equal(press('a', on('BODY'), { ctrlKey: true }), null);
  assert.equal(press('a', on('BODY'), { metaKey: true }), null);
  assert.equal(press('a', on('BODY'), { altKey: true }), null);
  assert.equal(press('a', on('BUTTON', { inside: ['[role="menu"]'] })), null);
  assert.equal(press('?', on('BUTTON', { inside: ['dialog'] })), null);
  assert.equal(press('q'), null);
  // Enter marks answered on a card, and presses a button anywhere else.
  assert.equal(press('Enter', on('DIV', { card: true })), 'answer');
  assert.equal(press('Enter', on('BUTTON')), null);
});

test('a command becomes the action the API takes, or nothing where it does not apply', () => {
  const room = { highlighted: 'H', nextUp: ['Q'] };
  const q = (id, more = {}) => ({ id, answered: false, starred: false, ...more });
  assert.equal(actionFor('approve', q('A'), 'review', room), 'approve');
  assert.equal(actionFor('approve', q('A'), 'live', room), null);
  assert.equal(actionFor('dismiss', q('A'), 'dismissed', room), null);
  assert.equal(actionFor('restore', q('A'), 'dismissed', room), 'restore');
  assert.equal(actionFor('highlight', q('A'), 'live', room), 'highlight');
  assert.equal(actionFor('highlight', q('H'), 'live', room), 'unhighlight');
  assert.equal(actionFor('highlight', q('A'), 'review', room), null);
  assert.equal(actionFor('highlight', q('A', { answered: true }), 'answered', room), null);
  assert.equal(actionFor('answer', q('A', { answered: true }), 'answered', room), null);
  assert.equal(actionFor('star', q('A', { starred: true }), 'live', room), 'unstar');
  assert.equal(actionFor('enqueue', q('Q'), 'live', room), 'dequeue');
  assert.equal(actionFor('enqueue', q('A'), 'review', room), null);
  assert.equal(actionFor('moveUp', q('A'), 'live', room), null);
  assert.equal(actionFor('moveToTop', q('Q'), 'live', room), 'moveToTop');
  // What reaches the API is one of its actions, or one of the page's own that asks first.
  const own = ['answer-text', 'answer-private', 'edit-text'];
  for (const command of QUESTION_COMMANDS) {
    for (const state of ['review', 'live', 'answered', 'dismissed']) {
      const action = actionFor(command, q('Q'), state, room);
      assert.ok(action === null || QUESTION_ACTIONS.includes(action) || own.includes(action), `${command} → ${action}`);
    }
  }
});

test('undo takes back the last action as the console does', () => {
  const last = (action, more = {}) => ({ action, id: 'Q', body: undefined, before: {}, ...more });
  assert.deepEqual(undoOf(null), { none: 'nothing' });
  assert.deepEqual(undoOf(last('dismiss')), { action: 'restore', id: 'Q', body: undefined });
  assert.deepEqual(undoOf(last('restore')), { action: 'dismiss', id: 'Q', body: undefined });
  assert.deepEqual(undoOf(last('highlight')), { action: 'unhighlight', id: 'Q', body: undefined });
  // A highlight that replaced another gives the other one back.
  assert.deepEqual(undoOf(last('highlight', { before: { highlighted: 'P' } })), { action: 'highlight', id: 'P' });
  assert.deepEqual(undoOf(last('unhighlight')), { action: 'highlight', id: 'Q', body: undefined });
  for (const [a, b] of [['silence', 'unsilence'], ['star', 'unstar'], ['enqueue', 'dequeue']]) {
    assert.equal(undoOf(last(a)).action, b);
    assert.equal(undoOf(last(b)).action, a);
  }
  assert.deepEqual(undoOf(last('edit', { body: { text: 'new' }, before: { content: 'old' } })),
    { action: 'edit', id: 'Q', body: { text: 'old' } });
  assert.deepEqual(undoOf(last('relabel', { body: { label: 'B' }, before: { label: 'A' } })),
    { action: 'relabel', id: 'Q', body: { label: 'A' } });
  assert.deepEqual(undoOf(last('relabel', { body: { label: 'B' }, before: { label: '' } })),
    { action: 'relabel', id: 'Q', body: {} });
  assert.deepEqual(undoOf({ action: 'announce', body: { text: 'new' }, before: { announcement: 'old' } }),
    { room: 'announce', body: { text: 'old' } });
  assert.deepEqual(undoOf({ action: 'label-add', body: { name: 'Panel' } }), { room: 'label-remove', body: { name: 'Panel' } });
  assert.deepEqual(undoOf({ action: 'filter', body: { add: ['spam'] } }), { room: 'filter', body: { add: [], remove: ['spam'] } });
  assert.deepEqual(undoOf({ action: 'queue', body: { step: 'show' } }), { room: 'queue', body: { step: 'hide' } });
  // What reached the room stays, as in the console.
  for (const action of ['approve', 'answer', 'moveUp', 'moveDown', 'moveToTop']) {
    assert.deepEqual(undoOf(last(action)), { none: 'final' }, action);
  }
  assert.deepEqual(undoOf({ action: 'queue', body: { step: 'next' } }), { none: 'final' });
});

test("a card's menu: the arrows walk it round, Home and End, Esc and Tab close it", () => {
  assert.equal(menuKey('ArrowDown', -1, 4), 0);
  assert.equal(menuKey('ArrowDown', 3, 4), 0);
  assert.equal(menuKey('ArrowUp', 0, 4), 3);
  assert.equal(menuKey('ArrowUp', 2, 4), 1);
  assert.equal(menuKey('Home', 2, 4), 0);
  assert.equal(menuKey('End', 0, 4), 3);
  assert.equal(menuKey('Escape', 1, 4), 'close');
  assert.equal(menuKey('Tab', 1, 4), 'close');
  assert.equal(menuKey('a', 1, 4), null);
  assert.equal(menuKey('ArrowDown', -1, 0), null);
});

test('the focus follows a card that moved to another list to the one in its place', () => {
  assert.equal(focusAfter(['A', 'B', 'C'], ['A', 'B', 'C'], 'B'), 'B');
  assert.equal(focusAfter(['A', 'B', 'C'], ['A', 'C'], 'B'), 'C');
  assert.equal(focusAfter(['A', 'B', 'C'], ['A', 'B'], 'C'), 'B');
  assert.equal(focusAfter(['A', 'B', 'C'], ['D'], 'B'), 'D');
  assert.equal(focusAfter(['A'], [], 'A'), null);
});

test('the help lists every key the page has', () => {
  const listed = HELP.map(([keys]) => keys).join(' ');
  for (const key of Object.keys(KEYS).filter((k) => k.length === 1)) {
    assert.ok(listed.includes(key), `the help has ${key}`);
  }
});
