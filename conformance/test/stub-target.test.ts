import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../src/catalogue.js';
import type { RunResult } from '../src/model.js';
import { ResponseSchemas } from '../src/openapi.js';
import { runScenarios } from '../src/runner.js';
import { Target } from '../src/target.js';
import { SCENARIOS } from '../scenarios/index.js';

/**
 * Every scenario of both tiers against a stub (node:http on loopback) that answers every request with a bare
 * success envelope: register works, nothing else holds a field. Every scenario must end with a verdict a server
 * implementer can read: no JavaScript error text anywhere in the results, and every scenario that could not go
 * on names the answer it stopped at (ctx.need, ctx.must, a SetupError), never the runner's fallback for a
 * throw it did not expect. An event poll answered without an `events` list is not waited on again
 * (events/support.ts eventsUntil), so the run takes a few seconds.
 */
const JS_ERROR =
  /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|Cannot convert|Unexpected token|JSON at position|Maximum call stack|Invalid array length|TypeError|RangeError|SyntaxError|ReferenceError/;
const FALLBACK = /could not use the answers it got|stopped before its first request/;

let server: Server;
let run: RunResult;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body =
        req.method === 'POST' && req.url === '/api/v1/register'
          ? { result: 'success', msg: '', queue_id: 'stub-queue', last_event_id: -1, service_feature_level: 412 }
          : { result: 'success', msg: '' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = await Target.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  run = await runScenarios({
    target,
    scenarios: SCENARIOS,
    catalogue: await loadRules(),
    schemas: await ResponseSchemas.load(),
    workers: 16,
    slow: false,
    allowDestructive: true,
    tiers: ['spec', 'companion'],
  });
}, 240_000);
afterAll(() => new Promise((done) => server.close(done)));

describe('the whole suite against a stub answering a bare success envelope to everything', () => {
  it('runs every scenario to a verdict, none passing', () => {
    expect(run.scenarios).toHaveLength(SCENARIOS.length);
    expect(run.totals.passed).toBe(0);
    expect(run.totals.failed + run.totals.error).toBeGreaterThan(400);
  });

  it('shows no JavaScript error text in any reason or check', () => {
    const texts = run.scenarios.flatMap((s) => [s.reason ?? '', ...s.checks.map((c) => c.message)].map((t) => `${s.id}: ${t}`));
    expect(texts.filter((t) => JS_ERROR.test(t))).toEqual([]);
  });

  it('names the answer every scenario stopped at', () => {
    const unnamed = run.scenarios.filter((s) => FALLBACK.test(s.reason ?? '')).map((s) => `${s.id}: ${s.reason}`);
    expect(unnamed).toEqual([]);
    // The typed reads say which request answered without which field.
    expect(run.scenarios.map((s) => s.reason)).toContain('could not set up: GET /api/v1/users/15 answered 200 without `user`');
  });
});
