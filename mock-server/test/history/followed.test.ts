import { describe, expect, it } from 'vitest';
import { success, tables, useTestRealm } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';

/**
 * `is:followed` (reference by_is "followed": messages of the topics the viewer follows, visibility
 * policy 3 of POST /user_topics), with or without the channel's history.
 */
const env = useTestRealm();

const FOLLOWED = 3;
const setPolicy = (as: Who, streamId: number, topic: string, policy: number) =>
  call(env.server, 'POST', '/api/v1/user_topics', {
    as,
    form: { stream_id: String(streamId), topic, visibility_policy: String(policy) },
  });
const followedIds = async (as: Who, extra: unknown[] = []) => {
  const narrow = JSON.stringify([{ operator: 'is', operand: 'followed' }, ...extra]);
  const res = await call(env.server, 'GET', '/api/v1/messages', { as, query: { anchor: 'oldest', num_after: '5000', narrow } });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
};

describe('is:followed', () => {
  it('finds the messages of the topics the viewer follows, in any letter case, and nothing once unfollowed', async () => {
    const member = env.who.member!;
    const t = tables(env.server, env.realm);
    // A topic the member received messages of. Without a channel term the narrow reads only what the
    // member received (reference ok_to_include_history), so those are expected.
    const received = Object.values(t.messages).filter(
      (m) => m.type === 'stream' && t.user_messages[String(m.id)]?.flags[String(member.user_id)] !== undefined,
    );
    const first = received[0]!;
    const key = (m: { stream_id: number | null; subject: string }) => `${m.stream_id}:${m.subject.toLowerCase()}`;
    const expected = received
      .filter((m) => key(m) === key(first))
      .map((m) => m.id)
      .sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(1);

    expect(await followedIds(member)).toEqual([]);
    expect((await setPolicy(member, first.stream_id!, first.subject.toUpperCase(), FOLLOWED)).body).toEqual(success());
    expect(await followedIds(member)).toEqual(expected);
    // Someone else's policy is theirs alone.
    expect(await followedIds(env.who.member_2!)).toEqual([]);
    expect((await setPolicy(member, first.stream_id!, first.subject, 0)).body).toEqual(success());
    expect(await followedIds(member)).toEqual([]);
  });
});
