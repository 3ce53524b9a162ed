import { request } from 'undici';
import type { RunResult, RunStop } from './model.js';

/**
 * Runs that end early (docs/conformance.md): a run that cannot start still yields a RunResult the
 * reporters write (one `error` case with the reason), and a target that stops answering ends the run
 * with one line instead of an error per remaining scenario; so does an interrupted run (runner.ts `interrupt`).
 */

/** The skip reason of scenarios a run left when its target stopped answering. */
export const NOT_RUN_UNREACHABLE = 'not run: target unreachable';

/** The skip reason of scenarios a run left when it was interrupted (SIGINT, SIGTERM). */
export const NOT_RUN_INTERRUPTED = 'not run: the run was interrupted';

/** The skip reason of scenarios a run left once it had as many failures as --bail or --max-failures allow. */
export const NOT_RUN_MAX_FAILURES = 'not run: the run stopped at its failure limit (--bail, --max-failures)';

/** A run ended by its failure limit: it counts as failed, not as one that could not start (cli.ts). */
export function failureLimitStop(failures: number, limit: number): RunStop {
  const option = limit === 1 ? '--bail' : `--max-failures ${limit}`;
  return { kind: 'max-failures', message: `stopped after ${failures} failed scenario${failures === 1 ? '' : 's'} (${option})` };
}

/** The skip reason of the scenarios a run that stopped early left. */
export function notRunReason(stopped: RunStop | null): string {
  if (stopped?.kind === 'interrupted') return NOT_RUN_INTERRUPTED;
  return stopped?.kind === 'max-failures' ? NOT_RUN_MAX_FAILURES : NOT_RUN_UNREACHABLE;
}

/** `bail` (CLI `--bail`) is a limit of one failure; with both, the smaller limit holds. */
export function failureLimit(opts: { bail?: boolean; maxFailures?: number }): { maxFailures?: number } {
  const limits = [...(opts.bail ? [1] : []), ...(opts.maxFailures === undefined ? [] : [opts.maxFailures])];
  return limits.length > 0 ? { maxFailures: Math.min(...limits) } : {};
}

/** The scenarios a run left without running them, for any of these reasons. */
export const isNotRun = (reason: string | undefined): boolean =>
  reason === NOT_RUN_UNREACHABLE || reason === NOT_RUN_INTERRUPTED || reason === NOT_RUN_MAX_FAILURES;

/** The run of a `teamchat conform` that could not start: one case, an error with the reason. */
export function notStartedRun(reason: string, target: string | undefined, startedAt: Date, ms: number): RunResult {
  return {
    target: target ?? '(none)',
    featureLevel: null,
    targetKind: 'server',
    startedAt: startedAt.toISOString(),
    ms,
    scenarios: [
      {
        id: 'run/start',
        area: 'run',
        title: 'the conformance run starts',
        rules: [],
        tags: [],
        status: 'error',
        reason: `the run could not start: ${reason}`,
        checks: [],
        exchanges: [],
        at: 0,
        ms,
      },
    ],
    rules: [],
    totals: { passed: 0, failed: 0, error: 1, skipped: 0 },
    stopped: { kind: 'not-started', message: reason },
  };
}

/** The target stopped answering (refused, reset, timed out): a broken run, not a verdict on a rule. */
export function isTransportError(e: unknown): boolean {
  for (
    let err = e as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    err && depth < 4;
    err = err.cause as typeof err, depth++
  ) {
    const code = err.code;
    if (
      typeof code === 'string' &&
      (code.startsWith('UND_ERR') ||
        code.startsWith('ECONN') ||
        code === 'EPIPE' ||
        code === 'ENOTFOUND' ||
        code === 'EHOSTUNREACH' ||
        code === 'ENETUNREACH')
    )
      return true;
  }
  return false;
}

/** How long the probe waits for any answer before it calls the target gone. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Tells one scenario's transport error (a long-poll that timed out) from a target that went away: after
 * a transport error it asks the target for anything (`GET /`, any status will do). Scenarios failing
 * at the same moment share one probe; once the target is gone it stays gone for the run.
 */
export class Reachability {
  #stop: RunStop | null = null;
  #probe: Promise<boolean> | null = null;

  constructor(private readonly baseUrl: string) {}

  /** Set once the target was found gone: the runner starts no further scenario. */
  get stop(): RunStop | null {
    return this.#stop;
  }

  /** Called with a scenario's transport error; true when the target no longer answers at all. */
  async isGone(error: Error): Promise<boolean> {
    if (this.#stop) return true;
    const since = new Date();
    this.#probe ??= this.#answers().finally(() => (this.#probe = null));
    if (await this.#probe) return false;
    this.#stop ??= {
      kind: 'target-unreachable',
      since: since.toISOString(),
      message: `target unreachable since ${since.toISOString().replace(/\.\d+Z$/, 'Z')} (${error.message})`,
    };
    return true;
  }

  async #answers(): Promise<boolean> {
    try {
      const res = await request(`${this.baseUrl}/`, { method: 'GET', headersTimeout: PROBE_TIMEOUT_MS, bodyTimeout: PROBE_TIMEOUT_MS });
      await res.body.dump();
      return true;
    } catch {
      return false;
    }
  }
}
