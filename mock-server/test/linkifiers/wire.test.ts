import { describe, expect, it } from 'vitest';
import { freshRealm, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { DEMO, ISSUES, list, NEXT_ID, TICKETS } from './support.js';

/**
 * What the stock clients put on the wire (reference "Compatibility", §4.18 "Wire"): the Python client
 * sends form bodies (DELETE too, lists as JSON with spaces); the JavaScript client sends POST as
 * multipart and PATCH/DELETE as a query string with an empty body. Plus the §1/§9 envelope rule:
 * unused parameters are listed in ignored_parameters_unsupported from level 167 only.
 */
const env = useTestRealm();

const PYTHON = { 'user-agent': 'ZulipPython/0.9.1 (Linux)' };
const JAVASCRIPT = { 'user-agent': 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)' };
const RT = { pattern: 'RT-(?P<id>\\d+)', url_template: 'https://rt.example.com/{id}' };

describe('Python client', () => {
  it('adds, updates, reorders and removes with form bodies', async () => {
    const as = env.who.administrator!;
    const added = await call(env.server, 'POST', '/api/v1/realm/filters', { as, headers: PYTHON, form: RT });
    expect(added.body).toEqual({ result: 'success', msg: '', id: NEXT_ID });
    const updated = await call(env.server, 'PATCH', `/api/v1/realm/filters/${NEXT_ID}`, {
      as,
      headers: PYTHON,
      form: { ...RT, url_template: 'https://rt2.example.com/{id}' },
    });
    expect(updated.body).toEqual({ result: 'success', msg: '' });
    const reordered = await call(env.server, 'PATCH', '/api/v1/realm/linkifiers', {
      as,
      headers: PYTHON,
      form: { ordered_linkifier_ids: `[${NEXT_ID}, 2, 1]` },
    });
    expect(reordered.body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([{ ...RT, url_template: 'https://rt2.example.com/{id}', id: NEXT_ID }, ISSUES, TICKETS]);
    const removed = await call(env.server, 'DELETE', `/api/v1/realm/filters/${NEXT_ID}`, {
      as,
      headers: { ...PYTHON, 'content-length': '0' },
      body: '',
    });
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([ISSUES, TICKETS]);
  });

  it('lists with GET /realm/linkifiers', async () => {
    const res = await call(env.server, 'GET', '/api/v1/realm/linkifiers', { as: env.who.member!, headers: PYTHON });
    expect(res.body).toEqual({ result: 'success', msg: '', linkifiers: DEMO });
  });

  it('the pre-176 name url_format_string is not read: sent alongside url_template it is only reported as unused', async () => {
    const res = await call(env.server, 'POST', '/api/v1/realm/filters', {
      as: env.who.administrator!,
      headers: PYTHON,
      form: { ...RT, url_format_string: 'https://old.example.com/{id}' },
    });
    expect(res.body).toEqual({ result: 'success', msg: '', id: NEXT_ID, ignored_parameters_unsupported: ['url_format_string'] });
    expect((await list(env)).at(-1)).toEqual({ ...RT, id: NEXT_ID });
  });
});

describe('JavaScript client', () => {
  it('adds with a multipart body', async () => {
    const res = await call(env.server, 'POST', '/api/v1/realm/filters', { as: env.who.owner!, headers: JAVASCRIPT, multipart: RT });
    expect(res.body).toEqual({ result: 'success', msg: '', id: NEXT_ID });
    expect((await list(env)).at(-1)).toEqual({ ...RT, id: NEXT_ID });
  });

  it('updates, reorders (list pre-encoded by the caller) and removes with query strings and empty bodies', async () => {
    const as = env.who.owner!;
    const headers = { ...JAVASCRIPT, 'content-length': '0' };
    const updated = await call(env.server, 'PATCH', '/api/v1/realm/filters/2', {
      as,
      headers,
      body: '',
      query: { pattern: ISSUES.pattern, url_template: 'https://gh.example.com/{org}/{repo}/{id}' },
    });
    expect(updated.body).toEqual({ result: 'success', msg: '' });
    const reordered = await call(env.server, 'PATCH', '/api/v1/realm/linkifiers', {
      as,
      headers,
      body: '',
      query: { ordered_linkifier_ids: '[2,1]' },
    });
    expect(reordered.body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([{ ...ISSUES, url_template: 'https://gh.example.com/{org}/{repo}/{id}' }, TICKETS]);
    const removed = await call(env.server, 'DELETE', '/api/v1/realm/filters/1', { as, headers, body: '' });
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([{ ...ISSUES, url_template: 'https://gh.example.com/{org}/{repo}/{id}' }]);
  });

  it('a list the caller did not encode is malformed JSON and changes nothing', async () => {
    const res = await call(env.server, 'PATCH', '/api/v1/realm/linkifiers', {
      as: env.who.owner!,
      headers: JAVASCRIPT,
      query: { ordered_linkifier_ids: '2,1' },
    });
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'ordered_linkifier_ids is not valid JSON' });
    expect(await list(env)).toEqual(DEMO);
  });
});

describe('ignored_parameters_unsupported by feature level (spec §1, §9: from 167)', () => {
  it.each([
    [166, undefined],
    [167, ['stray']],
  ] as const)('at level %i', async (level, ignored) => {
    const { who } = await freshRealm(env.server, level);
    const res = await call(env.server, 'POST', '/api/v1/realm/filters', { as: who.administrator!, form: { ...RT, stray: 'x' } });
    expect(res.body).toEqual({ result: 'success', msg: '', id: NEXT_ID, ...(ignored ? { ignored_parameters_unsupported: ignored } : {}) });
    const removed = await call(env.server, 'DELETE', `/api/v1/realm/filters/${NEXT_ID}`, { as: who.administrator!, query: { stray: 'y' } });
    expect(removed.body).toEqual({ result: 'success', msg: '', ...(ignored ? { ignored_parameters_unsupported: ignored } : {}) });
  });
});
