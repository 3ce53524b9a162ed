import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';
import { ROLES, snapshotOf } from './support.js';

/**
 * Topic visibility policies (companion tier, reference POST /user_topics): the caller's own, shown in
 * register's user_topics and legacy muted_topics and told to the caller's queues only.
 */
const env = useTestRealm();

const setPolicy = (as: Who, form: Record<string, string>) => call(env.server, 'POST', '/api/v1/user_topics', { as, form });
const now = () => (env.server.control.clock(env.realm) as { now: number }).now;

/** A public channel member is subscribed to, and a private one member may not read. */
function channels(): { open: { stream_id: number; name: string }; closed: number } {
  const t = tables(env.server, env.realm);
  const member = env.who.member!.user_id;
  const open = Object.values(t.channels).find(
    (c) => !c.invite_only && !c.is_archived && t.subscriptions[`${member}:${c.stream_id}`]?.active,
  )!;
  const closed = Object.values(t.channels).find((c) => c.invite_only && !t.subscriptions[`${member}:${c.stream_id}`]?.active)!;
  return { open, closed: closed.stream_id };
}

describe('POST /user_topics', () => {
  it("mutes, follows and clears a topic, shown in register's user_topics and muted_topics", async () => {
    const member = env.who.member!;
    const { open } = channels();
    const id = String(open.stream_id);
    expect((await setPolicy(member, { stream_id: id, topic: 'Castle', visibility_policy: '1' })).body).toEqual(success());
    expect((await setPolicy(member, { stream_id: id, topic: 'moat', visibility_policy: '3' })).body).toEqual(success());
    let snap = await snapshotOf(env.server, member, ['user_topic', 'muted_topics']);
    expect(snap.user_topics).toEqual([
      { stream_id: open.stream_id, topic_name: 'Castle', last_updated: now(), visibility_policy: 1 },
      { stream_id: open.stream_id, topic_name: 'moat', last_updated: now(), visibility_policy: 3 },
    ]);
    expect(snap.muted_topics).toEqual([[open.name, 'Castle', now()]]);
    // Another letter case names the same topic; policy 0 removes it.
    expect((await setPolicy(member, { stream_id: id, topic: 'CASTLE', visibility_policy: '0' })).body).toEqual(success());
    snap = await snapshotOf(env.server, member, ['user_topic', 'muted_topics']);
    expect(snap.muted_topics).toEqual([]);
    expect((snap.user_topics as unknown[]).length).toBe(1);
    expect((await snapshotOf(env.server, env.who.owner!, ['user_topic'])).user_topics).toEqual([]);
  });

  it("sends muted_topics and user_topic to the caller's queues only", async () => {
    const { open } = channels();
    const seen = await observeEvents(env, ROLES, {}, () =>
      setPolicy(env.who.member!, { stream_id: String(open.stream_id), topic: 'Castle', visibility_policy: '1' }),
    );
    expect(seen.member).toEqual([
      { type: 'muted_topics', muted_topics: [[open.name, 'Castle', now()]] },
      { type: 'user_topic', stream_id: open.stream_id, topic_name: 'Castle', last_updated: now(), visibility_policy: 1 },
    ]);
    for (const role of ROLES.filter((r) => r !== 'member')) expect(seen[role], role).toEqual([]);
  });

  it('names the empty topic by the display name for clients without empty_topic_name', async () => {
    const member = env.who.member!;
    const { open } = channels();
    const seen = await observeEvents(env, ['member'], {}, () =>
      setPolicy(member, { stream_id: String(open.stream_id), topic: 'general chat', visibility_policy: '1' }),
    );
    expect(seen.member![1]).toMatchObject({ type: 'user_topic', topic_name: 'general chat' });
    expect((await snapshotOf(env.server, member, ['user_topic'])).user_topics).toMatchObject([{ topic_name: 'general chat' }]);
    const named = await snapshotOf(env.server, member, ['user_topic'], { client_capabilities: '{"empty_topic_name": true}' });
    expect(named.user_topics).toMatchObject([{ topic_name: '' }]);
  });

  it('refuses a channel the caller may not read, an unknown channel and an unknown policy, changing nothing', async () => {
    const member = env.who.member!;
    const { open, closed } = channels();
    const refusals: [Record<string, string>, object][] = [
      [{ stream_id: String(closed), topic: 'x', visibility_policy: '1' }, error('Invalid channel ID')],
      [{ stream_id: '99999', topic: 'x', visibility_policy: '1' }, error('Invalid channel ID')],
      [{ stream_id: '99999', topic: 'x', visibility_policy: '0' }, error('Invalid channel ID')],
      [{ stream_id: String(open.stream_id), topic: 'x', visibility_policy: '7' }, error('Invalid visibility_policy')],
      [
        { stream_id: String(open.stream_id), visibility_policy: '1' },
        error("Missing 'topic' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'topic' }),
      ],
    ];
    for (const [form, expected] of refusals) {
      const res = await setPolicy(member, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body, JSON.stringify(form)).toEqual(expected);
    }
    expect(tables(env.server, env.realm).user_topics).toEqual({});
  });

  it('lets a user clear a policy in a channel they can no longer read', async () => {
    const { closed } = channels();
    const res = await setPolicy(env.who.member!, { stream_id: String(closed), topic: 'x', visibility_policy: '0' });
    expect(res.body).toEqual(success());
  });
});

describe('topic policies on disk', () => {
  it('survive a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-user-topics-'));
    const statePath = join(dir, 'state.json');
    try {
      let server = await startTestServer({ statePath });
      const member = credentials(server).member!;
      const t = server.context.store.realm('demo')!;
      const channel = Object.values(t.channels).find((c) => !c.invite_only && !c.is_archived)!;
      const form = { stream_id: String(channel.stream_id), topic: 'kept', visibility_policy: '3' };
      expect((await call(server, 'POST', '/api/v1/user_topics', { as: member, form })).status).toBe(200);
      await server.close();
      server = await startTestServer({ statePath });
      expect((await snapshotOf(server, member, ['user_topic'])).user_topics).toMatchObject([
        { stream_id: channel.stream_id, topic_name: 'kept', visibility_policy: 3 },
      ]);
      await server.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
