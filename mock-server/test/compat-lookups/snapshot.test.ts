import { describe, expect, it } from 'vitest';
import { tables, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { snapshotOf } from './support.js';

/**
 * Register keys of the compat-lookups area (companion tier): what stock clients read from register,
 * each under the event type that brings it, with the reference server's meaning. zulip-terminal's start
 * reads every key of TERMINAL_READS without a fallback (zulipterminal/model.py), so all must be there
 * when it fetches its types.
 */
const env = useTestRealm({ realm: 'demo' });

/** zulip-terminal's fetch_event_types at start. */
const TERMINAL_FETCHES = [
  'realm',
  'presence',
  'subscription',
  'message',
  'starred_messages',
  'update_message_flags',
  'muted_topics',
  'realm_user',
  'realm_user_groups',
  'user_settings',
  'realm_emoji',
  'custom_profile_fields',
  'zulip_version',
];
const TERMINAL_READS = [
  'zulip_version',
  'subscriptions',
  'muted_topics',
  'realm_user_groups',
  'realm_emoji',
  'user_settings',
  'realm_message_retention_days',
  'presences',
  'realm_users',
  'cross_realm_bots',
  'custom_profile_fields',
  'starred_messages',
  'user_id',
  'email',
  'full_name',
  'realm_name',
  'max_message_id',
];

describe('register keys stock clients read', () => {
  it("has every key zulip-terminal's start reads when it fetches its types", async () => {
    const snapshot = await snapshotOf(env.server, env.who.member!, TERMINAL_FETCHES, {
      event_types: JSON.stringify(['message', 'update_message_flags', 'subscription', 'realm_emoji', 'realm_user']),
      include_subscribers: 'true',
    });
    for (const key of TERMINAL_READS) expect(snapshot, key).toHaveProperty(key);
    expect(snapshot).toHaveProperty('unread_msgs');
    const settings = snapshot.user_settings as Record<string, unknown>;
    for (const key of ['send_private_typing_notifications', 'twenty_four_hour_time', 'pm_content_in_desktop_notifications']) {
      expect(typeof settings[key], key).toBe('boolean');
    }
  });

  it('brings each key only with its type', async () => {
    const member = env.who.member!;
    const owners: [string, string[]][] = [
      ['realm_emoji', ['realm_emoji']],
      ['custom_profile_fields', ['custom_profile_fields', 'custom_profile_field_types']],
      ['muted_topics', ['muted_topics']],
      ['user_topic', ['user_topics']],
      ['alert_words', ['alert_words']],
      ['starred_messages', ['starred_messages']],
      ['realm', ['realm_message_retention_days']],
    ];
    const none = await snapshotOf(env.server, member, ['message']);
    for (const [type, keys] of owners) {
      const snapshot = await snapshotOf(env.server, member, [type]);
      for (const key of keys) {
        expect(snapshot, `${type} brings ${key}`).toHaveProperty(key);
        expect(none, `message does not bring ${key}`).not.toHaveProperty(key);
      }
    }
  });

  it('lists the custom profile fields in display order, with the field types', async () => {
    const snapshot = await snapshotOf(env.server, env.who.member!, ['custom_profile_fields']);
    const rows = Object.values(tables(env.server).custom_profile_fields).sort((a, b) => a.order - b.order);
    const fields = snapshot.custom_profile_fields as Record<string, unknown>[];
    expect(fields.map((f) => f.id)).toEqual(rows.map((r) => r.id));
    expect(fields[0]).toMatchObject({ name: rows[0]!.name, type: rows[0]!.type, hint: rows[0]!.hint, field_data: rows[0]!.field_data });
    for (const [i, f] of fields.entries()) expect('display_in_profile_summary' in f).toBe(rows[i]!.display_in_profile_summary);
    expect(snapshot.custom_profile_field_types).toMatchObject({ SHORT_TEXT: { id: 1 }, PRONOUNS: { id: 8 } });
  });

  it('gives muted_topics and user_topics empty, since nothing sets a topic policy', async () => {
    const snapshot = await snapshotOf(env.server, env.who.member!, ['muted_topics', 'user_topic']);
    expect(snapshot.muted_topics).toEqual([]);
    expect(snapshot.user_topics).toEqual([]);
  });

  it("lists in starred_messages exactly the viewer's messages flagged starred, ascending", async () => {
    for (const role of ['owner', 'member', 'guest']) {
      const who = env.who[role]!;
      const expected = Object.values(tables(env.server).user_messages)
        .filter((row) => row.flags[String(who.user_id)]?.includes('starred'))
        .map((row) => row.message_id)
        .sort((a, b) => a - b);
      const snapshot = await snapshotOf(env.server, who, ['starred_messages']);
      expect(snapshot.starred_messages, role).toEqual(expected);
    }
    const anyone = Object.values(tables(env.server).user_messages).some((row) =>
      Object.values(row.flags).some((f) => f.includes('starred')),
    );
    expect(anyone).toBe(true);
  });

  it('says messages are kept forever (realm_message_retention_days -1)', async () => {
    expect((await snapshotOf(env.server, env.who.member!, ['realm'])).realm_message_retention_days).toBe(-1);
  });

  it("fills the reference's display-setting defaults into user_settings, a stored setting winning", async () => {
    const member = env.who.member!;
    const stored = tables(env.server).users[String(member.user_id)]!.settings;
    const settings = (await snapshotOf(env.server, member, ['user_settings'])).user_settings as Record<string, unknown>;
    expect(settings).toMatchObject({ ...stored, twenty_four_hour_time: false, send_private_typing_notifications: true });
  });

  it('gives a spectator empty personal lists', async () => {
    const res = await call(env.server, 'POST', '/api/v1/register', {
      form: { fetch_event_types: '["alert_words","starred_messages","realm_emoji"]' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ alert_words: [], starred_messages: [] });
    expect(res.body.zulip_version).toBe(res.body.service_version);
  });
});
