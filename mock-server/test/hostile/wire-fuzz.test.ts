import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts, judge, runWireFuzz, WireFuzz, type FuzzAccounts } from '../../../bench/wire-fuzz.js';
import { built, cleanUp, proxy, scratch, serve, type Program } from './spawned.js';

/**
 * The seeded wire fuzzer (bench/wire-fuzz.ts) against the compiled server, and through the compiled proxy in
 * front of it. A failure names the seed and the case: `new WireFuzz(seed, url, accounts)` and `next()` up to that
 * case number replay it (the cases depend only on the seed and the demo realm's accounts).
 *
 * BUDGET_MS is a hang detector: the unrelated request sent while a case is in flight answers in milliseconds on
 * an idle machine and well under a second on a busy 2-core CI; longer means the case bought the event loop.
 * CASE_MS bounds a case's own answer the same way (a case refused early answers in milliseconds).
 */
const SEED = Number(process.env.WIRE_FUZZ_SEED ?? 2511);
const BUDGET_MS = 1_000;
const CASE_MS = 5_000;

let server: Program;
let accounts: FuzzAccounts;

beforeAll(async () => {
  built();
  server = await serve(['--log-level', 'silent']);
  accounts = await demoAccounts(server.url);
}, 240_000);
afterAll(cleanUp);

describe('judging one case', () => {
  const reset = { outcome: 'error', error: 'EPIPE', status: 0, headers: {}, body: '', ms: 4 } as const;
  const sending = (bytes: number) => ({ n: 1, name: 'x', chunks: [Buffer.alloc(bytes)], stops: false });

  it('takes a reset while a large body is still being sent for a refusal, and a reset of a small request for a failure', () => {
    expect(judge(sending(600_000), reset)).toEqual([]);
    expect(judge(sending(1_000), reset)).toEqual([expect.stringContaining('no answer (error: EPIPE)')]);
  });
});

describe('the seeded wire fuzzer', () => {
  it('makes the same cases from the same seed', () => {
    const a = new WireFuzz(SEED, 'http://127.0.0.1:1', accounts);
    const b = new WireFuzz(SEED, 'http://127.0.0.1:1', accounts);
    const c = new WireFuzz(SEED + 1, 'http://127.0.0.1:1', accounts);
    const cases = (f: WireFuzz) =>
      Array.from({ length: 50 }, () => f.next()).map((x) => `${x.name} ${Buffer.concat(x.chunks).toString('base64')}`);
    expect(cases(a)).toEqual(cases(b));
    expect(cases(a)).not.toEqual(cases(c));
  });

  it(
    `sends 300 cases of seed ${SEED} to the server: no crash, no 5xx, JSON answers, others answered within ${BUDGET_MS} ms`,
    { timeout: 120_000 },
    async () => {
      const result = await runWireFuzz(server.url, { seed: SEED, count: 300, accounts, budgetMs: BUDGET_MS, caseTimeoutMs: CASE_MS });
      expect(result.failures, server.output().slice(-3000)).toEqual([]);
      expect(result.cases).toBe(300);
      // The cases reach past the front door: many are refused (4xx), and the server is still up.
      expect(Object.keys(result.statuses).filter((s) => s.startsWith('4')).length).toBeGreaterThan(2);
      expect(server.alive()).toBe(true);
    },
  );

  it(
    `sends 60 cases of seed ${SEED + 1} through the proxy: the same properties, and SIGTERM writes its reports`,
    { timeout: 120_000 },
    async () => {
      const dir = join(await scratch(), 'reports');
      await mkdir(dir, { recursive: true });
      // A server of its own: the proxy is what this case attacks, not what the first run left of the server.
      const target = await serve(['--log-level', 'silent']);
      const front = await proxy(target.url, dir);
      const result = await runWireFuzz(front.url, {
        seed: SEED + 1,
        count: 60,
        accounts: await demoAccounts(target.url),
        budgetMs: BUDGET_MS,
        caseTimeoutMs: CASE_MS,
      });
      expect(result.failures, front.output().slice(-3000)).toEqual([]);
      expect([0, 1]).toContain(await front.stop());
    },
  );
});
