import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';
import { parseAnswer, rawGet } from './wire.js';

/**
 * Each effect of a fault rule as the client meets it (control API "Fault rules"): status, headers and body of
 * the answers; the socket's fate for the wire faults; and, for phase `after` and latency, that the request ran.
 */

let server: MockServer;
let member: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
});
afterEach(() => server.faults.clear());
afterAll(() => server.close());

const me = () => call(server, 'GET', '/api/v1/users/me', { as: member });
const messageCount = () => Object.keys(server.context.store.realm('demo')!.messages).length;
const sendMessage = (content: string, signal?: AbortSignal) =>
  call(server, 'POST', '/api/v1/messages', {
    as: member,
    form: { type: 'stream', to: '51', topic: 'faults', content },
    ...(signal ? { signal } : {}),
  });

describe("answers in the API's own form", () => {
  it('rate_limit: 429 RATE_LIMIT_HIT with retry-after in the body and the Retry-After header, as the reference', async () => {
    server.faults.rateLimit({ operation: 'get-own-user', retryAfter: 2.5 });
    const answer = await me();
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('2.5');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toEqual({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 2.5 });
  });

  it('server_error: 500 with the reference body of a request that raised (no code)', async () => {
    server.faults.serverError({ operation: 'get-own-user' });
    const answer = await me();
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.text).toBe('{"result":"error","msg":"Internal server error"}');
  });

  it('bad_gateway and service_unavailable: nginx HTML pages, not JSON', async () => {
    server.faults.badGateway({ operation: 'get-own-user', times: 1 });
    server.faults.serviceUnavailable({ operation: 'get-own-user', times: 1 });
    const bad = await me();
    expect(bad.status).toBe(502);
    expect(bad.headers['content-type']).toBe('text/html');
    expect(bad.text).toBe(
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
        '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    );
    const unavailable = await rawGet(server, '/api/v1/users/me', member);
    const head = parseAnswer(unavailable.bytes);
    expect(unavailable.bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 503 Service Temporarily Unavailable\r\n/);
    expect(head.headers['content-type']).toBe('text/html');
    expect(head.body.toString()).toContain('<center><h1>503 Service Temporarily Unavailable</h1></center>');
    expect((await me()).status).toBe(200); // both rules were for once
  });

  it('error: any status, code, msg and extra fields in the envelope', async () => {
    server.faults.error({
      operation: 'get-own-user',
      status: 403,
      code: 'USER_DEACTIVATED',
      msg: 'Account is deactivated',
      fields: { hint: [1] },
    });
    const answer = await me();
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED', hint: [1] });
  });

  it('phase before: the request does not run; phase after: it runs (the write happens), then its answer is replaced', async () => {
    const before = messageCount();
    server.faults.serverError({ operation: 'send-message', times: 1 });
    expect((await sendMessage('not sent')).status).toBe(500);
    expect(messageCount()).toBe(before);

    server.faults.serverError({ operation: 'send-message', phase: 'after', times: 1 });
    const replaced = await sendMessage('sent, answer lost');
    expect(replaced.status).toBe(500);
    expect(replaced.body).toEqual({ result: 'error', msg: 'Internal server error' });
    expect(messageCount()).toBe(before + 1);
    const rows = Object.values(server.context.store.realm('demo')!.messages);
    expect(rows.some((m) => m.content === 'sent, answer lost')).toBe(true);
  });
});

describe('latency and trickle (wall time)', () => {
  it("fixed latency: the answer comes no sooner than ms, and is the request's own", async () => {
    server.faults.latency({ operation: 'get-own-user', ms: 300 });
    const started = performance.now();
    const answer = await me();
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBe(200);
    expect(answer.body.email).toBe(member.email);
  });

  it('uniform and log-normal latency wait at least their lower bound', async () => {
    const uniform = server.faults.latency({ operation: 'get-own-user', minMs: 150, maxMs: 250, times: 1 });
    expect(uniform.effect).toEqual({ type: 'latency', distribution: 'uniform', min_ms: 150, max_ms: 250 });
    let started = performance.now();
    expect((await me()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    // sigma 0: every draw is the median.
    server.faults.latency({ operation: 'get-own-user', medianMs: 200, sigma: 0, times: 1 });
    started = performance.now();
    expect((await me()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('latency: the request runs at once, only its answer waits; a client that leaves frees the timer', async () => {
    const before = messageCount();
    server.faults.latency({ operation: 'send-message', ms: 60_000 });
    const leave = new AbortController();
    const sending = sendMessage('written before the answer', leave.signal).catch((e: unknown) => e);
    await expect.poll(messageCount, { timeout: 5_000 }).toBe(before + 1);
    expect(server.context.faults.waiting).toBe(1);
    leave.abort();
    await sending;
    await expect.poll(() => server.context.faults.waiting, { timeout: 5_000 }).toBe(0);
  });

  it('trickle: the headers, then the body in pieces over ms, Content-Length kept', async () => {
    const plain = parseAnswer((await rawGet(server, '/api/v1/users/me', member)).bytes);
    server.faults.trickle({ operation: 'get-own-user', ms: 600 });
    const started = performance.now();
    const fate = await rawGet(server, '/api/v1/users/me', member);
    expect(performance.now() - started).toBeGreaterThanOrEqual(600);
    const answer = parseAnswer(fate.bytes);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(answer.body.toString()).toBe(plain.body.toString());
    expect(fate.reads).toBeGreaterThan(1);
    expect(fate.error).toBeNull();
  });
});

describe('wire faults, as a raw socket sees them', () => {
  it('reset: the connection is reset (ECONNRESET), nothing answered', async () => {
    server.faults.reset({ operation: 'get-own-user' });
    const fate = await rawGet(server, '/api/v1/users/me', member);
    expect(fate.error).toBe('ECONNRESET');
    expect(fate.bytes.length).toBe(0);
  });

  it('close: the connection ends cleanly without a byte', async () => {
    server.faults.close({ operation: 'get-own-user' });
    const fate = await rawGet(server, '/api/v1/users/me', member);
    expect(fate.error).toBeNull();
    expect(fate.bytes.length).toBe(0);
  });

  it('truncate: the headers promise the whole body, half of it comes, then the connection ends', async () => {
    server.faults.truncate({ operation: 'get-own-user', phase: 'after' });
    const fate = await rawGet(server, '/api/v1/users/me', member);
    const answer = parseAnswer(fate.bytes);
    expect(answer.status).toBe(200);
    const promised = Number(answer.headers['content-length']);
    expect(answer.body.length).toBe(Math.floor(promised / 2));
    expect(answer.body.toString()).toMatch(/^\{"result":"success"/);
  });

  it('truncate before the request runs: half of an empty success', async () => {
    server.faults.truncate({ operation: 'get-own-user' });
    const answer = parseAnswer((await rawGet(server, '/api/v1/users/me', member)).bytes);
    expect(answer.headers['content-length']).toBe('29');
    expect(answer.body.toString()).toBe('{"result":"suc');
  });

  it('garbage: bytes that are not HTTP, then the connection ends', async () => {
    server.faults.garbage({ operation: 'get-own-user' });
    const fate = await rawGet(server, '/api/v1/users/me', member);
    expect(fate.bytes.length).toBe(64);
    expect(fate.bytes[0]).toBe(0);
    expect(fate.bytes.toString('latin1')).not.toMatch(/^HTTP\//);
  });

  it('reset after the request ran: the write happened, the client never hears of it', async () => {
    const before = messageCount();
    server.faults.reset({ operation: 'send-message', phase: 'after' });
    const lost = await sendMessage('sent, connection reset').then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(lost?.code).toBe('ECONNRESET');
    expect(messageCount()).toBe(before + 1);
  });
});

describe('timers have an owner', () => {
  it("the server's close clears a pending latency timer", async () => {
    const own = await startTestServer();
    own.faults.latency({ operation: 'get-own-user', ms: 60_000 });
    const pending = call(own, 'GET', '/api/v1/users/me', { as: credentials(own).member! }).catch((e: unknown) => e);
    await expect.poll(() => own.context.faults.waiting, { timeout: 5_000 }).toBe(1);
    await own.close();
    expect(own.context.faults.waiting).toBe(0);
    expect(own.context.faults.active).toBe(false);
    expect(await pending).toBeInstanceOf(Error);
  });
});
