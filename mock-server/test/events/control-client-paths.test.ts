import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ControlClient } from '../../src/control/client.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The control client from plain JavaScript, where a user ID may arrive as any text (a form field, a CLI
 * argument): it is one path segment, so it can never climb to another route of the realm.
 */

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a user ID that is not a number', () => {
  it.each(['deactivateUser', 'reactivateUser', 'rotateApiKey'] as const)('%s refuses it with a 400 and changes nothing', async (method) => {
    const client = new ControlClient(server.url);
    // "../../demo" would make …/users/../../demo/deactivate, that is the whole realm's deactivate route.
    const climbing = '../../demo' as unknown as number;
    await expect(client[method]('demo', climbing)).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(server.context.store.realm('demo')!.realm.realm.deactivated ?? false).toBe(false);
  });
});
