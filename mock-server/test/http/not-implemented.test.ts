import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * Operations in openapi/ whose behaviour later issues implement. Each answers a clear JSON error
 * (code NOT_IMPLEMENTED, HTTP 400: not a 5xx, which the Python client would retry ten times).
 * Implementing an operation means removing it from this list; the test fails if the list is stale.
 */
const NOT_YET_IMPLEMENTED = [
  // Issue 3: events.
  'register-queue', 'get-events', 'delete-queue',
  // Issue 4: channels, subscriptions, topics, sending.
  'get-streams', 'update-stream', 'unsubscribe', 'subscribe', 'get-subscriptions', 'mark-topic-as-read', 'get-stream-topics', 'send-message',
  // Issue 5: messages, scheduled messages, reminders.
  'get-message', 'report-message', 'create-scheduled-message', 'update-scheduled-message', 'get-scheduled-messages', 'delete-scheduled-message',
  'create-message-reminder', 'get-reminders', 'delete-reminder',
  // Issue 6: users, statuses, drafts, snippets, navigation views, linkifiers.
  'update-status', 'update-status-for-user', 'get-user-status', 'create-drafts', 'get-drafts', 'edit-draft', 'delete-draft',
  'update-user', 'create-user', 'deactivate-user', 'get-users', 'get-user', 'get-own-user', 'fetch-api-key',
  'edit-navigation-view', 'get-navigation-views', 'add-navigation-view', 'remove-navigation-view',
  'edit-saved-snippet', 'get-saved-snippets', 'create-saved-snippet', 'delete-saved-snippet',
  'add-linkifier', 'get-linkifiers', 'update-linkifier', 'remove-linkifier', 'reorder-linkifiers',
];

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('operations not implemented yet', () => {
  it('names only operations of the OpenAPI document', () => {
    const ids = new Set(server.context.operations.map((op) => op.operationId));
    expect(NOT_YET_IMPLEMENTED.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('answers NOT_IMPLEMENTED for exactly the listed operations, after authentication', async () => {
    const member = credentials(server).member!;
    const answers: Record<string, string> = {};
    for (const op of server.context.operations) {
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'fragment' ? 'narrow/is/alerted' : '1'));
      const res = await call(server, op.method, path, { as: member });
      expect(res.body.result, `${op.operationId} answered ${res.text}`).toBeDefined();
      expect(res.status, `${op.operationId}`).toBeLessThan(500);
      answers[op.operationId] = String(res.body.code);
    }
    const notImplemented = Object.keys(answers).filter((id) => answers[id] === 'NOT_IMPLEMENTED').sort();
    expect(notImplemented).toEqual([...NOT_YET_IMPLEMENTED].sort());
  });

  it('checks credentials before saying so', async () => {
    const res = await call(server, 'GET', '/api/v1/streams');
    expect(res.status).toBe(401);
  });
});
