import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call } from '../helpers/test-server.js';
import { applyEvents, comparable } from '../../../conformance/src/explore/reducers/index.js';
import { drain, observeEvents, openQueue, success, useTestRealm, type Event } from '../helpers/harness.js';
import { setFor, setOwn } from './support.js';

/**
 * Events of the status operations (reference §4.5 "Events", "Event payloads"; spec §4.21 capabilities):
 * user_status to every active account with only what was sent (emoji completed); away also sends
 * user_settings (+ the legacy update_global_notifications) to the user and presence to everyone, in
 * the form each client declared (simplified_presence_events).
 */
const env = useTestRealm();
const EVERYONE = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'];
const SIMPLIFIED = JSON.stringify({ user_settings_object: true, simplified_presence_events: true });
const now = () => (env.server.control.clock(env.realm) as { now: number }).now;

describe('user_status events', () => {
  const member = () => env.who.member!;

  it.each([
    [
      'text and an emoji by name alone',
      { status_text: 'Lunch', emoji_name: 'car' },
      { status_text: 'Lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    ],
    ['the text alone', { status_text: 'Lunch' }, { status_text: 'Lunch' }],
    ['a cleared emoji', { emoji_name: '' }, { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' }],
    ['the current value again', { status_text: 'In a meeting' }, { status_text: 'In a meeting' }],
    [
      'the extra emoji, code and type given',
      { emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' },
      { emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' },
    ],
  ])('%s: to every active account, only what was sent', async (_name, form, fields) => {
    const seen = await observeEvents(env, EVERYONE, {}, async () =>
      expect((await setOwn(env.server, member(), form)).body).toEqual(success()),
    );
    for (const role of EVERYONE)
      expect({ role, events: seen[role] }).toEqual({ role, events: [{ type: 'user_status', user_id: member().user_id, ...fields }] });
  });

  it("§4.4: the event carries the target's user_id; an ignored away sends nothing more", async () => {
    const target = env.who.member_2!.user_id;
    const seen = await observeEvents(env, EVERYONE, {}, () =>
      setFor(env.server, env.who.administrator!, target, { status_text: 'Set for you', away: 'true' }),
    );
    for (const role of EVERYONE)
      expect({ role, events: seen[role] }).toEqual({
        role,
        events: [{ type: 'user_status', user_id: target, status_text: 'Set for you' }],
      });
  });

  it('event_types filters them like any other type', async () => {
    const { queueId } = await openQueue(env.server, env.who.owner!, { event_types: '["message"]' });
    await setOwn(env.server, member(), { status_text: 'Quiet', away: 'true' });
    expect(await drain(env.server, env.who.owner!, queueId)).toEqual([]);
  });
});

describe('away: user_settings, legacy settings and presence events by capability', () => {
  async function queues() {
    const open = async (role: string, capabilities: string) => ({
      role,
      as: env.who[role]!,
      queueId: (await openQueue(env.server, env.who[role]!, { client_capabilities: capabilities })).queueId,
    });
    return {
      own: await open('member', SIMPLIFIED),
      ownLegacy: await open('member', '{}'),
      other: await open('owner', SIMPLIFIED),
      otherLegacy: await open('owner', '{}'),
    };
  }
  const read = (q: { as: Parameters<typeof drain>[1]; queueId: string }) => drain(env.server, q.as, q.queueId);

  it('away true: the user drops out of presence (an empty presence in both forms)', async () => {
    const q = await queues();
    const m = env.who.member!;
    expect((await setOwn(env.server, m, { away: 'true' })).body).toEqual(success());
    const setting = { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false };
    const simplified = { type: 'presence', presences: { [String(m.user_id)]: {} } };
    const legacy = { type: 'presence', user_id: m.user_id, email: m.email, server_timestamp: now(), presence: {} };
    const status = { type: 'user_status', user_id: m.user_id, away: true };
    expect(await read(q.own)).toEqual([setting, simplified, status]);
    expect(await read(q.other)).toEqual([simplified, status]);
    expect(await read(q.otherLegacy)).toEqual([legacy, status]);
    const own = await read(q.ownLegacy);
    expect(own.map((e) => e.type)).toEqual(['user_settings', 'update_global_notifications', 'presence', 'user_status']);
    expect(own).toEqual([
      setting,
      { type: 'update_global_notifications', notification_name: 'presence_enabled', setting: false, user: m.email },
      legacy,
      status,
    ]);
  });

  it('away false: the user is active now, in both forms', async () => {
    const m = env.who.member!;
    await setOwn(env.server, m, { away: 'true' });
    const q = await queues();
    expect((await setOwn(env.server, m, { away: 'false' })).body).toEqual(success());
    const t = now();
    const status = { type: 'user_status', user_id: m.user_id, away: false };
    expect(await read(q.own)).toEqual([
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: true },
      { type: 'presence', presences: { [String(m.user_id)]: { active_timestamp: t, idle_timestamp: t } } },
      status,
    ]);
    expect(await read(q.otherLegacy)).toEqual([
      {
        type: 'presence',
        user_id: m.user_id,
        email: m.email,
        server_timestamp: t,
        presence: { website: { client: 'website', status: 'active', timestamp: t, pushable: false } },
      },
      status,
    ]);
  });

  it('away sent with its current value still sets and announces it', async () => {
    const seen = await observeEvents(env, ['member', 'owner'], { client_capabilities: SIMPLIFIED }, () =>
      setOwn(env.server, env.who.member!, { away: 'false' }),
    );
    expect(seen.member!.map((e) => e.type)).toEqual(['user_settings', 'presence', 'user_status']);
    expect(seen.owner!.map((e) => e.type)).toEqual(['presence', 'user_status']);
  });

  it('the user_settings event goes to the user only', async () => {
    const seen = await observeEvents(env, EVERYONE, {}, () => setOwn(env.server, env.who.member!, { away: 'true' }));
    for (const role of EVERYONE) {
      const settings = seen[role]!.filter((e: Event) => e.type === 'user_settings' || e.type === 'update_global_notifications');
      expect({ role, count: settings.length }).toEqual({ role, count: role === 'member' ? 2 : 0 });
      expect({ role, presence: seen[role]!.filter((e) => e.type === 'presence').length }).toEqual({ role, presence: 1 });
    }
  });
});

describe('snapshot + events = new snapshot, for every presence form', () => {
  it.each([
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ])('slim_presence %s, simplified_presence_events %s', async (slim, simplified) => {
    const form = {
      event_types: '["presence", "user_status", "user_settings", "realm_user"]',
      slim_presence: String(slim),
      client_capabilities: JSON.stringify({ user_settings_object: true, simplified_presence_events: simplified }),
    };
    const changes: Record<string, string>[] = [{ away: 'true', status_text: 'Gone' }, { away: 'false' }];
    for (const change of changes) {
      for (const role of ['member', 'owner']) {
        const before = await openQueue(env.server, env.who[role]!, form);
        expect(Object.keys(before.snapshot.presences as object).length).toBeGreaterThan(3);
        await setOwn(env.server, env.who.member!, change);
        const events = await drain(env.server, env.who[role]!, before.queueId);
        const after = await openQueue(env.server, env.who[role]!, form);
        expect(comparable(applyEvents(before.snapshot, events))).toEqual(comparable(after.snapshot));
      }
    }
  });
});

describe('the events match the OpenAPI document', () => {
  let validateEvents: ValidateFunction;
  beforeAll(async () => {
    validateEvents = (await loadResponseSchemas())('get-events', 200);
  });

  it.each([
    ['simplified presence', SIMPLIFIED],
    ['legacy presence and settings', '{}'],
  ])('%s: away true then false, a status with emoji', async (_name, capabilities) => {
    const owner = env.who.owner!;
    const { queueId } = await openQueue(env.server, owner, { client_capabilities: capabilities });
    const forms: Record<string, string>[] = [{ away: 'true' }, { away: 'false' }, { status_text: 'Out', emoji_name: 'car' }];
    for (const form of forms) {
      expect((await setOwn(env.server, owner, form)).body).toEqual(success());
    }
    const res = await call(env.server, 'GET', '/api/v1/events', {
      as: owner,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    expect((res.body.events as Event[]).filter((e) => e.type === 'presence')).toHaveLength(2);
    expect(validateEvents(res.body), JSON.stringify(validateEvents.errors?.slice(-3))).toBe(true);
  });

  it('a presence event with neither form, or a described type with a wrong payload, fails the document', () => {
    for (const event of [
      { id: 1, type: 'presence' },
      { id: 2, type: 'presence', presences: {}, user_id: 3 },
      { id: 3, type: 'user_status' },
    ]) {
      expect(validateEvents({ result: 'success', msg: '', events: [event] }), JSON.stringify(event)).toBe(false);
    }
  });
});
