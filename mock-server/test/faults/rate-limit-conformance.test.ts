import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../../conformance/src/catalogue.js';
import type { RunResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios, selectScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { serveLogger } from '../../src/log.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The conformance suite against a rate-limited mock (`serve --rate-limit 20/2`): its client waits each 429's
 * Retry-After and sends the request again, as a good client does, so a small selection of scenarios passes with
 * no failure while the mock answered 429s (counted in its request log). The clock follows the machine: the
 * windows slide while the client waits.
 */
let server: MockServer;
let run: RunResult;
const log: string[] = [];

beforeAll(async () => {
  const requestLog = await serveLogger({ level: 'info', format: 'json', out: { write: (s: string) => log.push(s) } });
  server = await startTestServer({ clock: 'system', epoch: undefined, rateLimit: { requests: 20, seconds: 2 }, requestLog });
  const [catalogue, schemas] = await Promise.all([loadRules(), ResponseSchemas.load()]);
  const target = await Target.connect(server.url);
  const scenarios = selectScenarios(SCENARIOS, { grep: /^(conventions|companion\/history)\// });
  expect(scenarios.length).toBeGreaterThanOrEqual(5);
  run = await runScenarios({ target, scenarios, catalogue, schemas, workers: 2, slow: false, allowDestructive: false });
}, 180_000);
afterAll(() => server.close());

describe('the suite against a mock limited to 20 requests per 2 seconds per user', () => {
  it('passes every selected scenario', () => {
    const failed = run.scenarios.filter((s) => s.status === 'failed' || s.status === 'error');
    expect(failed.map((s) => `${s.id}: ${s.reason ?? s.checks.find((c) => !c.ok)?.message}`)).toEqual([]);
    expect(run.totals.passed).toBeGreaterThanOrEqual(5);
  });

  it('was refused along the way, and no refusal reached a scenario', () => {
    const statuses = log
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { status?: number }).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const recorded = run.scenarios.flatMap((s) => s.exchanges.map((x) => x.status));
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded).not.toContain(429);
  });
});
