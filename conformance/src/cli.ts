import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Scenario } from './dsl.js';
import type { RuleDef } from './model.js';
import { ResponseSchemas } from './openapi.js';
import { ConsoleReporter, FILE_REPORTERS, isFileReporter, isReporterName, REPORTER_NAMES, type Output, type ReporterName } from './report/index.js';
import { runScenarios, selectScenarios } from './runner.js';
import { randomSeed } from './schedule.js';
import { Target } from './target.js';
import { loadWorld } from './world.js';

/**
 * `teamchat conform`: runs the scenarios against a target URL and writes the reports (issue 7, "CLI and
 * reports"). Exit codes for CI: 0 every scenario passed (skips allowed), 1 a scenario failed or
 * errored, 2 the run could not start (bad option, world file, unreachable target, nothing selected).
 */

type AnyScenario = Scenario<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface CliDeps {
  /** The scenarios to choose from (default: conformance/scenarios/index.ts). */
  scenarios?: readonly AnyScenario[];
  /** The rule catalogue (default: loadCatalogue()). */
  catalogue?: readonly RuleDef[];
  /** Response schemas of openapi/ (default: loaded from the document; tests pass one to save the parse). */
  schemas?: ResponseSchemas;
  stdout?: Output;
  stderr?: Output;
}

interface Options {
  target?: string;
  world?: string;
  grep?: RegExp;
  tags?: string[];
  rules?: string[];
  workers: number;
  slow?: boolean;
  allowDestructive?: boolean;
  shuffle?: boolean;
  seed?: number;
  reporter: ReporterName[];
  reportDir: string;
}

export const EXIT = { passed: 0, failed: 1, cannotStart: 2 } as const;

class StartError extends Error {}

const list = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

function program(out: Output, err: Output): Command {
  return new Command('teamchat conform')
    .description('run the conformance suite against a Team Chat server')
    .addOption(new Option('--target <url>', 'base URL of the server (default: the world file base_url)').argParser(parseUrl))
    .option('--world <file>', "world file describing the target (default: the mock's demo realm, or fixtures/world.demo.json)")
    .option('--grep <regex>', 'only scenarios whose ID or title matches', parseRegex)
    .option('--tags <list>', 'only scenarios with one of these tags or areas (comma-separated)', list)
    .option('--rules <list>', 'only scenarios checking these rules or rule prefixes (comma-separated, e.g. R4.8,R7-1)', list)
    .option('--workers <n>', 'scenarios run in parallel', parseWorkers, 4)
    .option('--slow', 'run scenarios that wait in real time (servers without the control API)')
    .option('--allow-destructive', 'run destructive scenarios against a real server')
    .option('--shuffle', 'run the scenarios in a random order (the seed is printed and recorded in the reports)')
    .option('--seed <n>', 'the order of --shuffle, to repeat a run (implies --shuffle)', parseSeed)
    .addOption(new Option('--reporter <list>', `reporters, comma-separated: ${REPORTER_NAMES.join(', ')}`).argParser(parseReporters).default([...REPORTER_NAMES], REPORTER_NAMES.join(',')))
    .option('--report-dir <dir>', 'where the report files go', 'reports/conformance')
    .addHelpText('after', '\nExit codes: 0 all passed (skips allowed), 1 a scenario failed or errored, 2 the run could not start.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void out.write(s), writeErr: (s) => void err.write(s) })
    .showHelpAfterError('(run teamchat conform --help for the options)');
}

function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be an http or https URL.');
  return text;
}

function parseRegex(text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (e) {
    throw new InvalidArgumentError(`not a valid regular expression (${(e as Error).message}).`);
  }
}

function parseWorkers(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('must be a positive integer.');
  return Number(text);
}

function parseSeed(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new InvalidArgumentError('must be a non-negative integer.');
  return Number(text);
}

function parseReporters(text: string): ReporterName[] {
  const names = list(text);
  const unknown = names.filter((n) => !isReporterName(n));
  if (unknown.length > 0 || names.length === 0) throw new InvalidArgumentError(`unknown reporter ${unknown.join(', ') || '(none)'}; choose from ${REPORTER_NAMES.join(', ')}.`);
  return [...new Set(names)] as ReporterName[];
}

/** Runs `teamchat conform` with the arguments after `teamchat` (a leading `conform` is optional); resolves to the exit code. */
export async function main(argv: readonly string[], deps: CliDeps = {}): Promise<number> {
  const out = deps.stdout ?? process.stdout;
  const err = deps.stderr ?? process.stderr;
  const args = argv[0] === 'conform' ? argv.slice(1) : [...argv];
  let opts: Options;
  try {
    opts = program(out, err).parse(args, { from: 'user' }).opts<Options>();
  } catch (e) {
    // Commander has already printed the problem (or the help, which is not an error).
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.passed : EXIT.cannotStart;
    throw e;
  }
  let plan: Plan;
  try {
    plan = await prepare(opts, deps, err);
  } catch (e) {
    // Anything before the first scenario (world file, target, catalogue, report directory) means no run.
    err.write(`teamchat conform: ${(e as Error).message}\n`);
    return EXIT.cannotStart;
  }
  return execute(opts, plan, out);
}

interface Plan {
  target: Target;
  scenarios: AnyScenario[];
  catalogue: readonly RuleDef[];
  schemas: ResponseSchemas;
  reportDir: string;
}

async function prepare(opts: Options, deps: CliDeps, err: Output): Promise<Plan> {
  const all = deps.scenarios ?? (await import('../scenarios/index.js')).SCENARIOS;
  const catalogue = deps.catalogue ?? (await (await import('./catalogue.js')).loadCatalogue());
  const known = new Set(catalogue.map((r) => r.id));
  const matchesRule = (prefix: string, id: string) => id === prefix || id.startsWith(`${prefix}-`) || id.startsWith(`${prefix}.`);
  const unknownRules = (opts.rules ?? []).filter((p) => !catalogue.some((r) => matchesRule(p, r.id)));
  if (unknownRules.length > 0) throw new StartError(`--rules: no rule of the catalogue matches ${unknownRules.join(', ')}`);
  // A scenario naming a rule the catalogue lacks would never count towards coverage: say so, but run.
  const strays = [...new Set(all.flatMap((s) => s.rules.filter((r) => !known.has(r))))];
  if (strays.length > 0) err.write(`teamchat conform: warning: scenarios name rules missing from the catalogue: ${strays.join(', ')}\n`);

  const scenarios = selectScenarios(all, { ...(opts.grep ? { grep: opts.grep } : {}), tags: opts.tags ?? [], rules: opts.rules ?? [] });
  if (scenarios.length === 0) throw new StartError(`no scenario matches the filters (${all.length} scenarios in all)`);

  const url = opts.target ?? (opts.world ? (await loadWorld(opts.world)).base_url : undefined);
  if (!url) throw new StartError('--target is required (or a --world file with base_url)');
  const reportDir = resolve(opts.reportDir);
  if (opts.reporter.some(isFileReporter)) {
    // Made before the run, so an unusable directory stops it early rather than losing the results.
    await mkdir(reportDir, { recursive: true }).catch((e: Error) => {
      throw new StartError(`cannot create the report directory ${reportDir}: ${e.message}`);
    });
  }
  const target = await Target.connect(url, opts.world);
  const schemas = deps.schemas ?? (await ResponseSchemas.load());
  return { target, scenarios, catalogue, schemas, reportDir };
}

async function execute(opts: Options, plan: Plan, out: Output): Promise<number> {
  const consoleReporter = opts.reporter.includes('console') ? new ConsoleReporter(out) : null;
  const seed = opts.seed ?? (opts.shuffle ? randomSeed() : undefined);
  if (seed !== undefined && consoleReporter) out.write(`shuffled with seed ${seed} (repeat this order with --seed ${seed})\n`);
  consoleReporter?.start({ target: plan.target.baseUrl, featureLevel: plan.target.featureLevel, targetKind: plan.target.control ? 'mock' : 'server', scenarios: plan.scenarios.length, workers: opts.workers });
  const run = await runScenarios({
    target: plan.target,
    scenarios: plan.scenarios,
    catalogue: plan.catalogue,
    schemas: plan.schemas,
    workers: opts.workers,
    slow: opts.slow === true,
    allowDestructive: opts.allowDestructive === true,
    ...(seed === undefined ? {} : { seed }),
    onScenarioEnd: (result, done, total) => consoleReporter?.progress(result, done, total),
  });
  consoleReporter?.end(run);
  for (const name of opts.reporter.filter(isFileReporter)) {
    const { file, render } = FILE_REPORTERS[name];
    const path = join(plan.reportDir, file);
    await writeFile(path, render(run));
    out.write(`${name} report: ${path}\n`);
  }
  return run.totals.failed + run.totals.error > 0 ? EXIT.failed : EXIT.passed;
}

/** Run directly (`tsx conformance/src/cli.ts conform …`); bin/teamchat.js imports main instead. */
if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      // A bug of the suite itself, not a verdict on the target.
      console.error(e);
      process.exitCode = EXIT.cannotStart;
    },
  );
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
