import { beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../src/catalogue.js';
import { ResponseSchemas } from '../../src/openapi.js';
import { ContractFacts } from '../../src/proxy/contract.js';
import { Judge } from '../../src/proxy/judge.js';

/**
 * Answers of the reference (the mock, which `conform` passes) that the proxy must not report: each was a false
 * finding seen with `teamchat conform` run through `teamchat proxy` to the mock.
 */
let judge: Judge;
beforeAll(async () => {
  const [schemas, facts, catalogue] = await Promise.all([ResponseSchemas.load(), ContractFacts.load(), loadRules()]);
  judge = new Judge(schemas, facts, catalogue);
}, 30_000);

describe('the proxy judge on the reference answers', () => {
  it('takes both documented UNAUTHORIZED_PRINCIPAL messages of unsubscribe below level 208 (deactivated, unknown)', () => {
    for (const msg of ['User is deactivated', 'No such user']) {
      const verdict = judge.judge(
        {
          method: 'DELETE',
          path: '/api/v1/users/me/subscriptions',
          params: { subscriptions: '["home"]', principals: '[2000000000]' },
          status: 403,
          body: { result: 'error', msg, code: 'UNAUTHORIZED_PRINCIPAL' },
        },
        207,
      );
      expect(verdict.judged).toContain('R7-6');
      expect(verdict.findings, msg).toEqual([]);
    }
  });

  it("takes the document's x-wire-errors on any operation (a client's unreadable request), and only those", () => {
    const answer = (status: number, msg: string) =>
      judge.judge(
        { method: 'GET', path: '/api/v1/users/me', params: {}, status, body: { result: 'error', msg, code: 'BAD_REQUEST' } },
        412,
      );
    for (const [status, msg] of [
      [400, 'This endpoint requires HTTP basic authentication.'],
      [400, 'The request body could not be read.'],
      [415, 'Unsupported charset "LATIN-9".'],
      [431, 'Request headers are too large (limit: 65536 bytes).'],
    ] as const)
      expect(answer(status, msg).findings, msg).toEqual([]);
    // get-own-user documents no 400: any other BAD_REQUEST there is still the server's fault, as is a wire
    // message under another status.
    expect(answer(400, 'Insufficient permission').findings.map((f) => f.rule)).toContain('R7-1');
    expect(answer(403, 'The request body could not be read.').findings.map((f) => f.rule)).toContain('R7-1');
  });

  it("takes the reference's rate-limit answer on any operation a caller authenticates to, fraction and all", () => {
    const limited = (method: string, path: string) =>
      judge.judge(
        {
          method,
          path,
          params: {},
          status: 429,
          body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 0.873 },
        },
        412,
      );
    for (const [method, path] of [
      ['GET', '/api/v1/users/me'],
      ['POST', '/api/v1/messages'],
      ['GET', '/api/v1/events'],
      ['POST', '/api/v1/register'],
    ] as const)
      expect(limited(method, path).findings, `${method} ${path}`).toEqual([]);
    // Without its seconds it is not the reference's answer.
    const bare = judge.judge(
      {
        method: 'GET',
        path: '/api/v1/users/me',
        params: {},
        status: 429,
        body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT' },
      },
      412,
    );
    expect(bare.findings.map((f) => f.message).join('\n')).toMatch(/retry-after/);
  });
});
