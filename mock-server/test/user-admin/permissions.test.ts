import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { freshRealm, useTestRealm } from '../helpers/harness.js';
import { CALLERS, caller as credentialsOf, DEACTIVATED_401, deactivate, err, OK, patchUser, U, user } from './support.js';

/**
 * Who may update and deactivate users (spec §4.7, §4.17, §5 "Administrator-only operations"; C7, C10):
 * organization administrators and owners; everyone else gets 400 `Insufficient permission`; deactivated
 * credentials never get past authentication (401). Each row runs on a fresh copy of the demo realm.
 */

const env = useTestRealm({ realm: 'fresh' });

type Outcome = 'ok' | 'Insufficient permission' | '401';
const EXPECTED: Record<(typeof CALLERS)[number], Outcome> = {
  owner: 'ok',
  administrator: 'ok',
  moderator: 'Insufficient permission',
  member: 'Insufficient permission',
  guest: 'Insufficient permission',
  bot: 'Insufficient permission',
  deactivated: '401',
};

function expectOutcome(res: { status: number; body: Record<string, unknown> }, outcome: Outcome): void {
  if (outcome === 'ok') expect([res.status, res.body]).toEqual([200, OK]);
  else if (outcome === '401') expect([res.status, res.body]).toEqual([401, DEACTIVATED_401]);
  else expect([res.status, res.body]).toEqual([400, err(outcome)]);
}

describe('PATCH /users/{user_id}: callers (§4.7)', () => {
  it.each(CALLERS.map((c) => [c, EXPECTED[c]] as const))('%s: %s', async (caller, outcome) => {
    const before = user(env, U.member_2);
    const res = await patchUser(env.server, credentialsOf(env, caller), U.member_2, { full_name: 'Changed By Caller', role: '300' });
    expectOutcome(res, outcome);
    if (outcome === 'ok') expect(user(env, U.member_2)).toMatchObject({ full_name: 'Changed By Caller', role: 300 });
    else expect(user(env, U.member_2)).toEqual(before);
  });

  it('an administrator may update themselves, and so step down (the reference allows it)', async () => {
    expect((await patchUser(env.server, env.who.administrator!, U.administrator, { role: '400' })).body).toEqual(OK);
    expect(user(env, U.administrator).role).toBe(400);
    // No longer an administrator: the next attempt is refused.
    expect((await patchUser(env.server, env.who.administrator!, U.administrator, { role: '200' })).body).toEqual(
      err('Insufficient permission'),
    );
  });
});

describe('DELETE /users/{user_id}: callers (§4.17)', () => {
  it.each(CALLERS.map((c) => [c, EXPECTED[c]] as const))('%s: %s', async (caller, outcome) => {
    const res = await deactivate(env.server, credentialsOf(env, caller), U.member_2);
    expectOutcome(res, outcome);
    expect(user(env, U.member_2).is_active).toBe(outcome !== 'ok');
  });

  it("a bot's owner may not deactivate the bot: bots are not targets of this operation", async () => {
    expect((await deactivate(env.server, env.who.member_3!, U.bot)).body).toEqual(err('No such user'));
    expect((await deactivate(env.server, env.who.owner!, U.bot)).body).toEqual(err('No such user'));
    expect(user(env, U.bot).is_active).toBe(true);
  });
});

describe('feature levels 166 and 167: ignored_parameters_unsupported (spec §1, §9)', () => {
  it.each([
    [167, { ignored_parameters_unsupported: ['colour', 'user_id'] }],
    [166, {}],
  ])('at level %i', async (level, extra) => {
    const { realm, who } = await freshRealm(env.server, level);
    // user_id in the body duplicates the path (the Python client's habit): ignored, not an error.
    const patched = await call(env.server, 'PATCH', `/api/v1/users/${U.member_2}`, {
      as: who.administrator!,
      form: { full_name: 'Level Test', colour: 'red', user_id: '15' },
    });
    expect([patched.status, patched.body]).toEqual([200, { ...OK, ...extra }]);
    const removed = await call(env.server, 'DELETE', `/api/v1/users/${U.member_2}`, {
      as: who.administrator!,
      form: { deactivation_notification_comment: 'Bye', colour: 'red', user_id: '15' },
    });
    expect([removed.status, removed.body]).toEqual([200, { ...OK, ...extra }]);
    expect(env.server.context.store.realm(realm)!.users[String(U.member_2)]).toMatchObject({ full_name: 'Level Test', is_active: false });
  });

  it('the JavaScript client sends PATCH and DELETE parameters in the query string', async () => {
    const patched = await call(env.server, 'PATCH', `/api/v1/users/${U.member_2}`, {
      as: env.who.administrator!,
      query: { full_name: 'From Query', role: '300' },
    });
    expect(patched.body).toEqual(OK);
    expect(user(env, U.member_2)).toMatchObject({ full_name: 'From Query', role: 300 });
    const removed = await call(env.server, 'DELETE', `/api/v1/users/${U.member_2}`, {
      as: env.who.administrator!,
      query: { deactivation_notification_comment: 'Bye' },
    });
    expect(removed.body).toEqual(OK);
    expect(user(env, U.member_2).is_active).toBe(false);
  });
});
