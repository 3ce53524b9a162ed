import { describe, expect, it } from 'vitest';
import { drain, error, openQueue, success, useTestRealm } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';
import { flags, HOME, post, postDirect, PROTECTED } from './support.js';

/**
 * POST /mark_all_as_read and POST /mark_stream_as_read (companion tier, reference server): the caller's
 * unread messages become read (all of them, or one channel's), the register's unread_msgs agrees, and the
 * caller's queues get `update_message_flags` (`all` true for mark-all).
 */
const env = useTestRealm();

interface Unread {
  count: number;
  streams: { stream_id: number; unread_message_ids: number[] }[];
  pms: { unread_message_ids: number[] }[];
  huddles: { unread_message_ids: number[] }[];
}

async function unread(who: Who): Promise<Unread> {
  const { snapshot } = await openQueue(env.server, who, { event_types: '["message", "update_message_flags"]' });
  return snapshot.unread_msgs as Unread;
}
const idsIn = (u: Unread, streamId?: number) =>
  u.streams
    .filter((s) => streamId === undefined || s.stream_id === streamId)
    .flatMap((s) => s.unread_message_ids)
    .sort((a, b) => a - b);

const markAll = (who: Who) => call(env.server, 'POST', '/api/v1/mark_all_as_read', { as: who });
const markChannel = (who: Who, streamId: string) =>
  call(env.server, 'POST', '/api/v1/mark_stream_as_read', { as: who, form: { stream_id: streamId } });

describe('mark_all_as_read', () => {
  it('reads every unread message of the caller and sends one event with all true', async () => {
    const reader = env.who.member_2!;
    await post(env, env.who.member!, HOME);
    await postDirect(env, env.who.member!, [reader.user_id]);
    expect((await unread(reader)).count).toBeGreaterThan(1);
    const other = await unread(env.who.guest!);
    const { queueId } = await openQueue(env.server, reader, { event_types: '["update_message_flags"]' });
    const res = await markAll(reader);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ complete: true }));
    expect(await unread(reader)).toMatchObject({ count: 0, streams: [], pms: [], huddles: [] });
    expect(await drain(env.server, reader, queueId)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
    ]);
    expect(await unread(env.who.guest!)).toEqual(other);
  });

  it('lets messages be marked unread again afterwards', async () => {
    const reader = env.who.member_2!;
    const a = await post(env, env.who.member!, HOME);
    await markAll(reader);
    await flags(env.server, reader, [a], 'remove', 'read');
    expect(idsIn(await unread(reader))).toEqual([a]);
  });
});

describe('mark_stream_as_read', () => {
  it('reads only that channel’s unread messages and tells the caller which', async () => {
    const reader = env.who.member_2!;
    const home = await post(env, env.who.member!, HOME);
    const secret = await post(env, env.who.member!, PROTECTED);
    const before = await unread(reader);
    expect(idsIn(before, HOME)).toContain(home);
    const { queueId } = await openQueue(env.server, reader, { event_types: '["update_message_flags"]' });
    expect((await markChannel(reader, String(HOME))).body).toEqual(success());
    const after = await unread(reader);
    expect(idsIn(after, HOME)).toEqual([]);
    expect(idsIn(after, PROTECTED)).toEqual(idsIn(before, PROTECTED));
    expect(idsIn(after, PROTECTED)).toContain(secret);
    const [event, ...rest] = await drain(env.server, reader, queueId);
    expect(rest).toEqual([]);
    expect(event).toEqual({
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: idsIn(before, HOME),
      all: false,
    });
  });

  it('succeeds without an event when nothing is unread there', async () => {
    const reader = env.who.member_2!;
    await markChannel(reader, String(HOME));
    const { queueId } = await openQueue(env.server, reader, { event_types: '["update_message_flags"]' });
    expect((await markChannel(reader, String(HOME))).body).toEqual(success());
    expect(await drain(env.server, reader, queueId)).toEqual([]);
  });

  it.each([
    ['99999', error('Invalid channel ID')],
    ['abc', error('stream_id is not valid JSON')],
    ['"51"', error('stream_id is not an integer')],
  ])('refuses stream_id %s', async (streamId, expected) => {
    const res = await markChannel(env.who.member_2!, streamId);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it('refuses a private channel the caller may not read, changing nothing', async () => {
    await post(env, env.who.member!, PROTECTED);
    const before = await unread(env.who.guest!);
    expect((await markChannel(env.who.guest!, String(PROTECTED))).body).toEqual(error('Invalid channel ID'));
    expect(await unread(env.who.guest!)).toEqual(before);
  });

  it('needs stream_id', async () => {
    const res = await call(env.server, 'POST', '/api/v1/mark_stream_as_read', { as: env.who.member!, form: {} });
    expect(res.body).toEqual(error("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' }));
  });
});
