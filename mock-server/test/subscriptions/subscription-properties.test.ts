import { describe, expect, it } from 'vitest';
import { call, type Who } from '../helpers/test-server.js';
import { drain, error, openQueue, success, useTestRealm, type Json } from '../helpers/harness.js';
import { INVALID_CHANNEL, updateProperties } from './support.js';

/**
 * GET /users/me/subscriptions and POST /users/me/subscriptions/properties (companions of spec §2.3:
 * the personal fields color, is_muted / in_home_view, pin_to_top and the notification settings, where
 * null means "inherit the user-level default"). Texts and events as the OpenAPI description states:
 * values are checked first, then channels and subscriptions, and nothing is applied unless every
 * change passes; each applied change sends `subscription` / `update` to the caller only.
 */

const env = useTestRealm();

async function list(as: Who, query: Record<string, string> = {}): Promise<Json[]> {
  const res = await call(env.server, 'GET', '/api/v1/users/me/subscriptions', { as, query });
  expect(res.status).toBe(200);
  return res.body.subscriptions as Json[];
}
const one = async (as: Who, streamId: number) => (await list(as)).find((s) => s.stream_id === streamId)!;

describe('GET /users/me/subscriptions', () => {
  it('lists exactly the channels the caller is subscribed to, archived ones included (§9 level 315)', async () => {
    const ids = (subs: Json[]) => subs.map((s) => s.stream_id as number).sort((a, b) => a - b);
    expect(ids(await list(env.who.member!))).toEqual([51, 52, 53, 54, 55, 56, 58, 59]);
    expect(ids(await list(env.who.guest!))).toEqual([51, 54]);
    expect(ids(await list(env.who.bot!))).toEqual([51]);
  });

  it('gives each subscription the §2.3 personal fields, in_home_view the inverse of is_muted', async () => {
    for (const sub of await list(env.who.member!)) {
      expect(sub.in_home_view, String(sub.name)).toBe(!sub.is_muted);
      expect(typeof sub.color).toBe('string');
      expect(typeof sub.pin_to_top).toBe('boolean');
      for (const key of [
        'desktop_notifications',
        'email_notifications',
        'wildcard_mentions_notify',
        'push_notifications',
        'audible_notifications',
      ]) {
        expect([true, false, null], key).toContain(sub[key]);
      }
    }
  });

  it('adds subscribers only with include_subscribers=true', async () => {
    expect((await list(env.who.guest!)).some((s) => 'subscribers' in s)).toBe(false);
    const subs = await list(env.who.guest!, { include_subscribers: 'true' });
    expect(subs.find((s) => s.stream_id === 54)!.subscribers).toEqual([11, 14, 16, 19]);
  });

  it('refuses a non-boolean include_subscribers', async () => {
    const res = await call(env.server, 'GET', '/api/v1/users/me/subscriptions', {
      as: env.who.member!,
      query: { include_subscribers: '1' },
    });
    expect(res.body).toEqual(error('include_subscribers is not a boolean'));
  });
});

describe('POST /users/me/subscriptions/properties: applying changes', () => {
  it.each([
    ['color', '#f00f00', { color: '#f00f00' }],
    ['color', '#abc', { color: '#abc' }],
    ['is_muted', true, { is_muted: true, in_home_view: false }],
    ['in_home_view', false, { is_muted: true, in_home_view: false }],
    ['pin_to_top', false, { pin_to_top: false }],
    ['desktop_notifications', true, { desktop_notifications: true }],
    ['audible_notifications', false, { audible_notifications: false }],
    ['email_notifications', true, { email_notifications: true }],
    ['wildcard_mentions_notify', false, { wildcard_mentions_notify: false }],
  ])('sets %s to %j', async (property, value, shown) => {
    expect((await updateProperties(env.server, env.who.member!, [{ stream_id: 51, property, value }])).body).toEqual(success());
    expect(await one(env.who.member!, 51)).toMatchObject(shown);
  });

  it('returns a notification setting to the user default with null (§2.3)', async () => {
    expect((await one(env.who.member!, 53)).push_notifications).toBe(true);
    expect(
      (await updateProperties(env.server, env.who.member!, [{ stream_id: 53, property: 'push_notifications', value: null }])).body,
    ).toEqual(success());
    expect((await one(env.who.member!, 53)).push_notifications).toBeNull();
  });

  it('unmutes through in_home_view true', async () => {
    expect((await one(env.who.member!, 55)).is_muted).toBe(true);
    await updateProperties(env.server, env.who.member!, [{ stream_id: 55, property: 'in_home_view', value: true }]);
    expect(await one(env.who.member!, 55)).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it('applies several changes, also to an archived channel, and an empty list changes nothing', async () => {
    const res = await updateProperties(env.server, env.who.member!, [
      { stream_id: 52, property: 'pin_to_top', value: true },
      { stream_id: 56, property: 'color', value: '#123456' },
    ]);
    expect(res.body).toEqual(success());
    expect((await one(env.who.member!, 52)).pin_to_top).toBe(true);
    expect((await one(env.who.member!, 56)).color).toBe('#123456');
    expect((await updateProperties(env.server, env.who.member!, [])).body).toEqual(success());
  });
});

describe('POST /users/me/subscriptions/properties: refusals', () => {
  it.each([
    ['an unknown property', [{ stream_id: 51, property: 'x', value: true }], 'Unknown subscription property: x'],
    ['a colour name', [{ stream_id: 51, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
    ['a colour without #', [{ stream_id: 51, property: 'color', value: 'f00f00' }], 'color is not a valid hex color code'],
    ['a string for a boolean', [{ stream_id: 51, property: 'is_muted', value: 'true' }], 'is_muted is not a boolean'],
    ['null for pin_to_top', [{ stream_id: 51, property: 'pin_to_top', value: null }], 'pin_to_top is not a boolean'],
    [
      'a string for a notification',
      [{ stream_id: 51, property: 'push_notifications', value: 'on' }],
      'push_notifications is not a boolean',
    ],
    ['a private channel without access', [{ stream_id: 57, property: 'pin_to_top', value: true }], 'Invalid channel ID'],
    ['an unknown channel', [{ stream_id: 999, property: 'pin_to_top', value: true }], 'Invalid channel ID'],
    ['a public channel the caller left', [{ stream_id: 52, property: 'pin_to_top', value: true }], 'Not subscribed to channel ID 52'],
    ['a bad value before a bad channel', [{ stream_id: 999, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
    [
      'a bad value in a later change before a bad channel in an earlier one',
      [
        { stream_id: 999, property: 'color', value: '#fff' },
        { stream_id: 51, property: 'x', value: true },
      ],
      'Unknown subscription property: x',
    ],
  ])('refuses %s', async (_label, changes, msg) => {
    // member_3: not in 57 (private), left 52.
    const res = await updateProperties(env.server, env.who.member_3!, changes);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('answers a private channel the caller cannot see like a missing one', async () => {
    expect((await updateProperties(env.server, env.who.member_2!, [{ stream_id: 54, property: 'pin_to_top', value: true }])).body).toEqual(
      INVALID_CHANNEL,
    );
  });

  it('applies nothing when one change fails, and sends no event', async () => {
    const { queueId } = await openQueue(env.server, env.who.member!, { event_types: '["subscription"]' });
    const before = await one(env.who.member!, 51);
    const res = await updateProperties(env.server, env.who.member!, [
      { stream_id: 51, property: 'color', value: '#000000' },
      { stream_id: 51, property: 'is_muted', value: true },
      { stream_id: 57, property: 'pin_to_top', value: true },
    ]);
    expect(res.body).toEqual(INVALID_CHANNEL);
    expect(await one(env.who.member!, 51)).toEqual(before);
    expect(await drain(env.server, env.who.member!, queueId)).toEqual([]);
  });

  it('refuses a malformed subscription_data', async () => {
    const post = (form: Record<string, string>) =>
      call(env.server, 'POST', '/api/v1/users/me/subscriptions/properties', { as: env.who.member!, form });
    expect((await post({})).body).toEqual(
      error("Missing 'subscription_data' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'subscription_data' }),
    );
    expect((await post({ subscription_data: 'color=red' })).body).toEqual(error('subscription_data is not valid JSON'));
  });
});

describe('subscription / update events', () => {
  it('sends one event per change to the caller only', async () => {
    const mine = await openQueue(env.server, env.who.member!, { event_types: '["subscription"]' });
    const other = await openQueue(env.server, env.who.member_2!, { event_types: '["subscription"]' });
    await updateProperties(env.server, env.who.member!, [
      { stream_id: 51, property: 'color', value: '#00ff00' },
      { stream_id: 52, property: 'pin_to_top', value: true },
    ]);
    expect(await drain(env.server, env.who.member!, mine.queueId)).toEqual([
      { type: 'subscription', op: 'update', stream_id: 51, property: 'color', value: '#00ff00' },
      { type: 'subscription', op: 'update', stream_id: 52, property: 'pin_to_top', value: true },
    ]);
    expect(await drain(env.server, env.who.member_2!, other.queueId)).toEqual([]);
  });

  it.each([
    ['is_muted', true],
    ['in_home_view', false],
  ])('reports a change of %s as both in_home_view and is_muted', async (property, value) => {
    const { queueId } = await openQueue(env.server, env.who.member!, { event_types: '["subscription"]' });
    await updateProperties(env.server, env.who.member!, [{ stream_id: 51, property, value }]);
    const events = await drain(env.server, env.who.member!, queueId);
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'subscription', op: 'update', stream_id: 51, property: 'in_home_view', value: false },
        { type: 'subscription', op: 'update', stream_id: 51, property: 'is_muted', value: true },
      ]),
    );
  });

  it('sends null only to clients declaring notification_settings_null, the inherited value to others (§4.21)', async () => {
    const modern = await openQueue(env.server, env.who.member!, {
      event_types: '["subscription"]',
      client_capabilities: '{"notification_settings_null": true}',
    });
    const legacy = await openQueue(env.server, env.who.member!, { event_types: '["subscription"]' });
    await updateProperties(env.server, env.who.member!, [{ stream_id: 53, property: 'push_notifications', value: null }]);
    expect(await drain(env.server, env.who.member!, modern.queueId)).toEqual([
      { type: 'subscription', op: 'update', stream_id: 53, property: 'push_notifications', value: null },
    ]);
    const [event] = await drain(env.server, env.who.member!, legacy.queueId);
    expect(event).toMatchObject({ type: 'subscription', op: 'update', stream_id: 53, property: 'push_notifications' });
    expect(typeof event!.value).toBe('boolean');
  });
});
