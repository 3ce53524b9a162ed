import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESS_GAP_MS } from '../../../cli/signals.js';
import { main } from '../../src/proxy/cli.js';
import { startTarget, type TestTarget } from './target.js';

/**
 * `teamchat proxy` stopped by SIGINT/SIGTERM, in process: signals come from an emitter standing in for the
 * process, with a clock the test moves. Through npm and a real process group: cli/test/proxy-signals.ts.
 */
let target: TestTarget;
let dir: string;
beforeAll(async () => {
  target = await startTarget((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  dir = await mkdtemp(join(tmpdir(), 'teamchat-proxy-signals-'));
});
afterAll(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the proxy until `press` (called once it listens) has sent its signals; its exit code and stderr. */
async function proxy(reportDir: string, press: (send: (signal: 'SIGINT' | 'SIGTERM', after?: number) => void) => void) {
  const signals = new EventEmitter();
  const exit = vi.fn();
  let time = 0;
  let err = '';
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
  const code = await main(['--target', target.url, '--port', '0', '--report-dir', reportDir, '--no-color'], io, {
    signals,
    exit,
    now: () => time,
    onListening: () =>
      press((signal, after = 0) => {
        time += after;
        signals.emit(signal, signal);
      }),
  });
  return { code, err, exit, listeners: signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM') };
}

describe('teamchat proxy and signals', () => {
  it('one press relayed (two signals at once) stops it: the reports written, exit 0, nothing told, no handler left', async () => {
    const reportDir = join(dir, 'one-press');
    const run = await proxy(reportDir, (send) => {
      send('SIGINT');
      send('SIGINT', 5);
    });
    expect(run.code).toBe(0);
    expect(run.err).toBe('');
    expect(run.exit).not.toHaveBeenCalled();
    expect(run.listeners).toBe(0);
    expect((await readdir(reportDir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
  });

  it('a second press is told in one line; a third ends the process with 143 saying the reports are lost', async () => {
    const run = await proxy(join(dir, 'three-presses'), (send) => {
      send('SIGTERM');
      send('SIGTERM', PRESS_GAP_MS);
      send('SIGTERM', PRESS_GAP_MS);
    });
    expect(run.err).toBe(
      'teamchat proxy: SIGTERM again: still writing the reports; once more to exit now\n' +
        'teamchat proxy: SIGTERM a third time: exiting now; no report written\n',
    );
    expect(run.exit.mock.calls).toEqual([[143]]);
    expect(run.listeners).toBe(0);
  });
});
