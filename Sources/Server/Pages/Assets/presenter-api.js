// The presenter's actions as the JSON API takes them (docs/server.md, "Routes"), written once:
// each a request under the page's base (a session's `/s/CODE/`, or `/`), with the login
// cookie, a fresh Idempotency-Key (a retried request acts once) and JSON where it has a body.
// Every call resolves to `{ ok, status, text }`, never throws: a network failure is status 0
// (`text` is the refusal's body; with `read`, the answer's body whatever its status).
// `fetch` and the key's randomness come from `environment`, so that Tests/Web checks every
// request without a server.
import { uuid } from './common.js';

/**
 * The actions on one question (POST api/questions/ID/ACTION), in the order of Swift's
 * `PresenterActionKind.questionActions`, which PageAssetsTests compares with this list.
 */
export const QUESTION_ACTIONS = [
  'approve', 'dismiss', 'restore', 'highlight', 'unhighlight', 'answer', 'edit', 'silence',
  'unsilence', 'star', 'unstar', 'enqueue', 'dequeue', 'moveUp', 'moveDown', 'moveToTop',
  'relabel',
];

/** The actions on one poll (POST api/polls/ID/ACTION; `delete`: DELETE api/polls/ID). */
export const POLL_ACTIONS = ['open', 'close', 'show', 'hide', 'reset', 'delete'];
/** The actions on one entry of an open text (POST api/polls/ID/ACTION with `{"text":…}`). */
export const POLL_TEXT_ACTIONS = ['approve', 'dismiss'];

export class PresenterAPI {
  constructor({ base = '/', environment = {} } = {}) {
    this.base = base.endsWith('/') ? base : `${base}/`;
    this.env = { fetch: (url, init) => globalThis.fetch(url, init), key: uuid, ...environment };
  }

  async request(method, path, body, read = false) {
    const headers = { 'Idempotency-Key': this.env.key() };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await this.env.fetch(`${this.base}${path}`, {
        method, credentials: 'same-origin', headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { ok: response.ok, status: response.status, text: response.ok && !read ? '' : await response.text() };
    } catch (error) {
      return { ok: false, status: 0, text: String(error && error.message ? error.message : error) };
    }
  }

  /** Extension announcements: the room's banner, or none (an empty text). */
  announce(text) {
    return text ? this.request('PUT', 'api/announcement', { text }) : this.request('DELETE', 'api/announcement');
  }

  /** Extension wordFilter: entries into or out of the session's own list ("custom"). */
  filter({ add = [], remove = [] }) {
    return this.request('POST', 'api/filters/custom', {
      ...(add.length ? { add } : {}), ...(remove.length ? { remove } : {}),
    });
  }

  /** Extension labels: one label more for the session, or one fewer. */
  addLabel(name) { return this.request('POST', 'api/labels', { name }); }

  removeLabel(name) { return this.request('DELETE', `api/labels?name=${encodeURIComponent(name)}`); }

  /**
   * An action on question `id` (QUESTION_ACTIONS), with its body where it takes one:
   * `{ text, private }` to answer, `{ text }` to edit, `{ label }` (or `{}`: none) to relabel.
   */
  act(id, action, body) {
    if (!QUESTION_ACTIONS.includes(action)) {
      return Promise.resolve({ ok: false, status: 0, text: `no action ${action}` });
    }
    return this.request('POST', `api/questions/${encodeURIComponent(id)}/${action}`, body);
  }

  /** Extension queue: the next question up, or the queue shown to the room or hidden. */
  queue(step) {
    if (!['next', 'show', 'hide'].includes(step)) {
      return Promise.resolve({ ok: false, status: 0, text: `no queue step ${step}` });
    }
    return this.request('POST', `api/queue/${step}`);
  }

  /** Extension polls: every poll, with its results and a closed quiz's leaderboard as presenters see them. */
  polls() { return this.request('GET', 'api/polls', undefined, true); }

  /**
   * Extension polls: a new draft from its spec (`{ kind, prompt, options, … }`), a draft's
   * new spec, an action on a poll (POLL_ACTIONS; `delete` removes it), and an import of
   * specs, each new drafts. Each answers with its body (the poll, or the polls).
   */
  createPoll(spec) { return this.request('POST', 'api/polls', spec, true); }

  updatePoll(id, spec) { return this.request('PUT', `api/polls/${encodeURIComponent(id)}`, spec, true); }

  pollAction(id, action) {
    if (!POLL_ACTIONS.includes(action)) {
      return Promise.resolve({ ok: false, status: 0, text: `no poll action ${action}` });
    }
    const path = `api/polls/${encodeURIComponent(id)}`;
    return action === 'delete' ? this.request('DELETE', path, undefined, true)
      : this.request('POST', `${path}/${action}`, undefined, true);
  }

  /** An open text's entry (`text`, as the poll's results name it) let through, or kept out. */
  pollTextAction(id, action, text) {
    if (!POLL_TEXT_ACTIONS.includes(action) || typeof text !== 'string') {
      return Promise.resolve({ ok: false, status: 0, text: `no poll action ${action}` });
    }
    return this.request('POST', `api/polls/${encodeURIComponent(id)}/${action}`, { text }, true);
  }

  importPolls(specs) { return this.request('POST', 'api/polls/import', specs, true); }

  /** Where the polls' specs download from (JSON), and every poll's results (`csv`, `json`, `markdown`). */
  pollsExportURL() { return `${this.base}api/polls/export`; }

  pollResultsURL(format) { return `${this.base}api/polls/results?format=${encodeURIComponent(format)}`; }
}
