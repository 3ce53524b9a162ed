import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { health } from '../../../bench/hostile-requests.js';
import { buildDist } from '../../../cli/test/helpers/build.js';

/**
 * The compiled programs the hostile-input tests attack, as a user runs them: `node bin/teamchat.js serve` and
 * `teamchat proxy`, each in its own process group (killed whole afterwards), on port 0, loopback only. A crash
 * is what these tests look for, so a program that exits is seen (`alive()`) and its output kept for the message.
 */
const BIN = fileURLToPath(new URL('../../../bin/teamchat.js', import.meta.url));

export interface Program {
  child: ChildProcess;
  url: string;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  alive(): boolean;
  /** Resident set size in bytes (Linux /proc), null elsewhere. */
  rss(): number | null;
  /** SIGKILL to its process group (a program left hung or half-dead by a test). */
  kill(): void;
  /** SIGTERM, then its exit code (null when a signal ended it, 'running' when it still runs after 10 s). */
  stop(): Promise<number | null | 'running'>;
}

const programs: Program[] = [];
const dirs: string[] = [];

/** Builds dist/ once per test run (the programs run the compiled build). */
export function built(): void {
  const build = buildDist();
  expect(build.output).toBe('');
  expect(build.status).toBe(0);
}

export async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-hostile-'));
  dirs.push(dir);
  return dir;
}

async function launch(args: string[], ready: RegExp, cwd: string): Promise<Program> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const program: Program = {
    child,
    url: '',
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    rss: () => {
      try {
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) * 1024;
      } catch {
        return null;
      }
    },
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // ESRCH: the whole group has exited.
      }
    },
    stop: async () => {
      if (!program.alive()) return child.exitCode;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 10_000)));
      const code = await Promise.race([exited, late]);
      clearTimeout(timer);
      return code;
    },
  };
  programs.push(program);
  program.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: not ready after 30 s: ${output}`)), 30_000);
    const look = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', look);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')}: exited ${code}: ${output}`));
    });
  });
  return program;
}

/** `teamchat serve --in-memory --port 0` with `args`; resolves once its banner is whole (zuliprc files written). */
export async function serve(args: string[] = []): Promise<Program> {
  const dir = await scratch();
  return launch(
    ['serve', '--in-memory', '--port', '0', '--zuliprc-dir', dir, '--report-dir', join(dir, 'reports'), ...args],
    /listening on (http:\/\/\S+)[\s\S]*try: curl/,
    dir,
  );
}

/**
 * `server` when it is up and answers within `budgetMs`, else (killed) a fresh `serve(args)`: a test that took the
 * server down or left it busy has failed, and the next one reports on itself instead of on that.
 */
export async function serving(server: Program, args: string[], budgetMs: number): Promise<Program> {
  if (server.alive() && (await health(server.url, budgetMs)).status === 200) return server;
  server.kill();
  return serve(args);
}

/** `teamchat proxy --port 0` in front of `target`, its reports going to `reportDir`. */
export function proxy(target: string, reportDir: string, args: string[] = []): Promise<Program> {
  return launch(
    ['proxy', '--target', target, '--port', '0', '--report-dir', reportDir, ...args],
    /teamchat proxy: (http:\/\/\S+) →/,
    reportDir,
  );
}

/** Kills every program's process group and removes the scratch directories (afterAll). */
export async function cleanUp(): Promise<void> {
  for (const program of programs.splice(0)) program.kill();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
}
