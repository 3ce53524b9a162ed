import { afterAll, beforeAll } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/** What a no-leak test file works on: set in beforeAll, so read it inside tests and hooks only. */
export interface TestServer {
  server: MockServer;
}

/**
 * The hooks the no-leak test files share: an in-process server of their own (demo realm), closed after
 * the file. No snapshot: the read sweep never changes the demo realm, and the event sweep makes a
 * fresh realm per case.
 */
export function useTestServer(): TestServer {
  const env = {} as TestServer;
  beforeAll(async () => {
    env.server = await startTestServer();
  });
  afterAll(() => env.server.close());
  return env;
}
