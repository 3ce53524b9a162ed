import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, rateLimitWaitMs, RATE_LIMIT_RETRIES } from '../src/client.js';
import type { Exchange } from '../src/model.js';

/** The suite's client against a rate-limited server: it waits each 429's Retry-After, bounded, and records what stands. */
describe('rateLimitWaitMs', () => {
  it.each([
    [{ 'retry-after': '1.5' }, '', 1500],
    [{ 'retry-after': '0' }, '', 0],
    [{}, '{"result":"error","code":"RATE_LIMIT_HIT","retry-after":0.25}', 250],
    [{ 'retry-after': 'soon' }, 'not json', 1000],
    [{}, '', 1000],
    [{ 'retry-after': '3600' }, '', 30_000],
  ])('%j with body %j: %i ms', (headers, text, ms) => {
    expect(rateLimitWaitMs(headers, text)).toBe(ms);
  });
});

describe('ApiClient on a 429', () => {
  let server: Server;
  let base: string;
  /** How many 429s the stub answers before a success, per path. */
  const refusals: Record<string, number> = {
    '/api/v1/twice': 2,
    // Another worker of the same user took the freed slot first, again and again (a run with workers: 2).
    '/api/v1/contended': 10,
    '/api/v1/always': Number.POSITIVE_INFINITY,
  };
  const seen: Record<string, number> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url!.split('?')[0]!;
      seen[path] = (seen[path] ?? 0) + 1;
      const limited = seen[path] <= (refusals[path] ?? 0);
      const body = limited
        ? { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 0.02 }
        : { result: 'success', msg: '' };
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '0.02' } : {}) });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the request again after the wait and records only the answer that stands', async () => {
    const recorded: Exchange[] = [];
    const client = new ApiClient(base, (x) => recorded.push(x) - 1);
    const reply = await client.call('GET', '/api/v1/twice');
    expect(reply.status).toBe(200);
    expect(seen['/api/v1/twice']).toBe(3);
    expect(recorded.map((x) => x.status)).toEqual([200]);
  });

  it('outlasts a user budget contended by other workers: a few lost races are no failure', async () => {
    const recorded: Exchange[] = [];
    const client = new ApiClient(base, (x) => recorded.push(x) - 1);
    const reply = await client.call('GET', '/api/v1/contended');
    expect(reply.status).toBe(200);
    expect(seen['/api/v1/contended']).toBe(11);
    expect(recorded.map((x) => x.status)).toEqual([200]);
  });

  it('gives up after a bounded number of retries: the last 429 stands and is recorded', async () => {
    const recorded: Exchange[] = [];
    const client = new ApiClient(base, (x) => recorded.push(x) - 1);
    const reply = await client.call('GET', '/api/v1/always');
    expect(reply.status).toBe(429);
    expect(seen['/api/v1/always']).toBe(RATE_LIMIT_RETRIES + 1);
    expect(recorded.map((x) => x.status)).toEqual([429]);
  });
});
