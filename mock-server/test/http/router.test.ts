import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * The route table (http/router.ts) answers as the express routes it replaced did: these are the
 * matching rules of express 5's router (case-sensitive, non-strict) that clients can observe.
 */
let server: MockServer;
let member: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
});
afterAll(() => server.close());

const notFound = { result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' };

describe('the API route table', () => {
  it('takes a literal segment before a parameter (/users/me/status is not /users/{user_id}/status)', async () => {
    // /users/me/status has only POST; read as /users/{user_id}/status, "me" would be a 404 path shape.
    const res = await call(server, 'GET', '/api/v1/users/me/status', { as: member });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  it('accepts one trailing slash, on literal and parameterised paths alike', async () => {
    const plain = await call(server, 'GET', '/api/v1/streams', { as: member });
    const slashed = await call(server, 'GET', '/api/v1/streams/', { as: member });
    expect(slashed.status).toBe(200);
    expect(slashed.text).toBe(plain.text);
    const user = await call(server, 'GET', `/api/v1/users/${member.user_id}/`, { as: member });
    expect(user.status).toBe(200);
    expect((user.body.user as { user_id: number }).user_id).toBe(member.user_id);
  });

  it.each(['/api/v1/streams//', '/api/v1/Streams', '/api/v1', '/api/v1/', '/api/v1/nowhere', '/api/v1/users/1/status/extra'])(
    'answers %s with the JSON 404',
    async (path) => {
      const res = await call(server, 'GET', path, { as: member });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    },
  );

  it('percent-decodes parameter values before reading them', async () => {
    const encoded = [...String(member.user_id)].map((d) => `%3${d}`).join('');
    const res = await call(server, 'GET', `/api/v1/users/${encoded}`, { as: member });
    expect(res.status).toBe(200);
    expect((res.body.user as { user_id: number }).user_id).toBe(member.user_id);
  });

  it('refuses an undecodable parameter as a malformed URL whatever the method', async () => {
    const res = await call(server, 'OPTIONS', '/api/v1/users/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Malformed URL.' });
  });

  it('serves HEAD with the GET operation, without a body', async () => {
    const get = await call(server, 'GET', '/api/v1/streams', { as: member });
    const head = await call(server, 'HEAD', '/api/v1/streams', { as: member });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('answers HEAD on a path without GET with 405', async () => {
    const res = await call(server, 'HEAD', '/api/v1/messages/render', { as: member });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  it('lists HEAD in Allow where GET exists', async () => {
    const res = await call(server, 'OPTIONS', '/api/v1/streams/1');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
  });

  it('takes the /api/v1 prefix in any case, as express mounted it; the rest is case-sensitive', async () => {
    const res = await call(server, 'GET', '/API/V1/streams', { as: member });
    expect(res.status).toBe(200);
    expect(res.text).toBe((await call(server, 'GET', '/api/v1/streams', { as: member })).text);
  });

  it.each(['/api/v1x/streams', '/api/v1?x=1', '/api/v1/?x=1', '/api'])(
    'answers %s, which names no operation, with the JSON 404',
    async (path) => {
      const res = await call(server, 'GET', path, { as: member });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    },
  );

  it('matches the path without its query string', async () => {
    const res = await call(server, 'GET', '/api/v1/streams?include_all=false', { as: member });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('success');
  });
});
