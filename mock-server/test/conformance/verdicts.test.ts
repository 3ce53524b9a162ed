import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../conformance/src/cli.js';
import type { Finding, ScenarioResult } from '../../../conformance/src/model.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The suite's verdicts as a server implementer meets them, through `teamchat conform` (console and JSON):
 * a relay in front of the mock without its control API that leaves `stream_id` out of every channel object
 * (one realistic bug), and a stub that answers register and then `{}` or 404 to everything. A dropped field
 * is one finding listing the scenarios it broke; a stub run with --max-failures 20 stays short and shows no
 * JavaScript error. The suite only speaks HTTP to both.
 */

/** Keys under which answers carry channel objects (listings, one channel, subscriptions, register). */
const CHANNEL_KEYS = new Set(['streams', 'stream', 'subscriptions', 'never_subscribed', 'unsubscribed']);

/** The answer with `stream_id` left out of channel objects (objects with a name: not unread counts). */
function dropStreamId(value: unknown, inChannels = false): unknown {
  if (Array.isArray(value)) return value.map((v) => dropStreamId(v, inChannels));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (inChannels && k === 'stream_id' && 'name' in value) continue;
    out[k] = dropStreamId(v, CHANNEL_KEYS.has(k));
  }
  return out;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function relayTo(upstream: string) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const sent = await body(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const up = await request(upstream + req.url, {
      method: req.method as 'GET',
      headers,
      body: sent.length > 0 ? sent : undefined,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    let text = await up.body.text();
    try {
      text = JSON.stringify(dropStreamId(JSON.parse(text)));
    } catch {
      // Not JSON: passed on as it is.
    }
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') }).end(text);
  };
}

/** Answers register (so a run starts) and then `{}`, with 200 or 404, to everything; `/__mock/` is 404: a server. */
async function stub(req: IncomingMessage, res: ServerResponse): Promise<void> {
  await body(req);
  const path = (req.url ?? '').split('?')[0]!;
  const json = (status: number, answer: unknown): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  if (req.method === 'POST' && path === '/api/v1/register')
    return json(200, { result: 'success', msg: '', queue_id: 'q', last_event_id: -1, service_feature_level: 412 });
  json(path.startsWith('/__mock') || path.length % 2 === 1 ? 404 : 200, {});
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    handler(req, res).catch((e: Error) => res.writeHead(502).end(e.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function conform(url: string, args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'conform-verdicts-'));
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await main(['conform', '--target', url, '--reporter', 'console,json', '--report-dir', dir, ...args], {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
    });
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
      findings: Finding[];
      scenarios: ScenarioResult[];
      failingRules: { rule: string | null }[];
      stopped?: { kind: string };
    };
    return { code, console: out.join(''), err: err.join(''), report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a JavaScript error thrown inside the suite would print. */
const JS_ERROR = /Cannot read propert|is not a function|is not iterable|TypeError|ReferenceError|undefined \(reading/;

describe('verdicts against a relay that drops one answer field', () => {
  let mock: MockServer;
  let relay: { server: Server; url: string };
  beforeAll(async () => {
    mock = await startTestServer({ control: false, clock: 'system' });
    relay = await listen(relayTo(mock.url));
  });
  afterAll(async () => {
    await close(relay.server);
    await mock.close();
  });

  it('shows one finding, the missing field, with the scenarios it broke', async () => {
    // Scenarios that read channels through four operations (listings, one channel, register, updates).
    const grep =
      '^(errors/channel-list|errors/register-subscriptions|permissions/channel-list|permissions/update-channel|coverage/group-setting)';
    const run = await conform(relay.url, ['--grep', grep]);
    expect(run.code).toBe(1);
    const broken = run.report.scenarios.filter((s) => s.status === 'failed' || s.status === 'error').map((s) => s.id);
    expect(broken.length).toBeGreaterThan(10);
    expect(run.report.findings).toHaveLength(1);
    const [finding] = run.report.findings;
    expect(finding).toMatchObject({ id: 'F1', kind: 'schema', title: 'answers lack the required field `stream_id`' });
    expect([...finding!.scenarios].sort()).toEqual([...broken].sort());
    // At least the listing and register (setups that need the field stop there, as errors naming the answer).
    expect(finding!.operations.length).toBeGreaterThanOrEqual(2);
    // The console: the digest, then that one finding with its count and scenarios, then a line per scenario.
    expect(run.console.match(/^F\d+ /gm)).toEqual(['F1 ']);
    // The finding names where its expectation comes from (the operation's spec section, for a schema finding).
    expect(run.console).toMatch(
      new RegExp(`F1 \\(schema\\) answers lack the required field \`stream_id\` \\(spec §[\\d.]+\\)\\n   ${broken.length} scenarios, `),
    );
    expect(run.console.indexOf('Failing rules')).toBeLessThan(run.console.indexOf('Findings: 1 cause'));
    for (const id of broken)
      expect(run.console).toContain(`\n  ${run.report.scenarios.find((s) => s.id === id)!.status === 'error' ? 'E' : 'F'} ${id}  F1\n`);
    // A parsing check never blames the request for what the answer left out.
    expect(run.report.failingRules.map((r) => r.rule)).not.toContain('R1-1');
    expect(run.console).toMatch(/-u '[^']+:'"\$KEY_(member|administrator|guest|member_2|bot)"/);
    expect(run.console).not.toMatch(JS_ERROR);
  }, 120_000);
});

describe('verdicts against a stub server', () => {
  let target: { server: Server; url: string };
  beforeAll(async () => {
    target = await listen(stub);
  });
  afterAll(() => close(target.server));

  it('--max-failures 20: under 200 console lines, no JavaScript error text, the rest not run', async () => {
    const run = await conform(target.url, ['--max-failures', '20']);
    expect(run.code).toBe(1);
    expect(run.report.stopped?.kind).toBe('max-failures');
    const lines = run.console.split('\n').length;
    expect(lines).toBeLessThan(200);
    expect(run.console).not.toMatch(JS_ERROR);
    expect(run.err).toMatch(/stopped after \d+ failed scenarios \(--max-failures 20\)/);
    // Answers that are not the envelope are one cause, not one per operation.
    expect(run.report.findings[0]!.title).toContain('not the JSON envelope');
  }, 120_000);
});
