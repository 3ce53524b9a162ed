import { describe, expect, it } from 'vitest';
import { observeEvents, tables, useTestRealm } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';
import { CHANNEL, patchMessage, post } from './support.js';

/**
 * Topic visibility policies follow a moved topic (companion tier, area edit-delete; reference
 * update-message): only a whole-topic move carries them, a merge keeps the more visible policy, and
 * a user shut out of the destination channel loses the policy.
 */
const env = useTestRealm();

const setPolicy = (as: Who, streamId: number, topic: string, policy: number) =>
  call(env.server, 'POST', '/api/v1/user_topics', {
    as,
    form: { stream_id: String(streamId), topic, visibility_policy: String(policy) },
  });

/** Every policy of the realm as [user role, channel, topic, policy], sorted. */
function policies(): [string, number, string, number][] {
  const roleOf = new Map(Object.entries(env.who).map(([role, who]) => [who.user_id, role]));
  return Object.values(tables(env.server, env.realm).user_topics)
    .map(
      (r) =>
        [roleOf.get(r.user_id) ?? String(r.user_id), r.stream_id, r.topic_name, r.visibility_policy] as [string, number, string, number],
    )
    .filter(([, , topic]) => topic.startsWith('mp '))
    .sort((a, b) => (a.join() < b.join() ? -1 : 1));
}
const quiet = { send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false' };

describe('policies and topic moves', () => {
  it('a change_all move takes every policy to the new topic; events come before update_message', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'mp route', 'one');
    await setPolicy(who.member!, CHANNEL.public, 'mp route', 3);
    await setPolicy(who.member_2!, CHANNEL.public, 'mp route', 1);
    const seen = await observeEvents(
      env,
      ['member', 'owner'],
      { event_types: '["user_topic","muted_topics","update_message"]' },
      async () => {
        const res = await patchMessage(server, who.member!, id, { topic: 'mp road', propagate_mode: 'change_all', ...quiet });
        expect(res.body.result).toBe('success');
      },
    );
    expect(policies()).toEqual([
      ['member', CHANNEL.public, 'mp road', 3],
      ['member_2', CHANNEL.public, 'mp road', 1],
    ]);
    expect(seen.member!.map((e) => [e.type, e.topic_name, e.visibility_policy])).toEqual([
      ['user_topic', 'mp route', 0],
      ['muted_topics', undefined, undefined],
      ['user_topic', 'mp road', 3],
      ['update_message', undefined, undefined],
    ]);
    expect(seen.owner!.map((e) => e.type)).toEqual(['update_message']);
  });

  it('a partial move leaves the policies; moving the rest of the topic later carries them', async () => {
    const { server, who } = env;
    const first = await post(server, who.member!, CHANNEL.public, 'mp split', 'one');
    const second = await post(server, who.member!, CHANNEL.public, 'mp split', 'two');
    await setPolicy(who.member!, CHANNEL.public, 'mp split', 3);
    await patchMessage(server, who.member!, second, { topic: 'mp split off', propagate_mode: 'change_one', ...quiet });
    expect(policies()).toContainEqual(['member', CHANNEL.public, 'mp split', 3]);
    // change_later from the first message takes what is left: the whole topic as the mover sees it.
    await patchMessage(server, who.member!, first, { topic: 'mp split off', propagate_mode: 'change_later', ...quiet });
    expect(policies().filter((p) => p[2].startsWith('mp split'))).toEqual([['member', CHANNEL.public, 'mp split off', 3]]);
  });

  it('a merge keeps the more visible policy: followed, unmuted, none, muted', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'mp from', 'one');
    await post(server, who.member!, CHANNEL.public, 'mp into', 'already here');
    await setPolicy(who.member!, CHANNEL.public, 'mp from', 3);
    await setPolicy(who.member!, CHANNEL.public, 'mp into', 1);
    await setPolicy(who.member_2!, CHANNEL.public, 'mp from', 1);
    await setPolicy(who.moderator!, CHANNEL.public, 'mp into', 1);
    await setPolicy(who.administrator!, CHANNEL.public, 'mp from', 2);
    await setPolicy(who.administrator!, CHANNEL.public, 'mp into', 1);
    await patchMessage(server, who.member!, id, { topic: 'mp into', propagate_mode: 'change_all', ...quiet });
    expect(policies()).toEqual([
      ['administrator', CHANNEL.public, 'mp into', 2],
      ['member', CHANNEL.public, 'mp into', 3],
    ]);
  });

  it('a merge that keeps the target policy still sends the muted topics list without the old topic', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'mp hush', 'one');
    await post(server, who.member!, CHANNEL.public, 'mp loud', 'already here');
    await setPolicy(who.member_2!, CHANNEL.public, 'mp hush', 1);
    const seen = await observeEvents(env, ['member_2'], { event_types: '["user_topic","muted_topics"]' }, async () => {
      await patchMessage(server, who.member!, id, { topic: 'mp loud', propagate_mode: 'change_all', ...quiet });
    });
    // Muted merged with none is none: the policy goes, and so does the topic from the legacy list.
    expect(policies().filter((p) => p[0] === 'member_2')).toEqual([]);
    expect(seen.member_2!.map((e) => [e.type, e.topic_name ?? e.muted_topics])).toEqual([
      ['muted_topics', []],
      ['user_topic', 'mp hush'],
    ]);
  });

  it('a move to another channel drops the policy of users shut out of it', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'mp away', 'one');
    await setPolicy(who.member!, CHANNEL.public, 'mp away', 3);
    await setPolicy(who.guest!, CHANNEL.public, 'mp away', 3);
    const seen = await observeEvents(env, ['guest'], { event_types: '["user_topic","muted_topics"]' }, async () => {
      const res = await patchMessage(server, who.administrator!, id, {
        stream_id: String(CHANNEL.private_protected),
        propagate_mode: 'change_all',
        ...quiet,
      });
      expect(res.body.result).toBe('success');
    });
    // private_protected: administrator, moderator, member, member_2; the guest may not read it.
    expect(policies().filter((p) => p[2] === 'mp away')).toEqual([['member', CHANNEL.private_protected, 'mp away', 3]]);
    expect(seen.guest!.map((e) => [e.type, e.stream_id, e.visibility_policy])).toEqual([
      ['muted_topics', undefined, undefined],
      ['user_topic', CHANNEL.public, 0],
    ]);
  });
});
