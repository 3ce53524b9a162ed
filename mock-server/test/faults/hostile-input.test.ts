import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { callControl, startTestServer } from '../helpers/test-server.js';

/** Fault rules from a hostile client: each refusal is a short, clear 400 that stores nothing. */

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => server.faults.clear());
afterAll(() => server.close());

const add = (rule: unknown) => callControl(server, 'POST', '/__mock/realms/demo/faults', rule);

describe('a refused value is named, cut short', () => {
  it.each([
    ['operation', { operation: 'x'.repeat(50_000), effect: { type: 'reset' } }, /^operation: no operation 'x{79}…' in /],
    ['user', { user: `${'y'.repeat(50_000)}@example.test`, effect: { type: 'reset' } }, /^user: no user "y{78}… in /],
    ['field name', { ['z'.repeat(50_000)]: 1, effect: { type: 'reset' } }, /^Unknown field 'z{79}…' \(known: /],
  ])('%s', async (_name, rule, msg) => {
    const answer = await add(rule);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('BAD_REQUEST');
    expect(String(answer.body.msg)).toMatch(msg);
    expect(answer.text.length).toBeLessThan(400);
    expect(server.faults.list()).toEqual([]);
  });
});
