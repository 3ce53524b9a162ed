import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OpenAPIV3_1 } from 'openapi-types';
import { isEntryPoint, parseArgs, parseHttpUrl, runAsProcess, usageConventions } from '../../cli/common.js';
import type { Scenario } from './dsl.js';
import { TIERS, type RuleDef, type RunResult, type Tier } from './model.js';
import { ResponseSchemas } from './openapi.js';
import { addExploreOptions, refusedExploreMisuse } from './explore/report/options.js';
import { RUN_DEFAULTS, tierName, withDefaults, type ResolvedChoices } from './options.js';
import { selectRun } from './selection.js';
import { ConsoleReporter, isFileReporter, isReporterName, REPORTER_NAMES, type Output, type ReporterName } from './report/index.js';
import { writeReportFiles } from './report/files.js';
import { runScenarios } from './runner.js';
import { onInterrupt, type SignalSource } from '../../cli/signals.js';
import { failureLimit, isNotRun, notStartedRun } from './stopped.js';
import { Target } from './target.js';
import { loadWorld } from './world.js';

/**
 * `teamchat conform`: runs the scenarios against a target URL and writes the reports (README "CLI").
 * Exit codes for CI: 0 every scenario passed (skips allowed), 1 a scenario failed or
 * errored (a run stopped by --bail or --max-failures too), 2 the run could not start (bad option, world file, unreachable target, nothing selected), its
 * target stopped answering, or it was interrupted (SIGINT, SIGTERM). Every run past its options writes its
 * report files, an interrupted one included, so the CI step that publishes them always finds the reason;
 * a usage error writes none, so a mistyped command leaves the last run's reports as they were.
 */

type AnyScenario = Scenario<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface CliDeps {
  /** The scenarios to choose from (default: conformance/scenarios/index.ts). */
  scenarios?: readonly AnyScenario[];
  /** The rules of every tier (default: loadRules(), the spec catalogue and the companion files). */
  catalogue?: readonly RuleDef[];
  /** Response schemas of openapi/ (default: loaded from the document; tests pass one to save the parse). */
  schemas?: ResponseSchemas;
  /** The dereferenced OpenAPI document, for --explore (default: loaded; tests pass one to save the parse). */
  api?: OpenAPIV3_1.Document;
  stdout?: Output;
  stderr?: Output;
  /** Where SIGINT and SIGTERM come from (tests pass an emitter); default: the process. */
  signals?: SignalSource;
  /** How a third signal ends the process (tests pass a spy); default: process.exit. */
  exit?: (code: number) => void;
  /** Milliseconds, for telling one key press from the next (tests pass a clock they move). */
  now?: () => number;
}

interface Options {
  target?: string;
  world?: string;
  controlToken?: string;
  grep?: RegExp;
  tags?: string[];
  rules?: string[];
  tier: Tier[];
  workers: number;
  slow?: boolean;
  allowDestructive?: boolean;
  strictReference?: boolean;
  shuffle?: boolean;
  seed?: number;
  reporter: ReporterName[];
  reportDir: string;
  bail?: boolean;
  maxFailures?: number;
  explore?: boolean;
  /** --duration in milliseconds. */
  duration?: number;
  steps?: number;
  users: number;
  replay?: string;
}

export const EXIT = { passed: 0, failed: 1, cannotStart: 2 } as const;

class StartError extends Error {}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const DEFAULT_REPORT_DIR = 'reports/conformance';

function program(out: Output, err: Output): Command {
  const cmd = usageConventions(new Command('teamchat conform'), { stdout: out, stderr: err })
    .description('run the conformance suite against a Team Chat server')
    .addOption(new Option('--target <url>', 'base URL of the server (default: the world file base_url)').argParser(parseHttpUrl))
    .option('--world <file>', "world file describing the target (default: the mock's demo realm, or fixtures/world.demo.json)")
    .addOption(
      new Option('--control-token <token>', "token of the mock's control API, when it has one (teamchat serve --control-token)").env(
        'TEAMCHAT_CONTROL_TOKEN',
      ),
    )
    .option('--grep <regex>', 'only scenarios whose ID or title matches', parseRegex)
    .option('--tags <list>', 'only scenarios with one of these tags or areas (comma-separated)', list)
    .option('--rules <list>', 'only scenarios checking these rules or rule prefixes (comma-separated, e.g. R4.8,R7-1)', list)
    .addOption(
      new Option(
        '--tier <tier>',
        "which tier of scenarios: spec (the spec's operations), companion (operations the spec does not list), or all",
      )
        .default([...RUN_DEFAULTS.tiers], tierName(RUN_DEFAULTS.tiers))
        .argParser(parseTier),
    )
    .option('--workers <n>', 'scenarios run in parallel', parseWorkers, RUN_DEFAULTS.workers)
    .option('--slow', 'run scenarios that wait in real time (servers without the control API)')
    .option('--allow-destructive', 'run destructive scenarios against a real server')
    .option(
      '--strict-reference',
      "fail scenarios on checks of what the reference server does and the spec leaves open (default: warnings, not counted; the companion tier's checks always count)",
    )
    .option('--shuffle', 'run the scenarios in a random order (the seed is printed and recorded in the reports)')
    .option(
      '--seed <n>',
      'the order of --shuffle, to repeat a run (implies --shuffle); with --explore: its random steps (default: random, printed)',
      parseSeed,
    )
    .option('--bail', 'stop after the first failed scenario (the same as --max-failures 1)')
    .option(
      '--max-failures <n>',
      'stop after n failed scenarios: those under way finish, the rest are not run, the reports are still written',
      parseWorkers,
    )
    .addOption(
      new Option('--reporter <list>', `reporters, comma-separated: ${REPORTER_NAMES.join(', ')}`)
        .argParser(parseReporters)
        .default([...REPORTER_NAMES], REPORTER_NAMES.join(',')),
    )
    .option('--report-dir <dir>', 'where the report files go', DEFAULT_REPORT_DIR);
  return addExploreOptions(cmd).addHelpText(
    'after',
    '\nExit codes: 0 all passed (skips allowed), 1 a scenario failed or errored (also when --bail or --max-failures stopped the run), 2 the run could not start, the target stopped answering, or it was interrupted (SIGINT/SIGTERM: the reports are still written).\nWith --explore: 0 no finding (a --replay that no longer fails), 1 a finding (a --replay that fails again), 2 as above.',
  );
}

function parseRegex(text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (e) {
    throw new InvalidArgumentError(`Not a valid regular expression (${(e as Error).message}).`);
  }
}

/** `--tier`: commander's `choices` would be replaced by a parser, so the choices are checked here. */
function parseTier(text: string): Tier[] {
  if (text === 'all') return [...TIERS];
  if ((TIERS as readonly string[]).includes(text)) return [text as Tier];
  throw new InvalidArgumentError(`Allowed choices are ${[...TIERS, 'all'].join(', ')}.`);
}

function parseWorkers(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('Must be a positive integer.');
  return Number(text);
}

function parseSeed(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new InvalidArgumentError('Must be a non-negative integer.');
  return Number(text);
}

function parseReporters(text: string): ReporterName[] {
  const names = list(text);
  const unknown = names.filter((n) => !isReporterName(n));
  if (unknown.length > 0 || names.length === 0)
    throw new InvalidArgumentError(`Unknown reporter ${unknown.join(', ') || '(none)'}; choose from ${REPORTER_NAMES.join(', ')}.`);
  return [...new Set(names)] as ReporterName[];
}

/** Runs `teamchat conform` with the arguments after `teamchat` (a leading `conform` is optional); resolves to the exit code. */
export async function main(argv: readonly string[], deps: CliDeps = {}): Promise<number> {
  const out = deps.stdout ?? process.stdout;
  const err = deps.stderr ?? process.stderr;
  const args = argv[0] === 'conform' ? argv.slice(1) : [...argv];
  const startedAt = new Date();
  const started = performance.now();
  const notStarted = async (reason: string, choice: Pick<Options, 'reportDir' | 'reporter'>, target?: string) => {
    await writeReports(notStartedRun(reason, target, startedAt, Math.round(performance.now() - started)), choice, out, err);
    return EXIT.cannotStart;
  };
  const command = program(out, err);
  const stop = await parseArgs(command, args);
  // Commander has printed the help, or the problem and the hint. No report: the last run's stay as they were.
  if (stop) return stop.code === 0 ? EXIT.passed : EXIT.cannotStart;
  const opts = command.opts<Options>();
  // Explore's options in a combination that makes no sense: said as commander says its usage errors; no report.
  if (refusedExploreMisuse(command)) return EXIT.cannotStart;
  // From here every end writes reports: a signal stops the run (the scenarios under way finish and put
  // back what they changed), and its reports are written before the process ends.
  const interrupt = new AbortController();
  const dispose = onInterrupt((signal) => interrupt.abort(signal), {
    name: 'teamchat conform',
    finishing: 'letting the scenarios under way put back what they changed, then writing the reports',
    forcedNote: 'no report written, and the scenarios under way did not put back what they changed',
    stderr: err,
    ...(deps.signals ? { signals: deps.signals } : {}),
    ...(deps.exit ? { exit: deps.exit } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  try {
    if (opts.explore) {
      // Loaded only here: the scripted run never parses the explore engine (fast-check).
      const { exploreMain } = await import('./explore/report/main.js');
      return await exploreMain(opts, { ...deps, out, err, interrupt: interrupt.signal });
    }
    let plan: Plan;
    try {
      plan = await prepare(opts, deps, err);
    } catch (e) {
      // Anything before the first scenario (world file, target, catalogue, report directory) means no run.
      err.write(`teamchat conform: ${(e as Error).message}\n`);
      return await notStarted((e as Error).message, opts, opts.target);
    }
    if (interrupt.signal.aborted) {
      const reason = `interrupted by ${String(interrupt.signal.reason)} before the first scenario`;
      err.write(`teamchat conform: ${reason}\n`);
      return await notStarted(reason, opts, plan.target.baseUrl);
    }
    return await execute(opts, plan, out, err, interrupt.signal);
  } finally {
    dispose();
  }
}

interface Plan {
  target: Target;
  scenarios: AnyScenario[];
  catalogue: readonly RuleDef[];
  schemas: ResponseSchemas;
}

/** The command line's choices as the library takes them (options.ts: one set of defaults for both). */
function choicesOf(opts: Options): ResolvedChoices {
  return withDefaults({
    ...(opts.world === undefined ? {} : { world: opts.world }),
    ...(opts.controlToken ? { controlToken: opts.controlToken } : {}),
    ...(opts.grep ? { grep: opts.grep } : {}),
    ...(opts.tags ? { tags: opts.tags } : {}),
    ...(opts.rules ? { rules: opts.rules } : {}),
    tiers: opts.tier,
    workers: opts.workers,
    slow: opts.slow === true,
    allowDestructive: opts.allowDestructive === true,
    strictReference: opts.strictReference === true,
    ...(opts.shuffle ? { shuffle: true } : {}),
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
  });
}

/** The choices `teamchat conform <argv>` makes, without running anything (what a library call compares to). */
export async function parseChoices(argv: readonly string[]): Promise<ResolvedChoices> {
  const silent = { write: () => true };
  const command = program(silent, silent);
  const stop = await parseArgs(command, argv);
  if (stop) throw new Error(`teamchat conform ${argv.join(' ')}: ${stop.message}`);
  return choicesOf(command.opts<Options>());
}

async function prepare(opts: Options, deps: CliDeps, err: Output): Promise<Plan> {
  const all = deps.scenarios ?? (await import('../scenarios/index.js')).SCENARIOS;
  const every = deps.catalogue ?? (await (await import('./catalogue.js')).loadRules());
  const { scenarios, catalogue, warnings } = selectRun(all, every, choicesOf(opts));
  for (const warning of warnings) err.write(`teamchat conform: warning: ${warning}\n`);

  const url = opts.target ?? (opts.world ? (await loadWorld(opts.world)).base_url : undefined);
  if (!url) throw new StartError('--target is required (or a --world file with base_url)');
  const reportDir = resolve(opts.reportDir);
  if (opts.reporter.some(isFileReporter)) {
    // Made before the run, so an unusable directory stops it early rather than losing the results.
    await mkdir(reportDir, { recursive: true }).catch((e: Error) => {
      throw new StartError(`cannot create the report directory ${reportDir}: ${e.message}`);
    });
  }
  const target = await Target.connect(url, opts.world, opts.controlToken || undefined);
  const schemas = deps.schemas ?? (await ResponseSchemas.load());
  return { target, scenarios, catalogue, schemas };
}

async function execute(opts: Options, plan: Plan, out: Output, err: Output, interrupt: AbortSignal): Promise<number> {
  const consoleReporter = opts.reporter.includes('console') ? new ConsoleReporter(out) : null;
  const { seed, strictReference } = choicesOf(opts);
  if (seed !== undefined && consoleReporter) out.write(`shuffled with seed ${seed} (repeat this order with --seed ${seed})\n`);
  consoleReporter?.start({
    target: plan.target.baseUrl,
    featureLevel: plan.target.featureLevel,
    targetKind: plan.target.control ? 'mock' : 'server',
    scenarios: plan.scenarios.length,
    workers: opts.workers,
    tiers: opts.tier,
  });
  const run = await runScenarios({
    target: plan.target,
    scenarios: plan.scenarios,
    catalogue: plan.catalogue,
    schemas: plan.schemas,
    workers: opts.workers,
    slow: opts.slow === true,
    allowDestructive: opts.allowDestructive === true,
    strictReference,
    tiers: opts.tier,
    ...(seed === undefined ? {} : { seed }),
    ...failureLimit(opts),
    onScenarioEnd: (result, done, total) => consoleReporter?.progress(result, done, total),
    interrupt,
  });
  consoleReporter?.end(run);
  if (run.stopped) {
    // One line for the whole outage, interrupt or failure limit; the scenarios it left are skipped as not run.
    const notRun = run.scenarios.filter((s) => isNotRun(s.reason)).length;
    err.write(`teamchat conform: ${run.stopped.message}; ${notRun} of ${run.scenarios.length} scenarios not run\n`);
  }
  // Reports CI cannot find make the run as unusable as one that did not start; so does a run cut short by the
  // target or a signal. A run stopped at its failure limit is a failed run.
  const cutShort = run.stopped !== undefined && run.stopped.kind !== 'max-failures';
  if (!(await writeReports(run, opts, out, err)) || cutShort) return EXIT.cannotStart;
  return run.totals.failed + run.totals.error > 0 ? EXIT.failed : EXIT.passed;
}

/** Writes the file reports asked for; false (and the reason on stderr) when they could not be written. */
const writeReports = (run: RunResult, choice: Pick<Options, 'reportDir' | 'reporter'>, out: Output, err: Output): Promise<boolean> =>
  writeReportFiles(run, choice.reporter.filter(isFileReporter), choice.reportDir, { out, err }, 'teamchat conform');

/** Run directly (`tsx conformance/src/cli.ts conform …`); cli/teamchat.ts imports main instead. */
if (isEntryPoint(import.meta.url)) void runAsProcess(main, process.argv.slice(2));
