import { describe, expect, it } from 'vitest';
import { ConsoleReporter, renderConsoleSummary } from '../../src/report/console.js';
import type { ScenarioResult } from '../../src/model.js';
import { fixtureRun } from './run-fixture.js';

function capture() {
  const chunks: string[] = [];
  return { out: { write: (s: string) => chunks.push(s) }, text: () => chunks.join('') };
}

describe('ConsoleReporter', () => {
  it('prints one mark per finished scenario and the count at the end of each line', () => {
    const { out, text } = capture();
    const reporter = new ConsoleReporter(out);
    const run = fixtureRun();
    const results: ScenarioResult[] = Array.from({ length: 61 }, (_, i) => run.scenarios[i % 5]!);
    results.forEach((r, i) => reporter.progress(r, i + 1, results.length));
    const lines = text().split('\n');
    expect(lines[0]).toBe(`${'.FsE.'.repeat(12)}  60/61`);
    expect(lines[1]).toBe(`.${' '.repeat(59)}  61/61`);
  });

  it('announces the run', () => {
    const { out, text } = capture();
    new ConsoleReporter(out).start({ target: 'http://x', featureLevel: 184, targetKind: 'server', scenarios: 12, workers: 4 });
    expect(text()).toContain('teamchat conform: 12 scenarios against http://x (server, feature level 184), 4 workers');
  });
});

describe('renderConsoleSummary', () => {
  const summary = renderConsoleSummary(fixtureRun());

  it('lists failures with their failing checks and the request, then errors with their reason', () => {
    expect(summary).toContain('1) FAILED permissions/guest-cannot-subscribe: a guest cannot subscribe <b>others</b>');
    expect(summary).toContain(
      '   ✗ [R4.8-1] expected 400 BAD_REQUEST: status 200, expected 400\n     POST /api/v1/users/me/subscriptions → 200',
    );
    expect(summary).not.toContain('the channel list is unchanged');
    expect(summary).toContain(
      '2) ERROR topics/empty-topic: the empty topic is shown by its display name\n   rules: R4.16-2\n   could not set up:',
    );
    expect(summary.indexOf('1) FAILED')).toBeLessThan(summary.indexOf('2) ERROR'));
  });

  it('groups skip reasons and ends with totals and rule coverage', () => {
    expect(summary).toContain('Skipped:\n     1 × waits in real time: run with --slow');
    expect(summary).toContain('§4.8 0/2 (2✗)');
    expect(summary).not.toMatch(/§4\.15 /);
    expect(summary.trimEnd().split('\n').slice(-2)).toEqual([
      'Scenarios: 2 passed, 1 failed, 1 errors, 1 skipped (5) in 1.2 s',
      'Rule coverage: 2/7 (28.5%), tier spec',
    ]);
  });

  it('says nothing about failures when there are none', () => {
    const run = fixtureRun();
    run.scenarios = run.scenarios.filter((s) => s.status === 'passed');
    expect(renderConsoleSummary(run)).not.toContain('Failures');
  });
});
