import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { drain, error, freshRealm, openQueue, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import { advance, channelForm, directForm, editScheduled, HOUR, listScheduled, schedule } from './support.js';

/** Where scheduled messages change with the feature level (spec §9: 184, 248, 334, 370). */
const env = useTestRealm({ realm: 'demo' });
const NOT_FOUND = { result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' };

describe('level 184: editing moved to its own operation, scheduled_message_id left creation', () => {
  it('below 184 the path has no PATCH (405 with the methods it has); from 184 it does', async () => {
    const old = await freshRealm(env.server, 183);
    const res = await editScheduled(env.server, old.who.member!, 1, { content: 'x' });
    expect([res.status, res.body]).toEqual([
      405,
      { result: 'error', code: 'BAD_REQUEST', msg: 'Method Not Allowed', allowed_methods: ['DELETE', 'OPTIONS'] },
    ]);
    expect(res.headers.allow).toBe('DELETE, OPTIONS');
    const current = await freshRealm(env.server, 184);
    expect((await editScheduled(env.server, current.who.member!, 1, { content: 'x' })).body).toEqual(success());
  });

  it('below 184 creation with scheduled_message_id replaces that message, answers its ID and sends an update', async () => {
    const { realm, who } = await freshRealm(env.server, 183);
    const { queueId } = await openQueue(env.server, who.member!);
    const res = await schedule(
      env.server,
      who.member!,
      directForm(env.server, realm, [16, 15], { content: 'Replaced', scheduled_message_id: '1' }),
    );
    expect(res.body).toEqual(success({ scheduled_message_id: 1 }));
    const listed = await listScheduled(env.server, who.member!);
    expect(listed.map((s) => s.scheduled_message_id).sort()).toEqual([1, 2, 3]);
    const one = listed.find((s) => s.scheduled_message_id === 1)!;
    expect([one.type, one.to, one.content, 'topic' in one]).toEqual(['private', [15, 16], 'Replaced', false]);
    const events = await drain(env.server, who.member!, queueId);
    expect(events).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: one }]);
  });

  it('below 184 an edit through creation makes a failed message pending again', async () => {
    const { realm, who } = await freshRealm(env.server, 183);
    await schedule(env.server, who.member!, channelForm(env.server, realm, { scheduled_message_id: '3' }));
    expect(tables(env.server, realm).scheduled_messages['3']).toMatchObject({ failed: false, to: 51, topic: 'plans' });
  });

  const missing: [string, string, number, Record<string, unknown>][] = [
    ["another user's message", 'member', 4, NOT_FOUND],
    ['a reminder ID', 'member', 5, NOT_FOUND],
    ['an unknown ID', 'member', 99, NOT_FOUND],
  ];
  it.each(missing)('below 184, editing %s through creation: HTTP 404, nothing changes', async (_name, role, id, expected) => {
    const { realm, who } = await freshRealm(env.server, 183);
    const before = JSON.stringify(tables(env.server, realm).scheduled_messages);
    const res = await schedule(env.server, who[role]!, channelForm(env.server, realm, { scheduled_message_id: String(id) }));
    expect([res.status, res.body]).toEqual([404, expected]);
    expect(JSON.stringify(tables(env.server, realm).scheduled_messages)).toBe(before);
  });

  it('below 184 the request is checked before the message is looked up, and a sent one cannot be edited', async () => {
    const { realm, who } = await freshRealm(env.server, 183);
    const past = await schedule(
      env.server,
      who.member!,
      channelForm(env.server, realm, { scheduled_message_id: '4', scheduled_delivery_timestamp: String(nowOf(env.server, realm)) }),
    );
    expect(past.body).toEqual(error('Scheduled delivery time must be in the future.'));
    await advance(env.server, realm, 4 * HOUR);
    const sent = await schedule(env.server, who.member!, channelForm(env.server, realm, { scheduled_message_id: '2' }));
    expect([sent.status, sent.body]).toEqual([400, error('Scheduled message was already sent')]);
  });
});

describe('level 248: channel as a type value', () => {
  const refused = error('Invalid type: Value error, Not in the list of possible values');
  it.each([
    [247, 'channel', refused],
    [247, 'stream', success({ scheduled_message_id: 7 })],
    [248, 'channel', success({ scheduled_message_id: 7 })],
  ] as const)('at level %i, creating with type %s', async (level, type, expected) => {
    const { realm, who } = await freshRealm(env.server, level);
    expect((await schedule(env.server, who.member!, channelForm(env.server, realm, { type }))).body).toEqual(expected);
  });

  it.each([
    [247, 'channel', refused],
    [248, 'channel', success()],
  ] as const)('at level %i, editing to type %s', async (level, type, expected) => {
    const { who } = await freshRealm(env.server, level);
    expect((await editScheduled(env.server, who.member!, 2, { type, to: '51', topic: 'x' })).body).toEqual(expected);
  });

  it('direct is a value at every level', async () => {
    const { realm, who } = await freshRealm(env.server, 247);
    expect((await schedule(env.server, who.member!, directForm(env.server, realm, [15]))).body).toEqual(
      success({ scheduled_message_id: 7 }),
    );
  });
});

describe('levels 334 and 370: the empty topic', () => {
  it('below 334 the empty topic does not exist; from 334 it is stored as "" and shown by capability', async () => {
    const old = await freshRealm(env.server, 333);
    expect((await schedule(env.server, old.who.member!, channelForm(env.server, old.realm, { topic: 'general chat' }))).body).toEqual(
      error("Topic can't be empty!"),
    );
    expect((await editScheduled(env.server, old.who.member!, 1, { topic: '' })).body).toEqual(error("Topic can't be empty!"));

    const { realm, who } = await freshRealm(env.server, 334);
    const res = await schedule(env.server, who.member!, channelForm(env.server, realm, { topic: '' }));
    const id = res.body.scheduled_message_id as number;
    expect(tables(env.server, realm).scheduled_messages[String(id)]!.topic).toBe('');
    // The list operation cannot declare empty_topic_name: it shows the display name (spec §1).
    expect((await listScheduled(env.server, who.member!)).find((s) => s.scheduled_message_id === id)!.topic).toBe('general chat');
    const modern = await openQueue(env.server, who.member!, { client_capabilities: '{"empty_topic_name": true}' });
    const legacy = await openQueue(env.server, who.member!);
    const topicIn = (snapshot: Record<string, unknown>) =>
      (snapshot.scheduled_messages as { scheduled_message_id: number; topic: string }[]).find((s) => s.scheduled_message_id === id)!.topic;
    expect([topicIn(modern.snapshot), topicIn(legacy.snapshot)]).toEqual(['', 'general chat']);
  });

  it.each([
    [369, '(no topic)'],
    [370, ''],
  ] as const)('at level %i "(no topic)" is stored as %j, at creation and in a topic-only edit', async (level, stored) => {
    const { realm, who } = await freshRealm(env.server, level);
    const res = await schedule(env.server, who.member!, channelForm(env.server, realm, { topic: '(no topic)' }));
    expect(tables(env.server, realm).scheduled_messages[String(res.body.scheduled_message_id)]!.topic).toBe(stored);
    expect((await editScheduled(env.server, who.member!, 1, { topic: '(no topic)' })).body).toEqual(success());
    expect(tables(env.server, realm).scheduled_messages['1']!.topic).toBe(stored);
  });
});

describe('the edit operation answers through the whole pipeline', () => {
  it('OPTIONS lists PATCH at the current level', async () => {
    const res = await call(env.server, 'OPTIONS', '/api/v1/scheduled_messages/1', { as: env.who.member! });
    expect([res.status, res.headers.allow]).toEqual([204, 'PATCH, DELETE, OPTIONS']);
  });
});
