import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  EXIT_USAGE,
  isEntryPoint,
  listenProblem,
  parseArgs,
  parseHttpUrl,
  parsePort,
  processIo,
  runAsProcess,
  usageConventions,
  type Io,
} from '../../../cli/common.js';
import { onEscapedErrors, onInterrupt, type SignalSource } from '../../../cli/signals.js';
import { writeReportFiles } from '../report/files.js';
import { FILE_REPORTERS, type FileReporterName } from '../report/index.js';
import { wantsColor } from './live.js';
import { startProxy, type RunningProxy } from './proxy.js';
import { UNJUDGED_CASE } from './recorder.js';

/**
 * `teamchat proxy --target URL`: a validating proxy. Clients talk to it instead of the
 * server; it forwards every request unchanged, prints each violation as it happens, and when it stops
 * (Ctrl-C, SIGTERM, --duration) writes `conform`'s HTML, JUnit and JSON reports. Exit codes: 0 no violation,
 * 1 a violation (or requests the target did not answer), 2 it could not start; 130/143 (128 + the signal) only
 * when a third Ctrl-C or SIGTERM cut the report writing short (cli/signals.ts).
 */
export interface ProxyDeps {
  /** Stops the proxy when aborted (tests; the CLI uses signals and --duration). */
  signal?: AbortSignal;
  /** Told the proxy's URL once it listens (tests). */
  onListening?(url: string): void;
  /** Where SIGINT and SIGTERM come from (tests pass an emitter); default: the process. */
  signals?: SignalSource;
  /** How a third signal ends the process (tests pass a spy); default: process.exit. */
  exit?: (code: number) => void;
  /** Milliseconds, for telling one key press from the next (tests pass a clock they move). */
  now?: () => number;
}

interface Options {
  target: string;
  host: string;
  port: number;
  reportDir: string;
  reporter: FileReporterName[];
  duration?: number;
  verbose?: boolean;
  color?: boolean;
}

const FILE_NAMES = Object.keys(FILE_REPORTERS) as FileReporterName[];

function program(io: Io): Command {
  return usageConventions(new Command('teamchat proxy'), io)
    .description('forward requests to a Team Chat server and check every exchange against the contract')
    .addOption(new Option('--target <url>', 'base URL of the server to forward to').makeOptionMandatory().argParser(parseUrl))
    .option(
      '--host <address>',
      'address to listen on (beyond loopback, the control API /__mock/ and the inspector are not forwarded: 403)',
      '127.0.0.1',
    )
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 9992)
    .option('--report-dir <dir>', 'where the report files go on exit', 'reports/proxy')
    .addOption(
      new Option('--reporter <list>', `report files, comma-separated: ${FILE_NAMES.join(', ')} (none: no files)`)
        .argParser(parseReporters)
        .default(FILE_NAMES, FILE_NAMES.join(',')),
    )
    .option('--duration <seconds>', 'stop after this many seconds (default: on Ctrl-C or SIGTERM)', parseDuration)
    .option('--verbose', 'also print a line for every exchange without a violation')
    .option('--no-color', 'no colours (default: colours on a terminal; NO_COLOR and FORCE_COLOR are honoured)')
    .addHelpText(
      'after',
      '\nCtrl-C or SIGTERM stops it and writes the reports (repeats are ignored; a third press quits without them, exit 128 + the signal).' +
        '\nExit codes: 0 no violation, 1 a violation or a request the target did not answer, 2 could not start.',
    );
}

/** The target as a base URL: a trailing `/` would double the paths' own. */
const parseUrl = (text: string): string => parseHttpUrl(text).replace(/\/+$/, '');

function parseReporters(text: string): FileReporterName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === 'none') return [];
  const unknown = names.filter((n) => !(FILE_NAMES as string[]).includes(n));
  if (unknown.length > 0 || names.length === 0)
    throw new InvalidArgumentError(`Unknown reporter ${unknown.join(', ') || '(none)'}; choose from ${FILE_NAMES.join(', ')} or none.`);
  return [...new Set(names)] as FileReporterName[];
}

function parseDuration(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0) throw new InvalidArgumentError('Must be a positive number of seconds.');
  return Number(text);
}

export async function main(argv: readonly string[], io: Io = processIo(), deps: ProxyDeps = {}): Promise<number> {
  const args = argv[0] === 'proxy' ? argv.slice(1) : [...argv];
  const command = program(io);
  const stop = await parseArgs(command, args);
  if (stop) return stop.code === 0 ? 0 : EXIT_USAGE;
  const opts = command.opts<Options>();
  const color = opts.color !== false && wantsColor(io.stdout);
  let proxy: RunningProxy;
  try {
    // Made first, so an unusable directory is said now rather than after an hour of traffic.
    if (opts.reporter.length > 0) await mkdir(resolve(opts.reportDir), { recursive: true });
    proxy = await startProxy({
      target: opts.target,
      host: opts.host,
      port: opts.port,
      out: io.stdout,
      color,
      verbose: opts.verbose === true,
      onInternalError: (e) => io.stderr.write(`teamchat proxy: internal error (still running): ${describeError(e)}\n`),
    });
  } catch (e) {
    const problem = listenProblem(e, opts.host, opts.port) ?? (e as Error).message;
    io.stderr.write(`teamchat proxy: ${problem}\n`);
    return EXIT_USAGE;
  }
  // From here to the last report written: a repeated signal (npm relays Ctrl-C) must not kill the process.
  let signalled!: () => void;
  const interrupted = new Promise<void>((resolve) => (signalled = resolve));
  const dispose = onInterrupt(() => signalled(), {
    name: 'teamchat proxy',
    finishing: 'writing the reports',
    forcedNote: 'no report written',
    stderr: io.stderr,
    ...(deps.signals ? { signals: deps.signals } : {}),
    ...(deps.exit ? { exit: deps.exit } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  deps.onListening?.(proxy.url);
  // The last line of defence: an error that escaped every exchange's own handling is told, and the proxy goes
  // on forwarding, so the run's verdicts and reports are not lost with the process.
  const survive = onEscapedErrors((_what, e) => io.stderr.write(`teamchat proxy: internal error (still running): ${describeError(e)}\n`));
  try {
    await untilStopped(opts.duration, deps.signal, interrupted);
    return await finish(proxy, opts, io);
  } finally {
    survive();
    dispose();
  }
}

/** Stops the proxy, prints the totals and writes the reports; the exit code. */
async function finish(proxy: RunningProxy, opts: Options, io: Io): Promise<number> {
  const run = await proxy.stop();
  const r = proxy.recorder;
  const broken = run.rules.filter((x) => x.failed.length > 0).length;
  io.stdout.write(
    `\nteamchat proxy: ${plural(r.exchanges, 'exchange')} (${r.judged} judged, ${plural(run.scenarios.length, 'operation')}), ` +
      `${plural(r.violations, 'violation')} of ${plural(broken, 'rule')}, ${r.unreachable} unanswered` +
      `${r.unjudged > 0 ? `, ${r.unjudged} not judged (see ${UNJUDGED_CASE} in the reports)` : ''}\n`,
  );
  const written = await writeReportFiles(run, opts.reporter, opts.reportDir, { out: io.stdout, err: io.stderr }, 'teamchat proxy');
  if (!written) return EXIT_USAGE;
  return r.violations > 0 || r.unreachable > 0 ? 1 : 0;
}

const describeError = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Resolves on SIGINT or SIGTERM (`interrupted`), after --duration, or when the caller's signal aborts; frees its timer. */
function untilStopped(seconds: number | undefined, signal: AbortSignal | undefined, interrupted: Promise<void>): Promise<void> {
  return new Promise((done) => {
    const timer = seconds === undefined ? undefined : setTimeout(finish, seconds * 1000);
    function finish() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      done();
    }
    void interrupted.then(finish);
    if (signal?.aborted) finish();
    else signal?.addEventListener('abort', finish);
  });
}

if (isEntryPoint(import.meta.url)) void runAsProcess(main, process.argv.slice(2));
