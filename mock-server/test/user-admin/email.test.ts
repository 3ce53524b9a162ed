import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { observeEvents, useTestRealm } from '../helpers/harness.js';
import { expectSnapshotsFollow, OK, patchUser, setUser, U, user } from './support.js';

/**
 * new_email of PATCH /users/{user_id} (spec §4.7, §5; C9): the delivery email changes; the API email
 * (the `email` everyone sees and the Basic-auth user name) follows only for users whose address is
 * visible to everyone (update-plan.ts followsDeliveryEmail). Events: `new_email` when the API email
 * changes, `delivery_email` shaped per reader (null for those who may not see it), and the Gravatar URL.
 */

const env = useTestRealm({ realm: 'fresh' });

const domain = () => user(env, U.owner).email.split('@')[1]!;
const gravatar = (email: string, version = 1) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=${version}`;
const changeEmail = async (target: number, email: string) =>
  expect((await patchUser(env.server, env.who.owner!, target, { new_email: email })).body).toEqual(OK);

describe('new_email: visible to everyone (email_address_visibility 1)', () => {
  it('changes both addresses; authentication follows the new API email', async () => {
    const old = user(env, U.member_2);
    const email = `maribel.new@${domain()}`;
    await changeEmail(U.member_2, email);
    expect(user(env, U.member_2)).toMatchObject({ email, delivery_email: email });
    const asNew = await call(env.server, 'GET', '/api/v1/users/me', { as: { email, api_key: old.api_key } });
    expect(asNew.status).toBe(200);
    const asOld = await call(env.server, 'GET', '/api/v1/users/me', { as: { email: old.email, api_key: old.api_key } });
    expect([asOld.status, asOld.body]).toEqual([401, { result: 'error', code: 'INVALID_API_KEY', msg: 'Invalid API key' }]);
  });

  it('tells everyone the new API email, the delivery email and the new Gravatar', async () => {
    const email = `maribel.new@${domain()}`;
    // (member_2's own queue answers to the new address: its events are in the snapshot test below.)
    const seen = await observeEvents(env, ['owner', 'member', 'guest', 'bot'], { client_gravatar: 'false' }, () =>
      changeEmail(U.member_2, email),
    );
    for (const events of Object.values(seen)) {
      expect(events).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: U.member_2, new_email: email } },
        { type: 'realm_user', op: 'update', person: { user_id: U.member_2, delivery_email: email } },
        { type: 'realm_user', op: 'update', person: { user_id: U.member_2, avatar_url: gravatar(email), avatar_version: 1 } },
      ]);
    }
  });

  it('only the case of its own address: allowed', async () => {
    const email = user(env, U.member_2).email.toUpperCase();
    await changeEmail(U.member_2, email);
    expect(user(env, U.member_2)).toMatchObject({ email, delivery_email: email });
  });

  it('keeps snapshot + events = new snapshot (client_gravatar as registered by default)', async () => {
    const email = `maribel.next@${domain()}`;
    const renamed = { member_2: { email, api_key: env.who.member_2!.api_key } };
    await expectSnapshotsFollow(
      env,
      ['owner', 'administrator', 'member', 'member_2', 'guest'],
      () => changeEmail(U.member_2, email),
      renamed,
    );
  });
});

describe('new_email: a hidden address (the owner: email_address_visibility 3, administrators)', () => {
  it('changes only the delivery email: the API email keeps revealing nothing new', async () => {
    const old = user(env, U.owner);
    const email = `owner.private@${domain()}`;
    const seen = await observeEvents(env, ['owner', 'administrator', 'moderator', 'member', 'guest'], {}, () =>
      changeEmail(U.owner, email),
    );
    expect(user(env, U.owner)).toMatchObject({ email: old.email, delivery_email: email });
    // An uploaded avatar: no Gravatar event.
    for (const role of ['owner', 'administrator'])
      expect(seen[role]).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: U.owner, delivery_email: email } }]);
    // Those who may not see the address hear nothing: not even that it changed.
    for (const role of ['moderator', 'member', 'guest']) expect(seen[role]).toEqual([]);
    // The old API email still authenticates the owner.
    expect((await call(env.server, 'GET', '/api/v1/users/me', { as: env.who.owner! })).status).toBe(200);
  });

  it('a hidden Gravatar user: the picture of the real address only for those who may see it', async () => {
    await setUser(env, U.member_2, { settings: { ...user(env, U.member_2).settings, email_address_visibility: 3 } });
    const apiEmail = user(env, U.member_2).email;
    const email = `hidden.maribel@${domain()}`;
    const plain = await observeEvents(env, ['administrator', 'member'], { client_gravatar: 'false' }, () => changeEmail(U.member_2, email));
    const avatar = (events: typeof plain.member) =>
      events!.find((e) => (e.person as Record<string, unknown>).avatar_url !== undefined)!.person;
    expect(avatar(plain.administrator)).toEqual({ user_id: U.member_2, avatar_url: gravatar(email), avatar_version: 1 });
    // The member sees the Gravatar of the API email, which did not change: no event at all.
    expect(plain.member).toEqual([]);
    expect(user(env, U.member_2).email).toBe(apiEmail);

    const computed = await observeEvents(env, ['administrator', 'member'], { client_gravatar: 'true' }, () =>
      changeEmail(U.member_2, `again.${email}`),
    );
    expect(avatar(computed.administrator)).toEqual({ user_id: U.member_2, avatar_url: null, avatar_version: 1 });
    expect(computed.member).toEqual([]);
  });

  it('keeps snapshot + events = new snapshot', async () => {
    await setUser(env, U.member_2, { settings: { ...user(env, U.member_2).settings, email_address_visibility: 3 } });
    await expectSnapshotsFollow(env, ['owner', 'administrator', 'member', 'member_2', 'guest'], async () => {
      await changeEmail(U.owner, `owner.private@${domain()}`);
      await changeEmail(U.member_2, `hidden.maribel@${domain()}`);
    });
  });
});
