import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, credentials, startTestServer, type CallOptions } from '../helpers/test-server.js';

/** What the server answers matches what openapi/ says it answers, success and error alike. */
let server: MockServer;
let schemaOf: (operationId: string, status: number) => ValidateFunction;
beforeAll(async () => {
  server = await startTestServer();
  schemaOf = await loadResponseSchemas();
});
afterAll(() => server.close());

const member = () => credentials(server).member!;

describe('responses match the OpenAPI document', () => {
  const cases: [string, string, string, () => CallOptions, number][] = [
    ['render-message', 'POST', '/api/v1/messages/render', () => ({ as: member(), form: { content: '**x**', extra: '1' } }), 200],
    ['render-message', 'POST', '/api/v1/messages/render', () => ({ as: member() }), 400],
    ['render-message', 'POST', '/api/v1/messages/render', () => ({ form: { content: 'x' } }), 401],
    ['get-server-settings', 'GET', '/api/v1/server_settings', () => ({}), 200],
    ['get-server-settings', 'GET', '/api/v1/server_settings', () => ({ as: member() }), 200],
    ['create-scheduled-message', 'POST', '/api/v1/scheduled_messages', () => ({ as: member(), form: { content: 'x', to: 'nope' } }), 400],
    [
      'edit-navigation-view',
      'PATCH',
      '/api/v1/navigation_views/narrow/is/alerted',
      () => ({ as: member(), form: { is_pinned: 'yes' } }),
      400,
    ],
    ['register-queue', 'POST', '/api/v1/register', () => ({ as: member() }), 200],
    [
      'register-queue',
      'POST',
      '/api/v1/register',
      () => ({
        as: member(),
        form: {
          client_capabilities: '{"empty_topic_name": true, "archived_channels": true}',
          include_subscribers: 'partial',
          slim_presence: 'true',
        },
      }),
      200,
    ],
    ['register-queue', 'POST', '/api/v1/register', () => ({}), 200],
    ['register-queue', 'POST', '/api/v1/register', () => ({ form: { client_gravatar: 'true' } }), 400],
    ['get-events', 'GET', '/api/v1/events', () => ({ as: member(), query: { dont_block: 'true' } }), 200],
    ['get-events', 'GET', '/api/v1/events', () => ({ as: member(), query: { queue_id: 'gone', last_event_id: '-1' } }), 400],
    ['delete-queue', 'DELETE', '/api/v1/events', () => ({ as: member(), form: { queue_id: 'gone' } }), 400],
    ['get-stream', 'GET', '/api/v1/streams/1', () => ({}), 401],
    ['archive-stream', 'DELETE', '/api/v1/streams/1', () => ({}), 401],
    ['update-subscription-settings', 'POST', '/api/v1/users/me/subscriptions/properties', () => ({ as: member() }), 400],
    [
      'update-subscription-settings',
      'POST',
      '/api/v1/users/me/subscriptions/properties',
      () => ({ as: member(), form: { subscription_data: '[{"stream_id": 1, "property": "color", "value": "#f00f00", "stream": "x"}]' } }),
      400,
    ],
  ];
  it.each(cases)('%s %s %s → %i', async (operationId, method, path, options, status) => {
    const res = await call(server, method, path, options());
    expect(res.status).toBe(status);
    const validate = schemaOf(operationId, status);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
  });
});
