import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `teamchat serve` as a separate process (what `npm start` runs), on a free loopback port. */
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  url: string;
  output: () => string;
}

export async function spawnServer(args: string[]): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      // The banner is printed whole once the credentials are written: wait for its last line.
      const match = /listening on (http:\/\/\S+)[\s\S]*try: curl/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

export function stopped(child: ChildProcess): Promise<void> {
  return new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
}

export async function stop(server: Spawned): Promise<void> {
  server.child.kill('SIGTERM');
  await stopped(server.child);
}
