import { randomBytes } from 'node:crypto';
import { ambientChecks } from './checks/ambient.js';
import { ApiClient } from './client.js';
import { ScenarioContext, SetupError } from './context.js';
import { areaOf, tierOf, type Scenario } from './dsl.js';
import { attachFindings } from './findings.js';
import { readFixtures, restoreFixtures, type FixtureState } from './fixtures.js';
import type { Exchange, RuleCoverage, RuleDef, RunResult, RunStop, ScenarioResult, ScenarioStatus, Tier } from './model.js';
import { levelOf, type ResponseSchemas } from './openapi.js';
import { failures, ruleSource, sourcedAndWeighed, warningTotals } from './provenance.js';
import { keyVariables } from './redact.js';
import { Gate, runsAlone, shuffled } from './schedule.js';
import { failureLimitStop, isTransportError, NOT_RUN_UNREACHABLE, notRunReason, Reachability } from './stopped.js';
import { TargetError, type IsolatedRealm, type Target } from './target.js';

export interface RunOptions {
  target: Target;
  scenarios: readonly Scenario<any, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  catalogue: readonly RuleDef[];
  schemas: ResponseSchemas;
  workers: number;
  slow: boolean;
  allowDestructive: boolean;
  /** Failed reference-only checks fail their scenario (default: they are warnings; provenance.ts `weigh`). */
  strictReference?: boolean;
  /** The tiers selected (recorded in the result; the scenarios are already filtered). Default: spec. */
  tiers?: readonly Tier[];
  /** Runs the scenarios in the order this seed gives (--shuffle), recorded in the result. */
  seed?: number;
  onScenarioEnd?(result: ScenarioResult, done: number, total: number): void;
  /**
   * Aborted (its reason: the signal's name) when the run is interrupted: no further scenario starts, those
   * under way finish with their clean-up and restore, the rest are skipped as not run.
   */
  interrupt?: AbortSignal;
  /**
   * Stops after this many failed or errored scenarios (`--max-failures N`; `--bail` is 1): no further
   * scenario starts, those under way finish (so a few more may fail), the rest are skipped as not run.
   */
  maxFailures?: number;
}

/** Scenarios filtered by the CLI's --tier, --grep (ID or title), --tags (any) and --rules (ID prefixes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function selectScenarios<S extends Scenario<any, any>>(
  all: readonly S[],
  filter: { grep?: RegExp; tags?: string[]; rules?: string[]; tiers?: readonly Tier[] },
): S[] {
  return all.filter(
    (s) =>
      (!filter.tiers || filter.tiers.includes(tierOf(s))) &&
      (!filter.grep || filter.grep.test(s.id) || filter.grep.test(s.title)) &&
      (!filter.tags?.length || filter.tags.some((t) => s.tags?.includes(t) || areaOf(s.id) === t)) &&
      (!filter.rules?.length ||
        filter.rules.some((r) => s.rules.some((id) => id === r || id.startsWith(`${r}-`) || id.startsWith(`${r}.`)))),
  );
}

export async function runScenarios(opts: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const started = performance.now();
  const prefix = `tc-${randomBytes(3).toString('hex')}`;
  const order = opts.seed === undefined ? opts.scenarios : await shuffled(opts.scenarios, opts.seed);
  const results: ScenarioResult[] = new Array(order.length);
  const shared = new SharedRealms(opts.target);
  const gate = new Gate();
  const reach = new Reachability(opts.target.baseUrl);
  const since = () => Math.round(performance.now() - started);
  let next = 0;
  let done = 0;
  let failures = 0;
  const enough = () => opts.maxFailures !== undefined && failures >= opts.maxFailures;
  const worker = async () => {
    // A target that went away, an interrupt or enough failures end the run: the scenarios left are marked not run below.
    while (!reach.stop && !opts.interrupt?.aborted && !enough()) {
      const i = next++;
      if (i >= order.length) return;
      results[i] = await runOne(opts, order[i]!, prefix, shared, reach, gate, since);
      if (results[i]!.status === 'failed' || results[i]!.status === 'error') failures += 1;
      opts.onScenarioEnd?.(results[i]!, ++done, order.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.workers) }, worker));
  } finally {
    await shared.close();
  }
  const left = results.filter(Boolean).length < order.length;
  const stopped: RunStop | null =
    reach.stop ??
    (opts.interrupt?.aborted
      ? { kind: 'interrupted', message: `interrupted by ${String(opts.interrupt.reason)}` }
      : enough() && left
        ? failureLimitStop(failures, opts.maxFailures!)
        : null);
  const notRun = notRunReason(stopped);
  order.forEach(
    (s, i) => (results[i] ??= { ...baseOf(s), status: 'skipped', reason: notRun, checks: [], exchanges: [], at: since(), ms: 0 }),
  );
  const totals: Record<ScenarioStatus, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const r of results) totals[r.status] += 1;
  const warnings = warningTotals(results);
  const findings = attachFindings(results);
  const keys = keyVariables(results);
  return {
    target: opts.target.baseUrl,
    featureLevel: opts.target.featureLevel,
    targetKind: opts.target.control ? 'mock' : 'server',
    startedAt: startedAt.toISOString(),
    ms: Math.round(performance.now() - started),
    tiers: [...(opts.tiers ?? ['spec'])],
    strictReference: opts.strictReference === true,
    ...(warnings ? { warnings } : {}),
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    scenarios: results,
    rules: coverage(opts.catalogue, results),
    totals,
    findings,
    ...(keys.length > 0 ? { keys } : {}),
    ...(stopped ? { stopped } : {}),
  };
}

/** A reason not to run the scenario against this target, or null. */
function skipReason(opts: RunOptions, s: Scenario<unknown, unknown>): string | null {
  const { target } = opts;
  const world = target.world;
  const missingRole = s.requires?.roles?.find((r) => !world.credentials[r]);
  if (missingRole) return `the world file has no ${missingRole}`;
  const missingChannel = s.requires?.channels?.find((c) => !world.channels[c]);
  if (missingChannel) return `the world file has no ${missingChannel} channel`;
  const noPassword = s.requires?.passwords?.find((r) => !(world.credentials[r] as { password?: string } | undefined)?.password);
  if (noPassword) return `the world file has no password for ${noPassword}`;
  if (s.slow && !opts.slow) return 'waits in real time: run with --slow';
  if (s.requires?.control && !target.control && !opts.slow)
    return "needs the mock's control API to move the clock (run with --slow to wait in real time)";
  if (s.destructive && !target.control && !opts.allowDestructive) return 'destructive: run with --allow-destructive';
  const level = s.requires?.level;
  if (level && !target.control) {
    if ('from' in level && target.featureLevel < levelOf(level.from))
      return `checks servers at feature level ${levelOf(level.from)} (${level.from}) or later; the target is at ${target.featureLevel}`;
    if ('below' in level && target.featureLevel >= levelOf(level.below))
      return `checks servers older than feature level ${levelOf(level.below)} (${level.below}); the target is at ${target.featureLevel}`;
  }
  return null;
}

/** The feature level of the scenario's own realm on the mock: the side of the boundary it checks. */
function realmLevel(s: Scenario<unknown, unknown>): number | undefined {
  const level = s.requires?.level;
  if (!level) return undefined;
  return 'from' in level ? levelOf(level.from) : levelOf(level.below) - 1;
}

/**
 * Realms at a feature level shared by the scenarios that need only the level (not isolation, the clock or
 * destructive changes): they change nothing realm-wide, so one realm per level serves them all and the
 * run creates far fewer realms (each costs the mock a fixture generation).
 */
class SharedRealms {
  #byLevel = new Map<number, Promise<IsolatedRealm>>();
  constructor(private readonly target: Target) {}

  get(level: number): Promise<IsolatedRealm> {
    let realm = this.#byLevel.get(level);
    if (!realm) {
      realm = this.target.createRealm(level);
      this.#byLevel.set(level, realm);
    }
    return realm;
  }

  async close(): Promise<void> {
    for (const realm of this.#byLevel.values()) await realm.then((r) => this.target.deleteRealm(r.realmId)).catch(() => undefined);
  }
}

const baseOf = (s: Scenario<unknown, unknown>) => ({
  id: s.id,
  area: areaOf(s.id),
  title: s.title,
  rules: [...s.rules],
  tags: [...(s.tags ?? [])],
});

async function runOne(
  opts: RunOptions,
  s: Scenario<unknown, unknown>,
  prefix: string,
  shared: SharedRealms,
  reach: Reachability,
  gate: Gate,
  since: () => number,
): Promise<ScenarioResult> {
  const base = baseOf(s);
  const skip = skipReason(opts, s);
  if (skip) return { ...base, status: 'skipped', reason: skip, checks: [], exchanges: [], at: since(), ms: 0 };
  // Its start is when the gate lets it in, so that area times stay wall-clock spans.
  return gate.run(runsAlone(s, opts.target.control), () => runAdmitted(opts, s, base, prefix, shared, reach, since()));
}

async function runAdmitted(
  opts: RunOptions,
  s: Scenario<unknown, unknown>,
  base: ReturnType<typeof baseOf>,
  prefix: string,
  shared: SharedRealms,
  reach: Reachability,
  at: number,
): Promise<ScenarioResult> {
  const started = performance.now();
  const exchanges: Exchange[] = [];
  const client = new ApiClient(opts.target.baseUrl, (x) => exchanges.push(x) - 1);
  let realm: IsolatedRealm | null = null;
  let ownRealm = false;
  let status: ScenarioStatus = 'passed';
  let reason: string | undefined;
  let ctx: ScenarioContext | null = null;
  // The world's fixtures before a scenario that may change them in the world everyone shares (see dsl.ts `serial`).
  let fixtures: FixtureState | null = null;
  let gone = false;
  try {
    ownRealm = Boolean(opts.target.control && (s.isolated || s.destructive || s.requires?.control));
    const level = realmLevel(s);
    // A realm of its own is at the level the scenario needs, else at the target's: a run against a server at 300
    // tests every scenario at 300, the isolated ones included.
    if (ownRealm) realm = await phase('given', () => opts.target.createRealm(level ?? opts.target.featureLevel));
    else if (opts.target.control && level !== undefined) realm = await phase('given', () => shared.get(level));
    if (!ownRealm && runsAlone(s, opts.target.control))
      fixtures = await phase('given', () => readFixtures(opts.target.baseUrl, realm?.world ?? opts.target.world));
    ctx = new ScenarioContext({
      client,
      world: realm?.world ?? opts.target.world,
      featureLevel: realm?.featureLevel ?? opts.target.featureLevel,
      target: opts.target,
      realmId: realm?.realmId ?? (opts.target.control ? 'demo' : null),
      runPrefix: prefix,
      slow: opts.slow,
      requestOf: (i) => (exchanges[i] ? `${exchanges[i].method} ${exchanges[i].path}` : undefined),
    });
    const given = s.given ? await phase('given', () => s.given!(ctx!)) : undefined;
    const result = await phase('when', () => s.when(ctx!, given));
    await phase('then', () => s.then(ctx!, result, given));
  } catch (e) {
    const err = e as Error & { phase?: string };
    gone = isTransportError(err) && (await reach.isGone(err));
    status = 'error';
    const during = err.phase === undefined || err.phase === 'given' ? 'could not set up' : err.phase;
    if (isTransportError(err)) reason = `the target did not answer: ${err.message}`;
    else if (e instanceof SetupError || e instanceof TargetError) reason = `${during}: ${err.message}`;
    // Scenario code throws nothing else on purpose: anything else is an answer it could not read. Named by
    // that answer, never by the JavaScript error it caused (a stub answering `{}` must not read as a crash).
    else reason = `${during}: ${unreadable(exchanges)}`;
  } finally {
    // Undoing changes on a target that went away would only add a failed request per change.
    if (!gone) await ctx?.cleanup();
    if (realm && ownRealm) await opts.target.deleteRealm(realm.realmId).catch(() => undefined);
  }
  // Cut short by the target going away: not a verdict on the scenario's rules.
  if (gone)
    return {
      ...base,
      status: 'skipped',
      reason: NOT_RUN_UNREACHABLE,
      checks: [],
      exchanges,
      at,
      ms: Math.round(performance.now() - started),
    };
  if (fixtures) {
    // Whatever the scenario left changed is put back, so that no other scenario depends on this one.
    const world = realm?.world ?? opts.target.world;
    const left = await restoreFixtures(opts.target.baseUrl, world, fixtures).catch((e: Error) => [
      `could not read them back: ${e.message}`,
    ]);
    if (left.length > 0) {
      const note = `left the world's shared fixtures changed and could not put them back: ${left.join('; ')}`;
      [status, reason] = ['error', reason ? `${reason}; ${note}` : note];
    }
  }
  // Answers are judged by the schema of the level the scenario ran at (its realm's, else the target's).
  const level = realm?.featureLevel ?? opts.target.featureLevel;
  const checks = sourcedAndWeighed([...(ctx?.checks ?? []), ...ambientChecks(exchanges, opts.schemas, level)], s, exchanges, opts);
  if (status === 'passed' && failures(checks).length > 0) status = 'failed';
  // A failed reference-only check is still a check made (a warning), not a scenario without one.
  if (status === 'passed' && !checks.some((c) => c.ok || c.warning)) {
    status = 'error';
    reason = 'the scenario made no check';
  }
  return { ...base, status, ...(reason ? { reason } : {}), checks, exchanges, at, ms: Math.round(performance.now() - started) };
}

async function phase<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    (err as Error & { phase?: string }).phase ??= name;
    throw err;
  }
}

/** What a scenario could not go on from: the last answer it had, in a few words. */
function unreadable(exchanges: readonly Exchange[]): string {
  const last = exchanges.at(-1);
  if (!last) return 'the scenario stopped before its first request (a fault of the suite: please report it)';
  const body = typeof last.body === 'string' ? last.body : (JSON.stringify(last.body) ?? '');
  const shown = body.length > 160 ? `${body.slice(0, 157)}...` : body;
  return `the scenario could not use the answers it got (the last: ${last.method} ${last.path} answered ${last.status} ${shown})`;
}

/** Rule coverage: a rule counts as covered when at least one passing scenario made a passing check of it. */
function coverage(catalogue: readonly RuleDef[], results: readonly ScenarioResult[]): RuleCoverage[] {
  return catalogue.map((rule) => {
    const passed: string[] = [];
    const failed: string[] = [];
    for (const r of results) {
      if (!r.rules.includes(rule.id)) continue;
      // A rule counts for a scenario only where it made a check of that rule: naming a rule is not testing it.
      const checked = r.checks.some((c) => c.rule === rule.id && c.ok);
      if (r.status === 'passed' && checked) passed.push(r.id);
      else if (r.status === 'failed' || r.status === 'error') failed.push(r.id);
    }
    const source = ruleSource(rule);
    return {
      id: rule.id,
      section: rule.section,
      text: rule.text,
      ...(rule.tier === 'companion' ? { tier: rule.tier } : {}),
      ...(source ? { source } : {}),
      passed,
      failed,
    };
  });
}
