import { describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js 2.1.0), pointed at the in-process server.
import zulip from 'zulip-js';
import { call } from '../helpers/test-server.js';
import { freshRealm, success, useTestRealm } from '../helpers/harness.js';
import { LINK_VIEW, LINK_VIEW_NAME, listSnippets, listViews, TOPIC_VIEW } from './support.js';

/**
 * What stock clients put on the wire (reference "Compatibility", §4.12, §4.14): the JavaScript client
 * sends POST as multipart and PATCH/DELETE as a query string with an empty body, fragments unencoded;
 * the Python client sends form bodies for every method. Also: parameters from the query string on any
 * method (body first), and ignored_parameters_unsupported from feature level 167 only (§1, §9).
 */
const env = useTestRealm();

interface ZulipClient {
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<ZulipClient>;
const jsClient = (role: string) => connect({ username: env.who[role]!.email, apiKey: env.who[role]!.api_key, realm: env.server.url });

describe('the stock JavaScript client (zulip-js) through callEndpoint', () => {
  it('creates (multipart), edits (query string, empty PATCH body), lists and deletes a snippet', async () => {
    const client = await jsClient('member');
    expect(await client.callEndpoint('/saved_snippets', 'POST', { title: 'From JS', content: 'Hello' })).toEqual(
      success({ saved_snippet_id: 4 }),
    );
    expect(await client.callEndpoint('/saved_snippets/4', 'PATCH', { title: 'Renamed', content: 'Bye' })).toEqual(success());
    const listed = await client.callEndpoint('/saved_snippets', 'GET', {});
    expect((listed.saved_snippets as Record<string, unknown>[])[2]).toMatchObject({ id: 4, title: 'Renamed', content: 'Bye' });
    expect(await client.callEndpoint('/saved_snippets/4', 'DELETE', {})).toEqual(success());
    expect(await client.callEndpoint('/saved_snippets/4', 'DELETE', {})).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Saved snippet does not exist.',
    });
  });

  it('adds a view, then edits and removes it with the fragment unencoded in the path', async () => {
    const client = await jsClient('guest');
    expect(
      await client.callEndpoint('/navigation_views', 'POST', { fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts' }),
    ).toEqual(success());
    expect(await client.callEndpoint('/navigation_views/narrow/is/alerted', 'PATCH', { is_pinned: 'false' })).toEqual(success());
    expect(await listViews(env.server, env.who.guest!)).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' }]);
    expect(await client.callEndpoint('/navigation_views/narrow/is/alerted', 'DELETE', {})).toEqual(success());
    expect(await client.callEndpoint('/navigation_views/narrow/is/alerted', 'DELETE', {})).toEqual({
      result: 'error',
      code: 'NOT_FOUND',
      msg: 'Navigation view does not exist.',
    });
  });

  it('a JavaScript boolean reaches the server as the text "true"', async () => {
    const client = await jsClient('member');
    expect(await client.callEndpoint(`/navigation_views/${LINK_VIEW}`, 'PATCH', { is_pinned: true })).toEqual(success());
    expect((await listViews(env.server, env.who.member!))[2]).toEqual({ fragment: LINK_VIEW, is_pinned: true, name: LINK_VIEW_NAME });
  });
});

describe('the Python client’s wire form: form bodies on PATCH and DELETE', () => {
  it('PATCH a snippet and a multi-segment view with form bodies; DELETE with an empty form body', async () => {
    const member = env.who.member!;
    const headers = { 'user-agent': 'ZulipPython/0.9.1 (Linux)' };
    expect(
      (await call(env.server, 'PATCH', '/api/v1/saved_snippets/1', { as: member, form: { content: 'Python text' }, headers })).body,
    ).toEqual(success());
    expect((await listSnippets(env.server, member))[0]).toMatchObject({ id: 1, content: 'Python text' });
    expect(
      (await call(env.server, 'PATCH', `/api/v1/navigation_views/${LINK_VIEW}`, { as: member, form: { is_pinned: 'true' }, headers })).body,
    ).toEqual(success());
    expect((await call(env.server, 'DELETE', '/api/v1/saved_snippets/1', { as: member, form: {}, headers })).body).toEqual(success());
    expect((await call(env.server, 'DELETE', `/api/v1/navigation_views/${LINK_VIEW}`, { as: member, form: {}, headers })).body).toEqual(
      success(),
    );
    expect((await listViews(env.server, member)).map((v) => v.fragment)).toEqual(['inbox', TOPIC_VIEW]);
  });
});

describe('where parameters come from, and what is reported as ignored', () => {
  it('the body wins over the query string; query parameters work on POST too', async () => {
    const res = await call(env.server, 'POST', '/api/v1/saved_snippets?title=Query&content=From%20query', {
      as: env.who.member!,
      form: { title: 'Body' },
    });
    expect(res.body).toEqual(success({ saved_snippet_id: 4 }));
    expect((await listSnippets(env.server, env.who.member!))[2]).toMatchObject({ title: 'Body', content: 'From query' });
  });

  it('a repeated path parameter is ignored and listed; the path wins', async () => {
    const res = await call(env.server, 'PATCH', '/api/v1/saved_snippets/1', {
      as: env.who.member!,
      form: { saved_snippet_id: '2', title: 'One' },
    });
    expect(res.body).toEqual(success({ ignored_parameters_unsupported: ['saved_snippet_id'] }));
    expect((await listSnippets(env.server, env.who.member!)).map((s) => s.title)[0]).toBe('One');
  });

  it.each([
    [412, true],
    [167, true],
    [166, false],
  ])('at feature level %i, unknown parameters are listed: %s', async (level, listed) => {
    const expected = listed ? success({ ignored_parameters_unsupported: ['colour', 'order'] }) : success();
    const { realm, who } = await freshRealm(env.server, level);
    const views = await call(env.server, 'PATCH', '/api/v1/navigation_views/inbox', {
      as: who.member!,
      form: { is_pinned: 'false', colour: 'red' },
      query: { order: '1' },
    });
    expect(views.body).toEqual(expected);
    const snippets = await call(env.server, 'POST', '/api/v1/saved_snippets', {
      as: who.member!,
      form: { title: 'T', content: 'C', colour: 'red', order: '1' },
    });
    expect(snippets.body).toEqual({ ...expected, saved_snippet_id: 4 });
    await env.server.control.deleteRealm(realm);
  });
});
