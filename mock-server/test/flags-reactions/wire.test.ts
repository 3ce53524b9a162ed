import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { openQueue, useTestRealm } from '../helpers/harness.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, type CallOptions } from '../helpers/test-server.js';
import { HOME, post, postDirect } from './support.js';

/**
 * The answers and events of area flags-reactions match what openapi/ says, success and error alike: the
 * operations' bodies, and `reaction` / `update_message_flags` events as GET /events delivers them.
 */
const env = useTestRealm();
let schemaOf: (operationId: string, status: number) => ValidateFunction;
beforeAll(async () => {
  schemaOf = await loadResponseSchemas();
});

function expectValid(operationId: string, status: number, body: unknown): void {
  const validate = schemaOf(operationId, status);
  expect(validate(body), `${operationId} ${status}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(body)}`).toBe(true);
}

describe('responses of area flags-reactions match the OpenAPI document', () => {
  it.each<[string, string, (id: number) => string, (id: number) => CallOptions, number]>([
    ['add-reaction', 'POST', (id) => `/api/v1/messages/${id}/reactions`, () => ({ form: { emoji_name: 'octopus' } }), 200],
    ['add-reaction', 'POST', (id) => `/api/v1/messages/${id}/reactions`, () => ({ form: { emoji_name: 'nonsense' } }), 400],
    ['add-reaction', 'POST', () => `/api/v1/messages/1/reactions`, () => ({ form: {} }), 400],
    ['remove-reaction', 'DELETE', (id) => `/api/v1/messages/${id}/reactions`, () => ({ form: { emoji_name: 'tada' } }), 400],
    [
      'update-message-flags',
      'POST',
      () => '/api/v1/messages/flags',
      (id) => ({ form: { messages: `[${id}]`, op: 'add', flag: 'starred' } }),
      200,
    ],
    [
      'update-message-flags',
      'POST',
      () => '/api/v1/messages/flags',
      (id) => ({ form: { messages: `[${id}]`, op: 'remove', flag: 'read' } }),
      200,
    ],
    [
      'update-message-flags',
      'POST',
      () => '/api/v1/messages/flags',
      (id) => ({ form: { messages: `[${id}]`, op: 'add', flag: 'x' } }),
      400,
    ],
    [
      'update-message-flags-for-narrow',
      'POST',
      () => '/api/v1/messages/flags/narrow',
      () => ({ form: { anchor: 'newest', num_before: '10', num_after: '0', narrow: '[]', op: 'add', flag: 'read' } }),
      200,
    ],
    [
      'update-message-flags-for-narrow',
      'POST',
      () => '/api/v1/messages/flags/narrow',
      () => ({
        form: {
          anchor: 'newest',
          num_before: '1',
          num_after: '0',
          narrow: '[{"operator": "is", "operand": "x"}]',
          op: 'add',
          flag: 'read',
        },
      }),
      400,
    ],
    ['mark-all-as-read', 'POST', () => '/api/v1/mark_all_as_read', () => ({}), 200],
    ['mark-stream-as-read', 'POST', () => '/api/v1/mark_stream_as_read', () => ({ form: { stream_id: String(HOME) } }), 200],
    ['mark-stream-as-read', 'POST', () => '/api/v1/mark_stream_as_read', () => ({ form: { stream_id: '999999' } }), 400],
  ])('%s %s → %i', async (operationId, method, path, options, status) => {
    const id = await post(env, env.who.member!, HOME);
    const res = await call(env.server, method, path(id), { as: env.who.member_2!, ...options(id) });
    expect(res.status).toBe(status);
    expectValid(operationId, status, res.body);
  });

  it('401 without credentials', async () => {
    const res = await call(env.server, 'POST', '/api/v1/mark_all_as_read', {});
    expect(res.status).toBe(401);
    expectValid('mark-all-as-read', 401, res.body);
  });

  it('delivers events the document describes (reaction, update_message_flags with message_details, all)', async () => {
    const reader = env.who.member_2!;
    const id = await post(env, env.who.member!, HOME);
    const dm = await postDirect(env, env.who.member!, [reader.user_id]);
    const { queueId } = await openQueue(env.server, reader, { event_types: '["reaction", "update_message_flags"]' });
    const form = (f: Record<string, string>) => ({ as: reader, form: f });
    await call(env.server, 'POST', `/api/v1/messages/${id}/reactions`, form({ emoji_name: 'teamchat' }));
    await call(env.server, 'DELETE', `/api/v1/messages/${id}/reactions`, form({ emoji_name: 'teamchat' }));
    await call(env.server, 'POST', '/api/v1/messages/flags', form({ messages: `[${id}, ${dm}]`, op: 'add', flag: 'read' }));
    await call(env.server, 'POST', '/api/v1/messages/flags', form({ messages: `[${id}, ${dm}]`, op: 'remove', flag: 'read' }));
    await call(env.server, 'POST', '/api/v1/mark_all_as_read', { as: reader });
    const res = await call(env.server, 'GET', '/api/v1/events', {
      as: reader,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    const events = res.body.events as { type: string; op?: string; all?: boolean }[];
    expect(events.map((e) => `${e.type}/${e.op}`)).toEqual([
      'reaction/add',
      'reaction/remove',
      'update_message_flags/add',
      'update_message_flags/remove',
      'update_message_flags/add',
    ]);
    expect(events.at(-1)!.all).toBe(true);
    expectValid('get-events', 200, res.body);
  });
});
