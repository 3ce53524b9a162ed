import { describe, expect, it } from 'vitest';
import { observeEvents, useTestRealm } from '../helpers/harness.js';
import { expectSnapshotsFollow, G, OK, patchUser, U, user } from './support.js';

/**
 * What a role change tells whom (spec §2.8, §4.7; reference §4.7 "Events"): `realm_user` / update with
 * the role to every active user, the role groups' `user_group` remove_members / add_members, and to the
 * user themself the channels they gain sight of (`stream` / create + `peer_add`) or lose (`stream` /
 * delete), the default-channel list when it changes, and the real addresses their new role shows or
 * hides. Proven the strong way: for the target and other observers, snapshot before + events = snapshot
 * after, in both directions (the shared-realm invariant cannot move observers who left channels).
 */

const env = useTestRealm({ realm: 'fresh' });
const OBSERVERS = ['owner', 'member_2', 'guest', 'bot'];

type Transition = { name: string; target: string; by: string; role: number; setup?: () => Promise<unknown> };
const TRANSITIONS: Transition[] = [
  { name: 'guest → member: sees public channels', target: 'guest', by: 'administrator', role: 400 },
  { name: 'guest → moderator', target: 'guest', by: 'administrator', role: 300 },
  { name: 'member → administrator: sees every private channel', target: 'member', by: 'owner', role: 200 },
  { name: 'administrator → member', target: 'administrator', by: 'owner', role: 400 },
  { name: 'member → guest: loses public channels', target: 'member', by: 'administrator', role: 600 },
  { name: 'moderator → guest', target: 'moderator', by: 'owner', role: 600 },
  { name: 'administrator → guest', target: 'administrator', by: 'owner', role: 600 },
  {
    name: 'an owner steps down to member',
    target: 'owner',
    by: 'member_2',
    role: 400,
    setup: () => patchUser(env.server, env.who.owner!, U.member_2, { role: '100' }),
  },
];

describe('role changes: snapshot + events = new snapshot, for the target and others', () => {
  it.each(TRANSITIONS.map((t) => [t.name, t] as const))('%s', async (_name, t) => {
    await t.setup?.();
    const roles = [...new Set([t.target, ...OBSERVERS])];
    const targetId = env.who[t.target]!.user_id;
    const events = await expectSnapshotsFollow(env, roles, async () => {
      expect((await patchUser(env.server, env.who[t.by]!, targetId, { role: String(t.role) })).body).toEqual(OK);
    });
    // Everyone hears of the role.
    for (const role of roles)
      expect(events[role]).toContainEqual(
        expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: targetId, role: t.role } }),
      );
  });
});

describe('role change events in detail', () => {
  it('member_2 → moderator: role, then leaving role:fullmembers and joining role:moderators, to everyone', async () => {
    const seen = await observeEvents(env, ['owner', 'administrator', 'moderator', 'member', 'member_2', 'guest', 'bot'], {}, async () => {
      expect((await patchUser(env.server, env.who.administrator!, U.member_2, { role: '300' })).body).toEqual(OK);
    });
    for (const events of Object.values(seen)) {
      expect(events).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: U.member_2, role: 300 } },
        { type: 'user_group', op: 'remove_members', group_id: G.fullmembers, user_ids: [U.member_2] },
        { type: 'user_group', op: 'add_members', group_id: G.moderators, user_ids: [U.member_2] },
      ]);
    }
  });

  it('guest → member: the guest is introduced to the channels it could not see; archived ones only with archived_channels', async () => {
    const legacy = await observeEvents(env, ['guest'], {}, async () => {
      expect((await patchUser(env.server, env.who.administrator!, U.guest, { role: '400' })).body).toEqual(OK);
    });
    const created = (events: typeof legacy.guest) =>
      events!.filter((e) => e.type === 'stream' && e.op === 'create').map((e) => (e.streams as { stream_id: number }[])[0]!.stream_id);
    // 52, 58, 59 public; 53 private but open to role:members (can_add_subscribers_group).
    expect(created(legacy.guest).sort()).toEqual([52, 53, 58, 59]);
    // The default channels it now sees (51 as a subscriber already, 52 new).
    expect(legacy.guest).toContainEqual(expect.objectContaining({ type: 'default_streams' }));
    const defaults = legacy.guest!.find((e) => e.type === 'default_streams')!.default_streams as { stream_id: number }[];
    expect(defaults.map((c) => c.stream_id)).toEqual([51, 52]);

    await env.restore();
    const modern = await observeEvents(env, ['guest'], { client_capabilities: '{"archived_channels": true}' }, async () => {
      expect((await patchUser(env.server, env.who.administrator!, U.guest, { role: '400' })).body).toEqual(OK);
    });
    expect(created(modern.guest).sort()).toEqual([52, 53, 56, 58, 59]);
  });

  it("member → administrator: the moderation channel appears with its subscribers, and the owner's hidden address", async () => {
    const seen = await observeEvents(env, ['member', 'member_2'], {}, async () => {
      expect((await patchUser(env.server, env.who.owner!, U.member, { role: '200' })).body).toEqual(OK);
    });
    const member = seen.member!;
    expect(member.filter((e) => e.type === 'stream').map((e) => [e.op, (e.streams as { stream_id: number }[])[0]!.stream_id])).toEqual([
      ['create', 57],
    ]);
    expect(member).toContainEqual({ type: 'subscription', op: 'peer_add', stream_ids: [57], user_ids: expect.any(Array) });
    // The owner's email_address_visibility is 3 (administrators): now visible to the member.
    expect(member).toContainEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: U.owner, delivery_email: user(env, U.owner).delivery_email },
    });
    // Others learn the role and the groups only.
    expect(seen.member_2!.map((e) => e.type)).toEqual(['realm_user', 'user_group', 'user_group']);
  });

  it("administrator → member: a private channel open to administrators vanishes, the owner's address is hidden again", async () => {
    const seen = await observeEvents(env, ['administrator'], {}, async () => {
      expect((await patchUser(env.server, env.who.owner!, U.administrator, { role: '400' })).body).toEqual(OK);
    });
    const events = seen.administrator!;
    // 54 lets administrators add subscribers (so read it); the administrator is not subscribed. They are
    // subscribed to the moderation channel 57, which therefore stays.
    expect(events.filter((e) => e.type === 'stream')).toEqual([
      { type: 'stream', op: 'delete', streams: [{ stream_id: 54 }], stream_ids: [54] },
    ]);
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: U.owner, delivery_email: null } });
  });

  it('a deactivated user changes role: groups and role events only (no queue to follow their view)', async () => {
    const seen = await observeEvents(env, ['owner'], {}, async () => {
      expect((await patchUser(env.server, env.who.owner!, U.deactivated, { role: '600' })).body).toEqual(OK);
    });
    expect(seen.owner).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: U.deactivated, role: 600 } },
      { type: 'user_group', op: 'remove_members', group_id: G.fullmembers, user_ids: [U.deactivated] },
      { type: 'user_group', op: 'add_members', group_id: G.everyone, user_ids: [U.deactivated] },
    ]);
  });
});

describe('name changes and combined updates', () => {
  it('a rename: the stripped name, once, to every active user (bots too)', async () => {
    const seen = await observeEvents(env, ['owner', 'member', 'member_2', 'guest', 'bot'], {}, async () => {
      expect((await patchUser(env.server, env.who.administrator!, U.member_2, { full_name: '  Maribel Renamed\t' })).body).toEqual(OK);
    });
    for (const events of Object.values(seen))
      expect(events).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: U.member_2, full_name: 'Maribel Renamed' } }]);
    expect(user(env, U.member_2).full_name).toBe('Maribel Renamed');
  });

  it('everything at once: events in the reference order (role, name, profile field, email)', async () => {
    const email = `all.at.once@${user(env, U.owner).email.split('@')[1]!}`;
    const seen = await observeEvents(env, ['owner'], {}, async () => {
      const form = { new_email: email, profile_data: JSON.stringify([{ id: 2, value: 'she/her' }]), full_name: 'All At Once', role: '300' };
      expect((await patchUser(env.server, env.who.owner!, U.member_2, form)).body).toEqual(OK);
    });
    const person = (e: Record<string, unknown>) => Object.keys(e.person as object).filter((k) => k !== 'user_id')[0];
    expect(seen.owner!.map((e) => (e.type === 'realm_user' ? person(e) : `${e.type}/${e.op}`))).toEqual([
      'role',
      'user_group/remove_members',
      'user_group/add_members',
      'full_name',
      'custom_profile_field',
      'new_email',
      'delivery_email',
      'avatar_url',
    ]);
    expect(user(env, U.member_2)).toMatchObject({ role: 300, full_name: 'All At Once', email, delivery_email: email });
  });
});
