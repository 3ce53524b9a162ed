import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CommanderError, InvalidArgumentError, type Command } from 'commander';

/**
 * What every `teamchat` command shares (README "CLI"), so `serve`, `conform` and later commands behave
 * alike: a usage error is one line and a hint on stderr with exit code 2 (never the whole help), the help
 * itself exits 0, and a reader that closes the pipe early (`teamchat conform --help | head -3`) ends the
 * output quietly instead of with a stack trace. The conformance suite imports this module, so it must
 * never import the mock server (nor the suite).
 */

/** Where a command writes: the process's streams, or buffers in tests. */
export interface Output {
  write(text: string): unknown;
}
export interface Io {
  stdout: Output;
  stderr: Output;
}

/** Exit code of a command that could not start: a usage error, or what it needs is missing or unusable. */
export const EXIT_USAGE = 2;

/** A command's entry: the arguments after its name; resolves to the exit code. */
export type CommandMain = (argv: readonly string[], io?: Io) => Promise<number>;

export const processIo = (): Io => ({ stdout: process.stdout, stderr: process.stderr });

/** Applies the shared usage-error behaviour to a command built with commander (its name is the hint's). */
export function usageConventions(cmd: Command, io: Io): Command {
  return cmd
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // "error: …" alone does not say which program complained when commands run in a CI script.
      outputError: (s, write) => write(`${cmd.name()}: ${s.replace(/^error: /, '')}`),
    })
    .showHelpAfterError(`(${cmd.name()} --help lists the options)`);
}

/** Why commander stopped a command before its action: the help (code 0) or a usage error (code 2). */
export interface ParseStop {
  code: number;
  /** The problem as commander printed it, without its "error: " prefix. */
  message: string;
}

/** Parses argv (user arguments only) and runs the command's action; null when it ran, else why it stopped. */
export async function parseArgs(cmd: Command, argv: readonly string[]): Promise<ParseStop | null> {
  try {
    await cmd.parseAsync([...argv], { from: 'user' });
    return null;
  } catch (e) {
    // Commander has printed the help, or the problem and the hint.
    if (e instanceof CommanderError) return { code: e.exitCode === 0 ? 0 : EXIT_USAGE, message: e.message.replace(/^error: /, '') };
    throw e;
  }
}

/** `--port`: 0 to 65535, 0 meaning any free port (what the tests use). */
export function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new InvalidArgumentError('A port is a whole number from 0 to 65535 (0: any free port).');
  return port;
}

/** `--target`: an http or https URL, as given (conform and proxy). */
export function parseHttpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('Not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('Must be an http or https URL.');
  return text;
}

export const parseInteger =
  (name: string) =>
  (text: string): number => {
    if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`The ${name} must be an integer.`);
    return Number(text);
  };

/** A count of at least 1 (`--max-realms`, `--max-queues-per-user`). */
export const parseCount =
  (name: string) =>
  (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
      throw new InvalidArgumentError(`The ${name} must be a whole number of at least 1.`);
    return Number(text);
  };

/** What to do when a server cannot listen, for the errors a user can act on; null for any other error. */
export function listenProblem(error: unknown, host: string, port: number): string | null {
  // Only the socket's own errors: an EACCES on the state file is not about the port.
  const { syscall } = error as { syscall?: unknown };
  if (typeof syscall === 'string' && !['listen', 'bind', 'getaddrinfo'].includes(syscall)) return null;
  switch ((error as { code?: unknown }).code) {
    case 'EADDRINUSE':
      return `port ${port} is in use: stop the other server or pass --port N (--port 0 picks a free one)`;
    case 'EACCES':
      return `no permission to listen on port ${port}${port < 1024 ? ' (ports below 1024 need administrator rights)' : ''}: pass --port N with N from 1024 to 65535`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine: pass --host 127.0.0.1 (or --host 0.0.0.0 for every interface)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host name ${host}: pass --host 127.0.0.1 or an address of this machine`;
    default:
      return null;
  }
}

/**
 * Runs a command as the process: the exit code becomes the process's. A closed stdout or stderr
 * (EPIPE: the reader went away, as `| head` does) silences the output; the command itself goes on,
 * so a run still writes its report files.
 */
export async function runAsProcess(main: CommandMain, argv: readonly string[]): Promise<void> {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
  let code: number;
  try {
    code = await main(argv, processIo());
  } catch (e) {
    // A bug of teamchat itself, not a usage error nor a verdict on a target.
    console.error(e);
    code = EXIT_USAGE;
  }
  // A command that could not start may leave a half-opened resource (a state file, a timer) behind: end
  // the process then. A success ends on its own, or keeps serving (`teamchat serve`).
  if (code !== 0) process.exit(code);
  process.exitCode = code;
}

/** True when the module at `url` is the script node was started with (`tsx path/to/cli.ts …`). */
export function isEntryPoint(url: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(url));
  } catch {
    return false;
  }
}
