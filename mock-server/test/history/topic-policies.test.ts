import { describe, expect, it } from 'vitest';
import { success, tables, useTestRealm } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';

/**
 * Narrows that read the viewer's topic policies (POST /user_topics): `is:followed` (reference by_is
 * "followed": policy 3) and `in:home` (reference exclude_muting_conditions: muted topics left out).
 */
const env = useTestRealm();

const FOLLOWED = 3;
const setPolicy = (as: Who, streamId: number, topic: string, policy: number) =>
  call(env.server, 'POST', '/api/v1/user_topics', {
    as,
    form: { stream_id: String(streamId), topic, visibility_policy: String(policy) },
  });
const MUTED = 1;
const narrowIds = async (as: Who, terms: unknown[]) => {
  const narrow = JSON.stringify(terms);
  const res = await call(env.server, 'GET', '/api/v1/messages', {
    as,
    query: { anchor: 'oldest', num_before: '0', num_after: '5000', narrow },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
};
const followedIds = (as: Who) => narrowIds(as, [{ operator: 'is', operand: 'followed' }]);

describe('narrows and topic policies', () => {
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

  it('in:home leaves out the topics the viewer muted, and only for them', async () => {
    const member = env.who.member!;
    const t = tables(env.server, env.realm);
    const home = async () => narrowIds(member, [{ operator: 'in', operand: 'home' }]);
    const before = await home();
    const othersBefore = await narrowIds(env.who.member_2!, [{ operator: 'in', operand: 'home' }]);
    const shown = t.messages[String(before.at(-1))]!;
    expect(shown.type).toBe('stream');
    const inTopic = before.filter((id) => {
      const m = t.messages[String(id)]!;
      return m.stream_id === shown.stream_id && m.subject.toLowerCase() === shown.subject.toLowerCase();
    });
    expect((await setPolicy(member, shown.stream_id!, shown.subject, MUTED)).body).toEqual(success());
    expect(await home()).toEqual(before.filter((id) => !inTopic.includes(id)));
    expect(inTopic.length).toBeGreaterThan(0);
    // Another user's view is not theirs to change.
    expect(await narrowIds(env.who.member_2!, [{ operator: 'in', operand: 'home' }])).toEqual(othersBefore);
    expect((await setPolicy(member, shown.stream_id!, shown.subject, 0)).body).toEqual(success());
    expect(await home()).toEqual(before);
  });

  it('first_unread passes over the unread messages of a topic the viewer muted', async () => {
    const member = env.who.member!;
    const t = tables(env.server, env.realm);
    const anchor = async () => {
      const query = { anchor: 'first_unread', num_before: '0', num_after: '0' };
      return (await call(env.server, 'GET', '/api/v1/messages', { as: member, query })).body.anchor as number;
    };
    const first = t.messages[String(await anchor())];
    expect(first?.type).toBe('stream');
    expect((await setPolicy(member, first!.stream_id!, first!.subject, MUTED)).body).toEqual(success());
    const next = await anchor();
    expect(next).not.toBe(first!.id);
    const after = t.messages[String(next)];
    if (after) expect(`${after.stream_id}:${after.subject}`).not.toBe(`${first!.stream_id}:${first!.subject}`);
  });
});
