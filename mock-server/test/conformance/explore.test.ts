import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explore } from '../../../conformance/src/explore/run.js';
import type { ExploreResult } from '../../../conformance/src/explore/types.js';
import { TIERS } from '../../../conformance/src/model.js';
import { loadContract, ResponseSchemas } from '../../../conformance/src/openapi.js';
import { Target } from '../../../conformance/src/target.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * Explore finds nothing on the correct mock: every oracle holds after every step of random sequences of
 * both tiers' operations, on the mock with its control API (explore works in an isolated realm) and on
 * one without it (`serve --no-control`: explore works in the demo realm the world file describes, as on a
 * real server), each with two seeds. A few hundred steps in all, so that the suite stays fast; the long
 * runs (`--duration 10m`, shuffled seeds) are the CLI's.
 */
const STEPS = 60;
const SEEDS = [1, 2];

let mock: MockServer;
/** One server without control per seed: explore then works in its demo realm, which two runs would share. */
let plain: MockServer[];
let api: OpenAPIV3_1.Document;
let schemas: ResponseSchemas;
beforeAll(async () => {
  [mock, api, schemas] = await Promise.all([startTestServer(), loadContract(), ResponseSchemas.load()]);
  plain = await Promise.all(SEEDS.map(() => startTestServer({ control: false })));
});
afterAll(() => Promise.all([mock, ...plain].map((s) => s.close())));

/** What a failed expectation shows: the finding, its steps and the events each actor received. */
function summary(result: ExploreResult): string {
  const findings = result.findings.map((f) => ({
    rule: f.rule,
    message: f.message,
    details: f.details,
    steps: f.steps.map((s) => [`${s.step.actor} ${s.step.kind} ${s.exchange.curl}`, s.exchange.status, s.exchange.body, s.events]),
  }));
  return JSON.stringify({ seed: result.seed, stopped: result.stopped, findings }, null, 1).slice(0, 20_000);
}

describe.concurrent('explore against the correct mock', () => {
  for (const control of [true, false])
    for (const [i, seed] of SEEDS.entries())
      it(`finds nothing ${control ? 'with' : 'without'} the control API (seed ${seed})`, async () => {
        const target = await Target.connect((control ? mock : plain[i]!).url);
        expect(target.control).toBe(control);
        const result = await explore({ target, api, schemas, tiers: [...TIERS], seed, steps: STEPS, users: 4 });
        expect(result.stopped, summary(result)).toBeUndefined();
        expect(result.findings, summary(result)).toEqual([]);
        expect(result.steps).toBe(STEPS);
        // Every oracle rule was checked at least once (a rule that never ran would find nothing either).
        for (const [rule, count] of Object.entries(result.oracles)) expect(count, rule).toBeGreaterThan(0);
      }, 240_000);
});
