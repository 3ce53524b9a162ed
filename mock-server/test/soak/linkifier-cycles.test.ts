import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOutcome, emptyOutcome, linkifierCycle } from '../../../bench/soak-ops.js';
import type { MockServer } from '../../src/app.js';
import { credentials, startTestServer } from '../helpers/test-server.js';

/**
 * The soak benchmark's linkifier cycle, short: 200 linkifiers created, rendered, changed,
 * rendered, deleted and rendered again in one process. Each has a pattern of its own, so each compiles
 * a new program; before the fix re2-wasm's fixed heap was full from about the 26th and renders answered 500.
 */
const CYCLES = 200;

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('linkifier cycles in one process', () => {
  it(`links in every render of ${CYCLES} create/update/delete cycles, without a 5xx`, { timeout: 120_000 }, async () => {
    const admin = credentials(server).administrator!;
    const total = emptyOutcome();
    for (let i = 1; i <= CYCLES; i++) addOutcome(total, await linkifierCycle(server.url, admin, i));
    // The first problems name their requests; the count then proves every step of every cycle ran.
    expect(total.serverErrors).toEqual([]);
    expect(total.failures).toEqual([]);
    expect(total.requests).toBe(CYCLES * 6);
  });
});
