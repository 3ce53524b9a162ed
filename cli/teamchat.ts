import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { EXIT_USAGE, isEntryPoint, parseArgs, processIo, runAsProcess, usageConventions, type CommandMain, type Io } from './common.js';
import { packagePath } from './package-root.js';

/** bin/teamchat.js runs this module's bundle and needs nothing else from it. */
export { runAsProcess };

/**
 * `teamchat <command>`: the one dispatcher behind bin/teamchat.js and `npm run teamchat`. Each command's
 * module is loaded only when it is asked for, so `conform` never loads the mock server's code (the suite
 * judges servers over HTTP alone) and `serve` never loads the suite.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandMain> }> = {
  serve: { summary: 'run the stateful mock server', load: async () => (await import('../mock-server/src/cli.js')).main },
  conform: {
    summary: 'run the conformance suite against a Team Chat server',
    load: async () => (await import('../conformance/src/cli.js')).main,
  },
  proxy: {
    summary: 'forward requests to a Team Chat server and check every exchange against the contract',
    load: async () => (await import('../conformance/src/proxy/cli.js')).main,
  },
};

const NAMES = Object.keys(COMMANDS).join('|');

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const name = argv[0];
  if (name !== undefined && Object.hasOwn(COMMANDS, name)) return (await COMMANDS[name]!.load())(argv.slice(1), io);
  if (argv.length === 0) {
    io.stderr.write(`teamchat: name a command: ${NAMES} (teamchat --help describes them)\n`);
    return EXIT_USAGE;
  }
  // Only `teamchat --help` and mistakes get here: the command list is for the help and the error wording.
  const program = usageConventions(new Command('teamchat'), io)
    .description('Team Chat API mock server and conformance suite')
    .usage(`<${NAMES}> [options]`)
    .helpCommand(false)
    .version(packageVersion(), '-V, --version', 'print the version')
    .addHelpText(
      'after',
      '\nRun teamchat <command> --help for its options. Exit codes: 0 success, 2 usage error or could not start; conform: 1 a scenario failed; proxy: 1 a violation.',
    );
  for (const [command, { summary }] of Object.entries(COMMANDS)) program.command(command).description(summary);
  return (await parseArgs(program, argv))?.code ?? EXIT_USAGE;
}

/** The version in the package's manifest (shipped beside the build, found from the package root). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
}

if (isEntryPoint(import.meta.url)) void runAsProcess(main, process.argv.slice(2));
