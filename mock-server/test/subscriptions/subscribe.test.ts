import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { INSUFFICIENT, error, isSubscribed, success, tables, useTestRealm } from '../helpers/harness.js';
import { KIRA, subscribe } from './support.js';

/**
 * POST /api/v1/users/me/subscriptions (companion of §4.8; parameters and answers of the reference
 * server): joining (§2.3 can_subscribe_group: anyone but guests may join any public channel),
 * adding others (§2.2 can_add_subscribers_group), and creating channels with the creation defaults
 * (§3: topics_policy `inherit`). `subscribed` / `already_subscribed` are keyed by user ID strings.
 */

const env = useTestRealm();

const id = (role: string) => String(env.who[role]!.user_id);
const unableToAccess = (name: string) => error(`Unable to access channel (${name}).`);

describe('joining channels', () => {
  it('joins a public channel', async () => {
    // member_3 left 52 alarm before; joining again is a new subscription.
    const res = await subscribe(env.server, env.who.member_3!, ['alarm']);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(success({ subscribed: { [id('member_3')]: ['alarm'] }, already_subscribed: {} }));
    expect(res.body).not.toHaveProperty('unauthorized');
    expect(isSubscribed(env.server, env.realm, env.who.member_3!.user_id, 52)).toBe(true);
  });

  it('reports channels the caller is already in under already_subscribed', async () => {
    const res = await subscribe(env.server, env.who.member!, ['home', 'alarm']);
    expect(res.body).toMatchObject({ subscribed: {}, already_subscribed: { [id('member')]: ['home', 'alarm'] } });
  });

  it('refuses a guest a public channel it is not in (§2.3)', async () => {
    const res = await subscribe(env.server, env.who.guest!, ['alarm']);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unableToAccess('alarm'));
    expect(isSubscribed(env.server, env.realm, env.who.guest!.user_id, 52)).toBe(false);
  });

  it('answers a guest asking again for a channel it is in with already_subscribed', async () => {
    // The guest reads 51 (subscribed): nothing to refuse, nothing to add.
    const res = await subscribe(env.server, env.who.guest!, ['home']);
    expect(res.body).toMatchObject(success({ subscribed: {}, already_subscribed: { [id('guest')]: ['home'] } }));
  });

  it('lists refused channels under unauthorized with authorization_errors_fatal false', async () => {
    const guest = await subscribe(env.server, env.who.guest!, ['alarm'], { authorization_errors_fatal: 'false' });
    expect(guest.status).toBe(200);
    expect(guest.body).toMatchObject(success({ subscribed: {}, already_subscribed: {}, unauthorized: ['alarm'] }));
    // The allowed channels are still joined.
    const member2 = await subscribe(env.server, env.who.member_2!, ['models team', 'home', 'majestic chatter'], {
      authorization_errors_fatal: 'false',
    });
    expect(member2.body).toMatchObject({
      already_subscribed: { [id('member_2')]: ['home', 'majestic chatter'] },
      unauthorized: ['models team'],
    });
    const member3 = await subscribe(env.server, env.who.member_3!, ['port moderation', 'alarm'], { authorization_errors_fatal: 'false' });
    expect(member3.body).toMatchObject({ subscribed: { [id('member_3')]: ['alarm'] }, unauthorized: ['port moderation'] });
  });

  it.each([
    ['member_3', 'directives leads', 53], // 53's can_add_subscribers_group is every member
    ['administrator', 'models team', 54], // administrators are in 54's can_add_subscribers_group
  ])('lets %s, in the can_add_subscribers_group, join the private %s', async (role, name, streamId) => {
    const res = await subscribe(env.server, env.who[role]!, [name]);
    expect(res.body).toMatchObject({ subscribed: { [id(role)]: [name] }, already_subscribed: {} });
    expect(isSubscribed(env.server, env.realm, env.who[role]!.user_id, streamId)).toBe(true);
  });

  it.each([
    ['member_2', 'models team'],
    ['member', 'port moderation'],
    ['bot', 'models team'],
  ])('refuses %s the private %s, naming only what was sent', async (role, name) => {
    expect((await subscribe(env.server, env.who[role]!, [name])).body).toEqual(unableToAccess(name));
  });

  it('lets members of can_subscribe_group join a private channel, and only them', async () => {
    const patch = await call(env.server, 'PATCH', '/api/v1/streams/57', {
      as: env.who.owner!,
      form: { can_subscribe_group: JSON.stringify({ new: { direct_members: [env.who.member_2!.user_id], direct_subgroups: [] } }) },
    });
    expect(patch.body).toEqual(success());
    expect((await subscribe(env.server, env.who.member_2!, ['port moderation'])).body).toMatchObject({
      subscribed: { [id('member_2')]: ['port moderation'] },
    });
    expect((await subscribe(env.server, env.who.member_3!, ['port moderation'])).body).toEqual(unableToAccess('port moderation'));
  });
});

describe('adding others with principals (§2.2 can_add_subscribers_group)', () => {
  it('adds users named by ID, keyed by user ID', async () => {
    const res = await subscribe(env.server, env.who.member!, ['alarm'], { principals: JSON.stringify([KIRA, env.who.member_3!.user_id]) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subscribed: { [String(KIRA)]: ['alarm'], [id('member_3')]: ['alarm'] }, already_subscribed: {} });
    expect(isSubscribed(env.server, env.realm, KIRA, 52) && isSubscribed(env.server, env.realm, env.who.member_3!.user_id, 52)).toBe(true);
  });

  it('adds users named by API email, still keyed by user ID', async () => {
    const res = await subscribe(env.server, env.who.member!, ['alarm'], { principals: JSON.stringify([env.who.member_3!.email]) });
    expect(res.body).toMatchObject({ subscribed: { [id('member_3')]: ['alarm'] }, already_subscribed: {} });
  });

  it('refuses a list mixing IDs and emails (one list type or the other)', async () => {
    const res = await subscribe(env.server, env.who.member!, ['alarm'], { principals: JSON.stringify([KIRA, env.who.member_3!.email]) });
    expect(res.body).toEqual(error('principals[1] is not an integer'));
  });

  it('reports a principal already subscribed under already_subscribed', async () => {
    const res = await subscribe(env.server, env.who.member!, ['home'], { principals: JSON.stringify([env.who.member_2!.user_id]) });
    expect(res.body).toMatchObject({ subscribed: {}, already_subscribed: { [id('member_2')]: ['home'] } });
  });

  it('lets a member of a private channel add subscribers (member_3 in 54)', async () => {
    const res = await subscribe(env.server, env.who.member_3!, ['models team'], { principals: `[${KIRA}]` });
    expect(res.body).toMatchObject({ subscribed: { [String(KIRA)]: ['models team'] } });
  });

  it('refuses a subscriber outside can_add_subscribers_group: Insufficient permission (reference server)', async () => {
    // member reads 54 (subscribed) but is not in its can_add_subscribers_group (member_3 + administrators):
    // the channel is accessible, so the refusal is a permission one, not "Unable to access".
    const res = await subscribe(env.server, env.who.member!, ['models team'], { principals: `[${KIRA}]` });
    expect(res.body).toEqual(INSUFFICIENT);
    expect(isSubscribed(env.server, env.realm, KIRA, 54)).toBe(false);
  });

  it('refuses a guest adding anyone, even to its own channel: Insufficient permission (reference server)', async () => {
    const res = await subscribe(env.server, env.who.guest!, ['home'], { principals: `[${KIRA}]`, authorization_errors_fatal: 'false' });
    expect(res.body).toEqual(INSUFFICIENT);
  });

  it('refuses adding to a private channel the caller may not see as "Unable to access"', async () => {
    expect((await subscribe(env.server, env.who.member_2!, ['models team'], { principals: `[${KIRA}]` })).body).toEqual(
      unableToAccess('models team'),
    );
  });

  it.each([
    ['an unknown ID', [999], 'No such user'],
    ['an unknown email', ['nobody@demo.teamchat.test'], 'No such user'],
    ['a deactivated user', [20], 'User is deactivated'],
  ])('refuses %s', async (_label, principals, msg) => {
    expect((await subscribe(env.server, env.who.owner!, ['home'], { principals: JSON.stringify(principals) })).body).toEqual(error(msg));
  });
});

describe('creating channels (§3 creation defaults)', () => {
  const created = (name: string) => Object.values(tables(env.server, env.realm).channels).find((c) => c.name === name);

  it('creates a public channel with the defaults', async () => {
    const res = await subscribe(env.server, env.who.member!, ['brand new']);
    expect(res.body).toMatchObject({ subscribed: { [id('member')]: ['brand new'] }, already_subscribed: {} });
    expect(created('brand new')).toMatchObject({
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      topics_policy: 'inherit',
      creator_id: env.who.member!.user_id,
      date_created: env.server.control.summary(env.realm).now,
      can_administer_channel_group: { direct_members: [env.who.member!.user_id], direct_subgroups: [] },
      is_archived: false,
    });
  });

  it('creates a private channel without shared history unless asked', async () => {
    await subscribe(env.server, env.who.member!, ['secret one'], { invite_only: 'true' });
    await subscribe(env.server, env.who.member!, ['secret two'], { invite_only: 'true', history_public_to_subscribers: 'true' });
    expect(created('secret one')).toMatchObject({ invite_only: true, history_public_to_subscribers: false, topics_policy: 'inherit' });
    expect(created('secret two')).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
  });

  it('keeps a new private channel private: other members may neither read nor join it', async () => {
    // Reference defaults of a new channel: can_add_subscribers_group and can_subscribe_group are
    // role:nobody, so only subscribers (and administrators, for metadata) know the channel.
    await subscribe(env.server, env.who.member!, ['secret one'], { invite_only: 'true' });
    const streamId = created('secret one')!.stream_id;
    expect((await call(env.server, 'GET', `/api/v1/users/me/${streamId}/topics`, { as: env.who.member_2! })).body).toEqual(
      error('Invalid channel ID'),
    );
    expect((await subscribe(env.server, env.who.member_2!, ['secret one'])).body).toEqual(unableToAccess('secret one'));
    expect(created('secret one')).toMatchObject({ can_add_subscribers_group: 1, can_subscribe_group: 1, can_remove_subscribers_group: 3 });
  });

  it('keeps history public for a public channel whatever is asked', async () => {
    await subscribe(env.server, env.who.member!, ['open book'], { history_public_to_subscribers: 'false' });
    expect(created('open book')?.history_public_to_subscribers).toBe(true);
  });

  it('strips the name of a new channel (reference §1 value parsing)', async () => {
    const res = await subscribe(env.server, env.who.member!, ['  spaced out  ']);
    expect(res.body).toMatchObject({ subscribed: { [id('member')]: ['spaced out'] } });
  });

  it('takes topics_policy only from those allowed to set it (can_set_topics_policy_group: moderators)', async () => {
    expect((await subscribe(env.server, env.who.member!, ['no empties'], { topics_policy: 'disable_empty_topic' })).body).toEqual(
      INSUFFICIENT,
    );
    expect(created('no empties')).toBeUndefined();
    expect((await subscribe(env.server, env.who.moderator!, ['no empties'], { topics_policy: 'disable_empty_topic' })).status).toBe(200);
    expect(created('no empties')?.topics_policy).toBe('disable_empty_topic');
  });

  it('refuses a new name holding a lone surrogate (JSON can carry one; it is no character and no link can encode it)', async () => {
    const form = { subscriptions: '[{"name": "odd\\ud800name"}]' };
    const res = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', { as: env.who.member!, form });
    expect(res.body).toEqual(error('Invalid character in channel name, at position 4.'));
    expect(Object.values(tables(env.server, env.realm).channels).some((c) => c.name.startsWith('odd'))).toBe(false);
  });

  it('refuses a guest creating a channel', async () => {
    expect((await subscribe(env.server, env.who.guest!, ['guest room'])).body).toEqual(INSUFFICIENT);
    expect(created('guest room')).toBeUndefined();
  });
});

describe('malformed requests', () => {
  it.each([
    [{}, error("Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'subscriptions' })],
    [{ subscriptions: 'home' }, error('subscriptions is not valid JSON')],
  ])('refuses %j', async (form, body) => {
    const res = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', { as: env.who.member!, form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });
});
