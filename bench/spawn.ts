import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A server of the benchmarks in a child process (through tsx), pinned where `taskset` exists to a core
 * other than the load generator's; resolves once it prints the URL it listens on (loopback).
 */
export async function start(
  args: string[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
  stderr: 'inherit' | 'pipe' = 'inherit',
): Promise<{ child: ChildProcess; url: string }> {
  const command = [process.execPath, ...nodeFlags, '--import', 'tsx', ...args];
  const pinned = process.platform === 'linux' ? ['taskset', '-c', '1', ...command] : command;
  const child = spawn(pinned[0]!, pinned.slice(1), { stdio: ['ignore', 'pipe', stderr], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url };
}
