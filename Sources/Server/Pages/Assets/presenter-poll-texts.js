// An open text's moderation on the presenter page's poll cards (extension `polls`, kind
// `text`): the entries waiting for review, oldest first, each with Approve and Dismiss, and
// the live ones, newest first, each with Dismiss. Each button names its poll, its action and
// the entry as the results name it (`data-text`, what the action sends back), for
// presenter-polls.js to send through the API (POST api/polls/ID/approve|dismiss). First what
// is worked out without a page, which Tests/Web checks; then the elements, made with text
// only, never markup. The page hands in its words (`word`: PresenterScript.messages lists
// every word of this file).
import { POLL_TEXT_ACTIONS } from './presenter-api.js';
import { format, shortText } from './poll-view.js';

const entriesOf = (list) => (Array.isArray(list) ? list.filter((e) => e && typeof e.text === 'string') : []);

/**
 * An open text's entries as a presenter acts on them: `review` (waiting, oldest first) and
 * `live` (newest first), each `{ text, shown, times, acts }` (`text` as the results name it,
 * `shown` printable and cut, `times` "×N" past one), with `held` (how many wait in all) and
 * `more` (how many wait past the ones listed).
 */
export const moderationOf = (poll) => {
  const results = poll.results || {};
  const entry = (acts) => (e) => ({
    text: e.text, shown: shortText(e.text), times: e.count > 1 ? `×${e.count}` : '', acts,
  });
  const review = entriesOf(results.review).map(entry(POLL_TEXT_ACTIONS));
  const live = entriesOf(results.texts).map(entry(['dismiss']));
  const held = Number.isInteger(results.held) && results.held >= review.length ? results.held : review.length;
  return { review, live, held, more: held - review.length };
};

/** What a button of an entry keeps across redraws: its poll, list, action and entry. */
export const entryKey = (poll, list, act, text) => `${poll.id}:${list}:${act}:${text}`;

// The elements.

/** An element with its class and text. @returns {any} */
const make = (tag, className = '', text = null) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== null) element.textContent = text;
  return element;
};

/**
 * `box` (a card's `.poll-texts`) shows `poll`'s entries to moderate: "Waiting for review: K",
 * the ones waiting, "And N more." past them, then "Live in the room" and the live ones.
 * `pending`: the entry action under way (`{ act, text }`), its button marked busy. Made again
 * only when what it shows changed.
 */
export function showModeration(box, poll, word, pending = null) {
  const m = moderationOf(poll);
  const shape = JSON.stringify([poll.id, m, pending]);
  if (box.dataset.shape === shape) return;
  box.dataset.shape = shape;
  const labels = { approve: word('Approve'), dismiss: word('Dismiss') };
  const list = (name, entries, empty) => {
    const ol = make('ol', `entries ${name}`);
    if (!entries.length) {
      // Where the focus goes when the list's last entry leaves it (nearestEntry).
      const none = make('li', 'empty', empty);
      none.tabIndex = -1;
      Object.assign(none.dataset, { poll: poll.id, list: name, key: `${poll.id}:${name}:empty` });
      ol.append(none);
    }
    entries.forEach((e, index) => {
      const li = make('li', 'entry');
      const text = make('span', 'entry-text', e.shown);
      text.id = `poll-${poll.n}-${name}-${index}`;
      li.append(text);
      if (e.times) li.append(' ', make('span', 'entry-count', e.times));
      const actions = make('span', 'entry-actions');
      for (const act of e.acts) {
        const b = make('button', act === 'dismiss' ? 'danger' : 'primary', labels[act]);
        b.type = 'button';
        // The entry's text goes as data, never as markup; it says which entry the button acts on.
        Object.assign(b.dataset, {
          poll: poll.id, act, text: e.text, list: name, index: String(index), key: entryKey(poll, name, act, e.text),
        });
        b.setAttribute('aria-describedby', text.id);
        if (pending && pending.act === act && pending.text === e.text) b.setAttribute('aria-disabled', 'true');
        actions.append(b);
      }
      li.append(actions);
      ol.append(li);
    });
    return ol;
  };
  box.replaceChildren(
    make('h4', '', format(word('Waiting for review: %d'), m.held)),
    list('review', m.review, word('Nothing waits for review.')),
    ...(m.more > 0 ? [make('p', 'meta', format(word('And %d more.'), m.more))] : []),
    make('h4', '', word('Live in the room')),
    list('live', m.live, word('Nothing in the room yet.')),
  );
}

/**
 * Where the focus goes when its entry's button is gone (approved, dismissed): the button of
 * the same action at the same place in the same list of the same poll's card in `cards`, or
 * the one before; the list emptied, its line saying so (never another list's button, where
 * a second Enter would dismiss a live entry); else the poll's first entry button. `spot`:
 * `{ poll, list, act, index }`.
 */
export function nearestEntry(cards, spot) {
  const card = [...cards.children].find((li) => li.dataset.poll === spot.poll);
  const box = card && card.querySelector('.poll-texts');
  if (!box) return null;
  const buttons = [...box.querySelectorAll('button')];
  const same = buttons.filter((b) => b.dataset.list === spot.list && b.dataset.act === spot.act);
  const emptied = [...box.querySelectorAll('li.empty')].find((li) => li.dataset.list === spot.list);
  return same[Math.min(spot.index, same.length - 1)] || emptied || buttons[0] || null;
}
