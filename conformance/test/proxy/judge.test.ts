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
});
