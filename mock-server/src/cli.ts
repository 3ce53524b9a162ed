import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createMockServer, type MockServer } from './app.js';
import { DEFAULT_CONFIG, type ServerConfig } from './config/config.js';
import { CURRENT_FEATURE_LEVEL } from './config/features.js';

/** `teamchat`: the command line (README "CLI"). `npm start` runs `teamchat serve`. */
const integer = (name: string) => (text: string) => {
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`${name} must be an integer.`);
  return Number(text);
};

const program = new Command('teamchat')
  .description('Team Chat API mock server and conformance suite')
  // `conform` is dispatched by bin/teamchat.js to conformance/src/cli.ts (the suite never loads the mock).
  .addHelpText('after', '\nConformance suite: teamchat conform --target URL [options]   (teamchat conform --help)')
  .showHelpAfterError();

program
  .command('serve')
  .description('run the stateful mock server (state in a JSON file, demo realm by default)')
  .option('--port <n>', 'port to listen on', integer('port'), DEFAULT_CONFIG.port)
  .option('--host <address>', 'address to listen on', DEFAULT_CONFIG.host)
  .option('--state <file>', 'JSON state file (lowdb)', DEFAULT_CONFIG.statePath!)
  .option('--in-memory', 'keep the state in memory only', false)
  .option('--fixture <name|file>', 'fixture of the default realm: "demo" or a realm export file', DEFAULT_CONFIG.fixture)
  .option('--seed <n>', 'seed of the generated demo realm', integer('seed'), DEFAULT_CONFIG.seed)
  .option('--feature-level <n>', `feature level of the default realm (default: as stored, else ${CURRENT_FEATURE_LEVEL})`, integer('feature level'))
  .option('--reset', 'regenerate the default realm from its fixture at start-up', false)
  .option('--no-control', 'switch off the /__mock/ control API')
  .addOption(new Option('--clock <mode>', 'system: time flows; frozen: time moves only when advanced').choices(['system', 'frozen']).default('system'))
  .option('--epoch <unix seconds>', 'start time of new realms (default: the current time)', integer('epoch'))
  .addOption(new Option('--durability <mode>', 'what an acknowledged write waits for').choices(['fsync', 'write']).default('fsync'))
  .option('--zuliprc-dir <dir>', 'where to write zuliprc files for stock clients (default: beside the state file, or .teamchat/)')
  .action(async (opts) => {
    const config: Partial<ServerConfig> = {
      port: opts.port,
      host: opts.host,
      statePath: opts.inMemory ? null : opts.state,
      fixture: opts.fixture,
      seed: opts.seed,
      featureLevel: opts.featureLevel,
      reset: opts.reset,
      control: opts.control,
      clock: opts.clock,
      epoch: opts.epoch,
      durability: opts.durability,
    };
    let server: MockServer;
    try {
      server = await createMockServer(config);
    } catch (error) {
      console.error(`teamchat serve: ${(error as Error).message}`);
      process.exit(2);
    }
    const rcDir = resolve(opts.zuliprcDir ?? (config.statePath ? dirname(config.statePath) : '.teamchat'));
    await printBanner(server, rcDir);
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

async function printBanner(server: MockServer, rcDir: string): Promise<void> {
  const realmId = server.context.config.defaultRealm;
  const world = server.control.world(realmId);
  const summary = server.control.summary(realmId);
  await mkdir(rcDir, { recursive: true });
  const rows: string[][] = [];
  for (const [role, who] of Object.entries(world.credentials)) {
    if (!who?.api_key) continue;
    const file = join(rcDir, `zuliprc-${role}`);
    await writeFile(file, `[api]\nemail=${who.email}\nkey=${who.api_key}\nsite=${server.url}\n`);
    rows.push([role, who.email, who.api_key, String(who.user_id)]);
  }
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['role', 'email', 'api key', 'user id'], ...rows].map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`teamchat-kit mock server listening on ${server.url}`);
  console.log(`state: ${server.context.store.description}; realm '${realmId}' (${summary.fixture}, seed ${summary.seed}), feature level ${summary.feature_level}`);
  if (server.context.config.control) console.log(`control API: ${server.url}/__mock/`);
  console.log('');
  console.log(line(['role', 'email', 'api key', 'user id']));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(`zuliprc files for stock clients: ${rcDir}/zuliprc-<role>`);
  console.log(`try: curl -u ${rows[0]?.[1]}:${rows[0]?.[2]} -d 'content=**hi**' ${server.url}/api/v1/messages/render`);
}

await program.parseAsync(process.argv);
