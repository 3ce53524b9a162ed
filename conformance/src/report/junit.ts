import { create } from 'xmlbuilder2';
import { findingsOfRun } from '../findings.js';
import type { Check, Finding, RunResult, ScenarioResult } from '../model.js';
import { sourceLabel } from '../provenance.js';
import { areasOf, coverageOf, formatCoverage, tierLabel } from './json.js';

/**
 * JUnit XML for CI: one <testsuite> per area, one <testcase> per scenario. A failed scenario (the
 * server answered wrongly) is a <failure>, a scenario that could not run (setup failed, no check made)
 * an <error>, a skip a <skipped> with its reason: CI parsers count the three apart.
 *
 * The file is valid under the common JUnit schema (Jenkins' junit-10.xsd, vendored in
 * conformance/test/report/schema/ and checked by a test), which is what CI parsers accept: so the run's
 * totals of skips and its start time are on each <testsuite> (that schema has neither on <testsuites>),
 * and a scenario's rules and tags are in its <system-out> (it has no <properties> on a <testcase>).
 * A failing testcase's message starts with its findings (`F1: answers lack …`), the causes the other
 * reports list once with every scenario they broke.
 */
export function renderJUnit(run: RunResult): string {
  const findings = new Map(findingsOfRun(run).map((f) => [f.id, f]));
  // Response bodies may hold characters XML 1.0 cannot carry; replace them rather than fail the report.
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' });
  const root = doc.ele('testsuites', {
    name: 'teamchat conformance',
    tests: run.scenarios.length,
    failures: run.totals.failed,
    errors: run.totals.error,
    time: seconds(run.ms),
  });
  for (const area of areasOf(run.scenarios)) {
    const suite = root.ele('testsuite', {
      name: area.area,
      tests: area.tests,
      failures: area.totals.failed,
      errors: area.totals.error,
      skipped: area.totals.skipped,
      time: seconds(area.ms),
      timestamp: run.startedAt,
    });
    const props = suite.ele('properties');
    property(props, 'target', run.target);
    property(props, 'target_kind', run.targetKind);
    property(props, 'feature_level', run.featureLevel === null ? 'unknown' : String(run.featureLevel));
    property(props, 'tier', tierLabel(run));
    property(props, 'rule_coverage', formatCoverage(coverageOf(run.rules)));
    property(props, 'strict_reference', String(run.strictReference === true));
    if (run.seed !== undefined) property(props, 'shuffle_seed', String(run.seed));
    if (run.stopped) property(props, 'stopped', run.stopped.message);
    // What each key variable of the curl lines stands for (a role and its e-mail, never the key).
    for (const k of run.keys ?? []) property(props, `key_variable.${k.variable}`, `${k.role}: ${k.emails.join(', ')}`);
    for (const s of run.scenarios.filter((x) => x.area === area.area)) testcase(suite, s, findings);
  }
  return doc.end({ prettyPrint: true });
}

function testcase(suite: XMLBuilder, s: ScenarioResult, findings: ReadonlyMap<string, Finding>): void {
  const tc = suite.ele('testcase', { classname: s.area, name: `${s.id}: ${s.title}`, time: seconds(s.ms) });
  const failing = s.checks.filter((c) => !c.ok && !c.warning);
  // The findings first: one cause is one line in CI however many scenarios it broke.
  const causes = (s.findings ?? []).map((id) => findings.get(id)).filter((f): f is Finding => f !== undefined);
  const prefix = causes.length ? `${causes.map((f) => f.id).join(', ')}: ` : '';
  const causeLines = causes.map((f) => `${f.id} ${f.title} (${f.scenarios.length} scenario(s))`);
  if (s.status === 'failed') {
    const first = failing[0];
    // A cause of the schema kind reads best as the finding says it; a check's own words name its values.
    const lead = causes[0]?.kind === 'schema' ? causes[0].title : first ? checkLine(first) : (s.reason ?? 'failed');
    const message = prefix + lead;
    const text = [...causeLines, ...(s.reason ? [s.reason] : []), ...failing.map((c) => checkDetail(s, c))].join('\n');
    tc.ele('failure', { message, type: 'ConformanceFailure' }).txt(text || message);
  } else if (s.status === 'error') {
    const reason = s.reason ?? 'error';
    tc.ele('error', { message: prefix + reason, type: 'ScenarioError' }).txt(
      [...causeLines, reason, ...failing.map((c) => checkDetail(s, c))].join('\n'),
    );
  } else if (s.status === 'skipped') {
    tc.ele('skipped', { message: s.reason ?? 'skipped' });
  }
  const lines = [
    `rules: ${s.rules.join(', ')}`,
    ...(s.tags.length > 0 ? [`tags: ${s.tags.join(', ')}`] : []),
    // Failed reference-only checks the run did not count: the scenario's status stands, the warning is kept.
    ...s.checks.filter((c) => c.warning).map((c) => `warning: ${checkLine(c)}`),
  ];
  // A failure's exchanges, so a CI log alone is enough to reproduce (the curl lines hold no API key).
  if (s.status === 'failed' || s.status === 'error')
    lines.push(...s.exchanges.map((x, i) => `#${i} ${x.method} ${x.path} → ${x.status} (${x.ms} ms)\n   ${x.curl}`));
  tc.ele('system-out').txt(lines.join('\n'));
}

const checkLine = (c: Check): string => `${c.rule ? `[${c.rule}] ` : ''}${c.message}${c.source ? ` (${sourceLabel(c.source)})` : ''}`;

function checkDetail(s: ScenarioResult, c: Check): string {
  const x = c.exchange === undefined ? undefined : s.exchanges[c.exchange];
  return `✗ ${c.finding ? `(${c.finding}) ` : ''}${checkLine(c)}${x ? `\n    at #${c.exchange} ${x.method} ${x.path} → ${x.status}` : ''}`;
}

/** xmlbuilder2 exports its node type only from a deep path; the return type of create() is the same. */
type XMLBuilder = ReturnType<typeof create>;

function property(props: XMLBuilder, name: string, value: string): void {
  props.ele('property', { name, value });
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);
