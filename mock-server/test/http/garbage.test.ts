import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { requiredSample } from '../helpers/samples.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * Schemathesis-style sweep: every parameter of every operation, one at a time, gets hostile values
 * (the others valid). Whatever the operation does with them, the answer is the JSON envelope with a
 * 2xx or 4xx status: never a 5xx, never HTML, and a failed request carries a code and a message.
 */
const HOSTILE = [
  '',
  ' ',
  '{',
  '[',
  'null',
  'undefined',
  '[]',
  '{}',
  '"x"',
  '1.5',
  '-1',
  '1e999',
  '9'.repeat(30),
  'True',
  '\u0000',
  '__proto__',
  '{"__proto__":{"x":1}}',
  '[[[[[[[[[[1]]]]]]]]]]',
  'x'.repeat(20_000),
];
const HOSTILE_PATH = ['0', '-1', '99999999999999999999', 'abc', '%00', '..%2F..', '1.5'];

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('hostile parameter values never break the server', () => {
  it('answers every operation with a JSON envelope and a status below 500', async () => {
    const member = credentials(server).member!;
    const failures: string[] = [];
    for (const op of server.context.operations) {
      const { path, params } = requiredSample(op);
      const attempts: { path: string; params: Record<string, string> }[] = [];
      for (const spec of op.params) {
        if (spec.in === 'path') {
          for (const bad of HOSTILE_PATH)
            attempts.push({ path: op.path.replace(/\{[^}]+\}/g, (m) => (m === `{${spec.name}}` ? bad : '1')), params });
        } else {
          for (const bad of HOSTILE) attempts.push({ path, params: { ...params, [spec.name]: bad } });
        }
      }
      for (const attempt of attempts) {
        const res = await call(
          server,
          op.method,
          attempt.path,
          op.method === 'GET' ? { as: member, query: attempt.params } : { as: member, form: attempt.params },
        );
        const ok =
          res.status < 500 &&
          (res.status === 200
            ? res.body.result === 'success'
            : res.body.result === 'error' && typeof res.body.code === 'string' && typeof res.body.msg === 'string');
        if (!ok)
          failures.push(
            `${op.operationId} ${attempt.path} ${JSON.stringify(attempt.params).slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  }, 120_000);
});
