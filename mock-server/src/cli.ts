import { statSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  EXIT_USAGE,
  isEntryPoint,
  listenProblem,
  parseArgs,
  parseCount,
  parseInteger as integer,
  parsePort,
  processIo,
  runAsProcess,
  usageConventions,
  type Io,
} from '../../cli/common.js';
import { onInterrupt } from '../../cli/signals.js';
import { createMockServer, type MockServer } from './app.js';
import { DEFAULT_CONFIG, parseRateLimit, REFERENCE_RATE_LIMIT, type ServerConfig } from './config/config.js';
import { CURRENT_FEATURE_LEVEL } from './config/features.js';
import { canonicalOrigin } from './http/cors.js';
import { DEMO_SIZE, MAX_SIZE, sizeProblem, type RealmSize } from './fixtures/size.js';
import { defaultLogFormat, keepServingOnEscapedErrors, LOG_FORMATS, LOG_LEVELS, serveLogger } from './log.js';

/**
 * `teamchat serve`: the mock server's command line (README "CLI"); cli/teamchat.ts dispatches to `main`.
 * Resolves once the server listens (0; it then serves until SIGINT or SIGTERM) or could not start (2).
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let code: number | null = null;
  const command = serveCommand(io, (c) => (code = c));
  const stopped = await parseArgs(command, argv[0] === 'serve' ? argv.slice(1) : argv);
  return stopped?.code ?? code ?? EXIT_USAGE;
}

/** `--fixture`: the built-in demo realm or a realm export file that exists (not a bare ENOENT at start-up). */
function parseFixture(text: string): string {
  if (text === 'demo') return text;
  let isFile = false;
  try {
    isFile = statSync(text).isFile();
  } catch {
    throw new InvalidArgumentError(`No file ${text}: pass demo or the path of a realm export file.`);
  }
  if (!isFile) throw new InvalidArgumentError(`${text} is not a file: pass demo or the path of a realm export file.`);
  return text;
}

/** `--allow-host`, repeatable: a DNS name as it stands in a Host header (without a port). */
function parseHostName(text: string, previous: string[] = []): string[] {
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(text))
    throw new InvalidArgumentError(`${text} is not a host name: give the name alone, e.g. mock.internal (no scheme or port).`);
  return [...previous, text];
}

/** `--cors-origin`, repeatable: scheme, host and port, as a browser names a page's origin. */
function parseOrigin(text: string, previous: string[] = []): string[] {
  try {
    return [...previous, canonicalOrigin(text)];
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

/** `--messages/--users/--channels`: a whole number from the demo realm's own count to the ceiling. */
function parseSize(field: keyof RealmSize) {
  return (text: string): number => {
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    const problem = sizeProblem(field, value);
    if (problem) throw new InvalidArgumentError(problem.charAt(0).toUpperCase() + problem.slice(1));
    return value;
  };
}

function serveCommand(io: Io, done: (code: number) => void): Command {
  const program = usageConventions(new Command('teamchat serve'), io);
  return program
    .description('run the stateful mock server (state in a JSON file, demo realm by default)')
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, DEFAULT_CONFIG.port)
    .option('--host <address>', 'address to listen on', DEFAULT_CONFIG.host)
    .option('--state <file>', 'JSON state file (lowdb)', DEFAULT_CONFIG.statePath!)
    .option('--in-memory', 'keep the state in memory only', false)
    .option('--fixture <demo|FILE>', 'fixture of the default realm: demo or a realm export file', parseFixture, DEFAULT_CONFIG.fixture)
    .option(
      '--fixtures-dir <dir>',
      "the only directory `fixture` of POST /__mock/realms reads export files from (default: the state file's directory, or the current one with --in-memory)",
    )
    .option('--seed <n>', 'seed of the generated demo realm', integer('seed'), DEFAULT_CONFIG.seed)
    .option(
      '--feature-level <n>',
      `feature level of the default realm (default: as stored, else ${CURRENT_FEATURE_LEVEL})`,
      integer('feature level'),
    )
    .option(
      '--messages <n>',
      `messages of the generated demo realm (${DEMO_SIZE.messages} to ${MAX_SIZE.messages}; more than ${DEMO_SIZE.messages} adds generated ones)`,
      parseSize('messages'),
    )
    .option('--users <n>', `users of the generated demo realm (${DEMO_SIZE.users} to ${MAX_SIZE.users})`, parseSize('users'))
    .option('--channels <n>', `channels of the generated demo realm (${DEMO_SIZE.channels} to ${MAX_SIZE.channels})`, parseSize('channels'))
    .option('--reset', 'regenerate the default realm from its fixture at start-up', false)
    .option(
      '--cache-dir <dir>',
      'where made products (the document, realm templates) are cached (default: $TEAMCHAT_CACHE_DIR, else beside the state file; none with --in-memory)',
    )
    .addOption(
      new Option('--no-cache', 'cache nothing: make the document and realm templates the artefact does not ship').conflicts('cacheDir'),
    )
    .option('--no-control', 'switch off the /__mock/ control API')
    .addOption(
      new Option('--control-token <token>', 'bearer token the control API requires (needed when --host is not loopback)').env(
        'TEAMCHAT_CONTROL_TOKEN',
      ),
    )
    .option(
      '--allow-host <name>',
      'a Host name the control API and the inspector also answer (repeatable; IP addresses, localhost and --host always)',
      parseHostName,
    )
    .option('--cors-origin <url>', 'a web origin whose pages may call /api/v1 from a browser (repeatable; none by default)', parseOrigin)
    .option('--max-realms <n>', 'live realms at most', parseCount('maximum number of realms'), DEFAULT_CONFIG.maxRealms)
    .option(
      '--max-queues-per-user <n>',
      'live event queues per user at most',
      parseCount('maximum number of queues per user'),
      DEFAULT_CONFIG.maxQueuesPerUser,
    )
    .addOption(
      new Option('--clock <system|frozen>', 'system: time flows; frozen: time moves only when advanced')
        .choices(['system', 'frozen'])
        .default('system'),
    )
    .option('--epoch <unix seconds>', 'start time of new realms (default: the current time)', integer('epoch'))
    .addOption(
      new Option('--durability <fsync|write>', 'what an acknowledged write waits for').choices(['fsync', 'write']).default('fsync'),
    )
    .option('--max-upload-mib <n>', 'largest uploaded file (MiB)', parseCount('maximum upload size'), DEFAULT_CONFIG.maxFileUploadMib)
    .option('--upload-quota-mib <n>', 'uploaded files one realm may hold (MiB)', parseCount('upload quota'), DEFAULT_CONFIG.uploadQuotaMib)
    .option(
      '--body-timeout-ms <n>',
      'a request (headers and body) that takes longer to arrive is answered 408 (long-polls are not affected)',
      parseCount('body timeout'),
      DEFAULT_CONFIG.bodyTimeoutMs,
    )
    .option(
      '--max-pending-uploads <n>',
      'uploads in progress at once, server-wide',
      parseCount('maximum number of pending uploads'),
      DEFAULT_CONFIG.maxPendingUploads,
    )
    .option(
      '--rate-limit [N/S]',
      `limit each user to N requests per S seconds, as the reference server does (no value: ${REFERENCE_RATE_LIMIT.requests}/${REFERENCE_RATE_LIMIT.seconds}; default: no limit)`,
      (text: string) => parseRateLimit(text, InvalidArgumentError),
    )
    .addOption(
      new Option('--log-level <level>', 'request log: silent (none), info (a line per request), debug (with bodies, credentials redacted)')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addOption(new Option('--log-format <format>', 'request log format (default: pretty on a terminal, else json)').choices(LOG_FORMATS))
    .option('--report-dir <dir>', "the conformance reports the inspector page links to (conform's --report-dir)", 'reports/conformance')
    .option('--zuliprc-dir <dir>', 'where to write zuliprc files for stock clients (default: beside the state file, or .teamchat/)')
    .action(async (opts) => {
      const logger =
        opts.logLevel === 'silent'
          ? null
          : await serveLogger({
              level: opts.logLevel,
              format: opts.logFormat ?? defaultLogFormat(isTerminal(io.stdout)),
              out: io.stdout,
              colour: isTerminal(io.stdout),
            });
      const config: Partial<ServerConfig> = {
        port: opts.port,
        host: opts.host,
        statePath: opts.inMemory ? null : opts.state,
        fixture: opts.fixture,
        ...(opts.fixturesDir === undefined ? {} : { fixturesDir: opts.fixturesDir }),
        seed: opts.seed,
        featureLevel: opts.featureLevel,
        reset: opts.reset,
        ...(opts.cache === false ? { cacheDir: null } : opts.cacheDir === undefined ? {} : { cacheDir: opts.cacheDir }),
        size: sizeOf(opts),
        control: opts.control,
        controlToken: opts.controlToken || undefined,
        allowHosts: opts.allowHost ?? [],
        corsOrigins: opts.corsOrigin ?? [],
        maxRealms: opts.maxRealms,
        maxQueuesPerUser: opts.maxQueuesPerUser,
        clock: opts.clock,
        epoch: opts.epoch,
        durability: opts.durability,
        maxFileUploadMib: opts.maxUploadMib,
        uploadQuotaMib: opts.uploadQuotaMib,
        bodyTimeoutMs: opts.bodyTimeoutMs,
        maxPendingUploads: opts.maxPendingUploads,
        rateLimit: opts.rateLimit === true ? { ...REFERENCE_RATE_LIMIT } : (opts.rateLimit ?? null),
        requestLog: logger ?? undefined,
        reportDir: opts.reportDir,
      };
      const rcDir = resolve(opts.zuliprcDir ?? (config.statePath ? dirname(config.statePath) : '.teamchat'));
      let rows: string[][] = [];
      let server: MockServer | null = null;
      let stopping: NodeJS.Signals | null = null;
      const stop = async (signal: NodeJS.Signals) => {
        let code = 0;
        try {
          await server!.close();
        } catch (error) {
          io.stderr.write(`teamchat serve: stopping failed: ${(error as Error).message}\n`);
          code = 1;
        }
        const state = server!.context.store.description;
        const line = `teamchat serve: stopped on ${signal}; state: ${state}`;
        if (logger) logger.info({ signal, state }, line);
        else io.stdout.write(`${line}\n`);
        dispose();
        process.exit(code);
      };
      // Installed before the start, so that no signal finds node's default handler (death by signal, which
      // npm passes on as a failed `npm start`); one during the start stops the server once it has started.
      const dispose = onInterrupt(
        (signal) => {
          stopping = signal;
          if (server) void stop(signal);
        },
        {
          name: 'teamchat serve',
          finishing: 'closing the server and saving its state',
          forcedNote: 'every acknowledged write is in the state file',
          stderr: io.stderr,
        },
      );
      try {
        // The zuliprc files are written before the first request is answered: a script that waits for the
        // port and then reads them always finds them.
        server = await createMockServer(config, { beforeServing: async (started) => void (rows = await writeZuliprcs(started, rcDir)) });
      } catch (error) {
        dispose();
        io.stderr.write(`teamchat serve: ${listenProblem(error, opts.host, opts.port) ?? (error as Error).message}\n`);
        return done(EXIT_USAGE);
      }
      keepServingOnEscapedErrors({ stderr: io.stderr, logger });
      // stop() ends the process: the command never reports a start it is undoing.
      if (stopping) return stop(stopping);
      printBanner(server, rcDir, rows);
      done(0);
    });
}

/** Whether the command writes to a terminal (the process's stdout; never a test's buffer). */
const isTerminal = (out: Io['stdout']): boolean => (out as { isTTY?: boolean }).isTTY === true;

function sizeOf(opts: Partial<RealmSize>): ServerConfig['size'] {
  const { messages, users, channels } = opts;
  return messages === undefined && users === undefined && channels === undefined ? undefined : { messages, users, channels };
}

/** The size of a realm generated bigger than the demo, for the banner ('' otherwise). */
function sized(server: MockServer, realmId: string): string {
  const size = server.context.store.realm(realmId)?.realm.realm.size;
  return size ? `, ${size.messages} messages, ${size.users} users, ${size.channels} channels` : '';
}

/** zuliprc-<role> for each role of the default realm; the rows of the banner's credentials table. */
async function writeZuliprcs(server: MockServer, rcDir: string): Promise<string[][]> {
  const world = server.control.world(server.context.config.defaultRealm);
  await mkdir(rcDir, { recursive: true });
  const rows: string[][] = [];
  for (const [role, who] of Object.entries(world.credentials)) {
    if (!who?.api_key) continue;
    const file = join(rcDir, `zuliprc-${role}`);
    await writeFile(file, `[api]\nemail=${who.email}\nkey=${who.api_key}\nsite=${server.url}\n`, { mode: 0o600 });
    // Owner-only even when the file existed: it holds an API key, and zulip-terminal refuses to start
    // with a zuliprc others can read.
    await chmod(file, 0o600);
    rows.push([role, who.email, who.api_key, String(who.user_id)]);
  }
  return rows;
}

function printBanner(server: MockServer, rcDir: string, rows: string[][]): void {
  const realmId = server.context.config.defaultRealm;
  const summary = server.control.summary(realmId);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['role', 'email', 'api key', 'user id'], ...rows].map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`teamchat-kit mock server listening on ${server.url}`);
  console.log(
    `state: ${server.context.store.description}; realm '${realmId}' (${summary.fixture}, seed ${summary.seed}${sized(server, realmId)}), feature level ${summary.feature_level}`,
  );
  const { control, controlToken } = server.context.config;
  if (control) console.log(`control API: ${server.url}/__mock/${controlToken ? ' (Authorization: Bearer <the control token>)' : ''}`);
  if (control) console.log(`inspector: ${server.url}/ in a browser${controlToken ? ' (asks for the control token once)' : ''}`);
  console.log(`API reference: ${server.url}/docs (the contract: ${server.url}/openapi.yaml, /openapi.json)`);
  console.log('');
  console.log(line(['role', 'email', 'api key', 'user id']));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(`zuliprc files for stock clients: ${rcDir}/zuliprc-<role>`);
  console.log(`try: curl -u ${rows[0]?.[1]}:${rows[0]?.[2]} -d 'content=**hi**' ${server.url}/api/v1/messages/render`);
}

if (isEntryPoint(import.meta.url)) void runAsProcess(main, process.argv.slice(2));
