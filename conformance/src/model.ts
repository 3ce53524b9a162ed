/**
 * The run as plain data: what the runner produces and every reporter reads (JSON, JUnit, HTML,
 * console). Nothing here knows HTTP or the mock server.
 */

/** One HTTP request and its answer, with credentials redacted. */
export interface Exchange {
  method: string;
  /** Path and query string as sent. */
  path: string;
  /** The caller's role in the world file, or null for an unauthenticated request. */
  as: string | null;
  /** The caller's e-mail (never the key): which user the curl line's key variable stands for. */
  user?: string;
  /** Request parameters as sent (form fields or query parameters), lists and objects JSON-encoded. */
  params: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  ms: number;
  /** A command that repeats the request; the API key is a variable named after the role (`$KEY_member`). */
  curl: string;
}

/**
 * Where a rule or a check comes from: a section of the spec, or the reference server's public documentation
 * (its operation or page, and the feature level where the documented behaviour starts). A server implementer
 * reads "the spec requires this" from the first and "the reference server does this" from the second.
 */
export type Source = SpecSource | ReferenceSource;
export interface SpecSource {
  kind: 'spec';
  /** A spec heading number (`4.12`, `7`). */
  section: string;
}
export interface ReferenceSource {
  kind: 'reference';
  /** The reference's operation ID (`add-reaction`) or documentation page (`construct-narrow`). */
  operation: string;
  /** The feature level the documented behaviour starts at, where it is one. */
  level?: number;
  /** The documentation page. */
  url?: string;
}

/** One assertion of a scenario, tied to the rule it checks. */
export interface Check {
  rule: string | null;
  ok: boolean;
  message: string;
  /** Index into the scenario's exchanges, when the check is about one answer. */
  exchange?: number;
  /** Where the expectation comes from; the runner fills it for every check of a result (provenance.ts). */
  source?: Source;
  /**
   * A failed reference-only check that the run did not count (no --strict-reference): shown as a warning, it
   * leaves the scenario's status and the exit code alone.
   */
  warning?: boolean;
  /**
   * `deliberate`: a failure where the spec deliberately differs from the reference server (the document's
   * `x-reference-conflict`); absent for a plain violation.
   */
  kind?: CheckKind;
  /** A failed check: the ID of the finding (`RunResult.findings`) that stands for its cause. */
  finding?: string;
}

/**
 * One cause of failures (findings.ts): failed checks and setup errors with the same cause, across checks,
 * exchanges and scenarios, reported once with the scenarios it broke. A field an answer lacks is one
 * finding however many operations, requests and scenarios showed it.
 */
export interface Finding {
  /** `F1`, `F2`, …: the most scenarios broken first. */
  id: string;
  /** `schema`: an answer against the document; `check`: a scenario's check; `setup`: a scenario could not run. */
  kind: 'schema' | 'check' | 'setup';
  /** The rule of the checks it stands for (null: the response schema or a setup step). */
  rule: string | null;
  /** The cause in one line, IDs and numbers folded. */
  title: string;
  /** Where the expectation comes from (the spec's § or the reference's page), as its checks say. */
  source?: Source;
  /** Where it was seen: operation IDs, or method and path with IDs folded. */
  operations: string[];
  /** The scenarios it broke, in run order. */
  scenarios: string[];
  /** Failed checks it stands for, those that followed from it in the same scenarios included. */
  checks: number;
  /** One occurrence, to reproduce it. */
  example: { scenario: string; message: string; request?: string; curl?: string };
}

/** A variable of the curl lines (`$KEY_member`): the API key of which world user; never the key itself. */
export interface KeyVariable {
  variable: string;
  role: string;
  emails: string[];
}

export type CheckKind = 'violation' | 'deliberate';

export type ScenarioStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface ScenarioResult {
  id: string;
  area: string;
  title: string;
  rules: string[];
  tags: string[];
  status: ScenarioStatus;
  /** Failed or errored: the IDs of the findings that stand for what went wrong. */
  findings?: string[];
  /** Why it was skipped, or what broke (setup failures are `error`, never `failed`). */
  reason?: string;
  checks: Check[];
  exchanges: Exchange[];
  /** When it started, in ms after the run started: with parallel workers, areas' times are wall-clock spans. */
  at: number;
  ms: number;
}

/**
 * The suite's tiers: `spec`, the operations and rules of the spec (the default of a run), and
 * `companion`, operations the spec does not list whose contract is the reference server's documented
 * behaviour (message history, reactions, edits, …). A server implementing only the spec passes `spec`.
 */
export const TIERS = ['spec', 'companion'] as const;
export type Tier = (typeof TIERS)[number];

export interface RuleDef {
  id: string;
  section: string;
  text: string;
  area: string;
  /** Absent: `spec` (the spec catalogue's rules). */
  tier?: Tier;
  /**
   * The spec section it quotes, or the reference page (and level) it states. The catalogue loaders set it
   * on every rule; a hand-made rule without one counts as the spec's section of its ID.
   */
  source?: Source;
}

export interface RuleCoverage {
  id: string;
  section: string;
  text: string;
  /** Companion rules only (spec rules leave it out). */
  tier?: Tier;
  /** The rule's provenance (runs recorded before provenance, and the proxy's, may lack it). */
  source?: Source;
  /** Scenario IDs that checked it, by outcome. */
  passed: string[];
  failed: string[];
}

export interface RunResult {
  target: string;
  featureLevel: number | null;
  /** "mock" when the target offers the mock's control API, else "server". */
  targetKind: 'mock' | 'server';
  startedAt: string;
  ms: number;
  /** The tiers the run selected (`--tier`); absent in runs that did not record it: `spec`. */
  tiers?: Tier[];
  /** Whether failed reference-only checks failed their scenarios (`--strict-reference`); absent: false. */
  strictReference?: boolean;
  /** Failed reference-only checks the run did not count, and the scenarios they are in (absent: none). */
  warnings?: { checks: number; scenarios: number };
  /** The --shuffle seed the scenarios were ordered by (absent: the catalogue's order); repeat a run with --seed. */
  seed?: number;
  scenarios: ScenarioResult[];
  rules: RuleCoverage[];
  totals: Record<ScenarioStatus, number>;
  /** The causes of the failed checks and setup errors, each once with the scenarios it broke (findings.ts). */
  findings?: Finding[];
  /** What each API key variable of the curl lines stands for (role and e-mail). */
  keys?: KeyVariable[];
  /** Set when the run ended early: it could not start, the target stopped answering, or it was interrupted. */
  stopped?: RunStop;
}

/**
 * Why a run ended early, as one line for the console, the reports and CI. `not-started`: nothing ran
 * (bad option, world file, target, filters; the run has one `error` case saying so). `target-unreachable`:
 * the target stopped answering; the scenarios it left are skipped as not run. `interrupted`: SIGINT or SIGTERM
 * (Ctrl-C, a CI timeout); the scenarios under way finished (and put back what they changed), the rest are
 * skipped as not run. `max-failures`: `--bail` or `--max-failures N` was reached; the scenarios under way
 * finished, the rest are skipped as not run, and the run counts as failed (not as one that could not start).
 */
export interface RunStop {
  kind: 'not-started' | 'target-unreachable' | 'interrupted' | 'max-failures';
  message: string;
  /** ISO time the target was first found not answering (target-unreachable). */
  since?: string;
}
