import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, type CallOptions } from '../helpers/test-server.js';
import { freshRealm, useTestRealm, nowOf } from '../helpers/harness.js';
import { channelForm, HOUR } from './support.js';

/** What the scheduled-message and reminder operations answer matches what openapi/ documents. */
const env = useTestRealm();
let schemaOf: (operationId: string, status: number) => ValidateFunction;
beforeAll(async () => {
  schemaOf = await loadResponseSchemas();
});

describe('responses match the OpenAPI document', () => {
  const soon = () => String(nowOf(env.server, env.realm) + HOUR);
  const cases: [string, string, string, () => CallOptions, number][] = [
    ['get-scheduled-messages', 'GET', '/api/v1/scheduled_messages', () => ({ as: env.who.member! }), 200],
    [
      'create-scheduled-message',
      'POST',
      '/api/v1/scheduled_messages',
      () => ({ as: env.who.member!, form: channelForm(env.server, env.realm) }),
      200,
    ],
    [
      'create-scheduled-message',
      'POST',
      '/api/v1/scheduled_messages',
      () => ({ as: env.who.member!, form: channelForm(env.server, env.realm, { to: '999' }) }),
      400,
    ],
    [
      'create-scheduled-message',
      'POST',
      '/api/v1/scheduled_messages',
      () => ({ as: env.who.member!, form: channelForm(env.server, env.realm, { to: '[51]' }) }),
      400,
    ],
    ['update-scheduled-message', 'PATCH', '/api/v1/scheduled_messages/1', () => ({ as: env.who.member!, form: { content: 'x' } }), 200],
    ['update-scheduled-message', 'PATCH', '/api/v1/scheduled_messages/4', () => ({ as: env.who.member!, form: { content: 'x' } }), 404],
    ['update-scheduled-message', 'PATCH', '/api/v1/scheduled_messages/1', () => ({ as: env.who.member!, form: {} }), 400],
    ['delete-scheduled-message', 'DELETE', '/api/v1/scheduled_messages/1', () => ({ as: env.who.member! }), 200],
    ['delete-scheduled-message', 'DELETE', '/api/v1/scheduled_messages/4', () => ({ as: env.who.member! }), 404],
    ['get-reminders', 'GET', '/api/v1/reminders', () => ({ as: env.who.member! }), 200],
    [
      'create-message-reminder',
      'POST',
      '/api/v1/reminders',
      () => ({ as: env.who.member!, form: { message_id: '1090', scheduled_delivery_timestamp: soon(), note: 'n' } }),
      200,
    ],
    ['create-message-reminder', 'POST', '/api/v1/reminders', () => ({ as: env.who.member!, form: { message_id: '1079' } }), 400],
    ['delete-reminder', 'DELETE', '/api/v1/reminders/5', () => ({ as: env.who.member! }), 200],
    ['delete-reminder', 'DELETE', '/api/v1/reminders/6', () => ({ as: env.who.member! }), 404],
    ['delete-reminder', 'DELETE', '/api/v1/reminders/6', () => ({}), 401],
  ];
  it.each(cases)('%s %s %s → %i', async (operationId, method, path, options, status) => {
    const res = await call(env.server, method, path, options());
    expect(res.status, res.text).toBe(status);
    const validate = schemaOf(operationId, status);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the pre-184 answers too: 405 for PATCH, 404 for an edit through creation', async () => {
    const { realm, who } = await freshRealm(env.server, 183);
    const patch = await call(env.server, 'PATCH', '/api/v1/scheduled_messages/1', { as: who.member!, form: { content: 'x' } });
    expect(schemaOf('update-scheduled-message', patch.status)(patch.body)).toBe(true);
    const edit = await call(env.server, 'POST', '/api/v1/scheduled_messages', {
      as: who.member!,
      form: channelForm(env.server, realm, { scheduled_message_id: '4' }),
    });
    expect([edit.status, schemaOf('create-scheduled-message', edit.status)(edit.body)]).toEqual([404, true]);
  });
});
