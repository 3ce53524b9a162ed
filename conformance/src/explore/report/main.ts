import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Tier } from '../../model.js';
import { loadContract, ResponseSchemas } from '../../openapi.js';
import type { Output } from '../../report/console.js';
import type { ReporterName } from '../../report/index.js';
import { Target } from '../../target.js';
import { loadWorld } from '../../world.js';
import { EXPLORE_EXIT, notStartedExplore, randomSeed, runExplore } from './command.js';
import { writeExploreReports } from './files.js';
import { exploreChoicesOf } from './options.js';

/** The parsed command line `teamchat conform --explore` acts on (cli.ts's options). */
export interface ExploreCommandLine {
  target?: string;
  world?: string;
  controlToken?: string;
  seed?: number;
  duration?: number;
  steps?: number;
  users: number;
  tier: Tier[];
  replay?: string;
  reportDir: string;
  reporter: ReporterName[];
}

/**
 * `teamchat conform --explore` once its options are known: the target and the document, then command.ts's run
 * or replay. A start that fails (world file, target, report directory) still writes its reports, exit code 2.
 */
export async function exploreMain(
  opts: ExploreCommandLine,
  io: { api?: OpenAPIV3_1.Document; schemas?: ResponseSchemas; out: Output; err: Output; interrupt: AbortSignal },
): Promise<number> {
  const choices = exploreChoicesOf(opts);
  const started = performance.now();
  const startedAt = new Date();
  try {
    const url = opts.target ?? (opts.world ? (await loadWorld(opts.world)).base_url : undefined);
    if (!url) throw new Error('--target is required (or a --world file with base_url)');
    if (choices.files.length > 0) {
      // Made before the run, so an unusable directory stops it early rather than losing a finding.
      const dir = resolve(choices.reportDir);
      await mkdir(dir, { recursive: true }).catch((e: Error) => {
        throw new Error(`cannot create the report directory ${dir}: ${e.message}`);
      });
    }
    const target = await Target.connect(url, opts.world, opts.controlToken || undefined);
    const [api, schemas] = await Promise.all([io.api ?? loadContract(), io.schemas ?? ResponseSchemas.load()]);
    if (io.interrupt.aborted) throw new Error(`interrupted by ${String(io.interrupt.reason)} before the first step`);
    return await runExplore({ target, api, schemas }, choices, io);
  } catch (e) {
    const reason = (e as Error).message;
    io.err.write(`teamchat conform: ${reason}\n`);
    const result = notStartedExplore(
      reason,
      opts.target,
      startedAt,
      Math.round(performance.now() - started),
      opts.seed ?? randomSeed(),
      opts.tier,
    );
    // A replay's script stays, even in the report directory: only a run that found nothing removes an old one.
    const context = choices.replay === undefined ? {} : { replayOf: choices.replay };
    await writeExploreReports(result, choices.files, choices.reportDir, io, context);
    return EXPLORE_EXIT.cannotStart;
  }
}
