import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../src/dsl.js';
import { ResponseSchemas } from '../src/openapi.js';
import { runScenarios } from '../src/runner.js';
import { Target } from '../src/target.js';

/**
 * Scenario steps against a stub that answers every request with a bare success envelope (node:http on loopback,
 * never the mock): a step that needs a field says which request answered without it, and a scenario that reads
 * an answer it did not check is an `error` named by that answer, never a JavaScript error.
 */
let server: Server;
let target: Target;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body =
        req.url === '/api/v1/register'
          ? { result: 'success', msg: '', queue_id: null, service_feature_level: 333 }
          : req.url === '/api/v1/users'
            ? { result: 'success', msg: '', members: null }
            : req.url?.includes('probe=')
              ? { result: 'error', code: 'BAD_REQUEST', msg: 'nope' }
              : { result: 'success', msg: '' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = await Target.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise((done) => server.close(done)));

// A document without operations: the test is about the runner and the context, not the response schemas.
const schemas = ResponseSchemas.of({ openapi: '3.1.0', info: { title: 'none', version: '0' }, paths: {} });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = (s: Scenario<any, any>) =>
  runScenarios({ target, scenarios: [s], catalogue: [], schemas, workers: 1, slow: false, allowDestructive: false }).then(
    (r) => r.scenarios[0]!,
  );

describe('a step that needs a field of an answer (ctx.need)', () => {
  it('missing: an error naming the request, its status and the field', async () => {
    const result = await run(
      scenario({
        id: 'x/missing',
        title: 'reads a user',
        rules: ['R1-1'],
        given: async (ctx) => ctx.need(await ctx.as('administrator').get('/api/v1/users/5'), 'user', 'object'),
        when: (ctx) => ctx.as('member').get('/api/v1/users/me'),
        then: (ctx, res) => void ctx.expectSuccess('R1-1', res),
      }),
    );
    expect(result).toMatchObject({ status: 'error', reason: 'could not set up: GET /api/v1/users/5 answered 200 without `user`' });
  });

  it('of the wrong kind: what it was and what the step needs', async () => {
    const result = await run(
      scenario({
        id: 'x/kind',
        title: 'lists users',
        rules: ['R1-1'],
        when: async (ctx) => ctx.need(await ctx.as('administrator').get('/api/v1/users'), 'members', 'objects'),
        then: (ctx) => void ctx.check('R1-1', true, 'unreached'),
      }),
    );
    expect(result).toMatchObject({
      status: 'error',
      reason: 'when: GET /api/v1/users answered 200 with `members` null, not an array of objects',
    });
  });
});

describe('a setup step that must succeed (ctx.must)', () => {
  it('names the request with what it answered', async () => {
    const result = await run(
      scenario({
        id: 'x/must',
        title: 'reads a user that must be there',
        rules: ['R1-1'],
        given: async (ctx) => ctx.must(await ctx.as('administrator').get('/api/v1/users/5', { probe: 'x' }), 'read user 5'),
        when: (ctx) => ctx.as('member').get('/api/v1/users/me'),
        then: (ctx, res) => void ctx.expectSuccess('R1-1', res),
      }),
    );
    expect(result).toMatchObject({
      status: 'error',
      reason:
        'could not set up: read user 5 failed: GET /api/v1/users/5?probe=x answered 200 {"result":"error","code":"BAD_REQUEST","msg":"nope"}',
    });
  });
});

describe('a scenario that reads an answer it did not check', () => {
  it('is an error named by the last answer, without the JavaScript error it caused', async () => {
    const result = await run(
      scenario({
        id: 'x/unchecked',
        title: 'reads a user without checking',
        rules: ['R1-1'],
        when: (ctx) => ctx.as('administrator').get('/api/v1/users/5'),
        then: (ctx, res) => void ctx.check('R1-1', (res.body.user as { full_name: string }).full_name !== '', 'named'),
      }),
    );
    expect(result.status).toBe('error');
    expect(result.reason).toBe(
      'then: the scenario could not use the answers it got (the last: GET /api/v1/users/5 answered 200 {"result":"success","msg":""})',
    );
    expect(result.reason).not.toMatch(/Cannot read|TypeError|undefined/);
  });
});
