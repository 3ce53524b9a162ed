import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../conformance/src/catalogue.js';
import type { RuleDef, RunResult, ScenarioResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The conformance suite's self-test (issue 7 "Proof"): every scenario against the mock, in process, at
 * the default feature level and at an old one. The mock implements the spec, so nothing may fail, and
 * every skip must say why. (The suite itself only speaks HTTP; this test lives with the mock because
 * it starts one.)
 */
let catalogue: RuleDef[];
let schemas: ResponseSchemas;
beforeAll(async () => {
  catalogue = await loadCatalogue();
  schemas = await ResponseSchemas.load();
});

const describeRun = (run: RunResult) =>
  run.scenarios
    .filter((s) => s.status === 'failed' || s.status === 'error')
    .map((s: ScenarioResult) => `${s.id} ${s.status}: ${s.reason ?? ''} ${s.checks.filter((c) => !c.ok).map((c) => c.message).join(' | ')}`)
    .join('\n');

describe.each([
  ['the default feature level', undefined],
  ['an old feature level (300)', 300],
])('the whole suite against the mock at %s', (_name, featureLevel) => {
  let server: MockServer;
  let run: RunResult;
  beforeAll(async () => {
    server = await startTestServer(featureLevel === undefined ? {} : { featureLevel });
    const target = await Target.connect(server.url);
    run = await runScenarios({ target, scenarios: SCENARIOS, catalogue, schemas, workers: 4, slow: false, allowDestructive: false });
  }, 300_000);
  afterAll(() => server.close());

  it('has no failure and no error', () => {
    expect(run.totals.failed + run.totals.error, describeRun(run)).toBe(0);
    expect(run.totals.passed).toBeGreaterThan(0);
  });

  it('gives every skip a reason', () => {
    const silent = run.scenarios.filter((s) => s.status === 'skipped' && !s.reason);
    expect(silent.map((s) => s.id)).toEqual([]);
  });

  it('reports the level it ran at', () => {
    expect(run.featureLevel).toBe(featureLevel ?? 412);
    expect(run.targetKind).toBe('mock');
  });
});

describe('the scenarios and the catalogue', () => {
  it('name only rules of the catalogue', () => {
    const ids = new Set(catalogue.map((r) => r.id));
    const unknown = SCENARIOS.flatMap((s) => s.rules.filter((r) => !ids.has(r)).map((r) => `${s.id}: ${r}`));
    expect(unknown).toEqual([]);
  });

  it('have unique IDs, and each names at least one rule', () => {
    const seen = new Set<string>();
    const duplicates = SCENARIOS.filter((s) => (seen.has(s.id) ? true : (seen.add(s.id), false))).map((s) => s.id);
    expect(duplicates).toEqual([]);
    expect(SCENARIOS.filter((s) => s.rules.length === 0).map((s) => s.id)).toEqual([]);
  });
});
