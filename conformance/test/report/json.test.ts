import { describe, expect, it } from 'vitest';
import type { RuleCoverage } from '../../src/model.js';
import { areasOf, coverageOf, failuresFirst, formatCoverage, renderJson } from '../../src/report/json.js';
import { fixtureRun } from './run-fixture.js';

const rule = (id: string, section: string, passed: string[] = [], failed: string[] = []): RuleCoverage => ({
  id,
  section,
  text: id,
  passed,
  failed,
});

describe('renderJson', () => {
  it('is the run as it is, its findings and failing rules first, plus rule coverage overall and per spec section', () => {
    const run = fixtureRun();
    const parsed = JSON.parse(renderJson(run));
    const { coverage, failingRules, ...rest } = parsed;
    expect(rest).toEqual(run);
    const keys = Object.keys(parsed);
    expect(keys.indexOf('failingRules')).toBeLessThan(keys.indexOf('findings'));
    expect(keys.indexOf('findings')).toBeLessThan(keys.indexOf('scenarios'));
    expect(failingRules).toEqual([
      { rule: null, scenarios: 1, findings: ['F2'] },
      { rule: 'R4.8-1', section: '4.8', text: expect.any(String), scenarios: 1, findings: ['F1'] },
    ]);
    expect(parsed.findings.map((f: { id: string; scenarios: string[] }) => [f.id, f.scenarios])).toEqual([
      ['F1', ['permissions/guest-cannot-subscribe']],
      ['F2', ['permissions/guest-cannot-subscribe']],
      ['F3', ['topics/empty-topic']],
    ]);
    expect(coverage).toEqual({
      covered: 2,
      total: 7,
      sections: [
        { section: '4.8', covered: 0, total: 2, failing: 2 },
        { section: '4.15', covered: 1, total: 1, failing: 0 },
        { section: '4.16', covered: 1, total: 2, failing: 1 },
        { section: '6', covered: 0, total: 1, failing: 0 },
        { section: '9', covered: 0, total: 1, failing: 0 },
      ],
    });
  });
});

describe('coverage summary', () => {
  it('counts a rule as covered only when a passing scenario checked it', () => {
    const c = coverageOf([rule('R1-1', '1', ['a'], ['b']), rule('R1-2', '1', [], ['b']), rule('R1-3', '1')]);
    expect(c).toMatchObject({ covered: 1, total: 3, sections: [{ section: '1', covered: 1, total: 3, failing: 2 }] });
  });

  it('orders sections as the spec does (2.9 before 2.10, 4 before 4.1)', () => {
    const c = coverageOf([rule('a', '2.10'), rule('b', '4.1'), rule('c', '2.9'), rule('d', '4'), rule('e', '10'), rule('f', '9')]);
    expect(c.sections.map((s) => s.section)).toEqual(['2.9', '2.10', '4', '4.1', '9', '10']);
  });

  it.each([
    [{ covered: 2, total: 3 }, '2/3 (66.6%)'],
    [{ covered: 999, total: 1000 }, '999/1000 (99.9%)'],
    [{ covered: 5, total: 5 }, '5/5 (100.0%)'],
    [{ covered: 0, total: 0 }, '0/0 (0.0%)'],
  ])('formats %o as %s, never rounding up to 100%%', (c, text) => {
    expect(formatCoverage(c)).toBe(text);
  });
});

describe('run summaries', () => {
  it('puts failures first, then errors, then the rest in run order', () => {
    expect(failuresFirst(fixtureRun().scenarios).map((s) => s.id)).toEqual([
      'permissions/guest-cannot-subscribe',
      'topics/empty-topic',
      'channels/list-public',
      'events/queue-expiry',
      'channels/update-name',
    ]);
  });

  it('totals scenarios per area', () => {
    expect(areasOf(fixtureRun().scenarios)).toEqual([
      // Wall-clock: 0–12 ms and 5–14 ms overlap (parallel workers), so 14 ms, not the 21 ms they sum to.
      { area: 'channels', tests: 2, ms: 14, totals: { passed: 2, failed: 0, error: 0, skipped: 0 } },
      { area: 'permissions', tests: 1, ms: 20, totals: { passed: 0, failed: 1, error: 0, skipped: 0 } },
      { area: 'events', tests: 1, ms: 0, totals: { passed: 0, failed: 0, error: 0, skipped: 1 } },
      { area: 'topics', tests: 1, ms: 5, totals: { passed: 0, failed: 0, error: 1, skipped: 0 } },
    ]);
  });
});
