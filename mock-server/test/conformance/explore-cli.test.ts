import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../conformance/src/cli.js';
import { loadContract, ResponseSchemas } from '../../../conformance/src/openapi.js';
import type { ExploreResult, ExploreScript } from '../../../conformance/src/explore/types.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * `teamchat conform --explore` end to end against the in-process mock: a finding is written as a script and
 * `--replay` reruns it. A finding is made cheap by a loopback proxy in front of the mock that loses every
 * `message` event (the events oracle must notice at the first message sent); the correct mock behind it
 * shows the same script no longer failing. A hand-written script makes a replay fail on the correct mock.
 */

let mock: MockServer;
let proxy: Server;
let lossyUrl: string;
let api: OpenAPIV3_1.Document;
let schemas: ResponseSchemas;
let dir: string;
/** Called with every request line the proxy forwards (a test sends a signal from it). */
let onRequest: (line: string) => void = () => undefined;

beforeAll(async () => {
  mock = await startTestServer();
  [api, schemas] = await Promise.all([loadContract(), ResponseSchemas.load()]);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onRequest(`${req.method} ${req.url}`);
      const headers = { ...req.headers };
      delete headers.host;
      void request(mock.url + req.url!, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : null })
        .then(async (answer) => {
          let text = await answer.body.text();
          if (req.method === 'GET' && req.url!.startsWith('/api/v1/events?')) {
            const body = JSON.parse(text) as { events?: { type: string }[] };
            if (body.events) body.events = body.events.filter((e) => e.type !== 'message');
            text = JSON.stringify(body);
          }
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(text);
        })
        .catch((e: Error) => res.writeHead(502).end(e.message));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  lossyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await mock.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'explore-cli-'));
  onRequest = () => undefined;
  return () => rm(dir, { recursive: true, force: true });
});

async function conform(args: string[], signals?: EventEmitter) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['conform', '--explore', '--report-dir', dir, ...args], {
    api,
    schemas,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    ...(signals ? { signals } : {}),
  });
  return { code, out: out.join(''), err: err.join('') };
}

const readJson = async <T>(name: string): Promise<T> => JSON.parse(await readFile(join(dir, name), 'utf8')) as T;

const ACTORS = [
  { name: 'administrator', legacy: false },
  { name: 'member', legacy: false },
  { name: 'member_2', legacy: true },
  { name: 'guest', legacy: false },
];
const send = (actor: string, channel: string, content = `hello from ${actor}`) => ({
  kind: 'send-channel-message',
  actor,
  operation: 'send-message',
  method: 'POST',
  path: '/api/v1/messages',
  params: { type: 'stream', to: { $ref: channel }, topic: 'alpha', content },
  expect: 'success' as const,
  binds: 'm',
});
const script = (steps: ExploreScript['steps']): ExploreScript => ({
  format: 'teamchat-explore-script/1',
  seed: 7,
  rule: 'explore/answer',
  message: 'an empty message is sent',
  actors: ACTORS,
  steps,
});

describe('conform --explore --replay against the mock', () => {
  it('a script whose step the server refuses fails the same way again: exit 1, reports written, the script kept', async () => {
    const file = join(dir, 'explore-finding.json');
    // A script that claims an empty message must be sent (no template plans one): the server refuses it.
    const text = JSON.stringify(script([send('member', 'c1'), send('guest', 'c1', '')]));
    await writeFile(file, text);
    const { code, out } = await conform(['--target', mock.url, '--replay', file]);
    expect(out).toContain('replay: fails the same way (explore/answer)');
    expect(out).toMatch(/2\. guest send-channel-message: POST \/api\/v1\/messages → 400/);
    expect(out).toContain('"$KEY_guest"');
    expect(code).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(text);
    const result = await readJson<ExploreResult>('explore.json');
    expect(result.findings.map((f) => [f.rule, f.steps.length, f.replayed])).toEqual([['explore/answer', 2, true]]);
    expect(await readFile(join(dir, 'explore-junit.xml'), 'utf8')).toMatch(/<failure message="[^"]*" type="ExploreFinding">/);
  }, 20_000);

  it('a script that breaks no rule any more: exit 0 and one line saying so', async () => {
    const file = join(dir, 'fixed.json');
    await writeFile(file, JSON.stringify(script([send('member', 'c1'), send('administrator', 'c2')])));
    const { code, out } = await conform(['--target', mock.url, '--replay', file]);
    expect(out).toContain('replay: no longer fails: the 2 steps broke no rule');
    expect(code).toBe(0);
    expect((await readJson<ExploreResult>('explore.json')).findings).toEqual([]);
  }, 20_000);

  it('a script whose step no longer applies (the guest is not in the private channel): exit 0, the line says which', async () => {
    const file = join(dir, 'stale.json');
    await writeFile(file, JSON.stringify(script([send('member', 'c1'), send('guest', 'c2')])));
    const { code, out } = await conform(['--target', mock.url, '--replay', file]);
    expect(out).toContain('replay: no longer fails: step 2 of 2 no longer applies to the state the steps before it made');
    expect(code).toBe(0);
  }, 20_000);
});

describe('conform --explore against a target that loses message events', () => {
  it('finds it, writes the shrunk script, and the script replays the same failure there and none on the mock', async () => {
    const { code, out } = await conform(['--target', lossyUrl, '--tier', 'all', '--seed', '3', '--steps', '4', '--users', '2']);
    expect(out).toContain('explore: seed 3');
    expect(out).toMatch(/finding: explore\/events-snapshot/);
    expect(out).toMatch(/oracles held: explore\/answer \d+, explore\/events-snapshot \d+/);
    expect(code).toBe(1);
    const finding = await readJson<ExploreScript>('explore-finding.json');
    expect(finding.rule).toBe('explore/events-snapshot');
    // Shrunk: one message sent (to a channel or directly) is enough to lose its event.
    expect(finding.steps.map((s) => s.kind)).toEqual([expect.stringMatching(/^send-(channel|direct)-message$/)]);
    const file = join(dir, 'explore-finding.json');
    const again = await conform(['--target', lossyUrl, '--replay', file]);
    expect(again.out).toContain('replay: fails the same way (explore/events-snapshot)');
    expect(again.code).toBe(1);
    const fixed = await conform(['--target', mock.url, '--replay', file]);
    expect(fixed.out).toContain('replay: no longer fails');
    expect(fixed.code).toBe(0);
  }, 60_000);
});

describe('conform --explore interrupted', () => {
  it('stops at the next step after SIGINT, still writes its reports, exit 2', async () => {
    const signals = new EventEmitter();
    let polls = 0;
    onRequest = (line) => {
      // The second round of polls: the first step has run.
      if (line.startsWith('GET /api/v1/events?') && ++polls === 5) signals.emit('SIGINT', 'SIGINT');
    };
    const { code, out, err } = await conform(['--target', lossyUrl, '--tier', 'spec', '--seed', '1', '--duration', '60s'], signals);
    expect(err).toContain('interrupted by SIGINT');
    expect(out).toContain('stopped: interrupted by SIGINT');
    expect(code).toBe(2);
    const result = await readJson<ExploreResult>('explore.json');
    expect(result.stopped?.kind).toBe('interrupted');
    expect(result.steps).toBeGreaterThanOrEqual(1);
    expect(result.steps).toBeLessThanOrEqual(3);
  }, 30_000);
});
