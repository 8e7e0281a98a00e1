// Polls as the attendee page and the projector show them (extension `polls`): first what is
// worked out without a page (which polls show, an answer from what was picked, results as
// bars, a rating's average, a ranking's scores), which Tests/Web checks; then the elements,
// made from it with text only, never markup. The page hands in its words (`word`, from its
// `data-messages`: AttendeeScript.messages and ProjectorScript.messages list them).
import { printable } from './common.js';

/** The kinds a page can answer and show. */
export const KINDS = ['single', 'multiple', 'rating', 'ranking', 'words', 'text'];
/** A word cloud's words listed as results on the phone, at most. */
export const WORD_ROWS = 10;
/** A rating with more values than this is a slider (0–100), with fewer one button each. */
export const BUTTONS_LIMIT = 10;
/** A word cloud's entries per answer, when the poll does not say (and at most). */
export const WORDS_MAX = 3;
/** An open text's answer once cleaned, at most (PollRules.maxTextAnswerLength and …Bytes). */
export const TEXT_LENGTH = 140;
export const TEXT_BYTES = 560;
/** An open text's entries listed as results, at most (the server sends 20). */
export const TEXT_ROWS = 20;

/** `template` with `%s`, `%d` and `%1$s` filled in, as the catalogues write them. */
export const format = (template, ...values) => {
  let next = 0;
  return String(template).replace(/%(?:(\d+)\$)?([sd%])/g, (_all, index, kind) => (kind === '%'
    ? '%' : String(values[index ? Number(index) - 1 : next++] ?? '')));
};

/** A rating's scale: 1 to 5 when the poll does not say. */
export const scaleOf = (poll) => poll.scale || { min: 1, max: 5 };
export const usesSlider = (scale) => scale.max - scale.min + 1 > BUTTONS_LIMIT;
/** How many options a multiple choice takes, at most; how many words a word cloud. */
export const maxChoices = (poll) => {
  const n = (poll.options || []).length;
  return Number.isInteger(poll.max) && poll.max > 0 ? Math.min(poll.max, n) : n;
};
export const maxWords = (poll) => (Number.isInteger(poll.max) && poll.max > 0 ? Math.min(poll.max, WORDS_MAX) : WORDS_MAX);

/** The polls an attendee sees: the open ones, newest first, then closed ones with results shown. */
export const attendeePolls = (ordered) => {
  const known = ordered.filter((p) => KINDS.includes(p.kind)).reverse();
  return [...known.filter((p) => p.state === 'open'),
    ...known.filter((p) => p.state === 'closed' && p.shown && p.results)];
};
/** The poll the projector shows: the newest open one, else the newest with results shown. */
export const featuredPoll = (ordered) => {
  const known = ordered.filter((p) => KINDS.includes(p.kind)).reverse();
  return known.find((p) => p.state === 'open') || known.find((p) => p.shown && p.results) || null;
};

/** A count's share of the answers, as a whole percentage. */
export const percent = (count, total) => (total > 0 ? Math.round((count * 100) / total) : 0);
/** A bar's width in percent: `count` against `whole`, within 0 and 100. */
export const width = (count, whole) => (whole > 0 ? Math.min(100, Math.max(0, (count * 100) / whole)) : 0);
/** A number with one decimal, as the page's language writes it. */
export const decimal = (value, locale = 'en') => {
  try {
    return value.toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  } catch {
    return value.toFixed(1);
  }
};

/** A rating's average from its counts (lowest value first); null with no answers. */
export const ratingAverage = (counts, scale) => {
  let answers = 0, sum = 0;
  counts.forEach((count, i) => { answers += count; sum += count * (scale.min + i); });
  return answers > 0 ? sum / answers : null;
};
/** A ranking's average score per option: its points (N for a first place … 1 for a last) over the answers. */
export const rankingScores = (points, answers) => points.map((p) => (answers > 0 ? p / answers : 0));

/**
 * A poll's results as rows to show: each `{ label, count, percent, width, score?, correct }`
 * (labels printable; a ranking best first, its widths against the best; a word cloud's words
 * against the most counted; a slider's 101 values in bands of ten), with the answers, a
 * rating's average, and a ranking's correct order (labels). Null without results.
 */
export const resultRows = (poll) => {
  const results = poll.results;
  if (!results) return null;
  const answers = results.answers, counts = results.counts || [];
  const options = (poll.options || []).map(printable);
  const correct = new Set(poll.correct || []);
  const row = (label, count, whole, extra = {}) => ({
    label, count, percent: percent(count, answers), width: width(count, whole), correct: false, ...extra,
  });
  const out = { answers, rows: [], average: null, order: null };
  if (poll.kind === 'words') {
    const top = Math.max(1, ...(results.words || []).map((w) => w.count));
    // The ten most counted: a phone's page stays short (the projector has the whole cloud).
    out.rows = (results.words || []).slice(0, WORD_ROWS).map((w) => row(printable(w.text), w.count, top));
  } else if (poll.kind === 'rating') {
    const scale = scaleOf(poll);
    out.average = ratingAverage(counts, scale);
    const step = usesSlider(scale) ? 10 : 1;
    for (let start = 0; start < counts.length; start += step) {
      const low = scale.min + start, high = Math.min(scale.max, low + step - 1);
      const count = counts.slice(start, start + step).reduce((a, b) => a + b, 0);
      out.rows.push(row(low === high ? String(low) : `${low}–${high}`, count, answers));
    }
  } else if (poll.kind === 'ranking') {
    const scores = rankingScores(counts.slice(0, options.length), answers);
    const best = Math.max(0, ...counts);
    out.rows = scores.map((score, i) => ({ i, score })).sort((a, b) => (b.score - a.score) || (a.i - b.i))
      .map(({ i, score }, place) => row(`${place + 1}. ${options[i]}`, counts[i] || 0, best, { score }));
    if (poll.correct && poll.correct.length) out.order = poll.correct.map((i) => options[i]).filter((o) => o !== undefined);
  } else {
    out.rows = options.map((o, i) => row(o, counts[i] || 0, answers, { correct: correct.has(i) }));
  }
  return out;
};

// Characters as people see them (grapheme clusters, as Swift counts them), where the browser
// can tell; code points where it cannot.
const segmenter = typeof Intl === 'object' && Intl.Segmenter ? new Intl.Segmenter() : null;
const characters = (text) => (segmenter
  ? Array.from(segmenter.segment(text), (piece) => piece.segment) : Array.from(text));
const bytes = (text) => new TextEncoder().encode(text).length;
const whiteSpace = /\p{White_Space}/u;
// Controls, format characters (bidi marks, zero-width ones), line and paragraph separators.
const hiddenCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
// Something that draws (QuestionText.isVisible): not a space, a mark alone, a control…
const visible = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Mc}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\u2800\u115F\u1160\u3164\uFFA0]/u;
/** Marks one character may carry (QuestionText.maxScalarsPerCharacter). */
const MARKS = 16;

/**
 * An open text's answer as the server keeps it (PollRules.cleanText): controls, bidi and
 * invisible characters off (letters that draw nothing too; the zero-width joiners kept), runs
 * of spaces one, spaces off both ends, composed (NFC). Null when nothing
 * readable is left, or it is past TEXT_LENGTH characters or TEXT_BYTES bytes, or a character
 * has more than 16 marks: the server would refuse it.
 */
// Letters and marks that draw nothing (the Hangul fillers), and the joiners emoji and some
// scripts spell with, which stay.
const ignorable = /\p{Default_Ignorable_Code_Point}/u;
const joiner = /[\u200C\u200D]/u;

export const cleanText = (typed) => {
  const text = String(typed ?? '');
  // Far past the bounds, its length alone refuses it (as the server's does).
  if (text.length > TEXT_BYTES * 8 || bytes(text) > TEXT_BYTES * 8) return null;
  let cleaned = '', space = false;
  for (const c of text) {
    if (whiteSpace.test(c)) { space = cleaned !== ''; continue; }
    if ((hiddenCharacter.test(c) || ignorable.test(c)) && !joiner.test(c)) continue;
    if (space) cleaned += ' ';
    space = false;
    cleaned += c;
  }
  // Measured as typed (as PollRules measures it), kept composed (as the server keeps it).
  const chars = characters(cleaned);
  const fits = chars.length <= TEXT_LENGTH && bytes(cleaned) <= TEXT_BYTES;
  return fits && visible.test(cleaned) && chars.every((c) => Array.from(c).length <= MARKS)
    ? cleaned.normalize('NFC') : null;
};

/** An entry of what people typed, to show: printable, cut to TEXT_LENGTH characters (then "…"). */
export const shortText = (text) => {
  const chars = Array.from(String(text));
  return chars.length > TEXT_LENGTH ? `${printable(chars.slice(0, TEXT_LENGTH).join(''))}…` : printable(text);
};

/**
 * An open text's entries as rows to list (its live ones, newest first, as the server orders
 * them): each `{ text, count, times }`, `text` as shortText shows it, `times` "×N" when more
 * than one gave it (else ''); at most `limit`.
 */
export const textRows = (entries, limit = TEXT_ROWS) => (Array.isArray(entries) ? entries : [])
  .filter((e) => e && typeof e.text === 'string').slice(0, Math.max(0, limit))
  .map((e) => ({ text: shortText(e.text), count: e.count, times: e.count > 1 ? `×${e.count}` : '' }));

/**
 * How many of a list's entries to keep (the first ones) so that `overflow` pixels of the page
 * past its bottom go: entries taken off from the end, `heights` each entry's, at least `least`
 * kept. The projector keeps an open text's newest entries that fit the screen.
 */
export const entriesThatFit = (heights, overflow, least = 1) => {
  let keep = heights.length, gone = 0;
  while (keep > least && gone < overflow - 0.5) gone += heights[--keep];
  return keep;
};

/** A word cloud's answer typed: its entries between commas, trimmed, each once, empty ones left out. */
export const splitWords = (text) => {
  const seen = new Set(), entries = [];
  for (const raw of String(text).split(/[,，、]/)) {
    const entry = raw.trim().replace(/\s+/g, ' ');
    if (entry && !seen.has(entry.toLowerCase())) { seen.add(entry.toLowerCase()); entries.push(entry); }
  }
  return entries;
};

/** A multiple choice's options picked after a tap on option `i`: in or out, at most `max`. */
export const toggled = (choices, i, max) => {
  if (choices.includes(i)) return choices.filter((c) => c !== i);
  if (max === 1) return [i];
  return choices.length < max ? [...choices, i] : choices;
};
/** A ranking's order after a tap on option `i`: the next place, or out again (the later ones move up). */
export const ranked = (order, i) => (order.includes(i) ? order.filter((c) => c !== i) : [...order, i]);

/**
 * The answer (`value` of a `pollAnswer`) from what was picked — `choices` (options, in the
 * order picked), `rating` or `text` — or null when the poll would refuse it.
 */
export const answerValue = (poll, { choices = [], rating = null, text = '' } = {}) => {
  const n = (poll.options || []).length;
  const valid = choices.every((c) => Number.isInteger(c) && c >= 0 && c < n) && new Set(choices).size === choices.length;
  switch (poll.kind) {
    case 'single': return valid && choices.length === 1 ? { choices: [choices[0]] } : null;
    case 'multiple':
      return valid && choices.length >= 1 && choices.length <= maxChoices(poll)
        ? { choices: [...choices].sort((a, b) => a - b) } : null;
    case 'ranking': return valid && n > 0 && choices.length === n ? { choices: [...choices] } : null;
    case 'rating': {
      const scale = scaleOf(poll);
      return Number.isInteger(rating) && rating >= scale.min && rating <= scale.max ? { rating } : null;
    }
    case 'words': {
      const words = splitWords(text);
      return words.length >= 1 && words.length <= maxWords(poll) ? { words } : null;
    }
    case 'text': {
      const cleaned = cleanText(text);
      return cleaned === null ? null : { text: cleaned };
    }
    default: return null;
  }
};

/** An answer as text: the options (a ranking's numbered), the rating, the words or the line. */
export const answerText = (poll, value) => {
  if (!value) return '';
  const options = poll.options || [];
  if (Array.isArray(value.choices)) {
    return value.choices.map((c, place) => (poll.kind === 'ranking' ? `${place + 1}. ` : '')
      + printable(options[c] ?? `#${c + 1}`)).join(', ');
  }
  if (Number.isInteger(value.rating)) return String(value.rating);
  if (typeof value.text === 'string') return shortText(value.text);
  return Array.isArray(value.words) ? value.words.map(printable).join(', ') : '';
};

/** Whether two answers say the same. */
export const sameAnswer = (a, b) => JSON.stringify(a || null) === JSON.stringify(b || null);

// The elements. `word(id)`: the page's words; `locale`: its language, for numbers.

const make = (tag, className = '', text = null) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== null) element.textContent = text;
  return element;
};

/**
 * `box` shows a poll's results: a line of answers (without `answers`: not; the projector says
 * them above) with a rating's average, a ranking's correct order, and one bar per row, each
 * with its count and percentage as text. Rows are changed in place while there are as many,
 * so that the bars' widths move (CSS transition).
 */
export function showResults(box, poll, word, locale, { answers = true, texts = TEXT_ROWS } = {}) {
  if (poll.kind === 'text') { showTexts(box, poll, word, { answers, rows: texts }); return; }
  const results = resultRows(poll);
  if (!results) { box.replaceChildren(); return; }
  const summary = [];
  if (answers) summary.push(results.answers > 0 ? format(word('Answers: %d'), results.answers) : word('No answers yet.'));
  if (results.average !== null) {
    summary.push(format(word('Average: %1$s of %2$d'), decimal(results.average, locale), scaleOf(poll).max));
  }
  let line = box.querySelector('.summary'), list = box.querySelector('.bars'), order = box.querySelector('.order');
  if (!line || !list) {
    line = make('p', 'summary');
    list = make('ul', 'bars');
    box.replaceChildren(line, list);
  }
  line.textContent = summary.join(' · ');
  line.hidden = !summary.length;
  if (results.order) {
    if (!order) { order = make('p', 'order'); box.append(order); }
    order.textContent = `${word('Correct order:')} ${results.order.map((o, i) => `${i + 1}. ${o}`).join(', ')}`;
  } else if (order) {
    order.remove();
  }
  list.classList.toggle('many', results.rows.length > 8);
  const rows = [...list.children];
  const fresh = rows.length !== results.rows.length;
  if (fresh) {
    rows.length = 0;
    for (let i = 0; i < results.rows.length; i++) {
      const li = make('li', 'bar-row');
      const track = make('div', 'track');
      track.append(make('div', 'bar'));
      li.append(make('span', 'bar-label'), track, make('span', 'figure'));
      rows.push(li);
    }
    list.replaceChildren(...rows);
  }
  results.rows.forEach((r, i) => {
    const [label, track, figure] = rows[i].children;
    label.replaceChildren();
    if (r.correct) {
      label.append(make('span', 'correct', '✓ '), make('span', 'visually-hidden', `${word('Correct answer')}: `));
    }
    label.append(r.label);
    rows[i].classList.toggle('is-correct', r.correct);
    figure.textContent = r.score !== undefined
      ? format(word('score %s'), decimal(r.score, locale))
      : poll.kind === 'words' ? String(r.count) : `${r.count} · ${r.percent}%`;
    const bar = /** @type {HTMLElement} */ (track.firstElementChild);
    const set = () => { bar.style.width = `${r.width.toFixed(1)}%`; };
    // New bars grow from nothing, once they are on the page.
    if (fresh && typeof requestAnimationFrame === 'function') requestAnimationFrame(() => requestAnimationFrame(set));
    else set();
  });
}

/**
 * An open text's results in `box`: the line of answers (without `answers`: not), then at most
 * `rows` of its live entries, newest first, each its text and "×N", as text only.
 */
function showTexts(box, poll, word, { answers, rows }) {
  const results = poll.results;
  if (!results) { box.replaceChildren(); return; }
  let line = box.querySelector('.summary'), list = box.querySelector('.texts');
  if (!line || !list) {
    line = make('p', 'summary');
    list = make('ol', 'texts');
    box.replaceChildren(line, list);
  }
  line.textContent = !answers ? '' : results.answers > 0 ? format(word('Answers: %d'), results.answers) : word('No answers yet.');
  line.hidden = !answers;
  const entries = textRows(results.texts, rows);
  list.hidden = !entries.length;
  list.replaceChildren(...entries.map((e) => {
    const li = make('li', 'text-entry');
    li.append(make('span', 'entry-text', e.text));
    if (e.times) li.append(' ', make('span', 'entry-count', e.times));
    return li;
  }));
}

/**
 * One poll's answering controls for the attendee: what they show comes from `state`
 * (`current`: the answer counted or on its way; `draft`: what is picked and not sent). Each
 * control names its poll and what it does in `data-poll` and `data-act` (`choose`, `toggle`,
 * `rate`, `rank`, `send`) with `data-index`, for the page's listeners; `data-key` finds it
 * again after a redraw.
 */
export function pollControls(poll, state, word) {
  const { current, draft } = state;
  const box = make('div', 'poll-controls');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-labelledby', `poll-prompt-${poll.n}`);
  const button = (act, index, text, pressed) => {
    const b = /** @type {HTMLButtonElement} */ (make('button', act === 'send' ? 'send' : 'choice', text));
    b.type = 'button';
    Object.assign(b.dataset, { poll: poll.id, act, key: `${poll.id}:${act}:${index}` });
    if (index !== null) b.dataset.index = String(index);
    if (pressed !== null) b.setAttribute('aria-pressed', String(pressed));
    return b;
  };
  const options = (poll.options || []).map(printable);
  const chosen = (current && current.choices) || [];
  if (poll.kind === 'single') {
    box.append(...options.map((o, i) => button('choose', i, o, chosen.includes(i))));
  } else if (poll.kind === 'multiple') {
    const picked = draft.choices || chosen, max = maxChoices(poll);
    box.append(...options.map((o, i) => {
      const b = button('toggle', i, o, picked.includes(i));
      b.disabled = max > 1 && picked.length >= max && !picked.includes(i);
      return b;
    }));
    const send = button('send', null, word('Send'), null);
    send.disabled = !answerValue(poll, { choices: picked });
    box.append(send);
  } else if (poll.kind === 'ranking') {
    const order = draft.choices || chosen;
    box.append(...options.map((o, i) => {
      const place = order.indexOf(i);
      const b = button('rank', i, '', place >= 0);
      b.append(make('span', 'place', place >= 0 ? String(place + 1) : '·'), ' ', o);
      return b;
    }));
    const send = button('send', null, word('Send'), null);
    send.disabled = !answerValue(poll, { choices: order });
    box.append(send);
  } else if (poll.kind === 'rating') {
    const scale = scaleOf(poll), rating = current && Number.isInteger(current.rating) ? current.rating : null;
    if (!usesSlider(scale)) {
      box.classList.add('scale');
      for (let v = scale.min; v <= scale.max; v++) box.append(button('rate', v, String(v), v === rating));
    } else {
      const value = draft.rating ?? rating ?? Math.round((scale.min + scale.max) / 2);
      const form = make('form', 'poll-form');
      form.dataset.poll = poll.id;
      const id = `poll-input-${poll.n}`;
      const label = make('label', 'rating-label', format(word('Your rating: %1$d of %2$d'), value, scale.max));
      label.htmlFor = id;
      const input = /** @type {HTMLInputElement} */ (make('input'));
      Object.assign(input, { type: 'range', id, min: String(scale.min), max: String(scale.max), step: '1', value: String(value) });
      Object.assign(input.dataset, { poll: poll.id, act: 'slide', key: `${poll.id}:slide` });
      form.append(label, input, submit(button('send', null, word('Send'), null)));
      box.append(form);
    }
  } else if (poll.kind === 'words') {
    box.append(lineForm(poll, {
      label: word('Your words:'), hint: format(word('Commas between entries, at most %d.'), maxWords(poll)),
      maxLength: 200, value: draft.text ?? (current && current.words ? current.words.join(', ') : ''),
      send: submit(button('send', null, word('Send'), null)),
    }));
  } else if (poll.kind === 'text') {
    box.append(lineForm(poll, {
      label: word('Your answer:'), hint: format(word('One line, at most %d characters.'), TEXT_LENGTH),
      maxLength: TEXT_LENGTH, value: draft.text ?? (current && typeof current.text === 'string' ? current.text : ''),
      send: submit(button('send', null, word('Send'), null)),
    }));
  }
  return box;
}

// A form of one line of text (a word cloud's words, an open text's answer), labelled and
// described by its hint, its Send the form's submit.
const lineForm = (poll, { label: text, hint: about, maxLength, value, send }) => {
  const form = make('form', 'poll-form');
  form.dataset.poll = poll.id;
  const id = `poll-input-${poll.n}`;
  const label = /** @type {HTMLLabelElement} */ (make('label', '', text));
  label.htmlFor = id;
  const hint = make('p', 'meta', about);
  hint.id = `${id}-hint`;
  const input = /** @type {HTMLInputElement} */ (make('input'));
  Object.assign(input, { type: 'text', id, maxLength, autocomplete: 'off', enterKeyHint: 'send' });
  input.value = value;
  input.setAttribute('aria-describedby', hint.id);
  Object.assign(input.dataset, { poll: poll.id, act: 'type', key: `${poll.id}:type` });
  form.append(label, input, hint, send);
  return form;
};

const submit = (b) => { b.type = 'submit'; return b; };

/** The line under a poll's prompt: its number and kind. */
export const kindLine = (poll, word) => {
  const kinds = {
    single: word('one choice'), multiple: format(word('up to %d choices'), maxChoices(poll)),
    rating: word('a rating'), ranking: word('a ranking'), words: word('a few words'),
    text: word('a line of text'),
  };
  return format(word('Poll %1$d · %2$s'), poll.n, kinds[poll.kind] || '');
};

/**
 * The attendee's polls into `list` (an <ol>), one <li> each, kept across redraws: a poll's
 * controls are made again only when what they show changed (the answer, what is picked, the
 * poll itself), so that typing in a word cloud's field is never lost; its results are changed
 * in place. `stateOf(poll)`: `{ current, draft, status, note }`, `status` a line of text or ''
 * (the answer), `note` one under it or '' (what the server said of it: an open text's answer
 * waits for review).
 */
export function showPolls(list, polls, stateOf, word, locale) {
  const old = new Map([...list.children].map((li) => [li.dataset.poll, li]));
  const focused = /** @type {any} */ (document.activeElement);
  const focusKey = focused && focused.dataset ? focused.dataset.key : null;
  const items = polls.map((poll) => {
    const state = stateOf(poll);
    const open = poll.state === 'open';
    // A slider's value and a word cloud's text are the field's own while it is used.
    const shape = JSON.stringify([poll.kind, poll.prompt, poll.options, poll.max, poll.scale, poll.state,
      open ? state.current : null, open ? state.draft.choices : null, state.status, state.note || '']);
    let li = old.get(poll.id);
    if (!li || li.dataset.shape !== shape) {
      li = make('li', 'poll');
      Object.assign(li.dataset, { poll: poll.id, shape });
      const prompt = make('h3', 'prompt', printable(poll.prompt));
      prompt.id = `poll-prompt-${poll.n}`;
      li.append(prompt, make('p', 'meta', open ? kindLine(poll, word) : word('This poll is closed.')));
      if (open && poll.kind === 'ranking') {
        li.append(make('p', 'meta', word('Tap the options in order, first place first; tap one again to take it out.')));
      }
      if (open) li.append(pollControls(poll, state, word));
      if (state.status) li.append(make('p', 'poll-status', state.status));
      if (state.note) li.append(make('p', 'poll-note', state.note));
      const results = make('div', 'results');
      li.append(results);
      const before = old.get(poll.id);
      // The old bars, so that their widths move rather than start again.
      if (before) {
        const kept = before.querySelector('.results');
        if (kept) { li.replaceChild(kept, results); }
      }
    }
    showResults(li.querySelector('.results'), poll, word, locale);
    return li;
  });
  // Moved only where the order changed (a focused field that moves loses its focus).
  items.forEach((li, i) => { if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null); });
  while (list.children.length > items.length) list.lastElementChild.remove();
  if (focusKey && document.activeElement !== focused) {
    const again = /** @type {HTMLElement | null} */ (list.querySelector(`[data-key="${CSS.escape(focusKey)}"]`));
    if (again) again.focus();
  }
}
