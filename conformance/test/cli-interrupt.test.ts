import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRESS_GAP_MS } from '../../cli/signals.js';
import { main } from '../src/cli.js';
import { scenario, type Scenario } from '../src/dsl.js';
import type { RuleDef } from '../src/model.js';

/**
 * `teamchat conform` interrupted (Ctrl-C, a CI timeout's SIGTERM): the scenarios under way finish and put
 * back what they changed, the rest are marked not run, and the reports are written; exit code 2. Signals
 * come from an emitter standing in for the process; through npm a Ctrl-C is two signals.
 */
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

let server: Server;
let url: string;
let dir: string;
const seen: string[] = [];
/** Called when the target receives the held request; the test answers it by calling `release`. */
let onHeld: (release: () => void) => void = (release) => release();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conform-interrupt-'));
  seen.length = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url!.split('?')[0]!;
      seen.push(`${req.method} ${path}`);
      if (req.method === 'POST' && path === '/api/v1/register')
        return json(res, 200, { result: 'success', msg: '', queue_id: 'q-1', last_event_id: -1, service_feature_level: 333 });
      if (path === '/api/v1/fake/held') return onHeld(() => json(res, 200, { result: 'success', msg: '', value: 42 }));
      if (path.startsWith('/api/v1/fake/')) return json(res, 200, { result: 'success', msg: '', value: 42 });
      json(res, 404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const CATALOGUE: RuleDef[] = [{ id: 'R1-1', section: '1', area: 'conventions', text: 'The fake endpoint answers 42.' }];
const okAt = (id: string, path = '/api/v1/fake/ok'): Scenario =>
  scenario({
    id,
    title: `${id} answers 42`,
    rules: ['R1-1'],
    when: (ctx) => {
      // What a scenario changes it puts back in its clean-up: the restore step an interrupt must not skip.
      ctx.defer(() => ctx.as('member').delete(`/api/v1/fake/undo-${id.split('/')[1]}`));
      return ctx.as('member').get(path);
    },
    then: (ctx, reply) => void ctx.expectSuccess('R1-1', reply, { value: 42 }),
  });
const SCENARIOS = [okAt('fake/held', '/api/v1/fake/held'), ...Array.from({ length: 9 }, (_, i) => okAt(`fake/ok-${i}`))];

/** Milliseconds for telling presses apart: moved by the tests, so signals are one press or two as they say. */
let time = 0;

async function conform(signals: EventEmitter, exit: (code: number) => void) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['conform', '--target', url, '--report-dir', dir, '--workers', '1'], {
    scenarios: SCENARIOS,
    catalogue: CATALOGUE,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    signals,
    exit,
    now: () => time,
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('an interrupted run', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s (twice, as through npm): the scenario under way finishes and cleans up, the rest not run, reports written, exit 2',
    async (signal) => {
      const signals = new EventEmitter();
      const exit = vi.fn();
      onHeld = (release) => {
        signals.emit(signal, signal);
        signals.emit(signal, signal);
        release();
      };
      const { code, err } = await conform(signals, exit);
      expect(code).toBe(2);
      expect(exit).not.toHaveBeenCalled();
      expect(err).toBe(`teamchat conform: interrupted by ${signal}; 9 of 10 scenarios not run\n`);
      expect(seen.filter((r) => r.includes('/fake/'))).toEqual(['GET /api/v1/fake/held', 'DELETE /api/v1/fake/undo-held']);
      expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      expect(report.stopped).toEqual({ kind: 'interrupted', message: `interrupted by ${signal}` });
      expect(report.totals).toEqual({ passed: 1, failed: 0, error: 0, skipped: 9 });
      expect(report.scenarios[0]).toMatchObject({ id: 'fake/held', status: 'passed' });
      for (const s of report.scenarios.slice(1)) expect(s).toMatchObject({ status: 'skipped', reason: 'not run: the run was interrupted' });
      expect(await readFile(join(dir, 'conformance.html'), 'utf8')).toContain(`The run stopped: interrupted by ${signal}`);
      expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toContain(`interrupted by ${signal}`);
      // The handlers go with the run: the process's own signal handling is as it was.
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    },
  );

  it('a second press is told in one line, and the run still ends as interrupted with its reports', async () => {
    const signals = new EventEmitter();
    const exit = vi.fn();
    onHeld = (release) => {
      signals.emit('SIGINT', 'SIGINT');
      time += PRESS_GAP_MS;
      signals.emit('SIGINT', 'SIGINT');
      release();
    };
    const { code, err } = await conform(signals, exit);
    expect(code).toBe(2);
    expect(exit).not.toHaveBeenCalled();
    expect(err).toBe(
      'teamchat conform: SIGINT again: still letting the scenarios under way put back what they changed, then writing the ' +
        'reports; once more to exit now\nteamchat conform: interrupted by SIGINT; 9 of 10 scenarios not run\n',
    );
    expect(seen.filter((r) => r.includes('/fake/'))).toEqual(['GET /api/v1/fake/held', 'DELETE /api/v1/fake/undo-held']);
    expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
  });

  it('a third press ends the process at once, saying what is left undone', async () => {
    const signals = new EventEmitter();
    const exit = vi.fn();
    onHeld = (release) => {
      for (let i = 0; i < 3; i++) {
        time += PRESS_GAP_MS;
        signals.emit('SIGINT', 'SIGINT');
      }
      release();
    };
    const { err } = await conform(signals, exit);
    expect(exit).toHaveBeenCalledWith(130);
    expect(err).toContain('teamchat conform: SIGINT a third time: exiting now; no report written');
  });

  it('a run not interrupted leaves no handler behind', async () => {
    const signals = new EventEmitter();
    onHeld = (release) => release();
    expect((await conform(signals, vi.fn())).code).toBe(0);
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
  });
});
