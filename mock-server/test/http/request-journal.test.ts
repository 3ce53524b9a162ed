import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import zulip from 'zulip-js';
import type { MockServer } from '../../src/app.js';
import { JOURNAL_BODY_BYTES, JOURNAL_CAPACITY } from '../../src/http/request-journal.js';
import { DEMO_REALM_EPOCH } from '../../src/fixtures/demo-realm.js';
import { basic, call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * The request journal (http/request-journal.ts) through the library API: what a client sent, decoded and without
 * credentials, its filters and its life with the realm. The ring's bounds: request-journal-ring.test.ts;
 * expectRequest and the control API: request-journal-expect.test.ts.
 */

let server: MockServer;
let member: Who & { user_id: number };
let owner: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  ({ member, owner } = credentials(server) as Record<'member' | 'owner', Who & { user_id: number }>);
});
afterAll(() => server.close());
beforeEach(() => server.control.resetRealm('demo'));

const directMessage = (as: Who, content: string, extra: { query?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  call(server, 'POST', '/api/v1/messages', { as, form: { type: 'direct', to: JSON.stringify([owner.user_id]), content }, ...extra });

interface JsClient {
  messages: { send(params: Record<string, unknown>): Promise<Record<string, unknown>> };
}

describe('what a client sent', () => {
  it("zulip-js's send-message: the decoded parameters, the caller, the answer, and no credentials anywhere", async () => {
    const js = (await (zulip as unknown as (c: object) => Promise<JsClient>)({
      username: member.email,
      apiKey: member.api_key,
      realm: server.url,
    })) as JsClient;
    const sent = await js.messages.send({ type: 'direct', to: [owner.user_id], content: 'Hello from zulip-js' });
    expect(sent.result).toBe('success');

    const requests = server.requests({ operation: 'send-message' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      operation: 'send-message',
      method: 'POST',
      path: '/api/v1/messages',
      user_id: member.user_id,
      user: member.email,
      // zulip-js posts multipart, a list as its JSON; `to` is text in the document, so it stays as sent.
      params: { type: 'direct', to: `[${owner.user_id}]`, content: 'Hello from zulip-js' },
      at: DEMO_REALM_EPOCH,
      status: 200,
      injected: null,
      note: null,
    });
    expect(requests[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(requests[0]!.headers).not.toHaveProperty('authorization');
    expect(JSON.stringify(requests)).not.toContain(member.api_key);
    expect(JSON.stringify(requests)).not.toContain(basic(member).slice('Basic '.length));
  });

  it('a raw form: credentials in the query, a cookie and secret-named headers are left out or redacted', async () => {
    const answer = await directMessage(member, 'raw', {
      query: { api_key: member.api_key },
      headers: {
        cookie: `sessionid=${member.api_key}`,
        'x-api-key': member.api_key,
        'user-agent': 'MyApp/1.0',
        referer: `http://x/?token=${member.api_key}`,
      },
    });
    expect(answer.status).toBe(200);
    const [entry] = server.requests({ operation: 'send-message' });
    expect(entry!.params).toEqual({ type: 'direct', to: `[${owner.user_id}]`, content: 'raw', api_key: '[redacted]' });
    expect(entry!.headers['user-agent']).toBe('MyApp/1.0');
    expect(entry!.headers).not.toHaveProperty('cookie');
    expect(entry!.headers).not.toHaveProperty('x-api-key');
    expect(entry!.headers.referer).toBe('http://x/?token=[redacted]');
    expect(JSON.stringify(entry)).not.toContain(member.api_key);
  });

  it('path parameters are read off the URL, typed as the operation reads them', async () => {
    const id = (await directMessage(member, 'to edit')).body.id as number;
    await call(server, 'PATCH', `/api/v1/messages/${id}`, { as: member, form: { content: 'edited' } });
    const [entry] = server.requests({ operation: 'update-message' });
    expect(entry).toMatchObject({ path: `/api/v1/messages/${id}`, params: { message_id: id, content: 'edited' }, status: 200 });
  });

  it('a body over 64 KiB keeps a note instead of its parameters', async () => {
    const answer = await directMessage(member, 'x'.repeat(JOURNAL_BODY_BYTES));
    const [entry] = server.requests({ operation: 'send-message' });
    expect(entry).toMatchObject({ status: answer.status, params: {} });
    expect(entry!.note).toMatch(/^a body of \d+ bytes: its parameters were not kept \(limit: 65536\)$/);
  });

  it('failed requests are journaled with their status; requests refused before the realm is known are not', async () => {
    await call(server, 'POST', '/api/v1/messages', { as: member, form: { type: 'direct' } });
    await call(server, 'POST', '/api/v1/messages', { as: { email: member.email, api_key: 'x'.repeat(32) }, form: { type: 'direct' } });
    await call(server, 'POST', '/api/v1/messages', { form: { type: 'direct' } });
    expect(server.requests().map((r) => [r.operation, r.status, r.user])).toEqual([['send-message', 400, member.email]]);
  });

  it("a deactivated account's or organization's requests are journaled in its realm, refused before the body", async () => {
    expect((await call(server, 'DELETE', `/api/v1/users/${member.user_id}`, { as: owner })).status).toBe(200);
    expect((await directMessage(member, 'still here?')).body.code).toBe('USER_DEACTIVATED');
    // Refused before its body is read (http/router.ts checkBeforeBody): no anonymous operation shares the path.
    const typing = await call(server, 'POST', '/api/v1/typing', { as: member, form: { op: 'start', to: `[${owner.user_id}]` } });
    expect(typing.body.code).toBe('USER_DEACTIVATED');
    await server.context.store.transact('demo', (tx) => tx.put('realm', 'realm', { ...tx.tables.realm.realm, deactivated: true }));
    expect((await call(server, 'GET', '/api/v1/users/me', { as: owner })).body.code).toBe('REALM_DEACTIVATED');
    expect(server.requests({ status: 401 })).toMatchObject([
      { operation: 'send-message', user: member.email, params: { content: 'still here?' }, note: null },
      { operation: 'set-typing-status', user: member.email, params: {}, note: 'the body was not read: the request was refused before it' },
      { operation: 'get-own-user', user: owner.email, params: {}, note: null },
    ]);
    expect(server.requests({ operation: 'set-typing-status' })[0]!.params).toEqual({});
  });

  it('a waiting long-poll shows no status yet; a client that leaves gets none, but a time', async () => {
    const queue = await call(server, 'POST', '/api/v1/register', { as: member, form: { event_types: '["message"]' } });
    const leave = new AbortController();
    const poll = call(server, 'GET', '/api/v1/events', {
      as: member,
      query: { queue_id: String(queue.body.queue_id), last_event_id: '-1' },
      signal: leave.signal,
    }).catch(() => 'left');
    await vi.waitFor(() => expect(server.requests({ operation: 'get-events' })).toHaveLength(1));
    expect(server.requests({ operation: 'get-events' })[0]).toMatchObject({ status: null, ms: null });
    leave.abort();
    expect(await poll).toBe('left');
    await vi.waitFor(() => expect(server.requests({ operation: 'get-events' })[0]!.ms).not.toBeNull());
    expect(server.requests({ operation: 'get-events' })[0]!.status).toBeNull();
  });

  it('anonymous requests are journaled in the realm they reached, with no user', async () => {
    await call(server, 'GET', '/api/v1/server_settings');
    expect(server.requests()).toMatchObject([{ operation: 'get-server-settings', user_id: null, user: null, status: 200 }]);
  });
});

describe('filters', () => {
  it('by operation, user (ID or email, any case), method, status, time range; limit keeps the newest, count all', async () => {
    await directMessage(member, 'one');
    await call(server, 'GET', '/api/v1/users/me', { as: owner });
    await server.control.advanceRealm('demo', 60);
    await directMessage(owner, 'two');
    await call(server, 'POST', '/api/v1/messages', { as: member, form: { type: 'direct' } });

    const pick = (filter: Parameters<MockServer['requests']>[0]) => server.requests(filter).map((r) => r.params.content ?? r.operation);
    expect(pick({})).toEqual(['one', 'get-own-user', 'two', 'send-message']);
    expect(pick({ operation: 'send-message' })).toEqual(['one', 'two', 'send-message']);
    expect(pick({ user: owner.user_id })).toEqual(['get-own-user', 'two']);
    expect(pick({ user: owner.email.toUpperCase() })).toEqual(['get-own-user', 'two']);
    expect(pick({ method: 'get' })).toEqual(['get-own-user']);
    expect(pick({ status: 400 })).toEqual(['send-message']);
    expect(pick({ status: '2xx', operation: 'send-message' })).toEqual(['one', 'two']);
    expect(pick({ since: DEMO_REALM_EPOCH + 60 })).toEqual(['two', 'send-message']);
    expect(pick({ until: DEMO_REALM_EPOCH + 59.999 })).toEqual(['one', 'get-own-user']);
    expect(pick({ limit: 2 })).toEqual(['two', 'send-message']);
    expect(server.control.requests('demo', { operation: 'send-message', limit: 1 })).toMatchObject({
      count: 3,
      requests: [{ status: 400 }],
    });
    expect(server.control.requests('demo', { limit: 0 })).toEqual({ requests: [], count: 4 });
  });

  it('a bad filter value is a 400 naming the field; an unknown realm a 404', () => {
    const refused = (filter: Record<string, unknown>) => {
      try {
        server.control.requests('demo', filter);
      } catch (error) {
        return (error as { body(): unknown }).body();
      }
      return null;
    };
    expect(refused({ operation: 'send-mesage' })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'operation must be an operation ID of the document (send-message); got "send-mesage".',
    });
    expect(refused({ status: 'abc' })).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'status must be an HTTP status (429) or a class of them (4xx).',
    });
    expect(refused({ user: 'nobody' })).toMatchObject({ msg: 'user must be a user ID or an email.' });
    expect(refused({ since: 'yesterday' })).toMatchObject({ msg: 'since must be a realm time in UNIX seconds.' });
    expect(refused({ limit: -1 })).toMatchObject({ msg: 'limit must be a whole number, 0 or more.' });
    expect(refused({ method: 'GET /' })).toMatchObject({ msg: 'method must be an HTTP method (GET, POST, PATCH, PUT, DELETE).' });
    expect(refused({ operaton: 'send-message' })).toMatchObject({
      msg: 'Unknown filter: operaton (known: operation, user, method, status, since, until, limit).',
    });
    expect(() => server.control.requests('nowhere')).toThrow("No realm 'nowhere'.");
  });
});

describe('life with the realm', () => {
  it('reset and snapshot restore clear the journal; a deleted realm frees it; other realms keep theirs', async () => {
    const other = await server.control.createRealm({ realm_id: 'journal-other' });
    const otherMember = other.world.credentials.member as Who;
    await call(server, 'GET', '/api/v1/users/me', { as: otherMember });
    server.control.saveSnapshot('demo', 'empty');
    await directMessage(member, 'before reset');
    expect(server.requests()).toHaveLength(1);
    await server.control.resetRealm('demo');
    expect(server.requests()).toEqual([]);

    await directMessage(member, 'before restore');
    await server.control.restoreSnapshot('demo', 'empty');
    expect(server.requests()).toEqual([]);
    expect(server.requests({}, 'journal-other')).toHaveLength(1);

    await server.control.deleteRealm('journal-other');
    expect(server.context.requests.list('journal-other')).toEqual([]);
  });

  it('clearRequests empties one realm', async () => {
    await directMessage(member, 'gone');
    server.control.clearRequests('demo');
    expect(server.requests()).toEqual([]);
  });
});

it('the server keeps the newest 1,000 requests per realm (the ring itself: request-journal-ring.test.ts)', () => {
  expect(server.context.requests.capacity).toBe(JOURNAL_CAPACITY);
  expect(JOURNAL_CAPACITY).toBe(1000);
});
