import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuzzGenerator } from '../../../bench/fuzz-requests.js';
import { fuzzRun } from '../../../bench/soak-ops.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The soak benchmark's fuzz, short and seeded: ≈2,000 schema-derived and malformed requests
 * against one server. Bad input must always get a clear 4xx; any 5xx (or dropped connection) fails
 * the test and names the request, which the same seed replays (`npm run bench -- soak --fuzz-seed`).
 */
const SEED = 1414;
const REQUESTS = 2_000;

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('fuzzed requests (seeded)', () => {
  it(`answers ${REQUESTS} fuzzed requests of seed ${SEED} without a single 5xx`, { timeout: 120_000 }, async () => {
    const generator = await FuzzGenerator.create(SEED);
    const outcome = await fuzzRun(server.url, generator, REQUESTS, 1_000);
    expect(outcome.requests).toBe(REQUESTS);
    // The fuzz reaches the operations, not only the authentication: many requests succeed, many are refused.
    expect(outcome.statuses[200]).toBeGreaterThan(REQUESTS / 10);
    expect(outcome.statuses[400]).toBeGreaterThan(REQUESTS / 10);
    expect(outcome.failures).toEqual([]);
    expect(outcome.serverErrors).toEqual([]);
  });
});
