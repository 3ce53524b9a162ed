import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { callControl, startTestServer } from '../helpers/test-server.js';

/** The journal's filter against hostile query strings: each is a clear 400, never an empty list or an echo. */

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the request journal refuses a filter that cannot mean anything', () => {
  it('since later than until: a 400, not an empty list', async () => {
    const answer = await callControl(server, 'GET', '/__mock/realms/demo/requests?since=200&until=100');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'since (200) is later than until (100).' });
  });

  it('a long unknown operation is named in the error, cut short', async () => {
    const answer = await callControl(server, 'GET', `/__mock/realms/demo/requests?operation=${'x'.repeat(8_000)}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('BAD_REQUEST');
    expect(String(answer.body.msg)).toMatch(/^operation must be an operation ID of the document \(send-message\); got "x+…"\.$/);
    expect(answer.text.length).toBeLessThan(300);
  });
});
