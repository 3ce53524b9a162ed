import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { drain, error, freshRealm, openQueue, success, unreadByTopic, useTestRealm } from '../helpers/harness.js';
import { INVALID_CHANNEL, markTopic } from './support.js';

/**
 * POST /api/v1/mark_topic_as_read (spec §4.9, reference §4.9, C13): marks the caller's unread messages
 * of one topic as read, and nothing else. `general chat` and, from level 370, `(no topic)` name the
 * empty topic; the empty topic marks only its own messages, never the whole channel (C13).
 *
 * The guest's unread messages in 51 home: "" [1064, 1071], "indexing the circuit" [1065],
 * "quantifying the panel" [1072, 1074, 1075, 1076, 1088, 1090]; in 54: "navigating the microchip".
 */

const EMPTY = '51/';
const CIRCUIT = '51/indexing the circuit';

const env = useTestRealm();

const readEvent = (messages: number[]) => ({
  type: 'update_message_flags',
  op: 'add',
  operation: 'add',
  flag: 'read',
  messages,
  all: false,
});

/** Marks as the guest and returns the unread map before and after, and the events received. */
async function markAsGuest(streamId: number, topicName: string) {
  const before = await unreadByTopic(env.server, env.who.guest!);
  const { queueId } = await openQueue(env.server, env.who.guest!, { event_types: '["update_message_flags"]' });
  const res = await markTopic(env.server, env.who.guest!, streamId, topicName);
  return { res, before, after: await unreadByTopic(env.server, env.who.guest!), events: await drain(env.server, env.who.guest!, queueId) };
}

describe('marking a topic (§4.9)', () => {
  it('marks only the unread messages of that topic and tells the caller', async () => {
    const { res, before, after, events } = await markAsGuest(51, 'indexing the circuit');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const { [CIRCUIT]: marked, ...rest } = before;
    expect(marked).toEqual([1065]);
    expect(after).toEqual(rest);
    expect(events).toEqual([readEvent([1065])]);
  });

  it('matches the topic name case-insensitively', async () => {
    const { after, events } = await markAsGuest(51, 'Indexing THE circuit');
    expect(after[CIRCUIT]).toBeUndefined();
    expect(events).toEqual([readEvent([1065])]);
  });

  it.each([
    ['""', ''],
    ['general chat', 'general chat'],
    ['(no topic)', '(no topic)'],
  ])('marks only the empty topic for %s, never the whole channel (C13)', async (_label, topicName) => {
    const { res, before, after, events } = await markAsGuest(51, topicName);
    expect(res.body).toEqual(success());
    const { [EMPTY]: marked, ...rest } = before;
    expect(marked).toEqual([1064, 1071]);
    expect(after).toEqual(rest);
    expect(after[CIRCUIT]).toEqual([1065]);
    expect(events).toEqual([readEvent([1064, 1071])]);
  });

  it('succeeds without an event when nothing is unread any more', async () => {
    expect((await markTopic(env.server, env.who.guest!, 51, 'indexing the circuit')).body).toEqual(success());
    const { res, events } = await markAsGuest(51, 'indexing the circuit');
    expect(res.body).toEqual(success());
    expect(events).toEqual([]);
  });

  it('accepts the empty topic of a channel that has none, as nothing to mark', async () => {
    const { res, before, after, events } = await markAsGuest(54, '');
    expect(res.body).toEqual(success());
    expect(after).toEqual(before);
    expect(events).toEqual([]);
  });

  it('leaves other users’ flags alone', async () => {
    const member3Before = await unreadByTopic(env.server, env.who.member_3!);
    await markTopic(env.server, env.who.guest!, 51, 'quantifying the panel');
    expect(await unreadByTopic(env.server, env.who.member_3!)).toEqual(member3Before);
  });

  it('takes the parameters from a multipart body, as the JavaScript client sends them', async () => {
    const res = await call(env.server, 'POST', '/api/v1/mark_topic_as_read', {
      as: env.who.guest!,
      multipart: { stream_id: '51', topic_name: 'indexing the circuit' },
    });
    expect(res.body).toEqual(success());
    expect((await unreadByTopic(env.server, env.who.guest!))[CIRCUIT]).toBeUndefined();
  });
});

describe('(no topic) by feature level (§9 level 370)', () => {
  it('is a literal topic name at level 369', async () => {
    const old = await freshRealm(env.server, 369);
    const res = await markTopic(env.server, old.who.guest!, 51, '(no topic)');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("No such topic '(no topic)'"));
    expect((await unreadByTopic(env.server, old.who.guest!))[EMPTY]).toEqual([1064, 1071]);
  });

  it('names the empty topic from level 370', async () => {
    const at370 = await freshRealm(env.server, 370);
    expect((await markTopic(env.server, at370.who.guest!, 51, '(no topic)')).body).toEqual(success());
    expect((await unreadByTopic(env.server, at370.who.guest!))[EMPTY]).toBeUndefined();
  });
});

describe('refusals (§4.9, reference §4.9)', () => {
  it.each([
    ['an unknown topic', 'guest', 51, 'no such thing', "No such topic 'no such thing'"],
    ['a topic of another channel', 'guest', 54, 'indexing the circuit', "No such topic 'indexing the circuit'"],
    // member_2 joined 53 late: the topic exists, but member_2 received none of its messages.
    ['a topic hidden by protected history', 'member_2', 53, 'navigating the bandwidth', "No such topic 'navigating the bandwidth'"],
    ['an unknown channel', 'guest', 999, 'anything', 'Invalid channel ID'],
    ['a private channel the caller cannot access', 'member_2', 54, 'navigating the microchip', 'Invalid channel ID'],
    ['a public channel a guest is not in', 'guest', 52, 'indexing the capacitor', 'Invalid channel ID'],
    ['an archived channel', 'member', 56, 'compressing the bus', 'Invalid channel ID'],
  ])('refuses %s', async (_label, role, streamId, topicName, msg) => {
    const res = await markTopic(env.server, env.who[role]!, streamId, topicName);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('refuses an unknown channel even for the empty topic', async () => {
    expect((await markTopic(env.server, env.who.guest!, 999, '')).body).toEqual(INVALID_CHANNEL);
  });

  it.each([
    [{}, error("Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'topic_name' })],
    [{ stream_id: '51' }, error("Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'topic_name' })],
    [{ topic_name: 'x' }, error("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'stream_id' })],
    [{ topic_name: 'x', stream_id: 'home' }, error('stream_id is not valid JSON')],
    [{ topic_name: 'x', stream_id: '"51"' }, error('stream_id is not an integer')],
  ])('refuses the parameters %j', async (form, body) => {
    const res = await call(env.server, 'POST', '/api/v1/mark_topic_as_read', { as: env.who.guest!, form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });
});
