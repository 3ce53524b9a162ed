import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { hasJsonAnswer, head, rawExchange } from '../helpers/raw-socket.js';
import { upload } from '../live/support.js';
import { basic, call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * What arrives on the wire broken, late or never (README "Limits of a long-running mock"): each answers a JSON
 * 4xx and the server keeps serving. In-process and without the serve command's last line of defence: vitest
 * fails a run on any uncaught exception, so these prove each cause has its own error path.
 */
const DEADLINE_MS = 300;
let server: MockServer;
let who: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer({ bodyTimeoutMs: DEADLINE_MS, maxPendingUploads: 2, maxPendingUploadsPerUser: 1 });
  who = credentials(server);
});
afterAll(() => server.close());

const multipart = (parts: string) => ({ 'content-type': 'multipart/form-data; boundary=X', 'content-length': Buffer.byteLength(parts) });
/** The reproduction: a file part cut before its closing boundary. */
const TRUNCATED_FILE = '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc';
const TRUNCATED_FIELD = '--X\r\nContent-Disposition: form-data; name="content"\r\n\r\nabc';
const SECOND_FILE_CUT =
  '--X\r\nContent-Disposition: form-data; name="a"; filename="a.txt"\r\n\r\nabc\r\n' +
  '--X\r\nContent-Disposition: form-data; name="b"; filename="b.txt"\r\n\r\nde';

async function stillServes(): Promise<void> {
  const res = await call(server, 'GET', '/api/v1/users/me', { as: who.member });
  expect(res.status).toBe(200);
}

describe('a multipart body cut short', () => {
  it.each([
    ['a file part, unauthenticated, on an API path', '/api/v1/server_settings', TRUNCATED_FILE, false],
    ['a file part on the upload path', '/api/v1/user_uploads', TRUNCATED_FILE, true],
    ['a field part', '/api/v1/messages', TRUNCATED_FIELD, true],
    ['the second of two file parts', '/api/v1/user_uploads', SECOND_FILE_CUT, true],
  ])('answers a JSON 400 for %s, and the server keeps serving', async (_name, path, body, auth) => {
    const headers = { ...multipart(body), ...(auth ? { authorization: basic(who.member!) } : {}), connection: 'close' };
    const answer = await rawExchange(server.url, [head('POST', path, headers), body]);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Malformed multipart body.' });
    await stillServes();
  });

  it('refuses a cut multipart body on the control API before reading it (it takes JSON only), and keeps serving', async () => {
    const answer = await rawExchange(server.url, [
      head('POST', '/__mock/realms', { ...multipart(TRUNCATED_FILE), connection: 'close' }),
      TRUNCATED_FILE,
    ]);
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    await stillServes();
  });

  it('frees the upload when its client goes away mid-body (the slot is free again)', async () => {
    const body = '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n';
    const headers = { ...multipart(body + 'x'.repeat(100_000)), authorization: basic(who.member!) };
    // The client sends part of the file, then drops the connection.
    await rawExchange(server.url, [head('POST', '/api/v1/user_uploads', headers), body, 'x'.repeat(1000)], {
      onSocket: (socket) => setTimeout(() => socket.destroy(), 50),
    });
    // The member's one upload slot comes back once the server has seen the close (bounded retries).
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = (await upload(server, who.member!, [{ name: 'a.txt', content: 'hello' }])).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(200);
  });
});

describe('authentication before the body', () => {
  const bigUpload = (extra: Record<string, string> = {}) => ({
    'content-type': 'multipart/form-data; boundary=X',
    'content-length': 24 * 1024 * 1024,
    ...extra,
  });

  it('answers an unauthenticated upload 401 while its body has not been sent, and closes the connection', async () => {
    const answer = await rawExchange(server.url, [head('POST', '/api/v1/user_uploads', bigUpload())], { until: hasJsonAnswer });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('keeps the connection of a refused small form (its body is discarded, not read)', async () => {
    const body = 'type=channel&to=general&topic=t&content=x';
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length };
    const twice = head('POST', '/api/v1/messages', headers) + body;
    // Two requests on one connection: both answered 401, the connection still open after the first.
    const answer = await rawExchange(server.url, [twice, twice], { until: (text) => (text.match(/HTTP\/1\.1 401/g) ?? []).length === 2 });
    expect(answer.text.match(/HTTP\/1\.1 401/g)).toHaveLength(2);
    expect(answer.text).not.toMatch(/\r\nconnection: close\r\n/i);
  });

  it('answers wrong credentials 401 the same way', async () => {
    const wrong = basic({ email: who.member!.email, api_key: 'x'.repeat(32) });
    const answer = await rawExchange(server.url, [head('POST', '/api/v1/user_uploads', bigUpload({ authorization: wrong }))], {
      until: hasJsonAnswer,
    });
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ result: 'error', code: 'INVALID_API_KEY', msg: 'Invalid API key' });
  });

  it('says 100 Continue to an authenticated Expect: 100-continue upload, and never to a refused one', async () => {
    const expect100 = { expect: '100-continue' };
    const refused = await rawExchange(server.url, [head('POST', '/api/v1/user_uploads', bigUpload(expect100))], { until: hasJsonAnswer });
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('100 Continue');
    const allowed = await rawExchange(
      server.url,
      [head('POST', '/api/v1/user_uploads', bigUpload({ ...expect100, authorization: basic(who.owner!) }))],
      { until: (text) => text.includes('100 Continue') },
    );
    expect(allowed.text).toMatch(/^HTTP\/1\.1 100 Continue/);
  });

  it('keeps the order of the checks: a malformed path segment is still a 404, an anonymous operation still reads its body', async () => {
    expect((await call(server, 'GET', '/api/v1/messages/abc')).status).toBe(404);
    // fetch_api_key is anonymous: its own error about the missing parameter, not "Not logged in".
    const res = await call(server, 'POST', '/api/v1/fetch_api_key', { form: { username: who.member!.email } });
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
  });
});

describe('uploads in progress are capped', () => {
  /** An upload whose body has begun and stops: it holds its slot until the test drops it. */
  async function hold(as: Who): Promise<Socket> {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let text = '';
    const continued = new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`no 100 Continue: ${text}`)), 5_000);
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('100 Continue')) {
          clearTimeout(limit);
          resolve();
        }
      });
    });
    const headers = { ...multipart('x'.repeat(1_000_000)), authorization: basic(as), expect: '100-continue' };
    socket.write(head('POST', '/api/v1/user_uploads', headers));
    await continued; // the slot is taken before the server says "continue"
    socket.write('--X\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nabc');
    return socket;
  }
  const attempt = (as: Who) =>
    rawExchange(server.url, [head('POST', '/api/v1/user_uploads', { ...multipart('x'.repeat(1_000_000)), authorization: basic(as) })], {
      until: hasJsonAnswer,
    });

  it('answers 429 with Retry-After beyond the per-user and the server-wide cap', async () => {
    const held: Socket[] = [];
    try {
      held.push(await hold(who.member!));
      const perUser = await attempt(who.member!);
      expect(perUser.status).toBe(429);
      expect(perUser.json).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', 'retry-after': 1 });
      expect(perUser.text).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(String(perUser.json?.msg)).toMatch(/for this user \(limit: 1\)/);

      held.push(await hold(who.owner!));
      const serverWide = await attempt(who.administrator!);
      expect(serverWide.status).toBe(429);
      expect(String(serverWide.json?.msg)).toMatch(/on this server \(limit: 2\)/);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe('the request deadline (bodyTimeoutMs)', () => {
  it('answers a body that stops arriving 408 JSON and closes the connection', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': 300, authorization: basic(who.member!) };
    const answer = await rawExchange(server.url, [head('POST', '/api/v1/messages', headers), 'type=channel&to=general&content=x'], {
      limitMs: DEADLINE_MS * 20,
    });
    expect(answer.closedByServer).toBe(true);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(String(answer.json?.msg)).toMatch(/did not arrive within 0\.3 seconds/);
    await stillServes();
  });

  it('answers a multipart upload that stops arriving the same way', async () => {
    const body = '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc';
    const headers = { ...multipart(body + 'x'.repeat(10_000)), authorization: basic(who.guest!) };
    const answer = await rawExchange(server.url, [head('POST', '/api/v1/user_uploads', headers), body], { limitMs: DEADLINE_MS * 20 });
    expect(answer.status).toBe(408);
    expect(answer.closedByServer).toBe(true);
  });

  it.each([
    ['headers that stop arriving', 'POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty'],
    [
      'a control JSON body that stops arriving',
      'POST /__mock/realms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"realm_id":',
    ],
    [
      'a chunked form that stops arriving',
      'POST /api/v1/users/me/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nstatu',
    ],
  ])('answers %s 408 JSON as well', async (_name, text) => {
    const answer = await rawExchange(
      server.url,
      [text.replace('Host: 127.0.0.1\r\n', `Host: 127.0.0.1\r\nAuthorization: ${basic(who.member!)}\r\n`)],
      {
        limitMs: DEADLINE_MS * 20,
      },
    );
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(answer.closedByServer).toBe(true);
    await stillServes();
  });

  it('does not cut a keep-alive connection that idles longer than the deadline between requests', async () => {
    const get = head('GET', '/api/v1/users/me', { authorization: basic(who.member!) });
    const answer = await rawExchange(server.url, [get], {
      onSocket: (socket) => setTimeout(() => socket.write(get), DEADLINE_MS * 4),
      until: (text) => (text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length === 2,
      limitMs: DEADLINE_MS * 20,
    });
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  it('does not cut a long-poll that waits longer than the deadline', async () => {
    const registered = await call(server, 'POST', '/api/v1/register', { as: who.member, form: { event_types: '["custom_ping"]' } });
    expect(registered.status).toBe(200);
    const { queue_id: queueId, last_event_id: lastEventId } = registered.body as { queue_id: string; last_event_id: number };
    const poll = call(server, 'GET', '/api/v1/events', {
      as: who.member,
      query: { queue_id: queueId, last_event_id: String(lastEventId) },
    });
    // Several deadlines pass while the poll waits; then an event wakes it.
    await new Promise((r) => setTimeout(r, DEADLINE_MS * 4));
    await server.control.injectEvent('demo', { type: 'custom_ping' }, [who.member!.user_id]);
    const answer = await poll;
    expect(answer.status).toBe(200);
    expect((answer.body.events as { type: string }[]).map((e) => e.type)).toContain('custom_ping');
  });
});
