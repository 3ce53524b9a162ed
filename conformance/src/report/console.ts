import { failingRules, findingsOfRun } from '../findings.js';
import type { Check, Finding, RunResult, ScenarioResult, ScenarioStatus, Tier } from '../model.js';
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
 * what a server implementer acts on, shortest first: the failing rules, the findings (one per cause, with
 * the scenarios it broke and one request to reproduce it), one line per failed scenario; then the skip
 * reasons, the totals and the rule coverage.
 */
export class ConsoleReporter {
  #column = 0;
  #done = 0;

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
    this.#done = done;
    if (this.#column === LINE || done === total) {
      this.out.write(`${' '.repeat(LINE - this.#column)}  ${done}/${total}\n`);
      this.#column = 0;
    }
  }

  end(run: RunResult): void {
    // A run that stopped early (--max-failures, an interrupt) leaves its last line of marks open.
    if (this.#column > 0) this.out.write(`${' '.repeat(LINE - this.#column)}  ${this.#done}/${run.scenarios.length}\n`);
    this.#column = 0;
    this.out.write(renderConsoleSummary(run));
  }
}

/** How much of each list the console shows; report.json and the HTML report have all of it. */
const SHOWN = { rules: 15, findings: 15, scenariosPerFinding: 6, operations: 4, ruleText: 70 } as const;

/** The closing summary as text (also what `end` prints): failing rules, findings, failed scenarios, totals. */
export function renderConsoleSummary(run: RunResult): string {
  const lines: string[] = [''];
  const findings = findingsOfRun(run);
  const bad = failuresFirst(run.scenarios).filter((s) => s.status === 'failed' || s.status === 'error');
  if (bad.length > 0) lines.push(...digest(run), ...findingLines(findings, bad.length), ...keyLines(run, findings));
  if (bad.length > 0) {
    lines.push(`Failed scenarios (${bad.length}; F failed, E error):`);
    for (const s of bad) lines.push(`  ${s.status === 'error' ? 'E' : 'F'} ${s.id}  ${(s.findings ?? []).join(', ')}`.trimEnd());
    lines.push('');
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

/** The rules with failed checks, most scenarios first, and the findings behind each. */
function digest(run: RunResult): string[] {
  const rules = failingRules(run.scenarios, run.rules);
  if (rules.length === 0) return [];
  const lines = [`Failing rules (${rules.length}):`];
  for (const r of rules.slice(0, SHOWN.rules)) {
    const name = r.rule === null ? '(no rule)' : `${r.rule}${r.section ? ` §${r.section}` : ''}`;
    const text =
      `  ${clip(r.text ?? (r.rule === null ? 'answers against the response schemas, server errors' : ''), SHOWN.ruleText)}`.trimEnd();
    lines.push(`  ${name.padEnd(16)} ${plural(r.scenarios, 'scenario').padStart(13)}  ${r.findings.join(', ')}${text}`);
  }
  if (rules.length > SHOWN.rules) lines.push(`  … ${rules.length - SHOWN.rules} more (report.json, conformance.html)`);
  return [...lines, ''];
}

function findingLines(findings: readonly Finding[], failed: number): string[] {
  if (findings.length === 0) return [];
  const lines = [`Findings: ${plural(findings.length, 'cause')} behind ${plural(failed, 'failed scenario')}`];
  for (const f of findings.slice(0, SHOWN.findings)) {
    lines.push(`${f.id} ${f.rule ? `[${f.rule}] ` : `(${f.kind}) `}${clip(f.title, 160)}${f.source ? ` (${sourceLabel(f.source)})` : ''}`);
    const where = f.operations.length
      ? `; in ${f.operations.slice(0, SHOWN.operations).join(', ')}${f.operations.length > SHOWN.operations ? ` and ${f.operations.length - SHOWN.operations} more` : ''}`
      : '';
    lines.push(`   ${plural(f.scenarios.length, 'scenario')}${f.checks ? `, ${plural(f.checks, 'failed check')}` : ''}${where}`);
    const more = f.scenarios.length - SHOWN.scenariosPerFinding;
    lines.push(`   scenarios: ${f.scenarios.slice(0, SHOWN.scenariosPerFinding).join(', ')}${more > 0 ? ` (+${more} more)` : ''}`);
    if (f.example.request) lines.push(`   e.g. ${f.example.request} in ${f.example.scenario}`, `        ${f.example.curl}`);
    else if (f.example.message !== f.title) lines.push(`   e.g. ${clip(f.example.message, 200)} (${f.example.scenario})`);
  }
  if (findings.length > SHOWN.findings) lines.push(`… ${findings.length - SHOWN.findings} more findings (report.json, conformance.html)`);
  return [...lines, ''];
}

/** What the curl lines' key variables stand for: a role and its e-mail, never the key. */
function keyLines(run: RunResult, findings: readonly Finding[]): string[] {
  const used = new Set(findings.flatMap((f) => [...(f.example.curl ?? '').matchAll(/"\$(KEY_\w+)"/g)].map((m) => m[1]!)));
  const keys = (run.keys ?? []).filter((k) => used.has(k.variable));
  if (keys.length === 0) return [];
  return [
    "API keys in the curl lines (set each variable to that user's key):",
    ...keys.map((k) => `  $${k.variable.padEnd(18)} ${k.role}: ${k.emails.join(', ')}`),
    '',
  ];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
