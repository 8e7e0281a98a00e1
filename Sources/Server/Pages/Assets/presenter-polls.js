// The presenter page's polls (extension `polls`): the session's polls in order, each with its
// live results as the presenter's socket has them (`room.polls`: drafts too, results always),
// its buttons (each action through the JSON API, presenter-api.js, with an Idempotency-Key of
// its own), a form that makes a draft or changes one, checked here as the server checks it
// (PollRules) before it goes, and the polls' import, export and results for after the talk.
// First what is worked out without a page, which Tests/Web checks; then the panel, made with
// text only, never markup. The page hands in its words (`word`: PresenterScript.messages
// lists every word of this file, and the ones poll-view.js draws results with). An open
// text's entries to approve or dismiss: presenter-poll-texts.js.
import { printable } from './common.js';
import { KINDS, format, kindLine, maxWords, showResults } from './poll-view.js';
import { POLL_TEXT_ACTIONS } from './presenter-api.js';
import { nearestEntry, showModeration } from './presenter-poll-texts.js';

/** What the server takes (PollRules in Swift), checked here first. */
export const RULES = {
  promptLength: 300, optionLength: 120, textBytes: 600, options: 20, polls: 100, open: 10,
  words: 3, rating: 100, marks: 16, timeLimit: { min: 5, max: 3600 }, specBytes: 6 * 1024,
};
/** The scales the form offers a rating (an imported poll may have another). */
export const SCALES = [{ min: 1, max: 5 }, { min: 1, max: 10 }, { min: 0, max: 100 }];
/** The largest import the server reads (PollController.maxBody). */
export const IMPORT_BYTES = 1024 * 1024;
/** Seconds from 1970 to 2001, where the protocol's times start. */
const SINCE_2001 = 978307200;

/** Whether a poll of `kind` has options (and may be a quiz). */
export const hasOptions = (kind) => kind === 'single' || kind === 'multiple' || kind === 'ranking';

/** A textarea's options: one per line, trimmed, empty lines left out. */
export const optionLines = (text) => String(text ?? '').split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l);

/** Option numbers as typed ("3, 1 2"), from 1, as indexes from 0; null for anything else. */
export const numbersOf = (text) => {
  const parts = String(text ?? '').split(/[\s,;]+/).filter((p) => p);
  if (!parts.every((p) => /^[1-9]\d{0,2}$/.test(p))) return null;
  return parts.map((p) => Number(p) - 1);
};

/** A rating's scale from the form's value ("1-5"); null for anything else. */
export const scaleFrom = (value) => {
  const match = /^(\d{1,3})-(\d{1,3})$/.exec(String(value ?? ''));
  return match ? { min: Number(match[1]), max: Number(match[2]) } : null;
};
export const scaleValue = (scale) => `${scale.min}-${scale.max}`;

// Characters as people see them (grapheme clusters, as Swift counts them), where the browser
// can tell; code points where it cannot.
const segmenter = typeof Intl === 'object' && Intl.Segmenter ? new Intl.Segmenter() : null;
const characters = (text) => (segmenter
  ? Array.from(segmenter.segment(text), (piece) => piece.segment) : Array.from(text));
// Controls, line breaks and format characters (bidi marks, zero-width ones): refused.
const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
// Something that draws (QuestionText.isVisible): not a space, a mark alone, a control…
const visible = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Mc}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\u2800\u115F\u1160\u3164\uFFA0]/u;

/**
 * Why a prompt or an option is refused, as PollRules.lineProblem says it: 'long' (characters
 * or bytes), 'hidden' (more than one line, or characters that draw nothing or reorder what
 * follows), 'empty', 'marks' (a character with more than 16); null when it is fine.
 */
export const lineProblem = (text, maxLength) => {
  const chars = characters(text);
  if (chars.length > maxLength || new TextEncoder().encode(text).length > RULES.textBytes) return 'long';
  if (hidden.test(text)) return 'hidden';
  if (!visible.test(text)) return 'empty';
  if (chars.some((c) => Array.from(c).length > RULES.marks)) return 'marks';
  return null;
};

const same = (w) => w;
const whole = (n) => Number.isInteger(n);

/**
 * Why `spec` cannot be a poll, as the server would refuse it (PollRules.problem, in its
 * order), in the page's words: `{ field, text }` (`field`: the form's field to fix: `kind`,
 * `prompt`, `options`, `max`, `scale`, `correct`, `timeLimit`), or null when it can.
 */
export function specProblem(spec, word = same) {
  const at = (field, text) => ({ field, text });
  if (!spec || typeof spec !== 'object' || !KINDS.includes(spec.kind)) {
    return at('kind', word('Choose the kind of poll.'));
  }
  const prompt = typeof spec.prompt === 'string' ? spec.prompt : '';
  switch (lineProblem(prompt, RULES.promptLength)) {
    case 'long': return at('prompt', format(word('The question has at most %d characters.'), RULES.promptLength));
    case 'hidden': return at('prompt', word('The question is one line, without control, bidi or invisible characters.'));
    case 'empty': return at('prompt', word('The question is empty.'));
    case 'marks': return at('prompt', format(word('The question has a character with more than %d marks.'), RULES.marks));
    default: break;
  }
  const options = spec.options ?? [];
  if (!Array.isArray(options) || !options.every((o) => typeof o === 'string')) {
    return at('options', word('Give two options or more, one per line.'));
  }
  const n = options.length;
  if (hasOptions(spec.kind)) {
    if (n < 2) return at('options', word('Give two options or more, one per line.'));
    if (n > RULES.options) return at('options', format(word('A poll has at most %d options.'), RULES.options));
    for (const [i, option] of options.entries()) {
      switch (lineProblem(option, RULES.optionLength)) {
        case 'long': return at('options', format(word('Option %1$d has at most %2$d characters.'), i + 1, RULES.optionLength));
        case 'hidden': return at('options', format(word('Option %d has control, bidi or invisible characters.'), i + 1));
        case 'empty': return at('options', format(word('Option %d is empty.'), i + 1));
        case 'marks': return at('options', format(word('Option %1$d has a character with more than %2$d marks.'), i + 1, RULES.marks));
        default: break;
      }
    }
    const folded = options.map((o) => o.toLowerCase());
    const again = folded.findIndex((o, i) => folded.indexOf(o) !== i);
    if (again >= 0) {
      return at('options', format(word('Option %1$d is option %2$d again: each option is there once.'), again + 1, folded.indexOf(folded[again]) + 1));
    }
  } else if (n) {
    return at('options', word('Only a choice or ranking poll has options.'));
  }
  const max = spec.max ?? null;
  if (spec.kind === 'multiple' && max !== null && !(whole(max) && max >= 1 && max <= n)) {
    return at('max', format(word('An answer chooses 1 to %d options.'), n));
  }
  if (spec.kind === 'words' && max !== null && !(whole(max) && max >= 1 && max <= RULES.words)) {
    return at('max', format(word('A word cloud takes 1 to %d entries from each attendee.'), RULES.words));
  }
  // (A rating's maximum goes unread, as the server leaves it.)
  if ((spec.kind === 'single' || spec.kind === 'ranking' || spec.kind === 'text') && max !== null) {
    return at('max', word('Only a multiple choice poll or a word cloud has a maximum.'));
  }
  const scale = spec.scale ?? null;
  if (spec.kind === 'rating') {
    const { min: low, max: high } = scale || { min: 1, max: 5 };
    if (!whole(low) || !whole(high) || low < 0 || low > 1 || high < low + 1 || high > RULES.rating) {
      return at('scale', format(word("A rating's scale goes from 0 or 1 up to at most %d."), RULES.rating));
    }
  } else if (scale !== null) {
    return at('scale', word('Only a rating has a scale.'));
  }
  return quizProblem(spec, n, word) || sizeProblem(spec, word);
}

/** A spec's bytes as the server encodes it (JSON, its slashes escaped). */
export const specBytes = (spec) => {
  const json = JSON.stringify(spec);
  return new TextEncoder().encode(json).length + (json.match(/\//g) || []).length;
};

// The whole spec within its bytes, whatever its parts.
const sizeProblem = (spec, word) => (specBytes(spec) > RULES.specBytes
  ? { field: 'options', text: format(word("A poll's text is at most %d KiB together: shorten its options."), RULES.specBytes / 1024) }
  : null);

function quizProblem(spec, n, word) {
  const at = (field, text) => ({ field, text });
  const correct = spec.correct ?? null;
  const limit = spec.timeLimit ?? null;
  if (correct === null) {
    return limit !== null || (spec.namedBoard ?? null) !== null
      ? at('correct', word('A time limit and a leaderboard are for quizzes: mark the correct options.')) : null;
  }
  if (!hasOptions(spec.kind)) return at('kind', word('Only a choice or ranking poll can be a quiz.'));
  if (!Array.isArray(correct) || !correct.length) {
    return at('correct', spec.kind === 'ranking'
      ? word('Give the correct order: every option number once, first place first.')
      : word('Mark the correct options.'));
  }
  if (!correct.every((c) => whole(c) && c >= 0 && c < n) || new Set(correct).size !== correct.length) {
    return at('correct', spec.kind === 'ranking'
      ? word('Give the correct order: every option number once, first place first.')
      : word("A quiz's correct options are options of the poll, each once."));
  }
  if (spec.kind === 'single' && correct.length !== 1) return at('correct', word('A single choice quiz has one correct option.'));
  if (spec.kind === 'multiple' && correct.length > (spec.max ?? n)) {
    return at('correct', word('A quiz cannot need more options than an answer may choose.'));
  }
  if (spec.kind === 'ranking' && correct.length !== n) {
    return at('correct', word('Give the correct order: every option number once, first place first.'));
  }
  if (limit !== null && !(whole(limit) && limit >= RULES.timeLimit.min && limit <= RULES.timeLimit.max)) {
    return at('timeLimit', format(word("A quiz's time limit is %1$d to %2$d seconds."), RULES.timeLimit.min, RULES.timeLimit.max));
  }
  if (spec.namedBoard !== undefined && typeof spec.namedBoard !== 'boolean') {
    return at('correct', word('A time limit and a leaderboard are for quizzes: mark the correct options.'));
  }
  return null;
}

/**
 * The form's fields as a spec: `{ spec }`, or `{ problem: { field, text } }`. Fields:
 * `kind`, `prompt`, `options` (one per line), `max` and `timeLimit` (as typed, '' for none),
 * `scale` ("1-5"), `quiz`, `correct` (a choice's correct options, indexes), `order` (a
 * ranking's correct order, option numbers as typed) and `namedBoard`. Only what the kind has
 * goes into the spec.
 */
export function specOf(fields, word = same) {
  const { kind } = fields;
  const spec = { kind, prompt: String(fields.prompt ?? '').trim() };
  const number = (text) => {
    const t = String(text ?? '').trim();
    if (!t) return null;
    return /^\d{1,6}$/.test(t) ? Number(t) : NaN;
  };
  if (hasOptions(kind)) spec.options = optionLines(fields.options);
  if (kind === 'multiple' || kind === 'words') {
    const max = number(fields.max);
    if (Number.isNaN(max)) return { problem: { field: 'max', text: word('The maximum is a whole number.') } };
    if (max !== null) spec.max = max;
  }
  if (kind === 'rating') {
    const scale = scaleFrom(fields.scale);
    if (!scale) return { problem: { field: 'scale', text: format(word("A rating's scale goes from 0 or 1 up to at most %d."), RULES.rating) } };
    spec.scale = scale;
  }
  if (hasOptions(kind) && fields.quiz) {
    if (kind === 'ranking') {
      const order = numbersOf(fields.order);
      if (!order) return { problem: { field: 'correct', text: word('Give the correct order: every option number once, first place first.') } };
      spec.correct = order;
    } else {
      spec.correct = [...(fields.correct || [])].sort((a, b) => a - b);
    }
    const limit = number(fields.timeLimit);
    if (Number.isNaN(limit)) {
      return { problem: { field: 'timeLimit', text: format(word("A quiz's time limit is %1$d to %2$d seconds."), RULES.timeLimit.min, RULES.timeLimit.max) } };
    }
    if (limit !== null) spec.timeLimit = limit;
    if (fields.namedBoard) spec.namedBoard = true;
  }
  const problem = specProblem(spec, word);
  return problem ? { problem } : { spec };
}

/** A poll's fields for the form, to change it (the reverse of specOf). */
export const fieldsOf = (poll) => {
  const quiz = Array.isArray(poll.correct) && hasOptions(poll.kind);
  return {
    kind: poll.kind,
    prompt: poll.prompt,
    options: (poll.options || []).join('\n'),
    max: whole(poll.max) ? String(poll.max) : '',
    scale: scaleValue(poll.scale || SCALES[0]),
    quiz,
    correct: quiz && poll.kind !== 'ranking' ? [...poll.correct] : [],
    order: quiz && poll.kind === 'ranking' ? poll.correct.map((i) => i + 1).join(', ') : '',
    timeLimit: whole(poll.timeLimit) ? String(poll.timeLimit) : '',
    namedBoard: poll.namedBoard === true,
  };
};

/**
 * An import's text as specs: `{ specs }`, or `{ problem }` (in words) when it is not a JSON
 * array of polls the server would take, or would take the session past its polls (`known`).
 */
export function importOf(text, known = 0, word = same) {
  let data;
  try { data = JSON.parse(String(text)); } catch { data = undefined; }
  if (!Array.isArray(data) || !data.length) {
    return { problem: word('An import is a JSON array of polls, as the export writes them.') };
  }
  if (known + data.length > RULES.polls) {
    return { problem: format(word('A session has at most %d polls: delete one first.'), RULES.polls) };
  }
  for (const [i, spec] of data.entries()) {
    const problem = specProblem(spec, word);
    if (problem) return { problem: format(word('Poll %1$d of the import: %2$s'), i + 1, problem.text) };
  }
  return { specs: data };
}

/**
 * What a refused request said, for the page: the server's reason (`{"error":{"message":…}}`)
 * made printable; with its status when it is not a refusal of what was asked (400, 404,
 * 409); a network failure's as not sent.
 */
export const refusalOf = (result, word = same) => {
  if (!result.status) return `${word('Not sent:')} ${printable(result.text || '')}`.trim();
  let message = String(result.text ?? '');
  try {
    const body = JSON.parse(message);
    if (body && body.error && typeof body.error.message === 'string') message = body.error.message;
  } catch { /* not JSON: its text */ }
  message = Array.from(printable(message).trim()).slice(0, 400).join('');
  return [400, 404, 409].includes(result.status) && message ? message : `${result.status} ${message}`.trim();
};

/** A successful answer's body, parsed; null when it is none. */
export const bodyOf = (result) => {
  try { return JSON.parse(result.text); } catch { return null; }
};

/** Where a poll is, in words. */
export const stateWord = (poll, word = same) => {
  switch (poll.state) {
    case 'draft': return word('Draft');
    case 'open': return word('Open for answers');
    case 'closed': return word('Closed');
    default: return printable(poll.state);
  }
};

/**
 * A poll's facts beside its state, in words: whether the room sees its results, a rating's
 * scale, a word cloud's entries, a quiz with its time limit (and when it ends, `now` in
 * milliseconds) and a named leaderboard.
 */
export const pollFacts = (poll, word = same, now = Date.now(), locale = 'en') => {
  const facts = [stateWord(poll, word), poll.shown ? word('Results shown') : word('Results hidden')];
  if (poll.kind === 'rating' && poll.scale) facts.push(`${poll.scale.min}–${poll.scale.max}`);
  if (poll.kind === 'words') facts.push(format(word('up to %d entries'), maxWords(poll)));
  if (poll.quiz || Array.isArray(poll.correct)) {
    facts.push(word('Quiz'));
    if (whole(poll.timeLimit)) facts.push(format(word('%d s to answer'), poll.timeLimit));
    if (poll.namedBoard) facts.push(word('Leaderboard with names'));
  }
  const ends = closesAt(poll);
  if (poll.state === 'open' && ends !== null) {
    facts.push(ends > now ? format(word('Answers until %s'), new Date(ends).toLocaleTimeString(locale)) : word('Time is up.'));
  }
  return facts;
};

/** When a timed quiz stops taking answers, in milliseconds since 1970; null for none. */
export const closesAt = (poll) => (typeof poll.closesAt === 'number' ? (SINCE_2001 + poll.closesAt) * 1000 : null);

/**
 * A poll's buttons: `{ act, slot, label }`, `slot` the place it keeps across a change (Open
 * becomes Close in the same place, so that the keyboard's focus stays there).
 */
export const actionsOf = (poll, word = same) => {
  const list = [];
  if (poll.state === 'open') list.push({ act: 'close', slot: 'state', label: word('Close') });
  else list.push({ act: 'open', slot: 'state', label: poll.state === 'closed' ? word('Reopen') : word('Open') });
  list.push(poll.shown
    ? { act: 'hide', slot: 'shown', label: word('Hide results') }
    : { act: 'show', slot: 'shown', label: word('Show results') });
  if (poll.state === 'draft') list.push({ act: 'edit', slot: 'edit', label: word('Edit…') });
  else list.push({ act: 'reset', slot: 'reset', label: word('Reset…') });
  list.push({ act: 'delete', slot: 'delete', label: word('Delete…') });
  return list;
};

/** A quiz's leaderboard as lines: "1. Ada · score 3" (no name: an anonymous board). */
export const leaderboardLines = (poll, word = same) => (Array.isArray(poll.leaderboard) ? poll.leaderboard : [])
  .map((e) => `${e.place}. ${typeof e.name === 'string' && e.name ? printable(e.name) : word('(no name)')} · ${format(word('score %s'), e.score)}`);

/** What the session's scores rest on: its closed quizzes and their answers. */
export const scoringOf = (polls) => JSON.stringify(polls
  .filter((p) => p.state === 'closed' && Array.isArray(p.correct))
  .map((p) => [p.id, p.results ? p.results.answers : null]));

/** Why an action may not go now, as the server would say it (past its open polls). */
export const actionProblem = (poll, act, polls, word = same) => {
  if (act === 'open' && poll.state !== 'open' && polls.filter((p) => p.state === 'open').length >= RULES.open) {
    return format(word('At most %d polls are open at once: close one first.'), RULES.open);
  }
  return null;
};

// The panel.

/** The entry action under way on a poll (`{ act, text }`), or null for none or another action. */
const entryPending = (pending) => (pending && typeof pending === 'object' ? pending : null);

/** An element with its class and text. @returns {any} */
const make = (tag, className = '', text = null) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== null) element.textContent = text;
  return element;
};
/** A button of type button. @returns {any} */
const button = (text, className = '') => {
  const b = make('button', className, text);
  b.type = 'button';
  return b;
};
/** A label around a field, or before it (`id`). @returns {any} */
const labelled = (text, field, hint = null) => {
  const label = make('label', 'field');
  label.append(make('span', 'field-name', text), field);
  if (hint) label.append(hint);
  return label;
};

export class PresenterPolls {
  /**
   * `root`: the page's empty section for them; `api`: the page's PresenterAPI; `word`: its
   * words; `locale`: its language, for numbers and times; `storage`: where the panel's
   * folding is kept (`load(name)`, `save(name, value)`).
   */
  constructor({ root, api, word, locale = 'en', storage = { load: (_name) => null, save: (_name, _value) => {} } }) {
    // (A page without the section, which its markup has, gets the panel nowhere.)
    this.root = root || document.createElement('section');
    this.api = api;
    this.word = word;
    this.locale = locale;
    this.storage = storage;
    /** The polls as the room last said (null: the server has no polls). */
    this.polls = null;
    /** Actions under way, by poll id; what the last refused one said, by poll id. */
    this.pending = new Map();
    this.problems = new Map();
    /** The draft being changed in the form: `{ id, n }`, or null (a new poll). */
    this.editing = null;
    /** The form's field its problem marks; whether the form is on its way. */
    this.marked = null;
    this.saving = false;
    this.timer = 0;
    /**
     * The session's leaderboard as each closed quiz shows it, read again whenever the quizzes
     * that score change (one closes, opens again, is reset or deleted): the room sends a
     * quiz's board with the quiz, and an earlier quiz's would stay as it was.
     */
    this.boards = new Map();
    this.scoring = '';
    this.reads = 0;
    this.build();
  }

  build() {
    const { word } = this;
    const head = make('div', 'polls-head');
    const heading = make('h2', '', word('Polls'));
    heading.id = 'polls-heading';
    this.count = make('span', 'polls-count');
    this.fold = button('', 'fold');
    this.fold.setAttribute('aria-controls', 'polls-body');
    this.news = make('p', 'poll-news');
    this.news.setAttribute('role', 'status');
    head.append(heading, this.count, this.news, this.fold);
    this.body = make('div', 'polls-body');
    this.body.id = 'polls-body';
    this.empty = make('p', 'polls-empty', word('No polls yet: make one below, or import some.'));
    this.list = make('ol', 'poll-cards');
    this.list.setAttribute('aria-labelledby', 'polls-heading');
    this.body.append(this.empty, this.list, this.buildForm(), this.buildTransfer());
    this.root.replaceChildren(head, this.body);
    this.root.setAttribute('aria-labelledby', 'polls-heading');
    this.setFolded(this.storage.load('folded') === 'true');
    this.fold.addEventListener('click', () => {
      this.setFolded(!this.folded);
      this.storage.save('folded', String(this.folded));
    });
    this.list.addEventListener('click', (event) => {
      const target = /** @type {any} */ (event.target).closest('button[data-act]');
      if (target) this.act(target.dataset.poll, target.dataset.act, target.dataset.text);
    });
  }

  setFolded(folded) {
    this.folded = folded;
    this.body.hidden = folded;
    this.fold.textContent = folded ? this.word('Show the polls') : this.word('Hide the polls');
    this.fold.setAttribute('aria-expanded', String(!folded));
  }

  // The form: a new poll, or a draft's new spec.
  buildForm() {
    const { word } = this;
    const details = make('details', 'poll-new');
    this.formDetails = details;
    this.formSummary = make('summary', '', word('New poll'));
    this.formSummary.id = 'poll-form-title';
    details.append(this.formSummary);
    const form = make('form', 'poll-form');
    form.id = 'poll-form';
    form.noValidate = true;
    form.setAttribute('aria-labelledby', this.formSummary.id);
    const f = {};
    this.fields = f;
    f.kind = make('select');
    f.kind.id = 'poll-kind';
    const kinds = [['single', word('Single choice')], ['multiple', word('Multiple choice')],
      ['rating', word('Rating')], ['ranking', word('Ranking')], ['words', word('Word cloud')],
      ['text', word('Open text')]];
    for (const [value, text] of kinds) {
      const o = make('option', '', text);
      o.value = value;
      f.kind.append(o);
    }
    f.prompt = make('input');
    Object.assign(f.prompt, { id: 'poll-prompt', type: 'text', autocomplete: 'off' });
    f.options = make('textarea');
    Object.assign(f.options, { id: 'poll-options', rows: 5 });
    f.max = make('input');
    Object.assign(f.max, { id: 'poll-max', type: 'text', inputMode: 'numeric', autocomplete: 'off' });
    this.maxName = make('span', 'field-name');
    f.scale = make('select');
    f.scale.id = 'poll-scale';
    this.scaleOptions(null);
    f.quiz = make('input');
    Object.assign(f.quiz, { id: 'poll-quiz', type: 'checkbox' });
    this.correctBox = make('fieldset', 'poll-correct');
    this.correctBox.append(make('legend', '', word('Correct options')));
    this.correctList = make('div', 'checks');
    this.correctBox.append(this.correctList);
    f.order = make('input');
    Object.assign(f.order, { id: 'poll-order', type: 'text', inputMode: 'numeric', autocomplete: 'off' });
    this.orderHint = make('span', 'hint');
    this.orderHint.id = 'poll-order-hint';
    f.order.setAttribute('aria-describedby', this.orderHint.id);
    f.timeLimit = make('input');
    Object.assign(f.timeLimit, { id: 'poll-time', type: 'text', inputMode: 'numeric', autocomplete: 'off' });
    f.namedBoard = make('input');
    Object.assign(f.namedBoard, { id: 'poll-named', type: 'checkbox' });

    this.parts = {
      options: labelled(word('Options, one per line'), f.options),
      max: make('label', 'field'),
      scale: labelled(word('Scale'), f.scale),
      quiz: make('fieldset', 'poll-quiz'),
    };
    this.parts.max.append(this.maxName, f.max);
    const check = (input, text) => {
      const label = make('label', 'check');
      label.append(input, ' ', text);
      return label;
    };
    this.quizFields = make('div', 'quiz-fields');
    this.orderField = labelled(word('Correct order: option numbers, first place first'), f.order, this.orderHint);
    this.quizFields.append(this.correctBox, this.orderField,
      labelled(word('Time limit in seconds (5 to 3600; empty: none)'), f.timeLimit),
      check(f.namedBoard, word('Leaderboard with names')));
    this.parts.quiz.append(make('legend', '', word('Quiz')), check(f.quiz, word('This poll is a quiz')), this.quizFields);
    this.problem = make('p', 'problem');
    this.problem.id = 'poll-form-problem';
    this.problem.setAttribute('role', 'alert');
    this.submit = make('button', 'primary', word('Create the poll'));
    this.submit.type = 'submit';
    this.cancel = button(word('Cancel'));
    this.cancel.hidden = true;
    const buttons = make('div', 'form-buttons');
    buttons.append(this.submit, this.cancel);
    form.append(labelled(word('Kind'), f.kind), labelled(word('Question'), f.prompt),
      this.parts.options, this.parts.max, this.parts.scale, this.parts.quiz, this.problem, buttons);
    details.append(form);

    f.kind.addEventListener('change', () => this.shape());
    f.quiz.addEventListener('change', () => this.shape());
    f.options.addEventListener('input', () => this.shape());
    form.addEventListener('submit', (e) => { e.preventDefault(); this.save(); });
    this.cancel.addEventListener('click', () => this.stopEditing(true));
    this.shape();
    return details;
  }

  // The scale's choices, with a poll's own where it is none of them.
  scaleOptions(own) {
    const scales = [...SCALES];
    if (own && !scales.some((s) => scaleValue(s) === scaleValue(own))) scales.push(own);
    this.fields.scale.replaceChildren(...scales.map((s) => {
      const o = make('option', '', `${s.min}–${s.max}`);
      o.value = scaleValue(s);
      return o;
    }));
  }

  // The form's fields as the kind has them; the correct options' boxes from the options typed.
  shape() {
    const { word } = this, f = this.fields, kind = f.kind.value;
    const choices = hasOptions(kind);
    this.parts.options.hidden = !choices;
    this.parts.max.hidden = kind !== 'multiple' && kind !== 'words';
    this.maxName.textContent = kind === 'words'
      ? word('Entries per answer (1 to 3; empty: 3)') : word('Options one answer may choose (empty: all)');
    this.parts.scale.hidden = kind !== 'rating';
    this.parts.quiz.hidden = !choices;
    this.quizFields.hidden = !f.quiz.checked;
    this.correctBox.hidden = kind === 'ranking';
    this.orderField.hidden = kind !== 'ranking';
    const options = optionLines(f.options.value);
    const before = new Set([...this.correctList.querySelectorAll('input:checked')].map((i) => i.dataset.text));
    const keep = [...this.correctList.querySelectorAll('input')].map((i) => i.dataset.text).join('\n');
    if (keep !== options.join('\n')) {
      this.correctList.replaceChildren(...options.map((o, i) => {
        const input = make('input');
        Object.assign(input, { type: 'checkbox', value: String(i), checked: before.has(o) });
        input.dataset.text = o;
        const label = make('label', 'check');
        label.append(input, ' ', `${i + 1}. ${printable(o)}`);
        return label;
      }));
    }
    this.correctBox.classList.toggle('none', !options.length);
    this.orderHint.textContent = options.map((o, i) => `${i + 1}. ${printable(o)}`).join(' · ');
    if (!options.length) this.correctList.replaceChildren(make('span', 'hint', word('Options, one per line')));
  }

  values() {
    const f = this.fields;
    return {
      kind: f.kind.value, prompt: f.prompt.value, options: f.options.value, max: f.max.value,
      scale: f.scale.value, quiz: f.quiz.checked, order: f.order.value, timeLimit: f.timeLimit.value,
      namedBoard: f.namedBoard.checked,
      correct: [...this.correctList.querySelectorAll('input:checked')].map((i) => Number(i.value)),
    };
  }

  fill(values) {
    const f = this.fields;
    f.kind.value = values.kind;
    f.prompt.value = values.prompt;
    f.options.value = values.options;
    f.max.value = values.max;
    f.scale.value = values.scale;
    f.quiz.checked = values.quiz;
    f.order.value = values.order;
    f.timeLimit.value = values.timeLimit;
    f.namedBoard.checked = values.namedBoard;
    this.correctList.replaceChildren();
    this.shape();
    for (const input of this.correctList.querySelectorAll('input')) input.checked = values.correct.includes(Number(input.value));
  }

  /** The form's problem (null: none): said under the form, its field marked and focused. */
  tell(problem) {
    this.problem.textContent = problem ? problem.text : '';
    const marked = this.marked;
    if (marked) {
      marked.removeAttribute('aria-invalid');
      const described = (marked.getAttribute('aria-describedby') || '').split(' ').filter((d) => d && d !== this.problem.id);
      if (described.length) marked.setAttribute('aria-describedby', described.join(' '));
      else marked.removeAttribute('aria-describedby');
      this.marked = null;
    }
    if (!problem) return;
    const field = problem.field === 'correct'
      ? (this.fields.kind.value === 'ranking' ? this.fields.order : this.correctList.querySelector('input') || this.fields.quiz)
      : this.fields[problem.field];
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', `${field.getAttribute('aria-describedby') || ''} ${this.problem.id}`.trim());
      field.focus();
      this.marked = field;
    }
  }

  async save() {
    if (this.saving) return;
    const { word } = this;
    const made = specOf(this.values(), word);
    if (made.problem) { this.tell(made.problem); return; }
    if (!this.editing && (this.polls || []).length >= RULES.polls) {
      this.tell({ field: 'prompt', text: format(word('A session has at most %d polls: delete one first.'), RULES.polls) });
      return;
    }
    this.saving = true;
    const editing = this.editing;
    const result = editing ? await this.api.updatePoll(editing.id, made.spec) : await this.api.createPoll(made.spec);
    this.saving = false;
    if (!result.ok) { this.tell({ field: 'prompt', text: refusalOf(result, word) }); return; }
    this.tell(null);
    const poll = bodyOf(result);
    const n = poll && whole(poll.n) ? poll.n : editing ? editing.n : 0;
    this.say(format(word('Poll %1$d · %2$s'), n, editing ? word('Saved') : word('Draft')));
    if (editing) {
      this.stopEditing(true);
    } else {
      // The next poll of a series: its kind, scale, maximum and quiz settings kept.
      const kept = this.values();
      this.fill({ ...kept, prompt: '', options: '', correct: [], order: '' });
      this.fields.prompt.focus();
    }
  }

  /** The form to change draft `poll`, open and focused. */
  edit(poll) {
    this.editing = { id: poll.id, n: poll.n };
    this.scaleOptions(poll.scale || null);
    this.fill(fieldsOf(poll));
    this.tell(null);
    this.formSummary.textContent = format(this.word('Change poll %d'), poll.n);
    this.submit.textContent = this.word('Save the poll');
    this.cancel.hidden = false;
    this.formDetails.open = true;
    this.formDetails.scrollIntoView({ block: 'nearest' });
    this.fields.prompt.focus();
  }

  /** Back to a new poll (`back`: the focus to the changed poll's Edit button, or its card). */
  stopEditing(back) {
    const was = this.editing;
    this.editing = null;
    this.formSummary.textContent = this.word('New poll');
    this.submit.textContent = this.word('Create the poll');
    this.cancel.hidden = true;
    this.scaleOptions(null);
    this.fill(fieldsOf({ kind: this.fields.kind.value, prompt: '' }));
    this.tell(null);
    if (back && was) {
      const target = this.list.querySelector(`[data-key="${CSS.escape(`${was.id}:edit`)}"]`)
        || this.list.querySelector(`[data-key="${CSS.escape(`${was.id}:state`)}"]`);
      if (target) target.focus();
    }
  }

  // Import, export and the results.
  buildTransfer() {
    const { word } = this;
    const details = make('details', 'poll-io');
    details.append(make('summary', '', word('Import, export, results')));
    const link = (href, text, download) => {
      const a = make('a', 'download', text);
      a.href = href;
      if (download) a.download = download;
      return a;
    };
    const exports = make('p', 'links');
    exports.append(link(this.api.pollsExportURL(), word('Export the polls (JSON)'), 'polls.json'));
    const results = make('p', 'links');
    results.append(make('span', '', word("Every poll's results:")), ' ',
      ...[['csv', 'CSV'], ['json', 'JSON'], ['markdown', 'Markdown']].map(([format, name]) => link(this.api.pollResultsURL(format), name, '')));
    const form = make('form', 'poll-import');
    form.id = 'poll-import';
    form.noValidate = true;
    const file = make('input');
    Object.assign(file, { id: 'poll-import-file', type: 'file', accept: '.json,application/json' });
    const text = make('textarea');
    Object.assign(text, { id: 'poll-import-text', rows: 4, spellcheck: false });
    text.placeholder = '[{"kind":"single","prompt":"…","options":["…","…"]}]';
    const problem = make('p', 'problem');
    problem.setAttribute('role', 'alert');
    const go = make('button', 'primary', word('Import'));
    go.type = 'submit';
    form.append(labelled(word('Import polls from a file (JSON, as exported)'), file),
      labelled(word('Or paste them here'), text), problem, go);
    let importing = false;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (importing) return;
      problem.textContent = '';
      const chosen = file.files && file.files[0];
      // Past what the server reads of an import (1 MB), not read here either.
      const source = chosen ? (chosen.size <= IMPORT_BYTES ? await chosen.text() : '') : text.value;
      const read = importOf(source, (this.polls || []).length, word);
      if (read.problem) { problem.textContent = read.problem; (chosen ? file : text).focus(); return; }
      importing = true;
      const result = await this.api.importPolls(read.specs);
      importing = false;
      if (!result.ok) { problem.textContent = refusalOf(result, word); return; }
      file.value = '';
      text.value = '';
      this.say(format(word('Imported: %d'), read.specs.length));
    });
    details.append(exports, results, form);
    return details;
  }

  say(text) { this.news.textContent = text; }

  /**
   * An action from a poll's button: confirmed where it cannot be undone, then asked for
   * (`text`: an open text's entry that Approve or Dismiss acts on).
   */
  async act(id, act, text) {
    const poll = (this.polls || []).find((p) => p.id === id);
    if (!poll || this.pending.has(id)) return;
    const { word } = this;
    if (POLL_TEXT_ACTIONS.includes(act)) { await this.actOnEntry(poll, act, text); return; }
    if (act === 'edit') { this.edit(poll); return; }
    if (act === 'delete' && !confirm(format(word('Delete poll %d, with its answers and results?'), poll.n))) return;
    if (act === 'reset' && !confirm(format(word('Reset poll %d: its answers gone, its counts zero?'), poll.n))) return;
    const early = actionProblem(poll, act, this.polls, word);
    if (early) { this.problems.set(id, early); this.redraw(); return; }
    this.pending.set(id, act);
    this.problems.delete(id);
    this.redraw();
    const result = await this.api.pollAction(id, act);
    this.pending.delete(id);
    if (result.ok) {
      const now = bodyOf(result);
      const what = act === 'delete' ? word('Deleted') : act === 'reset' ? word('No answers yet.')
        : act === 'show' ? word('Results shown') : act === 'hide' ? word('Results hidden')
          : now && typeof now.state === 'string' ? stateWord(now, word) : '';
      this.say(format(word('Poll %1$d · %2$s'), poll.n, what));
      if (act === 'delete' && this.editing && this.editing.id === id) this.stopEditing(false);
    } else {
      this.problems.set(id, refusalOf(result, word));
      this.say(format(word('Poll %1$d · %2$s'), poll.n, refusalOf(result, word)));
    }
    this.redraw();
  }

  /** An open text's entry let through to the room, or kept out of it. */
  async actOnEntry(poll, act, text) {
    if (typeof text !== 'string') return;
    const { word } = this;
    this.pending.set(poll.id, { act, text });
    this.problems.delete(poll.id);
    this.redraw();
    const result = await this.api.pollTextAction(poll.id, act, text);
    this.pending.delete(poll.id);
    const what = !result.ok ? refusalOf(result, word) : act === 'approve' ? word('Approved') : word('Dismissed');
    if (!result.ok) this.problems.set(poll.id, what);
    this.say(format(word('Poll %1$d · %2$s'), poll.n, what));
    this.redraw();
  }

  /** The room's polls (null: the server has none), as the socket has them now. */
  show(polls) {
    this.polls = polls;
    this.root.hidden = polls === null;
    this.redraw();
  }

  redraw() {
    const polls = this.polls || [];
    const { word, locale } = this;
    const open = polls.filter((p) => p.state === 'open').length;
    this.count.textContent = polls.length ? format(word('Polls: %1$d · open: %2$d'), polls.length, open) : '';
    this.empty.hidden = polls.length > 0;
    const focused = /** @type {any} */ (document.activeElement);
    const focusKey = focused && this.list.contains(focused) && focused.dataset ? focused.dataset.key : null;
    const focusCard = focusKey ? [...this.list.children].findIndex((li) => li.contains(focused)) : -1;
    // An open text's entry button: its place, for when its entry has moved on.
    const spot = focusKey && focused.dataset.list
      ? { poll: focused.dataset.poll, list: focused.dataset.list, act: focused.dataset.act, index: Number(focused.dataset.index) }
      : null;
    const old = new Map([...this.list.children].map((li) => [li.dataset.poll, li]));
    const now = Date.now();
    const scoring = scoringOf(polls);
    if (scoring !== this.scoring) {
      this.scoring = scoring;
      if (scoring === '[]') {
        this.reads += 1;
        this.boards = new Map();
      } else {
        this.readBoards();
      }
    }
    for (const id of this.problems.keys()) if (!polls.some((p) => p.id === id)) this.problems.delete(id);
    const items = polls.map((poll) => {
      const facts = pollFacts(poll, word, now, locale);
      const shape = JSON.stringify([poll.n, poll.kind, poll.prompt, poll.options, facts, poll.correct,
        this.board(poll), this.pending.get(poll.id) || null, this.problems.get(poll.id) || null]);
      let li = old.get(poll.id);
      if (!li || li.dataset.shape !== shape) {
        const before = li;
        li = this.card(poll, facts);
        li.dataset.shape = shape;
        for (const part of ['.results', '.poll-texts']) {
          const kept = before && before.querySelector(part), fresh = li.querySelector(part);
          if (kept && fresh) li.replaceChild(kept, fresh);
        }
      }
      // An open text's entries are listed with their buttons (presenter-poll-texts.js).
      showResults(li.querySelector('.results'), poll, word, locale, poll.kind === 'text' ? { texts: 0 } : {});
      const texts = li.querySelector('.poll-texts');
      if (texts) showModeration(texts, poll, word, entryPending(this.pending.get(poll.id)));
      return li;
    });
    items.forEach((li, i) => { if (this.list.children[i] !== li) this.list.insertBefore(li, this.list.children[i] || null); });
    while (this.list.children.length > items.length) this.list.lastElementChild.remove();
    if (focusKey && document.activeElement !== focused) {
      // The same button of the poll, or (the poll gone) the first of the one in its place.
      const again = this.list.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)
        || (spot && nearestEntry(this.list, spot))
        || (this.list.children[Math.min(focusCard, this.list.children.length - 1)] || this.root).querySelector('button');
      if (again) again.focus();
    }
    // A timed quiz's end, when it comes: its line says the time is up.
    clearTimeout(this.timer);
    const ends = polls.filter((p) => p.state === 'open').map(closesAt).filter((t) => t !== null && t > now);
    if (ends.length) this.timer = setTimeout(() => this.redraw(), Math.min(Math.min(...ends) - now + 50, 2 ** 31 - 1));
  }

  /** A closed quiz's leaderboard: as last read, else as the room sent it. */
  board(poll) {
    return (poll.state === 'closed' && this.boards.get(poll.id)) || poll.leaderboard || null;
  }

  /** Every closed quiz's leaderboard read again (the last read wins). */
  async readBoards() {
    const read = ++this.reads;
    const result = await this.api.polls();
    const body = result.ok ? bodyOf(result) : null;
    if (read !== this.reads || !body || !Array.isArray(body.polls)) return;
    this.boards = new Map(body.polls.filter((p) => p && typeof p.id === 'string' && Array.isArray(p.leaderboard))
      .map((p) => [p.id, p.leaderboard.filter((e) => e && whole(e.place) && whole(e.score)).slice(0, 20)]));
    this.redraw();
  }

  /** One poll's card: its number and kind, prompt, facts, results, leaderboard and buttons. */
  card(poll, facts) {
    const { word } = this;
    const li = make('li', `poll-card state-${poll.state}`);
    li.dataset.poll = poll.id;
    if (this.pending.has(poll.id)) li.setAttribute('aria-busy', 'true');
    const promptId = `poll-card-${poll.n}`;
    const prompt = make('h3', 'prompt', printable(poll.prompt));
    prompt.id = promptId;
    li.append(make('p', 'meta', KINDS.includes(poll.kind) ? kindLine(poll, word) : format(word('Poll %1$d · %2$s'), poll.n, printable(poll.kind))), prompt);
    const badges = make('ul', 'badges');
    facts.forEach((fact, i) => badges.append(make('li', i === 0 ? `badge state` : i === 1 && poll.shown ? 'badge shown' : 'badge', fact)));
    li.append(badges, make('div', 'results'));
    if (poll.kind === 'text') li.append(make('div', 'poll-texts'));
    const lines = leaderboardLines({ leaderboard: this.board(poll) }, word);
    if (lines.length) {
      const board = make('div', 'leaderboard');
      const list = make('ol');
      list.append(...lines.map((line) => make('li', '', line)));
      board.append(make('h4', '', word('Leaderboard')), list);
      li.append(board);
    }
    const problem = this.problems.get(poll.id);
    if (problem) li.append(make('p', 'problem', problem));
    const actions = make('div', 'poll-actions');
    actions.setAttribute('role', 'group');
    actions.setAttribute('aria-labelledby', promptId);
    for (const { act, slot, label } of actionsOf(poll, word)) {
      const b = button(label, act === 'delete' || act === 'reset' ? 'danger' : act === 'open' || act === 'close' ? 'primary' : '');
      Object.assign(b.dataset, { poll: poll.id, act, key: `${poll.id}:${slot}` });
      if (this.pending.get(poll.id) === act) b.setAttribute('aria-disabled', 'true');
      actions.append(b);
    }
    li.append(actions);
    return li;
  }
}
