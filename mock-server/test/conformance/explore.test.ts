import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, ResponseSchemas } from '../../../conformance/src/openapi.js';
import { explore } from '../../../conformance/src/explore/run.js';
import { Target } from '../../../conformance/src/target.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startTestServer();
});
afterAll(() => mock.close());

describe('explore against the mock', () => {
  it('finds nothing on the correct mock', async () => {
    const target = await Target.connect(mock.url);
    const result = await explore({
      target,
      api: await loadContract(),
      schemas: await ResponseSchemas.load(),
      tiers: ['spec', 'companion'],
      seed: 42,
      steps: 200,
      users: 4,
    });
    for (const f of result.findings) {
      console.log(f.rule, f.message, JSON.stringify(f.details).slice(0, 400));
      for (const r of f.steps)
        console.log(
          r.n,
          r.step.actor,
          r.step.kind,
          r.step.path,
          JSON.stringify(r.step.params),
          r.exchange.status,
          JSON.stringify(r.exchange.body).slice(0, 150),
        );
    }
    expect(result.findings).toEqual([]);
  }, 300_000);
});
