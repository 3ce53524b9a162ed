import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import { advance, channelForm, editScheduled, HOUR, listScheduled, schedule } from './support.js';

/**
 * PATCH /scheduled_messages/{id} (spec §4.2, §3; reference §4.2's nine steps). The member owns 1 (channel
 * 51, topic "capacitor", due in a day), 2 (direct to 15, due in 3 h) and 3 (failed); 4 is the owner's,
 * 5 and 6 are reminders.
 */
const env = useTestRealm();
const FUTURE = 'Scheduled delivery time must be in the future.';
const NOT_FOUND = { result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' };
const row = (id: number) => tables(env.server, env.realm).scheduled_messages[String(id)]!;
const later = () => String(nowOf(env.server, env.realm) + 2 * HOUR);

describe('update-scheduled-message: the checks, in order', () => {
  const cases: [string, number, () => Record<string, string>, number, Record<string, unknown>][] = [
    ['1. nothing to change (before the message is looked up)', 99, () => ({}), 400, error('Nothing to change')],
    ['1. unknown keys change nothing either', 1, () => ({ read_by_sender: 'true' }), 400, error('Nothing to change')],
    ['2. a type without to', 99, () => ({ type: 'direct' }), 400, error('Recipient required when updating type of scheduled message.')],
    [
      '2. even the current type',
      1,
      () => ({ type: 'stream', topic: 'x' }),
      400,
      error('Recipient required when updating type of scheduled message.'),
    ],
    [
      '3. a channel type without topic',
      99,
      () => ({ type: 'channel', to: '51' }),
      400,
      error('Topic required when updating scheduled message type to channel.'),
    ],
    [
      '4. a time now is not in the future',
      99,
      () => ({ scheduled_delivery_timestamp: String(nowOf(env.server, env.realm)) }),
      400,
      error(FUTURE),
    ],
    ["5. another user's message: 404", 4, () => ({ content: 'mine now' }), 404, NOT_FOUND],
    ['5. a reminder is not a scheduled message', 5, () => ({ content: 'x' }), 404, NOT_FOUND],
    ['5. an unknown ID', 99, () => ({ content: 'x' }), 404, NOT_FOUND],
    ['7. a failed message needs a new time', 3, () => ({ content: 'again' }), 400, error(FUTURE)],
    ['8. to must suit the current type', 1, () => ({ to: '[15]' }), 400, error('Invalid data type for channel ID')],
    [
      '8. an unknown channel',
      1,
      () => ({ to: '999' }),
      400,
      error("Channel with ID '999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999 }),
    ],
    ['8. an unknown user', 2, () => ({ to: '[15, 999]' }), 400, error('Invalid user ID 999')],
    ['8. a new type with an unknown user', 1, () => ({ type: 'direct', to: '[999]' }), 400, error('Invalid user ID 999')],
    ['8. empty content', 2, () => ({ content: '   ' }), 400, error('Message must not be empty')],
    ['8. a channel the member may not post in', 1, () => ({ to: '55' }), 400, error('You do not have permission to post in this channel.')],
    [
      '8. a topic the channel refuses, with a new channel',
      1,
      () => ({ to: '58' }),
      400,
      error('Only the general chat topic is allowed in this channel.'),
    ],
  ];
  it.each(cases)('%s', async (_name, id, form, status, expected) => {
    const before = JSON.stringify(tables(env.server, env.realm).scheduled_messages);
    const res = await editScheduled(env.server, env.who.member!, id, form());
    expect([res.status, res.body]).toEqual([status, expected]);
    expect(JSON.stringify(tables(env.server, env.realm).scheduled_messages)).toBe(before);
  });

  it('6. a message already sent', async () => {
    await advance(env.server, env.realm, 4 * HOUR);
    expect(row(2).delivered_message_id).not.toBeNull();
    const res = await editScheduled(env.server, env.who.member!, 2, { content: 'too late', scheduled_delivery_timestamp: later() });
    expect([res.status, res.body]).toEqual([400, error('Scheduled message was already sent')]);
  });

  it('8. a content change checks the posting permission again; a time change alone does not', async () => {
    const patch = await call(env.server, 'PATCH', '/api/v1/streams/51', {
      as: env.who.administrator!,
      form: { can_send_message_group: JSON.stringify({ new: 3 }) },
    });
    expect(patch.body.result).toBe('success');
    expect((await editScheduled(env.server, env.who.member!, 1, { content: 'Edited' })).body).toEqual(
      error('You do not have permission to post in this channel.'),
    );
    expect((await editScheduled(env.server, env.who.member!, 1, { scheduled_delivery_timestamp: later() })).body).toEqual(success());
  });

  it('8. a topic-only change checks the topic alone against the channel', async () => {
    const created = await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { to: '59' }));
    const res = await editScheduled(env.server, env.who.member!, created.body.scheduled_message_id as number, { topic: 'general chat' });
    expect(res.body).toEqual(error('Sending messages to the general chat is not allowed in this channel.'));
  });
});

describe('update-scheduled-message: what changes', () => {
  it('a failed message with a new time becomes pending again (§3)', async () => {
    expect((await editScheduled(env.server, env.who.member!, 3, { scheduled_delivery_timestamp: later() })).body).toEqual(success());
    expect(row(3)).toMatchObject({ failed: false, scheduled_delivery_timestamp: Number(later()) });
  });

  it('a topic-only change is stripped and truncated to max_topic_length', async () => {
    await editScheduled(env.server, env.who.member!, 1, { topic: `  ${'t'.repeat(70)}  ` });
    expect(row(1).topic).toBe('t'.repeat(60));
    await editScheduled(env.server, env.who.member!, 1, { subject: ' renamed ' });
    expect(row(1).topic).toBe('renamed');
  });

  it('a topic for a direct message is ignored silently', async () => {
    expect((await editScheduled(env.server, env.who.member!, 2, { topic: 'nope' })).body).toEqual(success());
    expect(row(2)).toMatchObject({ type: 'private', topic: '', to: [15] });
  });

  it('new content is rendered again; the rest stays', async () => {
    const before = row(1);
    await editScheduled(env.server, env.who.member!, 1, { content: '*new*' });
    expect(row(1)).toEqual({ ...before, content: '*new*', rendered_content: '<p><em>new</em></p>' });
  });

  it('a channel message becomes a direct one and back (the topic goes and comes)', async () => {
    expect((await editScheduled(env.server, env.who.member!, 1, { type: 'direct', to: '[16, 15, 16]', topic: 'ignored' })).body).toEqual(
      success(),
    );
    expect(row(1)).toMatchObject({ type: 'private', to: [15, 16], topic: '' });
    expect((await editScheduled(env.server, env.who.member!, 1, { type: 'channel', to: '52', topic: 'back' })).body).toEqual(success());
    const listed = (await listScheduled(env.server, env.who.member!)).find((s) => s.scheduled_message_id === 1);
    expect(listed).toMatchObject({ type: 'stream', to: 52, topic: 'back' });
  });

  it('re-sending the same type and recipient counts as a change and succeeds', async () => {
    expect((await editScheduled(env.server, env.who.member!, 1, { type: 'stream', to: '51', topic: 'capacitor' })).body).toEqual(success());
  });

  it('parameters come from the query string too (the JavaScript client sends PATCH that way)', async () => {
    const res = await call(env.server, 'PATCH', '/api/v1/scheduled_messages/1', {
      as: env.who.member!,
      query: { content: 'Edited content' },
    });
    expect(res.body).toEqual(success());
    expect(row(1).content).toBe('Edited content');
  });
});
