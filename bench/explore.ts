import { loadContract, ResponseSchemas } from '../conformance/src/openapi.js';
import { explore } from '../conformance/src/explore/run.js';
import { Target } from '../conformance/src/target.js';
import { cpuMsOfStat, readOr } from './fanout-stats.js';
import { startMock, stop } from './spawn.js';

/**
 * The explore figure: `teamchat conform --explore`'s engine against the compiled mock (a child process, as the
 * other rows), for BENCH_EXPLORE_SECONDS (15) with a fixed seed and every tier, 4 actors: steps per second with
 * every oracle after every step (fresh registers for the actors each step judges, and for all at each sequence's
 * end), sequences, and the CPU seconds of each side (steadier than wall time on a shared machine). Like every
 * server of the bench, the mock runs pinned to one core and this process to the other: on a loaded machine that
 * costs explore more than the throughput rows (one run read 26 steps/s pinned against 49 for the CLI unpinned). A finding ends exploring early; the row says so,
 * since its figure then covers fewer steps. `npm run bench -- --explore` runs this row alone.
 */
export const EXPLORE_SECONDS = Number(process.env.BENCH_EXPLORE_SECONDS ?? 15);
export const EXPLORE_SEED = 20_261_127;
const USERS = 4;

export interface ExploreFigure {
  seconds: number;
  sequences: number;
  steps: number;
  stepsPerSecond: number;
  /** CPU time (ms) of the mock and of this process (explore, its oracles and reducers) during the run. */
  serverCpuMs: number | null;
  clientCpuMs: number;
  /** The first finding's rule and message, when the run found one. */
  finding: string | null;
  /** Why the run ended before its time, when it did (a world it could not build, a signal). */
  stopped: string | null;
  /** The oracle checks that held, in all. */
  oracleChecks: number;
}

export async function exploreFigure(dir: string): Promise<ExploreFigure> {
  const [api, schemas] = await Promise.all([loadContract(), ResponseSchemas.load()]);
  const server = await startMock(['--in-memory', '--zuliprc-dir', dir]);
  try {
    const target = await Target.connect(server.url);
    const serverCpu = () => cpuMsOfStat(readOr(`/proc/${server.child.pid}/stat`));
    const serverBefore = serverCpu();
    const clientBefore = process.cpuUsage();
    const result = await explore({
      target,
      api,
      schemas,
      tiers: ['spec', 'companion'],
      seed: EXPLORE_SEED,
      users: USERS,
      durationMs: EXPLORE_SECONDS * 1000,
    });
    const client = process.cpuUsage(clientBefore);
    const serverAfter = serverCpu();
    const f = result.findings[0];
    return {
      seconds: result.ms / 1000,
      sequences: result.sequences,
      steps: result.steps,
      stepsPerSecond: result.stepsPerSecond,
      serverCpuMs: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
      clientCpuMs: Math.round((client.user + client.system) / 1000),
      finding: f ? `${f.rule}: ${f.message.slice(0, 160)} (shrunk to ${f.steps.length} steps)` : null,
      stopped: result.stopped?.message.slice(0, 200) ?? null,
      oracleChecks: Object.values(result.oracles).reduce((a, b) => a + b, 0),
    };
  } finally {
    await stop(server);
  }
}

/** The figure as a row of the bench table. */
export function exploreRow(f: ExploreFigure): { figure: string; mock: string; baseline: string; ratio: string; target: string } {
  const cpu = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
  return {
    figure: `conform --explore against the mock (seed ${EXPLORE_SEED}, every tier, ${USERS} actors, ${EXPLORE_SECONDS} s; oracles included)`,
    mock:
      `${f.stepsPerSecond} steps/s: ${f.steps} steps in ${f.sequences} sequences, ${f.oracleChecks} oracle checks held, ${f.seconds.toFixed(1)} s; ` +
      `CPU: mock ${cpu(f.serverCpuMs)}, explore ${cpu(f.clientCpuMs)}${f.finding ? `; stopped early by a finding: ${f.finding}` : ''}${f.stopped ? `; stopped early: ${f.stopped}` : ''}`,
    baseline: '',
    ratio: '',
    target: '≥ 50 steps/s',
  };
}
