import { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, callControl, startTestServer } from '../helpers/test-server.js';

/**
 * Requests outside /api/v1 (the control API, the inspector, the contract) run through express's router on node's
 * own objects: nothing swaps a request's or an answer's prototype, which kept each such request's objects alive
 * through the young generation's collections (app.ts restRouter, docs/benchmarks.md).
 */

let server: MockServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

describe('requests outside the API', () => {
  it('keep node’s prototypes: no request or answer has its prototype swapped', async () => {
    server = await startTestServer();
    const swapped: string[] = [];
    const setPrototypeOf = Object.setPrototypeOf;
    vi.spyOn(Object, 'setPrototypeOf').mockImplementation((target: object, proto: object | null) => {
      if (target instanceof IncomingMessage || target instanceof ServerResponse) swapped.push(target.constructor.name);
      return setPrototypeOf(target, proto) as object;
    });
    const answers = [
      await callControl(server, 'GET', '/__mock/'),
      await callControl(server, 'POST', '/__mock/realms/demo/events', { event: { type: 'probe' } }),
      await call(server, 'GET', '/', { headers: { accept: 'text/html' } }),
      await call(server, 'GET', '/openapi.json'),
      await call(server, 'GET', '/docs'),
      await call(server, 'GET', '/no-such-page'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 404]);
    expect(swapped).toEqual([]);
  });
});
