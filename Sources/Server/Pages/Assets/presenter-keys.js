// The presenter page's keyboard and its undo (presenter.js), as the console has them
// (Sources/QnATerminal/PresenterHelp.swift, QnAState+Presenter.swift's `undo`): which key
// does what on the selected question, which action takes back the last one, and how a
// card's menu moves under the arrow keys. No DOM here, so that Tests/Web checks all of it.

/**
 * The console's keys, each a command of the page: on the selected question (`on: 'question'`)
 * or on the page. `Enter` marks answered only on a card itself (not on its buttons).
 */
export const KEYS = {
  a: 'approve', d: 'dismiss', r: 'restore', h: 'highlight', m: 'answer', Enter: 'answer',
  t: 'answer-text', p: 'answer-private', e: 'edit-text', x: 'silence', X: 'unsilence',
  '*': 'star', n: 'enqueue', '[': 'moveUp', ']': 'moveDown', T: 'moveToTop', l: 'relabel',
  N: 'next', v: 'queue', u: 'undo', s: 'sort', '/': 'search', '?': 'help',
  1: 'tab-review', 2: 'tab-live', 3: 'tab-answered', 4: 'tab-dismissed',
  ArrowDown: 'select-next', ArrowUp: 'select-previous', j: 'select-next', k: 'select-previous',
  Home: 'select-first', End: 'select-last',
};

/** The commands that act on the selected question (the rest act on the page). */
export const QUESTION_COMMANDS = [
  'approve', 'dismiss', 'restore', 'highlight', 'answer', 'answer-text', 'answer-private',
  'edit-text', 'silence', 'unsilence', 'star', 'enqueue', 'moveUp', 'moveDown', 'moveToTop',
  'relabel',
];

/** The help overlay's lines: the keys, and what each does (words the page translates). */
export const HELP = [
  ['1 2 3 4', 'the lists: review, live, answered, dismissed'],
  ['↑ ↓ j k Home End', 'select a question'],
  ['a', 'approve the question in review'],
  ['d', 'dismiss it (r restores it)'],
  ['h', 'highlight it as now answering; again: stop'],
  ['m, Enter', 'mark it answered'],
  ['t', 'answer it with text, for the room'],
  ['p', 'answer it with text, for the asker only'],
  ['e', 'edit its text (the asker is told; the original is kept)'],
  ['x, X', 'silence its asker: their new questions go to review / no longer'],
  ['*', 'star it (presenters only see stars)'],
  ['n', 'put it next up (again: take it out)'],
  ['[ ] T', 'move it up or down the next-up queue, or to its top'],
  ['N', 'answer the next one now: it becomes now answering'],
  ['v', 'show the next-up queue to the room, or hide it'],
  ['l', "file it under one of the session's labels (empty: none)"],
  ['u', 'undo the last action'],
  ['s', 'sort: by votes / newest first'],
  ['/', 'search; Esc shows them all'],
  ['?', 'this help; Esc closes'],
];

/**
 * The command a key press means, or null: none while typing in a field (or in a menu or a
 * dialog, which have keys of their own), none with Ctrl, Alt or Meta held.
 * `event`: `{ key, ctrlKey, altKey, metaKey, target }`, `target` with `tagName`,
 * `isContentEditable` and `closest`.
 * @param {any} event
 * @returns {string | null}
 */
export function commandFor(event) {
  if (!event || event.ctrlKey || event.altKey || event.metaKey) return null;
  const target = event.target || {};
  const tag = String(target.tagName || '').toLowerCase();
  if (['input', 'textarea', 'select'].includes(tag) || target.isContentEditable) return null;
  const inside = (selector) => typeof target.closest === 'function' && !!target.closest(selector);
  if (inside('[role="menu"]') || inside('dialog')) return null;
  const command = Object.prototype.hasOwnProperty.call(KEYS, event.key) ? KEYS[event.key] : null;
  // Enter on a button presses it; only on a card itself does it mark the question answered.
  if (event.key === 'Enter' && !(target.classList && target.classList.contains('card'))) return null;
  // The arrows and Home/End move the page where nothing is selected to move between.
  return command;
}

/**
 * A question command as the API takes it, for question `q` (its state, highlight, star and
 * queue place): a toggle becomes its on or off; null when it does not apply to `q`.
 * `room`: `{ highlighted, nextUp: [ids] }`.
 * @param {string} command
 * @param {any} q
 * @param {string} state
 * @param {{ highlighted?: string | null, nextUp: string[] }} room
 * @returns {string | null}
 */
export function actionFor(command, q, state, room) {
  const queued = room.nextUp.includes(q.id);
  switch (command) {
    case 'approve': return state === 'review' ? 'approve' : null;
    case 'dismiss': return state === 'dismissed' ? null : 'dismiss';
    case 'restore': return state === 'dismissed' ? 'restore' : null;
    case 'highlight':
      if (q.id === room.highlighted) return 'unhighlight';
      return state === 'live' ? 'highlight' : null;
    case 'answer': return state === 'dismissed' || q.answered ? null : 'answer';
    case 'answer-text': case 'answer-private': return state === 'dismissed' ? null : command;
    case 'star': return q.starred ? 'unstar' : 'star';
    case 'enqueue':
      if (queued) return 'dequeue';
      return state === 'live' && !q.answered ? 'enqueue' : null;
    case 'moveUp': case 'moveDown': case 'moveToTop': return queued ? command : null;
    default: return QUESTION_COMMANDS.includes(command) ? command : null;
  }
}

/**
 * What takes back `last`, as the console's `u` does: `last` is `{ action, id, body }` as sent,
 * `before` what it replaced (`highlighted`, the question's `content` and `label`, the room's
 * `announcement`, the queue's `shown`). Returns `{ action, id, body }` (an action on question
 * `id`), `{ room, body }` (`announce`, `label-add`, `label-remove`, `filter`, `queue`), or
 * `{ none: reason }`: `nothing` (no last action) or `final` (an approve, an answer, a move
 * in the queue, the next one: they reached the room and stay).
 * @param {any} last
 * @returns {any}
 */
export function undoOf(last) {
  if (!last) return { none: 'nothing' };
  const { action, id, body = {}, before = {} } = last;
  const on = (inverse, inverseBody) => ({ action: inverse, id, body: inverseBody });
  switch (action) {
    case 'dismiss': return on('restore');
    case 'restore': return on('dismiss');
    case 'highlight':
      return before.highlighted && before.highlighted !== id
        ? { action: 'highlight', id: before.highlighted } : on('unhighlight');
    case 'unhighlight': return on('highlight');
    case 'silence': return on('unsilence');
    case 'unsilence': return on('silence');
    case 'star': return on('unstar');
    case 'unstar': return on('star');
    case 'enqueue': return on('dequeue');
    case 'dequeue': return on('enqueue');
    case 'edit':
      return typeof before.content === 'string' ? on('edit', { text: before.content }) : { none: 'nothing' };
    case 'relabel':
      return on('relabel', typeof before.label === 'string' && before.label ? { label: before.label } : {});
    case 'announce': return { room: 'announce', body: { text: before.announcement || '' } };
    case 'label-add': return { room: 'label-remove', body: { name: body.name } };
    case 'label-remove': return { room: 'label-add', body: { name: body.name } };
    case 'filter':
      return { room: 'filter', body: { add: body.remove || [], remove: body.add || [] } };
    case 'queue':
      if (body.step === 'show') return { room: 'queue', body: { step: 'hide' } };
      if (body.step === 'hide') return { room: 'queue', body: { step: 'show' } };
      return { none: 'final' };
    default: return { none: 'final' };
  }
}

/**
 * A card's menu under a key: the item to focus (an index of `count`), `close` (Esc, Tab:
 * the menu shuts and the focus goes back to its button), or null (a key the menu leaves).
 * @param {string} key
 * @param {number} index the item focused now (-1: none)
 * @param {number} count
 * @returns {number | 'close' | null}
 */
export function menuKey(key, index, count) {
  if (key === 'Escape' || key === 'Tab') return 'close';
  if (count === 0) return null;
  if (key === 'ArrowDown') return index < 0 ? 0 : (index + 1) % count;
  if (key === 'ArrowUp') return index <= 0 ? count - 1 : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * Where the focus goes when the list is drawn again: the same card (and the same button of
 * it, `action`) when it is still there; else the card that took its place, or the one before
 * it; null when the list is empty. `before`, `after`: the ids in order.
 * @param {string[]} before
 * @param {string[]} after
 * @param {string} id
 * @returns {string | null}
 */
export function focusAfter(before, after, id) {
  if (after.includes(id)) return id;
  if (!after.length) return null;
  const at = before.indexOf(id);
  // The first card after it that is still listed, else the last one before it.
  for (let i = at + 1; at >= 0 && i < before.length; i += 1) if (after.includes(before[i])) return before[i];
  for (let i = at - 1; i >= 0; i -= 1) if (after.includes(before[i])) return before[i];
  return after[0];
}
