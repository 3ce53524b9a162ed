import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from 'vitest';

/**
 * Programs started by the compiled-build tests: each child is pushed on `children` (the test file kills
 * their process groups afterwards); `defaults` gives the working directory and environment of a start.
 */
export function processTools(children: ChildProcess[], defaults: () => { cwd: string; env: NodeJS.ProcessEnv }) {
  /** A port nothing listens on (the system picks it; it is free again once this resolves). */
  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  /** Whether something accepts connections on the port (a refused connection: nothing does). */
  function listening(port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(true));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
    });
  }

  /**
   * Starts a command and resolves once its server answers GET /server_settings with success and has printed its
   * banner: the server answers only once its zuliprc files are written, and prints the banner just after.
   */
  async function started(
    command: string,
    args: string[],
    port: number,
    cwd = defaults().cwd,
    environment: NodeJS.ProcessEnv = defaults().env,
  ): Promise<{ child: ChildProcess; output: () => string }> {
    const child = spawn(command, args, { cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}: ${output}`);
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`).catch(() => null);
      if (answer) {
        expect(((await answer.json()) as { result: string }).result).toBe('success');
        while (!output.includes('zuliprc files for stock clients:')) {
          if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}: ${output}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return { child, output: () => output };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The exit code, null when a signal ended the process, 'running' when it still runs after 10 s. */
  function exited(child: ChildProcess): Promise<number | null | 'running'> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('running'), 10_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  return { freePort, listening, started, exited };
}
