import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ControlClient, type ControlError } from '../../src/control/client.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * `expectRequest` (library and control client) and the journal's control API: what matches, and the failure's text
 * (the closest request and how it differs, field by field). The journal itself: request-journal.test.ts.
 */

let server: MockServer;
let client: ControlClient;
let member: Who & { user_id: number };
let owner: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  client = new ControlClient(server.url);
  ({ member, owner } = credentials(server) as Record<'member' | 'owner', Who & { user_id: number }>);
});
afterAll(() => server.close());
beforeEach(() => server.control.resetRealm('demo'));

const sendDirect = (as: Who, content: string, headers: Record<string, string> = {}) =>
  call(server, 'POST', '/api/v1/messages', { as, form: { type: 'direct', to: JSON.stringify([owner.user_id]), content }, headers });

/** The error `fn` throws (the test fails if it throws none). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('mock.expectRequest', () => {
  it('answers the matching requests: partial params and headers, a list for a text parameter, a RegExp, exact times', async () => {
    await sendDirect(member, 'first', { 'user-agent': 'MyApp/2.1 (linux)' });
    await sendDirect(member, 'second');
    const matched = server.expectRequest({
      operation: 'send-message',
      user: member.email,
      method: 'post',
      params: { to: [owner.user_id], content: 'first' },
      headers: { 'User-Agent': /^MyApp\/2\./ },
      status: 200,
    });
    expect(matched.map((r) => r.params.content)).toEqual(['first']);
    expect(server.expectRequest({ operation: 'send-message', user: member.user_id }, { times: 2 })).toHaveLength(2);
    expect(server.expectRequest({ operation: 'update-message' }, { times: 0 })).toEqual([]);
  });

  it('a parameter that differs: the closest request of the operation, field by field', async () => {
    await call(server, 'GET', '/api/v1/users/me', { as: member });
    await sendDirect(member, 'Hello, wrold');
    await sendDirect(owner, 'something else entirely');
    const [closest] = server.requests({ user: member.user_id, operation: 'send-message' });
    const error = thrown(() =>
      server.expectRequest({ operation: 'send-message', user: member.email, params: { content: 'Hello, world', topic: 'greetings' } }),
    );
    expect(error.message).toBe(
      [
        `expectRequest: no request matches {"operation":"send-message","user":"${member.email}","params":{"content":"Hello, world","topic":"greetings"}}`,
        `closest: #${closest!.id} send-message POST /api/v1/messages by ${member.email} → 200`,
        '  params.content: expected "Hello, world", received "Hello, wrold"',
        '  params.topic: expected "greetings", received nothing',
        '(2 of 3 requests are send-message)',
      ].join('\n'),
    );
    // The stack points at the test, not at the library.
    expect(error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))).toContain('request-journal-expect.test.ts');
  });

  it('no request of the operation: what the realm received instead, and the closest of it', async () => {
    await call(server, 'GET', '/api/v1/users/me', { as: member });
    await call(server, 'GET', '/api/v1/users/me', { as: owner });
    await call(server, 'GET', '/api/v1/server_settings');
    const [newest] = server.requests({ operation: 'get-own-user', user: owner.user_id });
    const error = thrown(() => server.expectRequest({ operation: 'send-message', user: owner.user_id }));
    expect(error.message).toBe(
      [
        `expectRequest: no request matches {"operation":"send-message","user":${owner.user_id}}`,
        'no request of operation send-message among 3 (get-own-user ×2, get-server-settings ×1)',
        `closest: #${newest!.id} get-own-user GET /api/v1/users/me by ${owner.email} → 200`,
        '  operation: expected "send-message", received "get-own-user"',
      ].join('\n'),
    );
  });

  it('the wrong number of matches, an empty journal, a bad times', async () => {
    expect(thrown(() => server.expectRequest({ operation: 'send-message' })).message).toBe(
      'expectRequest: no request matches {"operation":"send-message"}\nthe realm\'s journal is empty',
    );
    await sendDirect(member, 'one');
    await sendDirect(member, 'two');
    const ids = server.requests().map((r) => `#${r.id}`);
    expect(thrown(() => server.expectRequest({ operation: 'send-message' }, { times: 1 })).message).toBe(
      `expectRequest: expected 1 request matching {"operation":"send-message"}, found 2: ${ids.join(', ')}`,
    );
    expect(thrown(() => server.expectRequest({}, { times: -1 })).message).toBe(
      'expectRequest: times must be a whole number, 0 or more; got -1',
    );
  });

  it('another realm by name', async () => {
    const other = await server.control.createRealm({ realm_id: 'expect-other' });
    await call(server, 'GET', '/api/v1/users/me', { as: other.world.credentials.member as Who });
    expect(server.expectRequest({ operation: 'get-own-user' }, { realm: 'expect-other', times: 1 })).toHaveLength(1);
    expect(server.requests({}, 'demo')).toEqual([]);
    await server.control.deleteRealm('expect-other');
  });
});

describe('the control API and the control client', () => {
  it('GET …/requests with a filter in the query answers {requests, count}; a bad value is a 400 naming it', async () => {
    await sendDirect(member, 'over http');
    await call(server, 'GET', '/api/v1/users/me', { as: member });
    const answer = await callControl(server, 'GET', `/__mock/realms/demo/requests?operation=send-message&user=${member.email}&limit=5`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      result: 'success',
      count: 1,
      requests: [{ operation: 'send-message', params: { content: 'over http' } }],
    });
    expect(answer.text).not.toContain(member.api_key);

    const bad = await callControl(server, 'GET', '/__mock/realms/demo/requests?since=soon');
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'since must be a realm time in UNIX seconds.' },
    });
    expect((await callControl(server, 'GET', '/__mock/realms/nowhere/requests')).status).toBe(404);
  });

  it('DELETE …/requests empties the journal (a bodiless change: only with X-Teamchat-Control)', async () => {
    await sendDirect(member, 'to be cleared');
    const refused = await call(server, 'DELETE', '/__mock/realms/demo/requests');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(refused.body.msg).toContain('X-Teamchat-Control');
    expect(server.requests()).toHaveLength(1);
    expect((await callControl(server, 'DELETE', '/__mock/realms/demo/requests')).body).toEqual({ result: 'success', msg: '' });
    expect(server.requests()).toEqual([]);
  });

  it('ControlClient: requests, expectRequest (the same matcher and text as the library), clearRequests', async () => {
    await sendDirect(member, 'from the client');
    const listed = await client.requests('demo', { operation: 'send-message', status: '2xx' });
    expect(listed).toEqual(server.control.requests('demo', { operation: 'send-message' }));
    expect(listed.count).toBe(1);

    expect(await client.expectRequest('demo', { params: { content: 'from the client' } })).toEqual(listed.requests);
    const expected = { operation: 'send-message', params: { content: 'from a client' } };
    const failure = await client.expectRequest('demo', expected).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(failure?.message).toBe(thrown(() => server.expectRequest(expected)).message);
    expect(failure?.message).toContain('params.content: expected "from a client", received "from the client"');

    const bad = await client.requests('demo', { user: 'not a user' }).catch((e: unknown) => e as ControlError);
    expect(bad).toMatchObject({ status: 400, code: 'BAD_REQUEST', msg: 'user must be a user ID or an email.' });

    await client.clearRequests('demo');
    expect(await client.requests('demo')).toEqual({ requests: [], count: 0 });
  });
});
