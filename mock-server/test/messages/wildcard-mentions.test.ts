import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { error, observeEvents, send, success, tables, useTestRealm } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';

/**
 * Wildcard mentions refused by the organization's policy (companion tier; reference send-message,
 * update-message, update-realm): channel wildcards in channels of more than 15 subscribers, topic wildcards
 * (from level 229) in topics of more than 15 participants, by level (codes from 229, the group setting
 * from 352). The file's realm gets extra users so that the demo channel `home` (51) is large.
 */
const env = useTestRealm();
const HOME = 51;
const CURRENT = 412;

const CHANNEL_REFUSED = error(
  'You do not have permission to use channel wildcard mentions in this channel.',
  'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
);
const CHANNEL_REFUSED_OLD = error('You do not have permission to use wildcard mentions in this stream.');
const TOPIC_REFUSED = error(
  'You do not have permission to use topic wildcard mentions in this topic.',
  'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
);

/** Users of the file's own beyond the demo's, with their keys (the control API lists every user's). */
let crowd: (Who & { user_id: number })[] = [];

beforeAll(async () => {
  const admin = env.who.administrator!;
  const homeSize = () => Object.values(tables(env.server, env.realm).subscriptions).filter((s) => s.active && s.stream_id === HOME).length;
  // Enough for a topic of more than 15 participants: the crowd reacting, its first sender and the member.
  const ids: number[] = [];
  for (let i = 0; i < 14; i++) {
    const res = await call(env.server, 'POST', '/api/v1/users', {
      as: admin,
      form: { email: `crowd-${i}@example.com`, password: 'a-Long-and-unusual-passw0rd!', full_name: `Crowd Person ${i}` },
    });
    expect(res.status).toBe(200);
    ids.push(res.body.user_id as number);
  }
  const subscribed = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', {
    as: admin,
    form: { subscriptions: JSON.stringify([{ name: 'home' }]), principals: JSON.stringify(ids) },
  });
  expect(subscribed.status).toBe(200);
  expect(homeSize()).toBeGreaterThan(16);
  const keys = env.server.control.credentials(env.realm);
  crowd = ids.map((id) => {
    const c = keys.find((k) => k.user_id === id)!;
    return { user_id: id, email: c.email, api_key: c.api_key };
  });
  env.server.control.saveSnapshot(env.realm, 'pristine');
});

const atLevel = (level: number) => env.server.control.setFeatureLevel(env.realm, level);
beforeEach(() => atLevel(CURRENT));

const sendTo = (as: Who, to: number, content: string, topic = 'wildcards') =>
  send(env.server, as, { type: 'stream', to: String(to), topic, content });
const messageCount = () => Object.keys(tables(env.server, env.realm).messages).length;
const edit = (as: Who, id: number, form: Record<string, string>) => call(env.server, 'PATCH', `/api/v1/messages/${id}`, { as, form });
const updateRealm = (form: Record<string, string>) => call(env.server, 'PATCH', '/api/v1/realm', { as: env.who.administrator!, form });
const groupId = (name: string) =>
  Object.values(tables(env.server, env.realm).user_groups).find((g) => g.is_system_group && g.name === name)!.id;

/** A topic of `home` with more than 15 participants: one message, and a reaction from everyone of the crowd. */
async function crowdedTopic(topic: string): Promise<number> {
  const res = await sendTo(env.who.owner!, HOME, 'Who is in?', topic);
  const id = res.body.id as number;
  for (const who of crowd) {
    const r = await call(env.server, 'POST', `/api/v1/messages/${id}/reactions`, { as: who, form: { emoji_name: 'octopus' } });
    expect(r.status).toBe(200);
  }
  return id;
}

describe('channel wildcards on sending', () => {
  it.each(['@**all**', '@**everyone**', '@**channel**', '@**stream**'])(
    'refuses %s from a member in a large channel with STREAM_WILDCARD_MENTION_NOT_ALLOWED, storing nothing',
    async (mention) => {
      const before = messageCount();
      const res = await sendTo(env.who.member!, HOME, `${mention} meeting now`);
      expect([res.status, res.body]).toEqual([400, CHANNEL_REFUSED]);
      expect(messageCount()).toBe(before);
    },
  );

  it('lets administrators (the default group), small channels and silent wildcards through', async () => {
    expect((await sendTo(env.who.administrator!, HOME, '@**all** meeting now')).status).toBe(200);
    const small = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', {
      as: env.who.member!,
      form: { subscriptions: JSON.stringify([{ name: 'small room' }]) },
    });
    expect(small.status).toBe(200);
    const smallId = Object.values(tables(env.server, env.realm).channels).find((c) => c.name === 'small room')!.stream_id;
    expect((await sendTo(env.who.member!, smallId, '@**all** meeting now')).body).toMatchObject(success());
    expect((await sendTo(env.who.member!, HOME, '@_**all** meeting now')).status).toBe(200);
    expect((await sendTo(env.who.member!, HOME, '`@**all**` is how to call everyone')).status).toBe(200);
  });

  it('answers BAD_REQUEST with the older text below level 229', async () => {
    await atLevel(228);
    const res = await sendTo(env.who.member!, HOME, '@**all** meeting now');
    expect([res.status, res.body]).toEqual([400, CHANNEL_REFUSED_OLD]);
  });
});

describe('topic wildcards on sending', () => {
  it('refuses @**topic** in a topic of more than 15 participants from level 229, reactors counting', async () => {
    await crowdedTopic('crowded');
    const res = await sendTo(env.who.member!, HOME, '@**topic** look here', 'Crowded');
    expect([res.status, res.body]).toEqual([400, TOPIC_REFUSED]);
    expect((await sendTo(env.who.member!, HOME, '@**topic** look here', 'quiet')).status).toBe(200);
    expect((await sendTo(env.who.administrator!, HOME, '@**topic** look here', 'crowded')).status).toBe(200);
  });

  it('checks the channel wildcard first when a message has both', async () => {
    await crowdedTopic('both');
    expect((await sendTo(env.who.member!, HOME, '@**topic** and @**all**', 'both')).body).toEqual(CHANNEL_REFUSED);
  });

  it('does not restrict topic wildcards below level 229', async () => {
    await crowdedTopic('older');
    await atLevel(228);
    expect((await sendTo(env.who.member!, HOME, '@**topic** look here', 'older')).status).toBe(200);
  });
});

describe('content edits', () => {
  it('refuses an edit that adds a wildcard the sender may not use, by level, and leaves the message as it was', async () => {
    const id = (await sendTo(env.who.member!, HOME, 'plain words')).body.id as number;
    expect((await edit(env.who.member!, id, { content: '@**all** plain words' })).body).toEqual(CHANNEL_REFUSED);
    await atLevel(228);
    expect((await edit(env.who.member!, id, { content: '@**all** plain words' })).body).toEqual(CHANNEL_REFUSED_OLD);
    expect(tables(env.server, env.realm).messages[String(id)]!.content).toBe('plain words');
  });

  it('refuses an edit that adds @**topic** in a crowded topic', async () => {
    await crowdedTopic('edited');
    const id = (await sendTo(env.who.member!, HOME, 'plain words', 'edited')).body.id as number;
    expect((await edit(env.who.member!, id, { content: '@**topic** plain words' })).body).toEqual(TOPIC_REFUSED);
  });

  it('does not check a message whose content does not change', async () => {
    const id = (await sendTo(env.who.administrator!, HOME, '@**all** agenda')).body.id as number;
    expect((await updateRealm({ can_mention_many_users_group: JSON.stringify({ new: groupId('role:nobody') }) })).status).toBe(200);
    expect((await edit(env.who.administrator!, id, { topic: 'agenda' })).body).toMatchObject(success());
    expect((await edit(env.who.administrator!, id, { content: '@**all** agenda' })).body).toMatchObject(success());
    expect((await edit(env.who.administrator!, id, { content: '@**all** new agenda' })).body).toEqual(CHANNEL_REFUSED);
  });
});

describe('the realm setting', () => {
  it('is can_mention_many_users_group from level 352: settable by administrators, shown in register, announced', async () => {
    const members = groupId('role:members');
    const events = await observeEvents(env, ['member'], { event_types: JSON.stringify(['realm']) }, async () => {
      const res = await updateRealm({ can_mention_many_users_group: JSON.stringify({ new: members }), wildcard_mention_policy: '6' });
      expect(res.body).toEqual(
        success({ can_mention_many_users_group: members, ignored_parameters_unsupported: ['wildcard_mention_policy'] }),
      );
    });
    expect(events.member).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_mention_many_users_group: members } },
    ]);
    const register = await call(env.server, 'POST', '/api/v1/register', { as: env.who.member!, form: { fetch_event_types: '["realm"]' } });
    expect(register.body).toMatchObject({ realm_can_mention_many_users_group: members, realm_wildcard_mention_policy: 2 });
    expect((await sendTo(env.who.member!, HOME, '@**all** now allowed')).status).toBe(200);
    expect((await sendTo(env.who.guest!, HOME, '@**all** still not')).body).toEqual(CHANNEL_REFUSED);
  });

  it('is wildcard_mention_policy below level 352, with the same meaning', async () => {
    await atLevel(300);
    const events = await observeEvents(env, ['member'], { event_types: JSON.stringify(['realm']) }, async () => {
      const res = await updateRealm({ wildcard_mention_policy: '1', can_mention_many_users_group: JSON.stringify({ new: 1 }) });
      expect(res.body).toEqual(success({ wildcard_mention_policy: 1, ignored_parameters_unsupported: ['can_mention_many_users_group'] }));
    });
    expect(events.member).toEqual([{ type: 'realm', op: 'update', property: 'wildcard_mention_policy', value: 1 }]);
    const register = await call(env.server, 'POST', '/api/v1/register', { as: env.who.member!, form: { fetch_event_types: '["realm"]' } });
    expect(register.body).toMatchObject({ realm_wildcard_mention_policy: 1 });
    expect(register.body).not.toHaveProperty('realm_can_mention_many_users_group');
    expect((await sendTo(env.who.guest!, HOME, '@**all** everyone may')).status).toBe(200);
    expect((await updateRealm({ wildcard_mention_policy: '4' })).body).toEqual(error('Invalid wildcard_mention_policy'));
    expect(
      (await call(env.server, 'PATCH', '/api/v1/realm', { as: env.who.member!, form: { wildcard_mention_policy: '6' } })).body,
    ).toEqual(error('Must be an organization administrator'));
  });

  it('defaults to administrators (policy 5)', async () => {
    const register = await call(env.server, 'POST', '/api/v1/register', { as: env.who.member!, form: { fetch_event_types: '["realm"]' } });
    expect(register.body).toMatchObject({
      realm_wildcard_mention_policy: 5,
      realm_can_mention_many_users_group: groupId('role:administrators'),
    });
  });
});
