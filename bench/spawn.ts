import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The core servers run on, and the one the load generator (this process) keeps; both only where `taskset` exists. */
const SERVER_CORE = '1';
const LOAD_CORE = '0';

const hasTaskset = process.platform === 'linux' && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;

/** Whether servers are pinned (printed with the figures, since unpinned figures are noisier). */
export const PINNED = hasTaskset;

/** Pins this process (the load generator) to its own core, away from the servers'. */
export function pinLoadGenerator(): void {
  if (hasTaskset) spawnSync('taskset', ['-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
}

/** The command line with `taskset` in front where it exists. */
export function pinned(command: string[]): string[] {
  return hasTaskset ? ['taskset', '-c', SERVER_CORE, ...command] : command;
}

export interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawning to the "listening on" line. */
  listenMs: number;
}

/**
 * A server of the benchmarks in a child process, pinned to a core other than the load generator's;
 * resolves once it prints the URL it listens on (loopback). `args` start with the script: TypeScript
 * scripts (baselines, tools) run through tsx, `.js` files (bin/teamchat.js, the compiled mock) as they are.
 */
export async function start(
  args: string[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
  stderr: 'inherit' | 'pipe' | 'ignore' = 'inherit',
): Promise<Started> {
  const loader = args[0]?.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const command = pinned([process.execPath, ...nodeFlags, ...loader, ...args]);
  const began = performance.now();
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', stderr], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')}: exited with ${code}`)));
  });
  // Keep reading, so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  return { child, url, listenMs: performance.now() - began };
}

const BIN = fileURLToPath(new URL('../bin/teamchat.js', import.meta.url));

/**
 * `node bin/teamchat.js serve …`: the compiled mock as users run it (dist/, built by the benchmark first),
 * without its request log: the figures are the server's, comparable with those before the log existed.
 */
export function startMock(serveArgs: string[], nodeFlags: string[] = []): Promise<Started> {
  return start([BIN, 'serve', '--port', '0', '--log-level', 'silent', ...serveArgs], {}, nodeFlags);
}

/** Resident set size of a process (Linux /proc), in bytes; null elsewhere. */
export function rssOf(child: ChildProcess): number | null {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Stops a server and waits until it is gone (so the next one measures an idle core). */
export async function stop(server: Started): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await gone;
}
