import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { INSUFFICIENT, isSubscribed, success, useTestRealm } from '../helpers/harness.js';
import { ASHTON, BOT, NAMES, streamMissing, unsubscribe } from './support.js';

/**
 * Who may unsubscribe whom (spec §4.8, §2.2 can_remove_subscribers_group, reference §4.8, C12):
 * - organization administrators: anyone from any channel;
 * - the owner of a bot: that bot, from channels the owner can access;
 * - members of the channel's can_remove_subscribers_group who have access to it;
 * - channel administrators alone: no (C12) → 400 `Insufficient permission`;
 * - anyone: themselves.
 * A channel the caller may not know answers STREAM_DOES_NOT_EXIST, as if it did not exist (no leak).
 *
 * Demo realm: 51 home (public; remover group = member_2 + group "support" {moderator, member}),
 * 52 alarm (public; remover group = administrators), 53 directives leads (private; every member may
 * add subscribers, so every non-guest has content access), 54 models team (private; subscribers owner,
 * member, member_3, guest; can_add_subscribers_group = member_3 + administrators).
 * "other" is Ashton (17, a plain member in 51 and 52 only), "bot" is 21 (owned by member_3, in 51 only).
 */

type Outcome = 'removed' | 'not_removed' | 'denied' | 'unknown';
const R: Outcome = 'removed';
const N: Outcome = 'not_removed';
const D: Outcome = 'denied';
const U: Outcome = 'unknown';

/** [actor, channel, other, bot, self]. */
const MATRIX: [string, number, Outcome, Outcome, Outcome][] = [
  ['owner', 51, R, R, R],
  ['owner', 52, R, N, R],
  ['owner', 53, N, N, N],
  ['owner', 54, N, N, R],
  ['administrator', 51, R, R, R],
  ['administrator', 52, R, N, R],
  ['administrator', 53, N, N, R],
  ['administrator', 54, N, N, N],
  // In "support", itself in 51's remover group; nothing else beyond leaving.
  ['moderator', 51, R, R, R],
  ['moderator', 52, D, D, R],
  ['moderator', 53, D, D, R],
  ['moderator', 54, U, U, U],
  ['member', 51, R, R, R],
  ['member', 52, D, D, R],
  ['member', 53, D, D, R],
  ['member', 54, D, D, R],
  // A direct member of 51's remover group.
  ['member_2', 51, R, R, R],
  ['member_2', 52, D, D, R],
  ['member_2', 53, D, D, R],
  ['member_2', 54, U, U, U],
  // Owns the bot: may remove it wherever member_3 has access, and nobody else.
  ['member_3', 51, D, R, R],
  ['member_3', 52, D, N, N],
  ['member_3', 53, D, N, N],
  ['member_3', 54, D, N, R],
  // A guest knows only the channels it is subscribed to (51, 54).
  ['guest', 51, D, D, R],
  ['guest', 52, U, U, U],
  ['guest', 53, U, U, U],
  ['guest', 54, D, D, R],
  // The bot itself: "bot" and "self" are the same target.
  ['bot', 51, D, R, R],
  ['bot', 52, D, N, N],
  ['bot', 53, D, N, N],
  ['bot', 54, U, U, U],
];

const env = useTestRealm();

function expected(outcome: Outcome, name: string) {
  switch (outcome) {
    case 'removed':
      return success({ removed: [name], not_removed: [] });
    case 'not_removed':
      return success({ removed: [], not_removed: [name] });
    case 'denied':
      return INSUFFICIENT;
    case 'unknown':
      return streamMissing(name);
  }
}

describe('DELETE /users/me/subscriptions: who may unsubscribe whom (§4.8, C12)', () => {
  it.each(MATRIX)('%s on channel %i: other %s, bot %s, self %s', async (actor, channel, other, bot, self) => {
    const caller = env.who[actor]!;
    const name = NAMES[channel]!;
    const targets: [string, number, Outcome][] = [
      ['other', ASHTON, other],
      ['bot', BOT, bot],
      ['self', caller.user_id, self],
    ];
    for (const [label, target, outcome] of targets) {
      // Each target starts from the fixture: an earlier removal must not change a later answer.
      await env.restore();
      const before = isSubscribed(env.server, env.realm, target, channel);
      const res = await unsubscribe(env.server, caller, [name], [target]);
      expect({ target: label, status: res.status, body: res.body }).toEqual({
        target: label,
        status: outcome === 'removed' || outcome === 'not_removed' ? 200 : 400,
        body: expected(outcome, name),
      });
      // Only a success removes, and exactly the subscription that existed.
      expect(isSubscribed(env.server, env.realm, target, channel), `${label} still subscribed`).toBe(before && outcome !== 'removed');
    }
  });
});

describe('permission details (§4.8, reference §4.8)', () => {
  it.each([
    // [actor, channel, target]: channel administrators outside the remover group (C12).
    ['member', 58, 'member_2'], // member administers 58 (can_administer_channel_group)
    ['moderator', 59, 'member'], // moderator administers 59
    ['member', 56, 'member_2'], // member administers the archived 56 too
  ])('refuses %s, who administers channel %i but is not in its remover group (C12)', async (actor, channel, target) => {
    const res = await unsubscribe(env.server, env.who[actor]!, [NAMES[channel]!], [env.who[target]!.user_id]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INSUFFICIENT);
    expect(isSubscribed(env.server, env.realm, env.who[target]!.user_id, channel)).toBe(true);
  });

  it('needs the permission on every channel named: nothing is removed when one refuses', async () => {
    // member may remove others from 51 (support group), not from 52 (administrators only).
    const res = await unsubscribe(env.server, env.who.member!, ['home', 'alarm'], [ASHTON]);
    expect(res.body).toEqual(INSUFFICIENT);
    expect(isSubscribed(env.server, env.realm, ASHTON, 51)).toBe(true);
    expect(isSubscribed(env.server, env.realm, ASHTON, 52)).toBe(true);
  });

  it('treats the owned bot and another user together as unsubscribing others', async () => {
    const res = await unsubscribe(env.server, env.who.member_3!, ['home'], [BOT, ASHTON]);
    expect(res.body).toEqual(INSUFFICIENT);
    expect(isSubscribed(env.server, env.realm, BOT, 51)).toBe(true);
  });

  it('lets a bot owner remove the bot together with themselves', async () => {
    const res = await unsubscribe(env.server, env.who.member_3!, ['home'], [BOT, env.who.member_3!.user_id]);
    expect(res.body).toEqual(success({ removed: ['home', 'home'], not_removed: [] }));
  });

  it('does not let a bot owner remove the bot from a channel the owner cannot access', async () => {
    // member_3 has no access to the moderation channel 57; the bot is added there by an administrator.
    expect(
      (
        await call(env.server, 'POST', '/api/v1/users/me/subscriptions', {
          as: env.who.owner!,
          form: { subscriptions: '[{"name": "port moderation"}]', principals: `[${BOT}]` },
        })
      ).status,
    ).toBe(200);
    const res = await unsubscribe(env.server, env.who.member_3!, ['port moderation'], [BOT]);
    expect(res.body).toEqual(streamMissing('port moderation'));
    expect(isSubscribed(env.server, env.realm, BOT, 57)).toBe(true);
  });

  it('answers a remover-group member without access to a private channel as if it did not exist', async () => {
    // member_2 is put into 54's remover group but has no access to 54 (not subscribed, not in its add group).
    const patch = await call(env.server, 'PATCH', '/api/v1/streams/54', {
      as: env.who.owner!,
      form: {
        can_remove_subscribers_group: JSON.stringify({ new: { direct_members: [env.who.member_2!.user_id], direct_subgroups: [] } }),
      },
    });
    expect(patch.body).toEqual(success());
    const res = await unsubscribe(env.server, env.who.member_2!, ['models team'], [env.who.member!.user_id]);
    expect(res.body).toEqual(streamMissing('models team'));
    expect(isSubscribed(env.server, env.realm, env.who.member!.user_id, 54)).toBe(true);
  });

  it('checks permission before unknown names: an unknown name does not hide a refusal', async () => {
    const res = await unsubscribe(env.server, env.who.member_3!, ['home', 'no such channel'], [ASHTON]);
    expect(res.body).toEqual(INSUFFICIENT);
  });

  it('lets an administrator remove others from a channel the administrator is not subscribed to', async () => {
    const res = await unsubscribe(env.server, env.who.administrator!, ['models team'], [env.who.guest!.user_id]);
    expect(res.body).toEqual(success({ removed: ['models team'], not_removed: [] }));
    expect(isSubscribed(env.server, env.realm, env.who.guest!.user_id, 54)).toBe(false);
  });
});
