import { describe, expect, it } from 'vitest';
import { error, freshRealm, send, success, useTestRealm } from '../helpers/harness.js';
import { BOT, INVALID_CHANNEL, subscribe, topics } from './support.js';

/**
 * GET /api/v1/users/me/{stream_id}/topics (spec §4.11, reference §4.11): one entry per topic with the ID
 * of its newest message, most recent first; with protected history only topics of messages the caller
 * received (sent after the subscription; for a bot, after the bot's own); the empty topic shows as
 * `general chat` unless allow_empty_topic_name is true (§1); `Invalid channel ID` for a channel that
 * does not exist, cannot be accessed, or is archived. Read-only tests use the demo realm.
 */

const env = useTestRealm({ realm: 'demo' });

describe('GET /users/me/{stream_id}/topics (§4.11)', () => {
  it('lists topics most recent first with max_id, the empty topic as general chat by default', async () => {
    const res = await topics(env.server, env.who.member!, 51);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      success({
        topics: [
          { name: 'quantifying the panel', max_id: 1090 },
          { name: 'general chat', max_id: 1071 },
          { name: 'indexing the circuit', max_id: 1065 },
          { name: 'transmitting the panel', max_id: 1027 },
        ],
      }),
    );
  });

  it.each([
    ['true', ''],
    ['false', 'general chat'],
  ])('shows the empty topic of channel 58 with allow_empty_topic_name=%s as %j', async (allow, name) => {
    expect((await topics(env.server, env.who.member!, 58, { allow_empty_topic_name: allow })).body).toEqual(
      success({ topics: [{ name, max_id: 1082 }] }),
    );
  });

  it('shows every topic of a channel with shared history to a late subscriber', async () => {
    // Kira (18) joined 51 after message 1083; 51's history is public to subscribers.
    const kira = env.server.control.credentials('demo').find((u) => u.user_id === 18)!;
    expect(((await topics(env.server, kira, 51)).body.topics as unknown[]).length).toBe(4);
  });

  it('gives a private channel with shared history to a non-subscriber with content access', async () => {
    // Administrators may add subscribers to 54, which grants content access without a subscription.
    expect((await topics(env.server, env.who.administrator!, 54)).body).toEqual(
      success({
        topics: [
          { name: 'navigating the microchip', max_id: 1087 },
          { name: 'programming the bandwidth', max_id: 1044 },
        ],
      }),
    );
  });
});

describe('protected history (§4.11)', () => {
  it('shows a subscriber from the start every topic', async () => {
    expect((await topics(env.server, env.who.member!, 53)).body).toEqual(
      success({
        topics: [
          { name: 'hacking the interface', max_id: 1055 },
          { name: 'navigating the bandwidth', max_id: 1030 },
        ],
      }),
    );
  });

  it('hides from a late subscriber the topics of messages sent before joining', async () => {
    // member_2 joined 53 after message 1035; "navigating the bandwidth" ends at 1030.
    expect((await topics(env.server, env.who.member_2!, 53)).body).toEqual(
      success({ topics: [{ name: 'hacking the interface', max_id: 1055 }] }),
    );
  });

  it('counts from a bot’s own subscription, not its owner’s', async () => {
    const { who: w } = await freshRealm(env.server);
    expect((await subscribe(env.server, w.administrator!, ['directives leads'], { principals: `[${BOT}]` })).status).toBe(200);
    const sent = await send(env.server, w.administrator!, { type: 'stream', to: '53', topic: 'after the bot', content: 'hello' });
    expect(sent.status).toBe(200);
    expect((await topics(env.server, w.bot!, 53)).body).toEqual(
      success({ topics: [{ name: 'after the bot', max_id: sent.body.id as number }] }),
    );
    // The member who was there all along sees the new topic first, then the old ones.
    expect(((await topics(env.server, w.member!, 53)).body.topics as { name: string }[]).map((t) => t.name)).toEqual([
      'after the bot',
      'hacking the interface',
      'navigating the bandwidth',
    ]);
  });
});

describe('ordering follows new messages', () => {
  it('moves a topic to the front when it receives a message, and adds new topics', async () => {
    const { who: w } = await freshRealm(env.server);
    const old = await send(env.server, w.member!, { type: 'stream', to: '51', topic: 'transmitting the panel', content: 'back again' });
    const fresh = await send(env.server, w.member!, { type: 'stream', to: '51', topic: 'Brand New', content: 'hi' });
    const list = (await topics(env.server, w.member!, 51)).body.topics as { name: string; max_id: number }[];
    expect(list.slice(0, 3)).toEqual([
      { name: 'Brand New', max_id: fresh.body.id as number },
      { name: 'transmitting the panel', max_id: old.body.id as number },
      { name: 'quantifying the panel', max_id: 1090 },
    ]);
    expect(list).toHaveLength(5);
  });

  it('treats topics differing only in letter case as one topic, named as its newest message', async () => {
    const { who: w } = await freshRealm(env.server);
    const sent = await send(env.server, w.member!, { type: 'stream', to: '51', topic: 'Indexing The Circuit', content: 'same topic' });
    const list = (await topics(env.server, w.member!, 51)).body.topics as { name: string; max_id: number }[];
    expect(list[0]).toEqual({ name: 'Indexing The Circuit', max_id: sent.body.id as number });
    expect(list.filter((t) => t.name.toLowerCase() === 'indexing the circuit')).toHaveLength(1);
  });
});

describe('refusals (§4.11, reference "Shared access checks")', () => {
  it.each([
    ['an unknown channel', 'member', 999],
    ['a private channel the caller cannot access', 'member_2', 54],
    ['another private channel the caller cannot access', 'member', 57],
    ['a public channel, for a guest not subscribed to it', 'guest', 52],
    ['an archived channel, even for a subscriber', 'member', 56],
  ])('answers %s with Invalid channel ID', async (_label, role, streamId) => {
    const res = await topics(env.server, env.who[role]!, streamId);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_CHANNEL);
  });

  it.each([
    ['yes', 'allow_empty_topic_name is not valid JSON'],
    ['1', 'allow_empty_topic_name is not a boolean'],
  ])('refuses allow_empty_topic_name=%s', async (value, msg) => {
    expect((await topics(env.server, env.who.member!, 51, { allow_empty_topic_name: value })).body).toEqual(error(msg));
  });

  it('answers a non-integer channel in the path with 404', async () => {
    expect((await topics(env.server, env.who.member!, 'home')).status).toBe(404);
  });
});
