import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/api.js';
import { loadRules } from '../src/catalogue.js';
import { main } from '../src/cli.js';
import { scenario, tierOf } from '../src/dsl.js';
import type { RuleDef } from '../src/model.js';
import { ResponseSchemas } from '../src/openapi.js';
import { RUN_DEFAULTS, withDefaults } from '../src/options.js';
import { runScenarios } from '../src/runner.js';
import { selectRun } from '../src/selection.js';
import { Target } from '../src/target.js';
import { SCENARIOS } from '../scenarios/index.js';
import { fakeApi, useLoopbackServer } from './helpers/loopback.js';
import { parseChoices } from '../src/cli.js';

const CATALOGUE: RuleDef[] = [
  { id: 'R1-1', section: '1', area: 'conventions', text: 'The fake endpoint answers 42.', source: { kind: 'spec', section: '1' } },
  { id: 'R7-1', section: '7', area: 'errors', text: 'An error has a code.', source: { kind: 'spec', section: '7' } },
];

/**
 * The spec fixes the value and the code; the reference fixes a code-specific status and a text: the
 * target gets the spec's parts right and the reference's wrong.
 */
const beyondSpec = scenario({
  id: 'fake/beyond-spec',
  title: 'spec parts right, reference parts wrong',
  rules: ['R1-1', 'R7-1'],
  when: async (ctx) => ({ ok: await ctx.as('member').get('/api/v1/fake/ok'), missing: await ctx.as('member').get('/api/v1/fake/missing') }),
  then: (ctx, r) => {
    ctx.expectSuccess('R1-1', r.ok, { value: 42 });
    ctx.check('R1-1', r.ok.body.text === 'forty-two', 'the text of the answer', r.ok, {
      reference: { operation: 'add-reaction', level: 193 },
    });
    ctx.expectError('R7-1', r.missing, { status: 400, code: 'NOT_FOUND', reference: { for: ['status'] } });
  },
});

const fake = useLoopbackServer(fakeApi());

describe("the runner's verdict on failed reference-only checks", () => {
  const run = async (strictReference: boolean) =>
    runScenarios({
      target: await Target.connect(fake.url),
      scenarios: [beyondSpec],
      catalogue: CATALOGUE,
      schemas: await ResponseSchemas.load(),
      workers: 1,
      slow: false,
      allowDestructive: false,
      strictReference,
    });

  it('by default: warnings, shown with their source and counted apart; the scenario passes', async () => {
    const result = await run(false);
    const [s] = result.scenarios;
    expect(s!.status).toBe('passed');
    expect(result).toMatchObject({ strictReference: false, warnings: { checks: 2, scenarios: 1 }, totals: { passed: 1, failed: 0 } });
    expect(s!.checks.filter((c) => !c.ok)).toEqual([
      expect.objectContaining({ warning: true, source: { kind: 'reference', operation: 'add-reaction', level: 193 } }),
      // expectError split: the status is the reference's, of the operation answered (none in the document here).
      expect.objectContaining({
        warning: true,
        message: 'expected 400: status 404, expected 400',
        source: { kind: 'reference', operation: 'unknown operation' },
      }),
    ]);
    // The spec's part of the error (result and code) is a check of its own, which passed.
    expect(s!.checks).toContainEqual(
      expect.objectContaining({ ok: true, message: 'answered error NOT_FOUND', source: { kind: 'spec', section: '7' } }),
    );
    expect(result.rules.map((r) => r.source)).toEqual([CATALOGUE[0]!.source, CATALOGUE[1]!.source]);
  });

  it('with strictReference: they fail the scenario like a spec check', async () => {
    const result = await run(true);
    expect(result.scenarios[0]!.status).toBe('failed');
    expect(result.strictReference).toBe(true);
    expect(result.warnings).toBeUndefined();
    expect(result.scenarios[0]!.checks.filter((c) => !c.ok).map((c) => c.warning)).toEqual([undefined, undefined]);
  });
});

describe('teamchat conform --strict-reference', () => {
  const conform = async (args: string[]) => {
    const dir = await mkdtemp(join(tmpdir(), 'conform-strict-'));
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await main(['--target', fake.url, '--reporter', 'console,json,junit', '--report-dir', dir, ...args], {
        scenarios: [beyondSpec],
        catalogue: CATALOGUE,
        stdout: { write: (t: string) => out.push(t) },
        stderr: { write: (t: string) => err.push(t) },
      });
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      return { code, out: out.join(''), report, junit: await readFile(join(dir, 'junit.xml'), 'utf8') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('off (the default): exit 0, the warnings listed with their source', async () => {
    const r = await conform([]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('! fake/beyond-spec: [R1-1] the text of the answer (reference add-reaction, level 193)');
    expect(r.out).toContain('(reference add-reaction, level 193)');
    expect(r.out).toContain('Warnings: 2 failed reference-only checks in 1 scenarios, not counted');
    expect(r.report).toMatchObject({ strictReference: false, warnings: { checks: 2, scenarios: 1 } });
    expect(r.junit).toContain('warning: [R1-1] the text of the answer');
    expect(r.junit).toContain('name="strict_reference" value="false"');
  });

  it('on: exit 1, the same checks as failures', async () => {
    const r = await conform(['--strict-reference']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/F\d \[R1-1\] the text of the answer \(reference add-reaction, level 193\)/);
    expect(r.out).not.toContain('Warnings');
    expect(r.report).toMatchObject({ strictReference: true, totals: { failed: 1 } });
  });
});

describe('the library and the CLI share their choices and defaults', () => {
  it("select the same scenarios by default: the spec tier's", async () => {
    const rules = await loadRules();
    const cli = await parseChoices(['--target', 'http://127.0.0.1:9']);
    expect(cli).toEqual(withDefaults({}));
    expect(cli).toMatchObject({ tiers: RUN_DEFAULTS.tiers, workers: RUN_DEFAULTS.workers, strictReference: false });
    const library = selectRun(SCENARIOS, rules, withDefaults({})).scenarios.map((s) => s.id);
    expect(selectRun(SCENARIOS, rules, cli).scenarios.map((s) => s.id)).toEqual(library);
    expect(library).toHaveLength(SCENARIOS.filter((s) => tierOf(s) === 'spec').length);
    expect(library.length).toBeLessThan(SCENARIOS.length);
  });

  it('map every shared option the same way', async () => {
    const argv = [
      '--target',
      'http://127.0.0.1:9',
      '--tier',
      'all',
      '--workers',
      '2',
      '--slow',
      '--allow-destructive',
      '--strict-reference',
    ];
    const more = ['--seed', '7', '--tags', 'a,b', '--rules', 'R7', '--world', 'w.json', '--control-token', 't'];
    const { grep, ...cli } = await parseChoices([...argv, ...more, '--grep', '^x']);
    const { grep: libraryGrep, ...library } = withDefaults({
      tiers: ['spec', 'companion'],
      workers: 2,
      slow: true,
      allowDestructive: true,
      strictReference: true,
      seed: 7,
      tags: ['a', 'b'],
      rules: ['R7'],
      world: 'w.json',
      controlToken: 't',
      grep: /^x/,
    });
    expect(cli).toEqual(library);
    expect(String(grep)).toBe(String(libraryGrep));
  });

  it('runConformance takes the tiers: a filter outside the tier selects nothing', async () => {
    await expect(runConformance({ target: fake.url, grep: /^conventions\//, tiers: ['companion'] })).rejects.toThrow(
      /no scenario matches the filters \(\d+ scenarios in --tier companion, \d+ in all\)/,
    );
  });
});
