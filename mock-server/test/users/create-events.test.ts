import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { observeEvents, tables, useTestRealm, type Event } from '../helpers/harness.js';
import { createUser } from './support.js';

/**
 * What creating a user tells whom (§4.10, §6; payloads from the reference "Event payloads"): every active
 * account gets `realm_user` / `add` with the person as that reader may see it, and `user_group` /
 * `add_members` for the role group; whoever may know a default channel's subscribers gets its `peer_add`.
 */
const env = useTestRealm();
const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'] as const;
const NEW_ID = 23;
const EMAIL = 'grace.hopper@example.com';
const ROLE_MEMBERS_GROUP = 6; // role:members of the demo realm
const gravatar = (email: string) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?d=identicon&version=1`;

const create = () => createUser(env.server, env.who.administrator!, { email: EMAIL, password: 'cobol-1959', full_name: 'Grace Hopper' });

function person(avatarUrl: string | null): Record<string, unknown> {
  return {
    user_id: NEW_ID,
    email: EMAIL,
    // New accounts let everyone see their email (email_address_visibility 1, as the demo fixtures give
    // humans; the realm has no default of its own), so every reader, guests included, gets it.
    delivery_email: EMAIL,
    full_name: 'Grace Hopper',
    role: 400,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    is_active: true,
    is_imported_stub: false,
    avatar_url: avatarUrl,
    avatar_version: 1,
    timezone: '',
    date_joined: env.server.context.clock.now(env.realm),
    profile_data: {},
  };
}

const peerAdd = (streamId: number): Event => ({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [NEW_ID] });

/** Default channels 51 (home) and 52 (alarm) are public: every non-guest may know their subscribers; the guest only of 51, theirs. */
const peersFor = (role: string) => (role === 'guest' ? [peerAdd(51)] : [peerAdd(51), peerAdd(52)]);

describe('events of POST /users', () => {
  it('every active account hears of the user, the group and the default channels it may know (client_gravatar true)', async () => {
    const events = await observeEvents(env, ROLES, {}, create);
    for (const role of ROLES) {
      expect(events[role], role).toEqual([
        // Everyone may see the real email, so a client computing Gravatars gets null.
        { type: 'realm_user', op: 'add', person: person(null) },
        { type: 'user_group', op: 'add_members', group_id: ROLE_MEMBERS_GROUP, user_ids: [NEW_ID] },
        ...peersFor(role),
      ]);
    }
  });

  it('clients that do not compute Gravatars get the URL', async () => {
    const events = await observeEvents(
      env,
      ['member', 'administrator'],
      { client_gravatar: 'false', event_types: '["realm_user"]' },
      create,
    );
    expect(events.member).toEqual([{ type: 'realm_user', op: 'add', person: person(gravatar(EMAIL)) }]);
    expect(events.administrator).toEqual(events.member);
  });

  it('nobody is told about a private default channel they may not know', async () => {
    // Make 54 (private, "models team") a default channel: the new user joins it, and only those who
    // may know its subscribers hear of that.
    const realm = tables(env.server, env.realm).realm.realm;
    await env.server.context.store.transact(env.realm, (tx) =>
      tx.put('realm', 'realm', { ...realm, default_stream_ids: [...realm.default_stream_ids, 54] }),
    );
    const channel = tables(env.server, env.realm).channels['54']!;
    expect(channel.invite_only).toBe(true);
    const events = await observeEvents(env, ROLES, { event_types: '["subscription"]' }, create);
    const subscribers = new Set(
      Object.values(tables(env.server, env.realm).subscriptions)
        .filter((s) => s.stream_id === 54 && s.active && s.user_id !== NEW_ID)
        .map((s) => s.user_id),
    );
    const hears54 = ROLES.filter((role) => events[role]!.some((e) => (e.stream_ids as number[]).includes(54)));
    // Subscribers know the subscribers; so do organization administrators (metadata access, access.ts).
    expect(hears54).toEqual(
      ROLES.filter((role) => subscribers.has(env.who[role]!.user_id) || role === 'owner' || role === 'administrator'),
    );
    expect(hears54).toEqual(['owner', 'administrator', 'member', 'member_3', 'guest']);
    expect(
      Object.values(tables(env.server, env.realm).subscriptions).some((s) => s.user_id === NEW_ID && s.stream_id === 54 && s.active),
    ).toBe(true);
  });

  it('a refused creation sends nothing', async () => {
    const events = await observeEvents(env, ROLES, {}, () =>
      createUser(env.server, env.who.administrator!, { email: EMAIL, password: 'short', full_name: 'Grace Hopper' }),
    );
    for (const role of ROLES) expect(events[role], role).toEqual([]);
  });
});
