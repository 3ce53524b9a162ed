import { loadCatalogue } from './catalogue.js';
import type { RunResult, ScenarioResult } from './model.js';
import { ResponseSchemas } from './openapi.js';
import { startProxy as startInternalProxy } from './proxy/proxy.js';
import { runScenarios, selectScenarios } from './runner.js';
import { failureLimit } from './stopped.js';
import { Target } from './target.js';

/**
 * The suite's programmatic entry (`import { runConformance } from 'teamchat-kit/conformance'`): the run that
 * `teamchat conform` makes, for a test runner that wants the results as data rather than an exit code and
 * report files (render those with the exported reporters). Like the CLI, it judges a server over HTTP only.
 */
export interface ConformanceOptions {
  /** Base URL of the server under test, without `/api/v1`. */
  target: string;
  /** World file describing the target (fixtures/README.md); the mock's demo realm needs none. */
  world?: string;
  /** Bearer token of the mock's control API, when it was started with one. */
  controlToken?: string;
  /** Scenarios whose ID or title match. */
  grep?: RegExp;
  /** Scenarios with one of these tags or areas. */
  tags?: string[];
  /** Scenarios checking these rules (IDs or prefixes of the catalogue). */
  rules?: string[];
  /** Scenarios run in parallel (default 4). */
  workers?: number;
  /** Also the scenarios that wait in real time on servers without the control API. */
  slow?: boolean;
  /** Also the scenarios that deactivate users or change roles on a real server. */
  allowDestructive?: boolean;
  /** Runs the scenarios in the order this seed gives. */
  seed?: number;
  /** Stop after the first failed scenario (`--bail`, the same as `maxFailures: 1`). */
  bail?: boolean;
  /**
   * Stop after this many failed or errored scenarios (`--max-failures`): those under way finish, the rest are
   * skipped as not run, and the result's `stopped` says so (kind `max-failures`).
   */
  maxFailures?: number;
  onScenarioEnd?(result: ScenarioResult, done: number, total: number): void;
}

/** Runs the selected scenarios against the target; rejects when the run cannot start (nothing selected, target). */
export async function runConformance(options: ConformanceOptions): Promise<RunResult> {
  const { SCENARIOS } = await import('../scenarios/index.js');
  const scenarios = selectScenarios(SCENARIOS, {
    ...(options.grep ? { grep: options.grep } : {}),
    tags: options.tags ?? [],
    rules: options.rules ?? [],
  });
  if (scenarios.length === 0) throw new Error(`no scenario matches the filters (${SCENARIOS.length} scenarios in all)`);
  const [catalogue, schemas, target] = await Promise.all([
    loadCatalogue(),
    ResponseSchemas.load(),
    Target.connect(options.target, options.world, options.controlToken),
  ]);
  return runScenarios({
    target,
    scenarios,
    catalogue,
    schemas,
    workers: options.workers ?? 4,
    slow: options.slow === true,
    allowDestructive: options.allowDestructive === true,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...failureLimit(options),
    ...(options.onScenarioEnd ? { onScenarioEnd: options.onScenarioEnd } : {}),
  });
}

export type { Finding, KeyVariable, RuleCoverage, RunResult, ScenarioResult, ScenarioStatus } from './model.js';
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
