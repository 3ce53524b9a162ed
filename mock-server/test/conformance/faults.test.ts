import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../conformance/src/catalogue.js';
import type { RuleDef, RunResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios, selectScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The suite fails when the server is wrong (issue 7 "Proof"): the mock behind a proxy that injects one
 * known fault at a time. Each fault must be reported by a failing scenario against the rule it breaks,
 * and the suite's other scenarios for those rules must notice nothing else.
 */
type Answer = { status: number; body: Record<string, unknown> };
type Fault = (req: IncomingMessage, answer: Answer) => Answer;

interface Case {
  name: string;
  /** The rules whose scenarios run through the faulty proxy. */
  rules: string[];
  /** A failing check must name one of these rules. */
  reportedAs: string[];
  fault: Fault;
}

const path = (req: IncomingMessage) => (req.url ?? '').split('?')[0]!;

const CASES: Case[] = [
  {
    name: 'a wrong code: NOT_FOUND answered as BAD_REQUEST for an unknown navigation view',
    rules: ['R4.12-3', 'R7-4'],
    reportedAs: ['R4.12-3', 'R7-4'],
    fault: (req, a) => (path(req).startsWith('/api/v1/navigation_views/') && a.body.code === 'NOT_FOUND' ? { status: 400, body: { ...a.body, code: 'BAD_REQUEST' } } : a),
  },
  {
    name: 'a missing field: creating drafts answers without ids',
    rules: ['R4.6-2'],
    reportedAs: ['R4.6-2'],
    fault: (req, a) => {
      if (req.method !== 'POST' || path(req) !== '/api/v1/drafts' || a.body.result !== 'success') return a;
      const { ids: _ids, ...rest } = a.body;
      return { status: a.status, body: rest };
    },
  },
  {
    name: 'a permission that lets the wrong role through: a non-administrator updates a user',
    rules: ['R4.7-1'],
    reportedAs: ['R4.7-1', 'R4.7-11', 'R5-2'],
    fault: (req, a) => (req.method === 'PATCH' && /^\/api\/v1\/users\/\d+$/.test(path(req)) && a.body.msg === 'Insufficient permission' ? { status: 200, body: { result: 'success', msg: '' } } : a),
  },
  {
    name: 'a queue that never expires: a collected queue still answers',
    rules: ['R6-2', 'R6-3', 'R3-10'],
    reportedAs: ['R6-2', 'R6-3', 'R3-10'],
    fault: (req, a) => (path(req) === '/api/v1/events' && a.body.code === 'BAD_EVENT_QUEUE_ID' ? { status: 200, body: { result: 'success', msg: '', events: [] } } : a),
  },
];

/** A proxy in front of the mock applying `fault` to JSON answers under /api/v1 (the control API passes through). */
async function faultyProxy(upstream: string, fault: Fault): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
        const up = await request(upstream + req.url, { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const text = await up.body.text();
        let status = up.statusCode;
        let out = text;
        if (req.url?.startsWith('/api/v1/')) {
          try {
            const answer = fault(req, { status, body: JSON.parse(text) as Record<string, unknown> });
            status = answer.status;
            out = JSON.stringify(answer.body);
          } catch {
            // Not JSON: passed through as it is.
          }
        }
        res.writeHead(status, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
        res.end(out);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let mock: MockServer;
let catalogue: RuleDef[];
let schemas: ResponseSchemas;
beforeAll(async () => {
  mock = await startTestServer();
  catalogue = await loadCatalogue();
  schemas = await ResponseSchemas.load();
});
afterAll(() => mock.close());

async function runThrough(fault: Fault, rules: string[]): Promise<RunResult> {
  const proxy = await faultyProxy(mock.url, fault);
  try {
    const target = await Target.connect(proxy.url);
    const scenarios = selectScenarios(SCENARIOS, { rules });
    expect(scenarios.length, `scenarios checking ${rules.join(', ')}`).toBeGreaterThan(0);
    return await runScenarios({ target, scenarios, catalogue, schemas, workers: 2, slow: false, allowDestructive: false });
  } finally {
    proxy.server.close();
  }
}

describe('the suite reports a faulty server against the rule it breaks', () => {
  it('passes the same scenarios through a proxy that changes nothing', async () => {
    const run = await runThrough((_req, a) => a, CASES.flatMap((c) => c.rules));
    expect(run.totals.failed + run.totals.error, JSON.stringify(run.scenarios.filter((s) => s.status !== 'passed').map((s) => [s.id, s.reason]))).toBe(0);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const run = await runThrough(c.fault, c.rules);
    const failing = run.scenarios.filter((s) => s.status === 'failed');
    const reported = failing.flatMap((s) => s.checks.filter((k) => !k.ok).map((k) => k.rule));
    expect(failing.length, 'some scenario fails').toBeGreaterThan(0);
    expect(reported.some((rule) => rule !== null && c.reportedAs.includes(rule)), `failing checks name ${JSON.stringify(reported)}`).toBe(true);
    const uncovered = run.rules.filter((r) => c.reportedAs.includes(r.id) && r.failed.length > 0);
    expect(uncovered.length, 'the rule shows as failing in the coverage').toBeGreaterThan(0);
  });
});
