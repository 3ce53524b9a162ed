import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { DEACTIVATED, error, freshRealm, isSubscribed, success, unreadByTopic, useTestRealm } from '../helpers/harness.js';
import { ASHTON, streamMissing, unsubscribe } from './support.js';

/**
 * DELETE /api/v1/users/me/subscriptions (spec §4.8, reference §4.8, C11): who is removed, what the
 * answer lists, and every error in the reference order (principals → names → permission → unknown
 * names). Mutating tests start from a restored snapshot of their own realm.
 */

const env = useTestRealm();

const del = (form: Record<string, string>, as = env.who.member!) =>
  call(env.server, 'DELETE', '/api/v1/users/me/subscriptions', { as, form });

describe('unsubscribing oneself (§4.8)', () => {
  it('removes the caller when principals is absent', async () => {
    const res = await unsubscribe(env.server, env.who.member!, ['alarm']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ removed: ['alarm'], not_removed: [] }));
    expect(isSubscribed(env.server, env.realm, env.who.member!.user_id, 52)).toBe(false);
  });

  it('removes the caller when principals is [] (reference §4.8)', async () => {
    expect((await unsubscribe(env.server, env.who.member!, ['alarm'], [])).body).toEqual(success({ removed: ['alarm'], not_removed: [] }));
  });

  it('lists a channel the caller had already left under not_removed', async () => {
    // member_3's subscription to 52 is inactive in the fixture.
    expect((await unsubscribe(env.server, env.who.member_3!, ['alarm', 'home'])).body).toEqual(
      success({ removed: ['home'], not_removed: ['alarm'] }),
    );
  });

  it('matches names case-insensitively, answering with the channel name', async () => {
    expect((await unsubscribe(env.server, env.who.member!, ['HOME', 'Alarm'])).body).toEqual(
      success({ removed: ['home', 'alarm'], not_removed: [] }),
    );
  });

  it('strips surrounding whitespace from each name (reference §1 value parsing)', async () => {
    expect((await unsubscribe(env.server, env.who.member!, ['  home ', '\talarm'])).body).toEqual(
      success({ removed: ['home', 'alarm'], not_removed: [] }),
    );
  });

  it('accepts the lists in the query string with no body, as the JavaScript client sends DELETE', async () => {
    const res = await call(env.server, 'DELETE', '/api/v1/users/me/subscriptions', {
      as: env.who.member!,
      query: { subscriptions: '["alarm"]' },
    });
    expect(res.body).toEqual(success({ removed: ['alarm'], not_removed: [] }));
  });

  it('lets anyone leave, even where they could not remove others (a guest from a private channel)', async () => {
    expect((await unsubscribe(env.server, env.who.guest!, ['models team'])).body).toEqual(
      success({ removed: ['models team'], not_removed: [] }),
    );
  });
});

describe('principals by ID and by email (§4.8)', () => {
  it('removes users named by ID, one entry per user × channel', async () => {
    // member is in 51, 52, 53; Ashton in 51 and 52 only.
    const res = await unsubscribe(env.server, env.who.owner!, ['home', 'alarm', 'directives leads'], [env.who.member!.user_id, ASHTON]);
    expect(res.status).toBe(200);
    expect([...(res.body.removed as string[])].sort()).toEqual(['alarm', 'alarm', 'directives leads', 'home', 'home']);
    expect(res.body.not_removed).toEqual(['directives leads']);
    expect(isSubscribed(env.server, env.realm, ASHTON, 51) || isSubscribed(env.server, env.realm, env.who.member!.user_id, 53)).toBe(false);
  });

  it('removes users named by API email, case-insensitively', async () => {
    const res = await unsubscribe(env.server, env.who.owner!, ['home'], [env.who.member!.email.toUpperCase(), env.who.member_2!.email]);
    expect(res.body).toEqual(success({ removed: ['home', 'home'], not_removed: [] }));
    expect(isSubscribed(env.server, env.realm, env.who.member_2!.user_id, 51)).toBe(false);
  });

  it('counts a user named twice once', async () => {
    const res = await unsubscribe(env.server, env.who.owner!, ['alarm'], [env.who.member!.user_id, env.who.member!.user_id]);
    expect(res.body).toEqual(success({ removed: ['alarm'], not_removed: [] }));
  });
});

describe('unknown channels (§4.8, §7, C11)', () => {
  it('answers STREAM_DOES_NOT_EXIST with the first unknown name in request order', async () => {
    const res = await unsubscribe(env.server, env.who.member!, ['home', 'nowhere', 'elsewhere']);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(streamMissing('nowhere'));
    // Nothing was removed: the request fails as a whole.
    expect(isSubscribed(env.server, env.realm, env.who.member!.user_id, 51)).toBe(true);
  });

  it.each([
    ['member_2', 'models team'], // private 54: not subscribed, not in its groups
    ['member', 'port moderation'], // private 57
    ['guest', 'alarm'], // public, but a guest sees only channels it is subscribed to
  ])('answers %s for %s, a channel it may not know, exactly as for a missing one (no leak)', async (actor, name) => {
    const res = await unsubscribe(env.server, env.who[actor]!, [name]);
    expect(res.body).toEqual(streamMissing(name));
  });
});

describe('bad principals (§4.8, §7, level 208)', () => {
  it.each([
    ['a deactivated user', [DEACTIVATED], 'User is deactivated'],
    ['an unknown ID', [999], 'No such user'],
    ['an unknown email', ['nobody@demo.teamchat.test'], 'No such user'],
    ['an unknown user next to a deactivated one', [DEACTIVATED, 999], 'No such user'],
  ])('refuses %s with 400 BAD_REQUEST at the current level', async (_label, principals, msg) => {
    const res = await unsubscribe(env.server, env.who.owner!, ['home'], principals);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it.each([
    ['a deactivated user', [DEACTIVATED], 'User is deactivated'],
    ['an unknown user', [999], 'No such user'],
  ])('refuses %s with 403 UNAUTHORIZED_PRINCIPAL below level 208', async (_label, principals, msg) => {
    const old = await freshRealm(env.server, 207);
    const res = await unsubscribe(env.server, old.who.owner!, ['home'], principals);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(error(msg, 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('checks principals before channel names', async () => {
    expect((await unsubscribe(env.server, env.who.owner!, ['nowhere'], [999])).body).toEqual(error('No such user'));
  });
});

describe('archived channels (§4.8, §9 level 362)', () => {
  it('can be left and have subscribers removed at the current level', async () => {
    expect((await unsubscribe(env.server, env.who.member!, ['old matrix'])).body).toEqual(
      success({ removed: ['old matrix'], not_removed: [] }),
    );
    expect((await unsubscribe(env.server, env.who.owner!, ['old matrix'], [env.who.member_2!.user_id])).body).toEqual(
      success({ removed: ['old matrix'], not_removed: [] }),
    );
  });

  it('works from level 362', async () => {
    const at362 = await freshRealm(env.server, 362);
    expect((await unsubscribe(env.server, at362.who.member!, ['old matrix'])).body).toEqual(
      success({ removed: ['old matrix'], not_removed: [] }),
    );
  });

  it('does not exist below level 362', async () => {
    const at361 = await freshRealm(env.server, 361);
    const res = await unsubscribe(env.server, at361.who.member!, ['old matrix']);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(streamMissing('old matrix'));
    expect(isSubscribed(env.server, at361.realm, at361.who.member!.user_id, 56)).toBe(true);
  });
});

describe('malformed requests (reference §1 value parsing)', () => {
  it.each([
    ['an unencoded list, as the JavaScript client sends it', { subscriptions: 'general,dev' }, error('subscriptions is not valid JSON')],
    ['no subscriptions', {}, error("Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'subscriptions' })],
    ['a list of numbers', { subscriptions: '[51]' }, error('subscriptions[0] is not a string')],
    ['a string instead of a list', { subscriptions: '"home"' }, error('subscriptions is not a list')],
    ['principals not JSON, parsed before subscriptions', { principals: 'andrew' }, error('principals is not valid JSON')],
  ])('refuses %s', async (_label, form, body) => {
    const res = await del(form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });
});

describe('unread messages of a channel one leaves (reference §4.8)', () => {
  it('become read, and only those of that channel', async () => {
    const before = await unreadByTopic(env.server, env.who.member_3!);
    expect(before['54/navigating the microchip']).toEqual([1083, 1084, 1087]);
    expect((await unsubscribe(env.server, env.who.member_3!, ['models team'])).body).toEqual(
      success({ removed: ['models team'], not_removed: [] }),
    );
    const after = await unreadByTopic(env.server, env.who.member_3!);
    const { '54/navigating the microchip': _gone, ...rest } = before;
    expect(after).toEqual(rest);
  });

  it('become read for a user removed by someone else', async () => {
    expect((await unsubscribe(env.server, env.who.owner!, ['home'], [env.who.guest!.user_id])).status).toBe(200);
    const after = await unreadByTopic(env.server, env.who.guest!);
    expect(Object.keys(after).filter((k) => k.startsWith('51/'))).toEqual([]);
    expect(after['54/navigating the microchip']).toEqual([1083, 1084, 1087]);
  });
});
