import { describe, expect, it } from 'vitest';
import type { RoleCode } from '../../src/store/state.js';
import { tables, useTestRealm } from '../helpers/harness.js';
import { deactivate, err, G, OK, patchUser, U, user } from './support.js';

/**
 * Role transitions (spec §2.8, §4.7; C8, C10): every from/to pair, asked by the owner and by an
 * administrator, on member_2 (who joined long ago, so a member is a full member). The target is first
 * given the `from` role by the owner (always allowed from 400); the other owner, 11, stays, so "the only
 * owner" never applies here (it has its own tests below).
 */

const env = useTestRealm({ realm: 'fresh' });

const ROLES: RoleCode[] = [100, 200, 300, 400, 600];
const ROLE_GROUP: Record<RoleCode, number> = {
  100: G.owners,
  200: G.administrators,
  300: G.moderators,
  400: G.fullmembers,
  600: G.everyone,
};
const OWNER_ONLY = 'Must be an organization owner';
const GUEST = 'Guests cannot be organization administrators.';

function expected(by: 'owner' | 'administrator', from: RoleCode, to: RoleCode): 'ok' | string {
  if (from === to) return 'ok';
  if (by === 'administrator' && (from === 100 || to === 100)) return OWNER_ONLY;
  if (from === 600 && to <= 200) return GUEST;
  return 'ok';
}

const PAIRS = (['owner', 'administrator'] as const).flatMap((by) =>
  ROLES.flatMap((from) => ROLES.map((to) => [by, from, to, expected(by, from, to)] as const)),
);

/** The role groups holding the user directly (each user is in exactly one). */
const roleGroupsOf = (id: number) =>
  Object.values(ROLE_GROUP).filter((g) => tables(env.server, env.realm).user_groups[String(g)]!.members.includes(id));

describe('PATCH /users/{user_id} role: the transition matrix', () => {
  it.each(PAIRS)('by %s: %i → %i: %s', async (by, from, to, outcome) => {
    if (from !== 400) expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: String(from) })).body).toEqual(OK);
    const res = await patchUser(env.server, env.who[by]!, U.member_2, { role: String(to) });
    if (outcome === 'ok') {
      expect([res.status, res.body]).toEqual([200, OK]);
      expect(user(env, U.member_2).role).toBe(to);
      expect(roleGroupsOf(U.member_2)).toEqual([ROLE_GROUP[to]]);
    } else {
      expect([res.status, res.body]).toEqual([400, err(outcome)]);
      expect(user(env, U.member_2).role).toBe(from);
      expect(roleGroupsOf(U.member_2)).toEqual([ROLE_GROUP[from]]);
    }
  });
});

describe('the only owner (§4.7)', () => {
  it('keeps the role while alone; with a second owner either may step down', async () => {
    const only = 'The owner permission cannot be removed from the only organization owner.';
    expect((await patchUser(env.server, env.who.owner!, U.owner, { role: '600' })).body).toEqual(err(only));
    expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: '100' })).body).toEqual(OK);
    expect((await patchUser(env.server, env.who.owner!, U.owner, { role: '200' })).body).toEqual(OK);
    // Now member_2 is the only owner, and the former owner is an administrator.
    expect((await patchUser(env.server, env.who.member_2!, U.member_2, { role: '400' })).body).toEqual(err(only));
    expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: '400' })).body).toEqual(err(OWNER_ONLY));
  });

  it('a deactivated owner does not count: the active one is still the only owner', async () => {
    expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: '100' })).body).toEqual(OK);
    expect((await deactivate(env.server, env.who.owner!, U.member_2)).body).toEqual(OK);
    expect((await patchUser(env.server, env.who.owner!, U.owner, { role: '200' })).body).toEqual(
      err('The owner permission cannot be removed from the only organization owner.'),
    );
    // The deactivated owner's role may still be removed: they are not the only active owner.
    expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: '400' })).body).toEqual(OK);
  });

  it('a member within the waiting period joins role:members, not role:fullmembers', async () => {
    // Kira (18) joined yesterday; the realm's waiting period is 3 days.
    expect((await patchUser(env.server, env.who.owner!, U.kira, { role: '300' })).body).toEqual(OK);
    expect(roleGroupsOf(U.kira)).toEqual([G.moderators]);
    expect((await patchUser(env.server, env.who.owner!, U.kira, { role: '400' })).body).toEqual(OK);
    expect(tables(env.server, env.realm).user_groups[String(G.members)]!.members).toContain(U.kira);
    expect(roleGroupsOf(U.kira)).toEqual([]);
  });
});
