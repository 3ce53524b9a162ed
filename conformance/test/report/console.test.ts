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

  it('opens with the failing rules, then the findings, then one line per failed scenario', () => {
    expect(summary).toContain('Failing rules (2):\n  (no rule)');
    expect(summary).toMatch(/\n {2}R4\.8-1 §4\.8 +1 scenario {2}F1 {2}Guests may not subscribe other users\.\n/);
    expect(summary).toContain(
      'F1 [R4.8-1] expected 400 BAD_REQUEST: status 200, expected 400\n   1 scenario, 1 failed check; in POST /api/v1/users/me/subscriptions',
    );
    expect(summary).toContain('   e.g. POST /api/v1/users/me/subscriptions → 200 in permissions/guest-cannot-subscribe\n        curl -sS');
    expect(summary).toContain('F3 (setup) could not set up: create channel failed: 500 <html>oops</html>\n   1 scenario\n');
    expect(summary).toContain(
      'Failed scenarios (2; F failed, E error):\n  F permissions/guest-cannot-subscribe  F1, F2\n  E topics/empty-topic  F3\n',
    );
    expect(summary).not.toContain('the channel list is unchanged');
    const order = ['Failing rules', 'Findings:', 'Failed scenarios', 'Skipped:', 'Scenarios:'].map((h) => summary.indexOf(h));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('lists what the key variables of the curl lines shown stand for, and only those', () => {
    const run = fixtureRun();
    run.keys = [
      { variable: 'KEY_guest', role: 'guest', emails: ['guest@demo.teamchat.test'] },
      { variable: 'KEY_owner', role: 'owner', emails: ['owner@demo.teamchat.test'] },
    ];
    const text = renderConsoleSummary(run);
    expect(text).toContain(
      "API keys in the curl lines (set each variable to that user's key):\n  $KEY_guest          guest: guest@demo.teamchat.test\n\n",
    );
    expect(text).not.toContain('KEY_owner');
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
    const text = renderConsoleSummary(run);
    for (const heading of ['Failing rules', 'Findings', 'Failed scenarios', 'API keys']) expect(text).not.toContain(heading);
  });
});
