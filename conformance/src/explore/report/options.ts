import { CommanderError, InvalidArgumentError, type Command } from 'commander';
import type { Tier } from '../../model.js';
import { isFileReporter, type FileReporterName, type ReporterName } from '../../report/index.js';
import { ACTOR_ROLES } from '../actors.js';

/**
 * The options `teamchat conform` takes for `--explore`, and the combinations it refuses: options of the
 * scripted run make no sense for a random one (and the reverse), and a replay's script decides its own steps.
 * Light on purpose: cli.ts loads it for every run; the explore engine (fast-check) only with --explore.
 */

/** The default budget when neither --duration nor --steps is given. */
export const DEFAULT_DURATION_MS = 60_000;
export const DEFAULT_USERS = 4;

/** `--duration`: `90`, `90s`, `2m`, `1500ms`, `1h` (a number alone is seconds). */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m?.[2] ?? 's'] ?? 1000;
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!(ms >= 1)) throw new InvalidArgumentError('Must be a time such as 60s, 2m or 1500ms.');
  return ms;
}

/** `--users`: how many actors, 2 to the number of roles explore knows. */
export function parseUsers(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 2 || n > ACTOR_ROLES.length)
    throw new InvalidArgumentError(`Must be an integer from 2 to ${ACTOR_ROLES.length} (${ACTOR_ROLES.join(', ')}).`);
  return n;
}

export interface ExploreChoices {
  seed?: number;
  durationMs?: number;
  steps?: number;
  users: number;
  tiers: Tier[];
  replay?: string;
  reportDir: string;
  /** The file reporters asked for; `console` apart. */
  files: FileReporterName[];
  console: boolean;
}

const parseSteps = (text: string): number => {
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw new InvalidArgumentError('Must be a positive integer.');
  return Number(text);
};

export function addExploreOptions(cmd: Command): Command {
  return cmd
    .option('--explore', 'random, valid operation sequences judged by invariants (README "Explore"), instead of the scenarios')
    .option('--duration <time>', 'with --explore: how long to explore, e.g. 60s, 2m (default 60s, or none with --steps)', parseDuration)
    .option('--steps <n>', 'with --explore: stop after n steps (with --duration: whichever comes first)', parseSteps)
    .option('--users <k>', 'with --explore: how many actors (world roles) act, 2 to 7', parseUsers, DEFAULT_USERS)
    .option('--replay <file>', 'with --explore: rerun a finding script (explore-finding.json) on a fresh world instead of exploring');
}

/** Options of the scripted run, refused with --explore (the attribute name, the flag). */
const SCENARIO_ONLY: [string, string][] = [
  ['grep', '--grep'],
  ['tags', '--tags'],
  ['rules', '--rules'],
  ['workers', '--workers'],
  ['slow', '--slow'],
  ['allowDestructive', '--allow-destructive'],
  ['strictReference', '--strict-reference'],
  ['shuffle', '--shuffle'],
  ['bail', '--bail'],
  ['maxFailures', '--max-failures'],
];
const EXPLORE_ONLY: [string, string][] = [
  ['duration', '--duration'],
  ['steps', '--steps'],
  ['users', '--users'],
  ['replay', '--replay'],
];
/** What a replay takes from its script, so the command line may not say otherwise. */
const NOT_WITH_REPLAY: [string, string][] = [
  ['duration', '--duration'],
  ['steps', '--steps'],
  ['users', '--users'],
  ['seed', '--seed'],
  ['tier', '--tier'],
];

/** The usage problem of this command line's explore options, or null. */
export function exploreMisuse(cmd: Command): string | null {
  const given = (list: [string, string][]) => list.filter(([key]) => cmd.getOptionValueSource(key) === 'cli').map(([, flag]) => flag);
  const opts = cmd.opts<{ explore?: boolean; replay?: string }>();
  if (!opts.explore) {
    const wrong = given(EXPLORE_ONLY);
    return wrong.length > 0 ? `${wrong.join(', ')} only make${wrong.length === 1 ? 's' : ''} sense with --explore` : null;
  }
  const scripted = given(SCENARIO_ONLY);
  if (scripted.length > 0)
    return `${scripted.join(', ')} ${scripted.length === 1 ? 'is an option' : 'are options'} of the scenarios, not of --explore`;
  if (opts.replay !== undefined) {
    const fixed = given(NOT_WITH_REPLAY);
    if (fixed.length > 0)
      return `${fixed.join(', ')}: a --replay runs its script's steps as its script's actors on every tier; leave ${fixed.length === 1 ? 'it' : 'them'} out`;
  }
  return null;
}

/** Tells the usage problem as commander tells its own (the hint after it); true when there was one. */
export function refusedExploreMisuse(cmd: Command): boolean {
  const misuse = exploreMisuse(cmd);
  if (!misuse) return false;
  try {
    cmd.error(misuse, { exitCode: 2, code: 'teamchat.usage' });
  } catch (e) {
    // With exitOverride (cli/common.ts usageConventions), error() throws instead of ending the process.
    if (!(e instanceof CommanderError)) throw e;
  }
  return true;
}

/** The explore choices of the parsed command line. */
export function exploreChoicesOf(opts: {
  seed?: number;
  duration?: number;
  steps?: number;
  users: number;
  tier: Tier[];
  replay?: string;
  reportDir: string;
  reporter: ReporterName[];
}): ExploreChoices {
  return {
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    ...(opts.duration === undefined ? {} : { durationMs: opts.duration }),
    ...(opts.steps === undefined ? {} : { steps: opts.steps }),
    users: opts.users,
    tiers: opts.tier,
    ...(opts.replay === undefined ? {} : { replay: opts.replay }),
    reportDir: opts.reportDir,
    files: opts.reporter.filter(isFileReporter),
    console: opts.reporter.includes('console'),
  };
}
