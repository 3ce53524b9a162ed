import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach } from 'vitest';

/**
 * Waits until `check` returns something other than undefined/false, polling every 20 ms, and gives up after
 * `ms` with an error naming what it waited for. For states a test cannot be told about (a client's request
 * reaching the mock, a line a child printed): bounded, and no fixed sleep.
 */
export async function until<T>(check: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  for (let tries = Math.ceil(ms / 20); tries > 0; tries--) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    await sleep(20);
  }
  throw new Error(`gave up after ${ms} ms waiting for ${what}`);
}

export interface ClientProcess {
  /** The JSON lines the program printed so far. */
  readonly lines: unknown[];
  /** Everything it printed, both streams (for failure messages). */
  output(): string;
  /** Resolves with the exit code once it exits (bounded: rejects after `ms`). */
  exited(ms?: number): Promise<number | null>;
}

/**
 * Runs a client program as a child process, its stdout read as JSON lines. For client loops that never return
 * on their own (zulip-js's callOnEachEvent, the Python bindings' call_on_each_event): only a kill ends them, so
 * the test file's afterEach kills whatever is still running.
 */
export function useClientProcesses(): (command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string) => ClientProcess {
  const running = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  });
  return (command, args, env, cwd) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const lines: unknown[] = [];
    let output = '';
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      pending += chunk;
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete) if (line.trim()) lines.push(JSON.parse(line) as unknown);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => (running.delete(child), resolve(code))));
    return {
      lines,
      output: () => output,
      exited: async (ms = 15_000) => {
        // The timer is cancelled once the race is decided (an aborted sleep rejects, and the race has settled).
        const abort = new AbortController();
        const late = sleep(ms, undefined, { signal: abort.signal }).then(() => {
          throw new Error(`the client did not exit within ${ms} ms; it printed:\n${output}`);
        });
        try {
          return await Promise.race([exit, late]);
        } finally {
          abort.abort();
        }
      },
    };
  };
}
