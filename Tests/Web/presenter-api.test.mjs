// The presenter's actions as requests (presenter-api.js), checked against the routes
// docs/server.md gives: method, path under the page's base, body, and the headers every
// action carries; failures resolved, never thrown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { POLL_ACTIONS, PresenterAPI, QUESTION_ACTIONS } from '../../Sources/Server/Pages/Assets/presenter-api.js';

const recorder = (answer = { ok: true, status: 200, text: async () => '{}' }) => {
  const sent = [];
  let keys = 0;
  const api = (base) => new PresenterAPI({
    base,
    environment: {
      fetch: async (url, init) => { sent.push({ url, ...init }); return typeof answer === 'function' ? answer() : answer; },
      key: () => `KEY-${++keys}`,
    },
  });
  return { sent, api };
};

test('each action is the route the docs give, under a session\'s base', async () => {
  const { sent, api } = recorder();
  const session = api('/s/K7QX2M');
  await session.announce('Coffee at 15:30');
  await session.announce('');
  await session.filter({ add: ['spam'] });
  await session.filter({ remove: ['spam'] });
  await session.addLabel('Panel Q&A');
  await session.removeLabel('Panel Q&A');
  await session.act('A0000000-0000-4000-8000-000000000001', 'answer', { text: 'Yes', private: true });
  await session.act('A0000000-0000-4000-8000-000000000001', 'relabel', {});
  await session.act('A0000000-0000-4000-8000-000000000001', 'highlight');
  await session.queue('next');
  assert.deepEqual(sent.map(({ method, url, body }) => [method, url, body]), [
    ['PUT', '/s/K7QX2M/api/announcement', '{"text":"Coffee at 15:30"}'],
    ['DELETE', '/s/K7QX2M/api/announcement', undefined],
    ['POST', '/s/K7QX2M/api/filters/custom', '{"add":["spam"]}'],
    ['POST', '/s/K7QX2M/api/filters/custom', '{"remove":["spam"]}'],
    ['POST', '/s/K7QX2M/api/labels', '{"name":"Panel Q&A"}'],
    ['DELETE', '/s/K7QX2M/api/labels?name=Panel%20Q%26A', undefined],
    ['POST', '/s/K7QX2M/api/questions/A0000000-0000-4000-8000-000000000001/answer', '{"text":"Yes","private":true}'],
    ['POST', '/s/K7QX2M/api/questions/A0000000-0000-4000-8000-000000000001/relabel', '{}'],
    ['POST', '/s/K7QX2M/api/questions/A0000000-0000-4000-8000-000000000001/highlight', undefined],
    ['POST', '/s/K7QX2M/api/queue/next', undefined],
  ]);
  // Every request: the login cookie, a key of its own, JSON only with a body.
  assert.ok(sent.every((r) => r.credentials === 'same-origin'));
  assert.equal(new Set(sent.map((r) => r.headers['Idempotency-Key'])).size, sent.length);
  assert.ok(sent.every((r) => (r.body === undefined) === (r.headers['Content-Type'] === undefined)));
});

test('the default room\'s base is the root', async () => {
  const { sent, api } = recorder();
  await api('/').queue('show');
  await api(undefined).queue('hide');
  assert.deepEqual(sent.map((r) => r.url), ['/api/queue/show', '/api/queue/hide']);
});

test('an unknown action or step is refused without a request; an id is escaped', async () => {
  const { sent, api } = recorder();
  const presenter = api('/');
  assert.deepEqual(await presenter.act('A', 'drop-table'), { ok: false, status: 0, text: 'no action drop-table' });
  assert.equal((await presenter.queue('everything')).ok, false);
  await presenter.act('../api/sessions', 'dismiss');
  assert.deepEqual(sent.map((r) => r.url), ['/api/questions/..%2Fapi%2Fsessions/dismiss']);
  assert.ok(QUESTION_ACTIONS.includes('moveToTop') && !QUESTION_ACTIONS.includes('next'));
});

test('a refusal resolves with its status and text; a network failure with status 0', async () => {
  const refused = recorder({ ok: false, status: 409, text: async () => 'no question is highlighted' });
  assert.deepEqual(await refused.api('/').act('A', 'unhighlight'), { ok: false, status: 409, text: 'no question is highlighted' });
  const offline = recorder(() => { throw new TypeError('Failed to fetch'); });
  assert.deepEqual(await offline.api('/').announce('x'), { ok: false, status: 0, text: 'Failed to fetch' });
});

test('polls: each action is the route the docs give, its answer\'s body read', async () => {
  const { sent, api } = recorder({ ok: true, status: 200, text: async () => '{"n":1}' });
  const session = api('/s/K7QX2M');
  const id = 'C0000000-0000-4000-8000-000000000001';
  const spec = { kind: 'single', prompt: 'Tabs or spaces?', options: ['Tabs', 'Spaces'] };
  assert.deepEqual(await session.createPoll(spec), { ok: true, status: 200, text: '{"n":1}' });
  await session.updatePoll(id, spec);
  for (const action of POLL_ACTIONS) await session.pollAction(id, action);
  await session.importPolls([spec]);
  await session.polls();
  assert.deepEqual(sent.map(({ method, url, body }) => [method, url, body]), [
    ['POST', '/s/K7QX2M/api/polls', JSON.stringify(spec)],
    ['PUT', `/s/K7QX2M/api/polls/${id}`, JSON.stringify(spec)],
    ['POST', `/s/K7QX2M/api/polls/${id}/open`, undefined],
    ['POST', `/s/K7QX2M/api/polls/${id}/close`, undefined],
    ['POST', `/s/K7QX2M/api/polls/${id}/show`, undefined],
    ['POST', `/s/K7QX2M/api/polls/${id}/hide`, undefined],
    ['POST', `/s/K7QX2M/api/polls/${id}/reset`, undefined],
    ['DELETE', `/s/K7QX2M/api/polls/${id}`, undefined],
    ['POST', '/s/K7QX2M/api/polls/import', JSON.stringify([spec])],
    ['GET', '/s/K7QX2M/api/polls', undefined],
  ]);
  assert.equal(new Set(sent.map((r) => r.headers['Idempotency-Key'])).size, sent.length);
  assert.deepEqual(await session.pollAction(id, 'drop'), { ok: false, status: 0, text: 'no poll action drop' });
  await session.pollAction('../questions', 'open');
  assert.equal(sent.at(-1).url, '/s/K7QX2M/api/polls/..%2Fquestions/open');
  assert.equal(session.pollsExportURL(), '/s/K7QX2M/api/polls/export');
  assert.equal(api('/').pollResultsURL('markdown'), '/api/polls/results?format=markdown');
  // Another action's success still reads nothing.
  assert.deepEqual(await session.queue('next'), { ok: true, status: 200, text: '' });
});
