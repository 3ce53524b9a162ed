import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { FaultRule } from '../../src/index.js';
import { credentials, startTestServer, type Who } from '../helpers/test-server.js';
import { parseAnswer, rawGet, type SocketFate } from './wire.js';

/**
 * Every effect of a fault rule stops when its rule does: after its `times` run out, and at once when the rule is
 * removed. Each case reads the effect's own fingerprint on a raw socket (status, body, elapsed time, the socket's
 * fate), then the answer the request has without any rule, and the journal's `injected` mark for both.
 */

let server: MockServer;
let member: Who & { user_id: number };
let plain: { status: number; body: string };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
  plain = look((await rawGet(server, PATH, member)).bytes);
});
afterEach(() => server.faults.clear());
afterAll(() => server.close());

const PATH = '/api/v1/users/me';
const OPERATION = 'get-own-user';

/** The answer's status and body, or what the socket saw instead of an HTTP answer. */
function look(bytes: Buffer): { status: number; body: string } {
  const answer = parseAnswer(bytes);
  return { status: answer.status, body: answer.body.toString() };
}

interface Seen {
  fate: SocketFate;
  ms: number;
}
async function get(): Promise<Seen> {
  const started = performance.now();
  const fate = await rawGet(server, PATH, member);
  return { fate, ms: performance.now() - started };
}

type Add = (match: { operation: string; times?: number }) => Promise<FaultRule>;
/** Each effect: how to add it, and what its request looks like (a check that fails on the plain answer). */
const EFFECTS: Array<[string, Add, (seen: Seen) => void]> = [
  ['rate_limit', (m) => server.faults.rateLimit(m), ({ fate }) => expect(look(fate.bytes).status).toBe(429)],
  ['server_error', (m) => server.faults.serverError(m), ({ fate }) => expect(look(fate.bytes).status).toBe(500)],
  ['bad_gateway', (m) => server.faults.badGateway(m), ({ fate }) => expect(look(fate.bytes).body).toMatch(/^<html>/)],
  ['service_unavailable', (m) => server.faults.serviceUnavailable(m), ({ fate }) => expect(look(fate.bytes).status).toBe(503)],
  [
    'error',
    (m) => server.faults.error({ ...m, status: 403, code: 'USER_DEACTIVATED', msg: 'Account is deactivated' }),
    ({ fate }) => expect(look(fate.bytes)).toMatchObject({ status: 403, body: expect.stringContaining('USER_DEACTIVATED') }),
  ],
  ['latency', (m) => server.faults.latency({ ...m, ms: 150 }), ({ ms }) => expect(ms).toBeGreaterThanOrEqual(150)],
  ['trickle', (m) => server.faults.trickle({ ...m, ms: 150 }), ({ fate }) => expect(fate.reads).toBeGreaterThan(1)],
  ['reset', (m) => server.faults.reset(m), ({ fate }) => expect([fate.error, fate.bytes.length]).toEqual(['ECONNRESET', 0])],
  ['close', (m) => server.faults.close(m), ({ fate }) => expect([fate.error, fate.bytes.length]).toEqual([null, 0])],
  [
    'truncate',
    (m) => server.faults.truncate({ ...m, phase: 'after' }),
    ({ fate }) => {
      const answer = parseAnswer(fate.bytes);
      expect(answer.body.length).toBeLessThan(Number(answer.headers['content-length']));
    },
  ],
  ['garbage', (m) => server.faults.garbage(m), ({ fate }) => expect(fate.bytes.toString('latin1')).not.toMatch(/^HTTP\//)],
];

/** The journal's marks of the last `n` requests, oldest first. */
const marks = (n: number) =>
  server
    .requests({ operation: OPERATION })
    .slice(-n)
    .map((r) => r.injected ?? null);

describe.each(EFFECTS)('%s', (name, add, showsEffect) => {
  it('applies to the next `times` requests, then the rule is gone and the answer is the plain one', async () => {
    await add({ operation: OPERATION, times: 1 });
    showsEffect(await get());
    expect(server.faults.list()).toEqual([]);
    expect(look((await get()).fate.bytes)).toEqual(plain);
    expect(marks(2)).toEqual([expect.stringContaining(name), null]);
  });

  it('applies until removed, and not to the request after the removal', async () => {
    const rule = await add({ operation: OPERATION });
    showsEffect(await get());
    showsEffect(await get());
    server.faults.remove(rule.id);
    expect(look((await get()).fate.bytes)).toEqual(plain);
    expect(marks(3).map((m) => m !== null)).toEqual([true, true, false]);
  });
});
