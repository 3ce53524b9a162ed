import type { Check, Exchange, ReferenceSource, RuleDef, ScenarioResult, Source, Tier } from './model.js';

/**
 * Provenance: where each rule and each check of a run comes from (the spec, or the reference server's
 * documentation), and what a failed reference-only check does to the verdict. Reporters show a source with
 * `sourceLabel`; the runner fills every check's source with `resolveSources` and weighs it with `weigh`.
 */

/** "spec §4.12", "reference add-reaction, level 193"; empty for a check or rule recorded without one. */
export function sourceLabel(source: Source | undefined): string {
  if (!source) return '';
  if (source.kind === 'spec') return `spec §${source.section}`;
  return `reference ${source.operation}${source.level === undefined ? '' : `, level ${source.level}`}`;
}

/**
 * A reference page as a source: the operation is the page's name (`https://zulip.com/api/add-reaction` →
 * `add-reaction`; an anchor names an event of get-events, so it is dropped), other pages keep their path
 * (`help/restrict-message-editing-and-deletion`).
 */
export function referenceOfUrl(url: string, level?: number): ReferenceSource {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '');
  const operation = path.startsWith('api/') ? path.slice('api/'.length) : path;
  return { kind: 'reference', operation: operation || url, ...(level === undefined ? {} : { level }), url };
}

/** What the runner needs of an OpenAPI operation (its marks): the source of a check no rule names. */
export interface OperationMarks {
  operationId?: string;
  'x-spec-section'?: unknown;
  'x-reference-doc'?: unknown;
}

/**
 * An operation's provenance: its spec section (`x-spec-section: '4.12'`), or for the companion tier its
 * reference page (`x-reference-doc`, else its operation ID).
 */
export function operationSource(op: OperationMarks): Source {
  const section = op['x-spec-section'];
  if (typeof section === 'string' && section !== 'companion') return { kind: 'spec', section };
  return referenceOfOperation(op);
}

/** The reference page of an operation (`x-reference-doc`), else its operation ID (ours are the reference's). */
function referenceOfOperation(op: OperationMarks): ReferenceSource {
  const doc = op['x-reference-doc'];
  if (typeof doc === 'string' && /^https?:\/\//.test(doc)) return referenceOfUrl(doc);
  return { kind: 'reference', operation: op.operationId ?? 'unknown operation' };
}

/** What `resolveSources` looks things up in: the rules by ID and each exchange's status and operation. */
export interface SourceLookup {
  rules: ReadonlyMap<string, RuleDef>;
  /** The scenario's exchange `index`: its HTTP status and its operation (absent when the document lacks one). */
  exchangeAt(index: number): { status: number; operation?: OperationMarks | undefined } | undefined;
}

/**
 * Every check with a source: a reference tag written by the scenario (its operation, when left out, is the
 * one its answer came from), else the source of the rule it names, else the source of its exchange's operation
 * (ambient schema and server-error checks), else the source of the scenario's first rule. A check without a
 * rule on a 4xx answer of a spec operation is the reference's: the spec fixes of an error only the envelope,
 * the §7 codes and BAD_REQUEST's 400, which checks with rules cover; the document's error schemas by status
 * (which code at which status, the variants' fields and texts) are the reference's answers.
 */
export function resolveSources(checks: readonly Check[], scenarioRules: readonly string[], lookup: SourceLookup): Check[] {
  const exchange = (c: Check) => (c.exchange === undefined ? undefined : lookup.exchangeAt(c.exchange));
  const ofOperation = (c: Check): Source | undefined => {
    const x = exchange(c);
    if (!x?.operation) return undefined;
    return x.status >= 400 && x.status < 500 ? referenceOfOperation(x.operation) : operationSource(x.operation);
  };
  const ofRule = (id: string | null | undefined): Source | undefined => (id ? ruleSource(lookup.rules.get(id) ?? { id }) : undefined);
  const fallback: Source = ofRule(scenarioRules[0]) ?? { kind: 'spec', section: '1' };
  return checks.map((c): Check => {
    if (c.source?.kind === 'reference' && c.source.operation === '') {
      // Tagged without an operation: the operation the checked answer came from.
      const op = exchange(c)?.operation;
      const { operation, url } = op ? referenceOfOperation(op) : { operation: 'unknown operation', url: undefined };
      return { ...c, source: { ...c.source, operation, ...(url ? { url } : {}) } };
    }
    return { ...c, source: c.source ?? ofRule(c.rule) ?? ofOperation(c) ?? fallback };
  });
}

const byId = new WeakMap<readonly RuleDef[], ReadonlyMap<string, RuleDef>>();
/** The catalogue by rule ID, built once per catalogue. */
export function rulesById(catalogue: readonly RuleDef[]): ReadonlyMap<string, RuleDef> {
  let map = byId.get(catalogue);
  if (!map) byId.set(catalogue, (map = new Map(catalogue.map((r) => [r.id, r]))));
  return map;
}

/**
 * A rule's source; for a rule without one (made by hand, or missing from the catalogue at hand) a spec rule's
 * section from its ID (`R4.12-3` → §4.12), else undefined.
 */
export function ruleSource(rule: { id: string; source?: Source }): Source | undefined {
  if (rule.source) return rule.source;
  const m = /^R(\d+(?:\.\d+)?)-\d+$/.exec(rule.id);
  return m ? { kind: 'spec', section: m[1]! } : undefined;
}

/**
 * Whether a failed check counts against its scenario. Reference-only checks of the spec tier (what the spec
 * leaves open: codes, texts, statuses the reference fixes) are warnings unless the run is strict about the
 * reference; the companion tier's contract is the reference's documentation, so its checks always count.
 */
export function weigh(checks: readonly Check[], tier: Tier, strictReference: boolean): Check[] {
  if (strictReference || tier !== 'spec') return [...checks];
  return checks.map((c) => (!c.ok && c.source?.kind === 'reference' ? { ...c, warning: true } : c));
}

/** The failed checks that count (every failed check that is not a warning). */
export const failures = (checks: readonly Check[]): Check[] => checks.filter((c) => !c.ok && !c.warning);

/** A scenario's checks as its result records them: each with its source, and weighed (runner.ts). */
export function sourcedAndWeighed(
  checks: readonly Check[],
  s: { rules: readonly string[]; tier?: Tier },
  exchanges: readonly Exchange[],
  run: { catalogue: readonly RuleDef[]; schemas: { operationOf(method: string, path: string): unknown }; strictReference?: boolean },
): Check[] {
  const sourced = resolveSources(checks, s.rules, {
    rules: rulesById(run.catalogue),
    exchangeAt: (i) => {
      const x = exchanges[i];
      return x && { status: x.status, operation: run.schemas.operationOf(x.method, x.path) as OperationMarks | undefined };
    },
  });
  return weigh(sourced, s.tier ?? 'spec', run.strictReference === true);
}

/** The run's warnings: failed reference-only checks not counted, and the scenarios holding them (undefined: none). */
export function warningTotals(results: readonly ScenarioResult[]): { checks: number; scenarios: number } | undefined {
  const perScenario = results.map((r) => r.checks.filter((c) => c.warning).length).filter((n) => n > 0);
  return perScenario.length === 0 ? undefined : { checks: perScenario.reduce((a, b) => a + b, 0), scenarios: perScenario.length };
}
