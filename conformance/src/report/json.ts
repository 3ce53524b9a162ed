import { failingRules, findingsOfRun } from '../findings.js';
import { TIERS, type RuleCoverage, type RunResult, type ScenarioResult, type ScenarioStatus, type Tier } from '../model.js';

/**
 * The JSON report, and the summaries every reporter shows (rule coverage per spec section, totals per
 * area). They live here because the JSON report is the run as data: the other reporters present the
 * same numbers, so they compute them the same way.
 */

export interface Coverage {
  /** Rules with at least one passing scenario (coverage is this over all rules). */
  covered: number;
  total: number;
}
export interface SectionCoverage extends Coverage {
  section: string;
  /** Rules that a failed or errored scenario checked. */
  failing: number;
}
export interface CoverageSummary extends Coverage {
  sections: SectionCoverage[];
}

export interface AreaSummary {
  area: string;
  totals: Record<ScenarioStatus, number>;
  /** Scenarios of the area. */
  tests: number;
  /** Wall-clock time while at least one of its scenarios ran (parallel workers overlap: not their sum). */
  ms: number;
}

/** Spec sections in reading order: "4.10" after "4.9", "§9" after "§8". */
export const bySection = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

export const isCovered = (rule: RuleCoverage): boolean => rule.passed.length > 0;

export function coverageOf(rules: readonly RuleCoverage[]): CoverageSummary {
  const sections = new Map<string, SectionCoverage>();
  for (const rule of rules) {
    const s = sections.get(rule.section) ?? { section: rule.section, covered: 0, total: 0, failing: 0 };
    s.total += 1;
    if (isCovered(rule)) s.covered += 1;
    if (rule.failed.length > 0) s.failing += 1;
    sections.set(rule.section, s);
  }
  return {
    covered: rules.filter(isCovered).length,
    total: rules.length,
    sections: [...sections.values()].sort((a, b) => bySection(a.section, b.section)),
  };
}

/** "12/40 (30.0%)"; rounded down, so 100% means every rule. */
/** The run's tiers as `--tier` names them: spec, companion or all (runs that did not record them: spec). */
export function tierLabel(run: { tiers?: readonly Tier[] | undefined }): string {
  const tiers = run.tiers ?? ['spec'];
  return TIERS.every((t) => tiers.includes(t)) ? 'all' : tiers.join(',');
}

export function formatCoverage(c: Coverage): string {
  return `${c.covered}/${c.total} (${percent(c).toFixed(1)}%)`;
}
export const percent = (c: Coverage): number => (c.total === 0 ? 0 : Math.floor((c.covered * 1000) / c.total) / 10);

export const emptyTotals = (): Record<ScenarioStatus, number> => ({ passed: 0, failed: 0, error: 0, skipped: 0 });

/** Totals per area (the first segment of a scenario ID), in the order areas first appear in the run. */
export function areasOf(scenarios: readonly ScenarioResult[]): AreaSummary[] {
  const areas = new Map<string, AreaSummary>();
  const spans = new Map<string, [number, number][]>();
  for (const s of scenarios) {
    const a = areas.get(s.area) ?? { area: s.area, totals: emptyTotals(), tests: 0, ms: 0 };
    a.totals[s.status] += 1;
    a.tests += 1;
    areas.set(s.area, a);
    spans.set(s.area, [...(spans.get(s.area) ?? []), [s.at, s.at + s.ms]]);
  }
  for (const a of areas.values()) a.ms = wallClock(spans.get(a.area)!);
  return [...areas.values()];
}

/** The length of the union of [start, end] spans. */
function wallClock(spans: [number, number][]): number {
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return total;
}

/** Failed first, then errors, then the rest in run order: what a reader looks at first. */
export function failuresFirst(scenarios: readonly ScenarioResult[]): ScenarioResult[] {
  const rank = (s: ScenarioResult) => (s.status === 'failed' ? 0 : s.status === 'error' ? 1 : 2);
  return scenarios
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .map(({ s }) => s);
}

/**
 * The RunResult as it is, what a reader acts on first (the failing rules, the findings) ahead of the
 * scenarios, plus the coverage summary (overall and per spec section).
 */
export function renderJson(run: RunResult): string {
  findingsOfRun(run);
  const { scenarios, rules, findings, ...head } = run;
  const failing = failingRules(scenarios, rules);
  return `${JSON.stringify({ ...head, failingRules: failing, findings, scenarios, rules, coverage: coverageOf(rules) }, null, 2)}\n`;
}
