import { loadRules } from './catalogue.js';
import type { RunResult, ScenarioResult } from './model.js';
import { ResponseSchemas } from './openapi.js';
import { withDefaults, type RunChoices } from './options.js';
import { selectRun } from './selection.js';
import { startProxy as startInternalProxy } from './proxy/proxy.js';
import { runScenarios } from './runner.js';
import { failureLimit } from './stopped.js';
import { Target } from './target.js';

/**
 * The suite's programmatic entry (`import { runConformance } from 'teamchat-kit/conformance'`): the run that
 * `teamchat conform` makes, for a test runner that wants the results as data rather than an exit code and
 * report files (render those with the exported reporters). Like the CLI, it judges a server over HTTP only,
 * and takes the CLI's choices with the same defaults (options.ts): the spec tier unless `tiers` says otherwise,
 * failed reference-only checks as warnings unless `strictReference`.
 */
export interface ConformanceOptions extends RunChoices {
  /** Base URL of the server under test, without `/api/v1`. */
  target: string;
  /** Aborting it stops the run as SIGINT stops the CLI's: the scenarios under way finish, the rest are not run. */
  signal?: AbortSignal;
  onScenarioEnd?(result: ScenarioResult, done: number, total: number): void;
}

/** Runs the selected scenarios against the target; rejects when the run cannot start (nothing selected, target). */
export async function runConformance(options: ConformanceOptions): Promise<RunResult> {
  const { SCENARIOS } = await import('../scenarios/index.js');
  const choices = withDefaults(options);
  const { scenarios, catalogue } = selectRun(SCENARIOS, await loadRules(), choices);
  const [schemas, target] = await Promise.all([
    ResponseSchemas.load(),
    Target.connect(options.target, choices.world, choices.controlToken),
  ]);
  return runScenarios({
    target,
    scenarios,
    catalogue,
    schemas,
    workers: choices.workers,
    slow: choices.slow,
    allowDestructive: choices.allowDestructive,
    strictReference: choices.strictReference,
    tiers: choices.tiers,
    ...(choices.seed === undefined ? {} : { seed: choices.seed }),
    ...failureLimit(choices),
    ...(options.onScenarioEnd ? { onScenarioEnd: options.onScenarioEnd } : {}),
    ...(options.signal ? { interrupt: options.signal } : {}),
  });
}

export type { Check, Finding, KeyVariable, RuleCoverage, RunResult, ScenarioResult, ScenarioStatus, Source, Tier } from './model.js';
export { RUN_DEFAULTS, type RunChoices } from './options.js';
export { sourceLabel } from './provenance.js';
export { renderHtml, renderJson, renderJUnit } from './report/index.js';

/** What `startProxy` takes: `teamchat proxy`'s options (docs/proxy.md). */
export interface ProxyOptions {
  /** Base URL of the server to forward to. */
  target: string;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Where violations are printed as they happen (default: nowhere). */
  out?: { write(text: string): unknown };
  color?: boolean;
  /** Also print a line for every exchange without a violation. */
  verbose?: boolean;
}

/** A running proxy: where clients connect instead of the target, and how to stop it and get the run. */
export interface RunningProxy {
  readonly url: string;
  /** Stops forwarding (open long-polls end), waits for the last verdicts, and returns the run. */
  stop(): Promise<RunResult>;
}

/**
 * `teamchat proxy` as a function: judge a client's own traffic to a server (docs/proxy.md). Its
 * types are this module's own, so the published declarations reach none of the proxy's internals (nor the
 * JSON import behind them, which NodeNext consumers refuse in a declaration).
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const proxy = await startInternalProxy(options);
  return { url: proxy.url, stop: () => proxy.stop() };
}
