import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../../conformance/src/catalogue.js';
import type { RuleDef, RunResult, ScenarioResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { renderJUnit } from '../../../conformance/src/report/junit.js';
import { runScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { junitSchemaErrors } from '../../../conformance/test/report/junit-schema.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The conformance suite's self-test: every scenario against the mock, in process, at
 * the default feature level and at an old one. The mock implements the spec, so nothing may fail, and
 * every skip must say why. (The suite itself only speaks HTTP; this test lives with the mock because
 * it starts one.)
 */

const describeRun = (run: RunResult) =>
  run.scenarios
    .filter((s) => s.status === 'failed' || s.status === 'error')
    .map(
      (s: ScenarioResult) =>
        `${s.id} ${s.status}: ${s.reason ?? ''} ${s.checks
          .filter((c) => !c.ok)
          .map((c) => c.message)
          .join(' | ')}`,
    )
    .join('\n');

/**
 * Rules no passing scenario checks yet at the default level, each with why (the target is every
 * rule covered): what is missing is an operation the spec does not show or a precondition the demo
 * realm cannot produce. The test below fails when a rule leaves or joins this list, so it stays true.
 */
const KNOWN_UNCOVERED: Record<string, string> = {
  'R2.3-2':
    'which subscribers partial_subscribers must hold depends on recent activity the suite cannot arrange; scenarios check only its presence with partial, without a check of this rule',
  'R4.13-5': 'no operation (nor the control API) removes the moderation request channel',
  'R4.16-16': 'in the demo realm everyone who may administer a channel also has content access, so the refusal cannot be set up',
  'R8-6': 'needs users inactive for 14 days next to active ones in one channel; the suite cannot make a user inactive',
};

const LEVELS: [string, number | undefined][] = [
  ['the default feature level', undefined],
  ['an old feature level (300)', 300],
];

let catalogue: RuleDef[];
let schemas: ResponseSchemas;
const servers: MockServer[] = [];
/**
 * The run at each level, on a server of its own. A run spends most of its time waiting (scenarios that wait
 * for an event that must not come, scenarios that run alone), so both go on at the same time, started here.
 */
const runs = new Map<number | undefined, Promise<RunResult>>();
beforeAll(async () => {
  catalogue = await loadRules();
  schemas = await ResponseSchemas.load();
  for (const [, featureLevel] of LEVELS) {
    // The default level runs as `teamchat serve` does, realms starting at the current time; the old level at
    // the tests' fixed epoch. The suite must pass at any start.
    const server = await startTestServer(featureLevel === undefined ? { epoch: undefined } : { featureLevel });
    servers.push(server);
    const run = Target.connect(server.url).then((target) =>
      runScenarios({ target, scenarios: SCENARIOS, catalogue, schemas, workers: 4, slow: false, allowDestructive: false }),
    );
    // Awaited by each level's hook below; a rejection before then is theirs to report, not an unhandled one.
    run.catch(() => undefined);
    runs.set(featureLevel, run);
  }
});
afterAll(async () => {
  // The runs end before their servers close, whether or not a hook waited for them.
  await Promise.allSettled(runs.values());
  await Promise.all(servers.map((server) => server.close()));
}, 600_000);

describe.each(LEVELS)('the whole suite against the mock at %s', (_name, featureLevel) => {
  let run: RunResult;
  beforeAll(async () => {
    run = await runs.get(featureLevel)!;
  }, 600_000);

  it('has no failure and no error', () => {
    expect(run.totals.failed + run.totals.error, describeRun(run)).toBe(0);
    expect(run.totals.passed).toBeGreaterThan(0);
  });

  it('gives every skip a reason', () => {
    const silent = run.scenarios.filter((s) => s.status === 'skipped' && !s.reason);
    expect(silent.map((s) => s.id)).toEqual([]);
  });

  it('covers every rule of the catalogue but the known gaps, each with its reason', () => {
    const uncovered = run.rules.filter((r) => r.passed.length === 0).map((r) => r.id);
    // At the default level exactly the known gaps; at an old level, rules of newer levels join them.
    if (featureLevel === undefined) expect(uncovered.sort()).toEqual(Object.keys(KNOWN_UNCOVERED).sort());
    else expect(Object.keys(KNOWN_UNCOVERED).filter((id) => !uncovered.includes(id))).toEqual([]);
  });

  it('writes a junit.xml valid under the common JUnit schema (junit-10.xsd), every scenario in it', async () => {
    const xml = renderJUnit(run);
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(run.scenarios.length);
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
