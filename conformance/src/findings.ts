import type { Check, Exchange, Finding, RuleCoverage, RunResult, ScenarioResult } from './model.js';

/**
 * Findings: one per cause. A server implementer fixes causes, not checks: a field an answer lacks breaks
 * every scenario that reads that object, through several operations and several checks each, and listing
 * each failed check buries the one fix under hundreds of lines. So failed checks and setup errors are
 * grouped by cause (the rule or the schema location, the operation, the message with IDs and numbers
 * folded); a field missing from answers is one cause wherever it is missing. A scenario's other failures
 * that show up only where answers also broke the schema are counted as following from that schema finding
 * (they are still in every check's record, pointing at the finding).
 */

/** Numbers, and the names a run makes up (`tc-1a2b3c label 7`), do not make a cause of their own. */
const RUN_NAME = /"tc-[0-9a-f]{6}[^"]*"|tc-[0-9a-f]{6}[\w-]*/g;
export const fold = (text: string): string => text.replace(RUN_NAME, '…').replace(/\d+/g, 'N');

/** `GET /api/v1/streams/58?x=1` → `GET /api/v1/streams/{id}`: the operation, not the request. */
export function operationOf(x: Pick<Exchange, 'method' | 'path'>): string {
  const path = x.path
    .split('?')[0]!
    .split('/')
    .map((seg) => (/^\d+$/.test(seg) ? '{id}' : /^tc-[0-9a-f]{6}/.test(seg) ? '{name}' : seg))
    .join('/');
  return `${x.method} ${path}`;
}

const SCHEMA = /does not match the OpenAPI response schema of (\S+) (\d+): (.*)$/s;
/** ajv's "/streams/0 must have required property 'stream_id'" and the judge's "/streams/0/stream_id is missing". */
const REQUIRED = /(\/\S*|)\s*must have required property '([^']+)'/g;
const IS_MISSING = /(\/\S*?)\/([A-Za-z0-9_]+) is missing/g;

interface Cause {
  key: string;
  kind: Finding['kind'];
  rule: string | null;
  title: string;
  /** Where: an operation, with the schema locations when there are some. */
  where: string;
}

/**
 * An answer that is not the envelope of spec §1 (no `result`, no `msg`, not JSON): whatever else its
 * operation's schema misses follows from that, on every operation alike.
 */
const ENVELOPE: Cause = {
  key: 'envelope',
  kind: 'schema',
  rule: 'R1-2',
  title: 'answers are not the JSON envelope of spec §1 (an object with result and msg)',
  where: '',
};
const ENVELOPE_CHECK = /→ \d+: (the body is not a JSON object|result is undefined|msg is missing or not a string)$/;

/** The cause of one failed check. */
export function causeOf(check: Check, exchange: Exchange | undefined): Cause {
  const where = exchange ? operationOf(exchange) : '';
  if (ENVELOPE_CHECK.test(check.message)) return { ...ENVELOPE, where };
  const schema = SCHEMA.exec(check.message);
  if (schema) {
    const [, operation = '', status = '', errors = ''] = schema;
    const missing = new Map<string, string>();
    for (const m of errors.matchAll(REQUIRED)) missing.set(m[2]!, `${m[1] === '/' ? '' : m[1]}/${m[2]}`);
    for (const m of errors.matchAll(IS_MISSING)) missing.set(m[2]!, `${m[1]}/${m[2]}`);
    // Where, as the request names it when there is one (as every other finding does), else the operation's ID.
    const op = where || operation;
    if (missing.get('result') === '/result') return { ...ENVELOPE, where: op };
    if (missing.size > 0) {
      const fields = [...missing.keys()].sort();
      const at = [...new Set([...missing.values()].map((p) => p.replace(/\/\d+(?=\/|$)/g, '/*')))].join(', ');
      return {
        key: `schema:missing:${fields.join(',')}`,
        kind: 'schema',
        rule: check.rule,
        title: `answers lack the required field${fields.length > 1 ? 's' : ''} ${fields.map((f) => `\`${f}\``).join(', ')}`,
        where: `${op} (${at})`,
      };
    }
    const folded = errors.replace(/\/\d+(?=\/|\s|$)/g, '/*');
    return {
      key: `schema:${operation}:${status}:${fold(folded)}`,
      kind: 'schema',
      rule: check.rule,
      title: `${operation} ${status} differs from the response schema: ${fold(folded)}`,
      where: op,
    };
  }
  // Grouped with numbers folded; told in the words of its first occurrence, numbers and all.
  return { key: `check:${check.rule ?? ''}:${where}:${fold(check.message)}`, kind: 'check', rule: check.rule, title: check.message, where };
}

/** What a scenario's reason says went wrong (a setup step, a thrown error), as a cause. */
function reasonCause(s: ScenarioResult): Cause {
  const reason = s.reason ?? s.status;
  return { key: `${s.status}:${fold(reason)}`, kind: s.status === 'error' ? 'setup' : 'check', rule: null, title: reason, where: '' };
}

interface Occurrence {
  scenario: ScenarioResult;
  check: Check | null;
  cause: Cause;
}

interface Group {
  cause: Cause;
  occurrences: Occurrence[];
  /** Failed checks that followed from it in the same scenarios. */
  followers: Check[];
  where: Set<string>;
  order: number;
}

/**
 * The findings of a run's scenarios, most scenarios broken first. Marks every failed check with its
 * finding (`check.finding`) and every failed or errored scenario with the findings it shows (`findings`).
 */
export function attachFindings(scenarios: readonly ScenarioResult[]): Finding[] {
  const bad = scenarios.filter((s) => s.status === 'failed' || s.status === 'error');
  const occurrences: Occurrence[] = [];
  for (const s of bad) {
    const failing = s.checks.filter((c) => !c.ok && !c.warning);
    for (const c of failing) occurrences.push({ scenario: s, check: c, cause: causeOf(c, exchangeOf(s, c)) });
    // A setup error or a thrown error: what the scenario could not do is a cause too.
    if (s.reason) occurrences.push({ scenario: s, check: null, cause: reasonCause(s) });
  }
  const groups = new Map<string, Group>();
  const groupOf = (cause: Cause): Group => {
    let g = groups.get(cause.key);
    if (!g) groups.set(cause.key, (g = { cause, occurrences: [], followers: [], where: new Set(), order: groups.size }));
    return g;
  };
  // Schema findings first: they are what other failures of the same scenario may follow from.
  const schemaOf = new Map<ScenarioResult, Group>();
  for (const o of occurrences.filter((x) => x.cause.kind === 'schema')) {
    const g = groupOf(o.cause);
    g.occurrences.push(o);
    if (o.cause.where) g.where.add(o.cause.where);
    if (!schemaOf.has(o.scenario)) schemaOf.set(o.scenario, g);
  }
  // A failure follows from a schema finding when it shows up only in scenarios whose answers broke the schema;
  // the same failure in a scenario with sound answers is a cause of its own.
  const others = occurrences.filter((x) => x.cause.kind !== 'schema');
  const independent = new Set(others.filter((o) => !schemaOf.has(o.scenario)).map((o) => o.cause.key));
  for (const o of others) {
    const primary = schemaOf.get(o.scenario);
    if (primary && !independent.has(o.cause.key)) {
      if (o.check) primary.followers.push(o.check);
      else primary.occurrences.push({ ...o, cause: primary.cause });
      continue;
    }
    const g = groupOf(o.cause);
    g.occurrences.push(o);
    if (o.cause.where) g.where.add(o.cause.where);
  }
  const ranked = [...groups.values()]
    .map((g) => ({ g, scenarios: [...new Set(g.occurrences.map((o) => o.scenario))] }))
    .sort((a, b) => b.scenarios.length - a.scenarios.length || a.g.order - b.g.order);
  const order = new Map(scenarios.map((s, i) => [s, i]));
  return ranked.map(({ g, scenarios: broken }, i) => {
    const id = `F${i + 1}`;
    for (const o of g.occurrences) {
      if (o.check) o.check.finding = id;
      o.scenario.findings = [...new Set([...(o.scenario.findings ?? []), id])];
    }
    for (const c of g.followers) c.finding = id;
    const first = g.occurrences[0]!;
    const x = first.check ? exchangeOf(first.scenario, first.check) : undefined;
    return {
      id,
      kind: g.cause.kind,
      rule: g.cause.rule,
      title: g.cause.title,
      ...(first.check?.source ? { source: first.check.source } : {}),
      operations: [...g.where],
      scenarios: broken.sort((a, b) => order.get(a)! - order.get(b)!).map((s) => s.id),
      checks: g.occurrences.filter((o) => o.check).length + g.followers.length,
      example: {
        scenario: first.scenario.id,
        message: first.check?.message ?? first.scenario.reason ?? first.scenario.status,
        ...(x ? { request: `${x.method} ${x.path} → ${x.status}`, curl: x.curl } : {}),
      },
    };
  });
}

const exchangeOf = (s: ScenarioResult, c: Check): Exchange | undefined => (c.exchange === undefined ? undefined : s.exchanges[c.exchange]);

export interface FailingRule {
  /** null: checks without a rule (the response schema, setup). */
  rule: string | null;
  section?: string;
  text?: string;
  /** Scenarios in which a check of this rule failed. */
  scenarios: number;
  /** The findings behind those failures. */
  findings: string[];
}

/** The rules with failed checks, most scenarios first: the digest a report opens with. */
export function failingRules(scenarios: readonly ScenarioResult[], rules: readonly RuleCoverage[]): FailingRule[] {
  const byRule = new Map<string | null, { scenarios: Set<string>; findings: Set<string> }>();
  for (const s of scenarios) {
    if (s.status !== 'failed' && s.status !== 'error') continue;
    for (const c of s.checks.filter((x) => !x.ok && !x.warning)) {
      const entry = byRule.get(c.rule) ?? { scenarios: new Set(), findings: new Set() };
      entry.scenarios.add(s.id);
      if (c.finding) entry.findings.add(c.finding);
      byRule.set(c.rule, entry);
    }
  }
  const catalogue = new Map(rules.map((r) => [r.id, r]));
  return [...byRule]
    .map(([rule, e]) => {
      const def = rule === null ? undefined : catalogue.get(rule);
      return {
        rule,
        ...(def ? { section: def.section, text: def.text } : {}),
        scenarios: e.scenarios.size,
        findings: [...e.findings].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
      };
    })
    .sort((a, b) => b.scenarios - a.scenarios || String(a.rule).localeCompare(String(b.rule), 'en', { numeric: true }));
}

/**
 * The run's findings; a run recorded without them (an older report.json, a hand-made run) gets them
 * computed once, and its checks and scenarios marked, as the runner does.
 */
export function findingsOfRun(run: RunResult): Finding[] {
  // A run that could not start has one case saying why, and nothing to group.
  run.findings ??= run.stopped?.kind === 'not-started' ? [] : attachFindings(run.scenarios);
  return run.findings;
}
