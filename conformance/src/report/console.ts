import type { Check, RunResult, ScenarioResult, ScenarioStatus, Tier } from '../model.js';
import { sourceLabel } from '../provenance.js';
import { coverageOf, failuresFirst, formatCoverage, tierLabel } from './json.js';

/** Where the console reporter writes (process.stdout in the CLI, a buffer in tests). */
export interface Output {
  write(text: string): unknown;
}

const MARK: Record<ScenarioStatus, string> = { passed: '.', failed: 'F', error: 'E', skipped: 's' };
const LINE = 60;

/**
 * Progress while the suite runs (one mark per finished scenario, a count at the end of each line), then
 * the failures with their failing checks, the skip reasons, the totals and the rule coverage.
 */
export class ConsoleReporter {
  #column = 0;

  constructor(private readonly out: Output) {}

  start(info: {
    target: string;
    featureLevel: number | null;
    targetKind: string;
    scenarios: number;
    workers: number;
    tiers?: readonly Tier[];
  }): void {
    const level = info.featureLevel === null ? 'unknown feature level' : `feature level ${info.featureLevel}`;
    this.out.write(
      `teamchat conform: ${info.scenarios} scenarios against ${info.target} (${info.targetKind}, ${level}), ${info.workers} workers, tier ${tierLabel({ tiers: info.tiers })}\n`,
    );
    this.out.write(`(. passed  F failed  E error  s skipped)\n`);
  }

  progress(result: ScenarioResult, done: number, total: number): void {
    this.out.write(MARK[result.status]);
    this.#column += 1;
    if (this.#column === LINE || done === total) {
      this.out.write(`${' '.repeat(LINE - this.#column)}  ${done}/${total}\n`);
      this.#column = 0;
    }
  }

  end(run: RunResult): void {
    this.out.write(renderConsoleSummary(run));
  }
}

/** The closing summary as text (also what `end` prints). */
export function renderConsoleSummary(run: RunResult): string {
  const lines: string[] = [''];
  const bad = failuresFirst(run.scenarios).filter((s) => s.status === 'failed' || s.status === 'error');
  if (bad.length > 0) {
    lines.push('Failures:', '');
    bad.forEach((s, n) => {
      lines.push(`${n + 1}) ${s.status === 'error' ? 'ERROR' : 'FAILED'} ${s.id}: ${s.title}`);
      lines.push(`   rules: ${s.rules.join(', ') || '(none)'}`);
      if (s.reason) lines.push(`   ${s.reason}`);
      for (const c of s.checks.filter((x) => !x.ok && !x.warning)) {
        lines.push(`   ✗ ${checkText(c)}`);
        const x = c.exchange === undefined ? undefined : s.exchanges[c.exchange];
        if (x) lines.push(`     ${x.method} ${x.path} → ${x.status}`, `     ${x.curl}`);
      }
      lines.push('');
    });
  }
  lines.push(...warningLines(run));
  const skips = new Map<string, number>();
  for (const s of run.scenarios)
    if (s.status === 'skipped') skips.set(s.reason ?? '(no reason)', (skips.get(s.reason ?? '(no reason)') ?? 0) + 1);
  if (skips.size > 0) {
    lines.push('Skipped:');
    for (const [reason, n] of [...skips].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(4)} × ${reason}`);
    lines.push('');
  }
  const cov = coverageOf(run.rules);
  const incomplete = cov.sections.filter((s) => s.covered < s.total);
  if (incomplete.length > 0) {
    // Compact: the spec has some forty sections; the HTML report has the full table.
    lines.push('Sections with rules not covered (covered/total):');
    const cells = incomplete.map((s) => `§${s.section} ${s.covered}/${s.total}${s.failing ? ` (${s.failing}✗)` : ''}`.padEnd(18));
    for (let i = 0; i < cells.length; i += 6)
      lines.push(
        `  ${cells
          .slice(i, i + 6)
          .join('')
          .trimEnd()}`,
      );
    lines.push('');
  }
  const t = run.totals;
  lines.push(
    `Scenarios: ${t.passed} passed, ${t.failed} failed, ${t.error} errors, ${t.skipped} skipped (${run.scenarios.length}) in ${(run.ms / 1000).toFixed(1)} s`,
  );
  lines.push(`Rule coverage: ${formatCoverage(cov)}, tier ${tierLabel(run)}`);
  if (run.warnings)
    lines.push(`Warnings: ${run.warnings.checks} failed reference-only checks in ${run.warnings.scenarios} scenarios, not counted`);
  if (run.seed !== undefined) lines.push(`Order: shuffled with seed ${run.seed} (repeat it with --seed ${run.seed})`);
  return `${lines.join('\n')}\n`;
}

/** "[R4.1-8] message (spec §4.1)": a check with its rule and where its expectation comes from. */
const checkText = (c: Check): string => `${c.rule ? `[${c.rule}] ` : ''}${c.message}${c.source ? ` (${sourceLabel(c.source)})` : ''}`;

/** Shown in full up to this many; the reports hold them all. */
const MAX_WARNINGS = 20;

/** The failed reference-only checks the run did not count (no --strict-reference), one line each. */
function warningLines(run: RunResult): string[] {
  if (!run.warnings) return [];
  const all = run.scenarios.flatMap((s) => s.checks.filter((c) => c.warning).map((c) => `  ! ${s.id}: ${checkText(c)}`));
  return [
    `Warnings (failed checks of what the reference server does and the spec leaves open; --strict-reference counts them):`,
    ...all.slice(0, MAX_WARNINGS),
    ...(all.length > MAX_WARNINGS ? [`  … ${all.length - MAX_WARNINGS} more in the reports`] : []),
    '',
  ];
}
