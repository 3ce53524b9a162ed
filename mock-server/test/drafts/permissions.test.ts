import { describe, expect, it } from 'vitest';
import { call, type Reply } from '../helpers/test-server.js';
import { drain, openQueue, success, tables, useTestRealm } from '../helpers/harness.js';
import { channelDraft, create, draftState, edit, list, MEMBER_DRAFTS, NEXT_ID, remove, setSync, SYNC_OFF } from './support.js';

/**
 * Who may use the draft operations (spec §4.6, §5): every account for its own drafts. There is no role
 * rule; the one gate is the user's enable_drafts_synchronization setting, checked by the reference
 * server before any parameter on all four operations (reference §4.6, §1 "Order of checks" 1).
 *
 * Bots: the reference refuses bots only on the two status operations; its draft endpoints take any
 * account with the setting on, so a bot may keep drafts. The demo realm's bot has the setting off (as
 * a bot that never composes would), so it meets the gate; with the setting on it works as anyone.
 */
const env = useTestRealm();

/** create, list, edit and delete of one user's own draft, each answer in order. */
async function lifecycle(role: string): Promise<[Reply, Reply, Reply, Reply]> {
  const as = env.who[role]!;
  const created = await create(env.server, as, [channelDraft()]);
  const id = (created.body.ids as number[] | undefined)?.[0] ?? NEXT_ID;
  const listed = await list(env.server, as);
  const edited = await edit(env.server, as, id, channelDraft({ content: 'Edited' }));
  const removed = await remove(env.server, as, id);
  return [created, listed, edited, removed];
}

const answers = (replies: Reply[]) => replies.map((r) => [r.status, r.body]);

describe('every role, every operation (channel 51 is open to all of them)', () => {
  it.each(['owner', 'administrator', 'moderator', 'member', 'guest'])('%s: own drafts, all four operations', async (role) => {
    const [created, listed, edited, removed] = await lifecycle(role);
    expect([created.status, created.body]).toEqual([200, success({ ids: [NEXT_ID] })]);
    expect(listed.status).toBe(200);
    expect((listed.body.drafts as { id: number }[]).map((d) => d.id)).toContain(NEXT_ID);
    expect(answers([edited, removed])).toEqual([
      [200, success()],
      [200, success()],
    ]);
  });

  it('bot of the demo realm (synchronization off): refused on all four, nothing stored', async () => {
    const before = draftState(env.server, env.realm);
    expect(answers(await lifecycle('bot'))).toEqual(Array(4).fill([400, SYNC_OFF]));
    expect(draftState(env.server, env.realm)).toBe(before);
  });

  it('bot with synchronization on: no bot rule, all four work', async () => {
    await setSync(env.server, env.realm, env.who.bot!.user_id, true);
    const [created, listed, edited, removed] = await lifecycle('bot');
    expect(answers([created, listed, edited, removed])).toEqual([
      [200, success({ ids: [NEXT_ID] })],
      [
        200,
        success({
          count: 1,
          drafts: [
            {
              id: NEXT_ID,
              type: 'stream',
              to: [51],
              topic: 'plans',
              content: 'Half a thought',
              timestamp: (listed.body.drafts as { timestamp: number }[])[0]!.timestamp,
            },
          ],
        }),
      ],
      [200, success()],
      [200, success()],
    ]);
  });

  it('deactivated credentials: 401 on all four, before anything else', async () => {
    // The world file hands out no key for a deactivated account; the state still holds one.
    const user = tables(env.server, env.realm).users[String(env.who.deactivated!.user_id)]!;
    const as = { email: user.email, api_key: user.api_key };
    const replies = [
      await create(env.server, as, 'not json'),
      await list(env.server, as),
      await edit(env.server, as, 1, channelDraft()),
      await remove(env.server, as, 1),
    ];
    expect(answers(replies)).toEqual(Array(4).fill([401, { result: 'error', code: 'USER_DEACTIVATED', msg: 'Account is deactivated' }]));
  });

  it('no credentials: 401 on all four', async () => {
    const replies = [
      await call(env.server, 'POST', '/api/v1/drafts', { form: { drafts: '[]' } }),
      await call(env.server, 'GET', '/api/v1/drafts'),
      await call(env.server, 'PATCH', '/api/v1/drafts/1', { form: { draft: JSON.stringify(channelDraft()) } }),
      await call(env.server, 'DELETE', '/api/v1/drafts/1'),
    ];
    expect(replies.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([401, 'UNAUTHORIZED']));
  });
});

describe('a user who turned synchronization off (reference §4.6: before parsing)', () => {
  it('all four refused, even with malformed or missing parameters; nothing changes, no event', async () => {
    const member = env.who.member!;
    await setSync(env.server, env.realm, member.user_id, false);
    const { queueId } = await openQueue(env.server, member);
    const before = draftState(env.server, env.realm);
    const replies = [
      await create(env.server, member, [channelDraft()]),
      await create(env.server, member, 'not json'),
      await call(env.server, 'POST', '/api/v1/drafts', { as: member }),
      await list(env.server, member),
      await edit(env.server, member, 1, channelDraft()),
      await call(env.server, 'PATCH', '/api/v1/drafts/1', { as: member }),
      await edit(env.server, member, 999, channelDraft()),
      await remove(env.server, member, 1),
      await remove(env.server, member, 999),
    ];
    expect(answers(replies)).toEqual(Array(9).fill([400, SYNC_OFF]));
    expect(draftState(env.server, env.realm)).toBe(before);
    expect(await drain(env.server, member, queueId)).toEqual([]);
  });

  it("the gate is the caller's own setting: others are not affected, and the drafts return when it is back on", async () => {
    const member = env.who.member!;
    await setSync(env.server, env.realm, member.user_id, false);
    expect((await create(env.server, env.who.member_2!, [channelDraft()])).body).toEqual(success({ ids: [NEXT_ID] }));
    await setSync(env.server, env.realm, member.user_id, true);
    expect(((await list(env.server, member)).body.drafts as { id: number }[]).map((d) => d.id).sort()).toEqual(MEMBER_DRAFTS);
  });
});
