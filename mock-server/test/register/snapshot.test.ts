import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { features } from '../../src/config/features.js';
import { channelContentAccess, channelMetadataAccess, groupMembers } from '../../src/domain/access.js';
import { clientView, FULL_CLIENT } from '../../src/contract/client-view.js';
import type { ClientView } from '../../src/contract/client-view.js';
import { registerSnapshot } from '../../src/events/register-state.js';
import type { SnapshotOptions } from '../../src/events/register-state.js';
import { DEMO_REALM_EPOCH, generateDemoRealm } from '../../src/fixtures/demo-realm.js';
import type { RealmState, UserRow } from '../../src/store/state.js';
import { pruneForLevel } from '../../src/http/level-fields.js';
import { loadOperations } from '../../src/http/openapi.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';

const NOW = DEMO_REALM_EPOCH;
const realm = generateDemoRealm({ realmId: 'demo', seed: 42, featureLevel: 412, epoch: NOW });
const users = Object.values(realm.users).sort((a, b) => a.user_id - b.user_id);
const humans = users.filter((u) => !u.is_bot && u.is_active);
const owner = humans.find((u) => u.role === 100)!;
const admin = humans.find((u) => u.role === 200)!;
const member = humans.filter((u) => u.role === 400)[0]!;
const guest = humans.find((u) => u.role === 600)!;
const bot = users.find((u) => u.is_bot && !u.is_system_bot)!;
const channels = Object.values(realm.channels).sort((a, b) => a.stream_id - b.stream_id);
const archived = channels.find((c) => c.is_archived)!;
const webPublic = channels.find((c) => c.is_web_public)!;
const publicChannels = channels.filter((c) => !c.invite_only && !c.is_web_public && !c.is_archived);
const privateChannels = channels.filter((c) => c.invite_only);

function opts(over: Partial<SnapshotOptions> = {}): SnapshotOptions {
  return {
    fetchEventTypes: null,
    eventTypes: null,
    client: FULL_CLIENT,
    applyMarkdown: true,
    clientGravatar: true,
    includeSubscribers: false,
    slimPresence: true,
    presenceHistoryLimitDays: 14,
    now: NOW,
    features: features(412),
    ...over,
  };
}
const without = (cap: keyof ClientView): ClientView => ({ ...FULL_CLIENT, [cap]: false });
const snap = (viewer: UserRow | null, over: Partial<SnapshotOptions> = {}, tables: RealmState = realm) =>
  registerSnapshot(tables, viewer, opts(over));
const ids = (list: unknown): number[] => (list as { stream_id: number }[]).map((c) => c.stream_id);
const subscribed = (u: UserRow) =>
  new Set(
    Object.values(realm.subscriptions)
      .filter((s) => s.user_id === u.user_id && s.active)
      .map((s) => s.stream_id),
  );

let validate: ValidateFunction;
beforeAll(async () => {
  validate = (await loadResponseSchemas())('register-queue', 200);
});
function expectValid(keys: Record<string, unknown>) {
  const version = { service_feature_level: 412, service_version: 'v', zulip_feature_level: 412, zulip_version: 'v', zulip_merge_base: 'v' };
  const body = { result: 'success', msg: '', queue_id: 'x', last_event_id: -1, ...version, ...keys };
  const ok = validate(body);
  expect(ok ? [] : validate.errors!.slice(0, 5)).toEqual([]);
}

describe('register snapshot: schema', () => {
  const viewers: [string, UserRow | null][] = [
    ['owner', owner],
    ['admin', admin],
    ['member', member],
    ['guest', guest],
    ['bot', bot],
    ['spectator', null],
  ];
  for (const [name, viewer] of viewers) {
    for (const variant of [
      { includeSubscribers: viewer ? (true as const) : false, slimPresence: true },
      { includeSubscribers: viewer ? ('partial' as const) : false, slimPresence: false, client: clientView({}) },
    ]) {
      it(`every key validates for ${name} (${JSON.stringify(variant.includeSubscribers)}, slim ${variant.slimPresence})`, () => {
        const keys = snap(viewer, { ...variant, clientGravatar: viewer !== null });
        expect(Object.keys(keys).length).toBeGreaterThan(20);
        expectValid(keys);
      });
    }
  }
});

describe('register snapshot: channels', () => {
  it('the guest sees no unsubscribed public channel', () => {
    const keys = snap(guest);
    const mine = subscribed(guest);
    for (const c of publicChannels)
      if (!mine.has(c.stream_id)) {
        expect(ids(keys.streams)).not.toContain(c.stream_id);
        expect(ids(keys.never_subscribed)).not.toContain(c.stream_id);
      }
    expect(ids(keys.subscriptions).sort()).toEqual([...mine].filter((id) => realm.channels[String(id)]).sort());
  });

  it('private channels: subscribers and administrators (metadata) only', () => {
    for (const c of privateChannels) {
      const subs = Object.values(realm.subscriptions)
        .filter((s) => s.stream_id === c.stream_id && s.active)
        .map((s) => s.user_id);
      for (const viewer of [member, guest, admin, owner]) {
        const streams = ids(snap(viewer).streams);
        const expected =
          subs.includes(viewer.user_id) ||
          viewer.role <= 200 ||
          channelContentAccess(realm, viewer, c) ||
          channelMetadataAccess(realm, viewer, c);
        expect(streams.includes(c.stream_id)).toBe(expected);
        if (viewer.role <= 200) expect(streams).toContain(c.stream_id);
        if (viewer.role === 600) expect(streams.includes(c.stream_id)).toBe(subs.includes(viewer.user_id));
      }
    }
  });

  it('spectators see web-public channels only and have no subscriptions', () => {
    const keys = snap(null);
    expect(ids(keys.streams).every((id) => realm.channels[String(id)]!.is_web_public)).toBe(true);
    expect(ids(keys.streams)).toContain(webPublic.stream_id);
    expect(keys.subscriptions).toEqual([]);
    expect(keys.unsubscribed).toEqual([]);
    expect(ids(keys.never_subscribed)).toEqual(ids(keys.streams));
    expect(keys.unread_msgs).toBeUndefined();
    expect(keys.drafts).toEqual([]);
  });

  it('deprecated fields agree with their replacements', () => {
    const groups = Object.values(realm.user_groups);
    const sys = (name: string) => groups.find((g) => g.is_system_group && g.name === name)!.id;
    const expectedPolicy = (v: unknown) =>
      v === sys('role:administrators') ? 2 : v === sys('role:moderators') ? 4 : v === sys('role:fullmembers') ? 3 : 1;
    const keys = snap(admin);
    for (const s of keys.subscriptions as Record<string, unknown>[]) {
      expect(s.in_home_view).toBe(!s.is_muted);
      expect(s.stream_post_policy).toBe(expectedPolicy(s.can_send_message_group));
      expect(s.is_announcement_only).toBe(s.stream_post_policy === 2);
    }
    const first = keys.streams as Record<string, unknown>[];
    for (const c of first) {
      const own = Object.values(realm.messages)
        .filter((m) => m.stream_id === c.stream_id)
        .map((m) => m.id);
      expect(c.first_message_id).toBe(own.length ? Math.min(...own) : null);
    }
  });

  it('archived_channels off (or below level 315) drops the archived channel', async () => {
    expect(ids(snap(admin).streams)).toContain(archived.stream_id);
    for (const keys of [snap(admin, { client: without('archived_channels') }), snap(admin, { features: features(314) })]) {
      for (const k of ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed'])
        expect(ids(keys[k])).not.toContain(archived.stream_id);
    }
    // The field itself is left out on the wire, as the document marks it (http/level-fields.ts).
    const register = (await loadOperations()).find((o) => o.operationId === 'register-queue')!;
    const old = pruneForLevel(snap(admin, { features: features(314) }), register.levelFields, features(314)).streams;
    expect((old as Record<string, unknown>[])[0]).not.toHaveProperty('is_archived');
    expect((snap(admin).streams as Record<string, unknown>[])[0]).toHaveProperty('is_archived');
  });

  it('spectators see only folders holding a web-public channel', () => {
    const all = snap(member).channel_folders as { id: number }[];
    const spect = snap(null).channel_folders as { id: number }[];
    expect(all.length).toBe(Object.keys(realm.channel_folders).length);
    expect(spect.map((f) => f.id)).toEqual(webPublic.folder_id === null ? [] : [webPublic.folder_id]);
  });
});

describe('register snapshot: include_subscribers', () => {
  const first = (keys: Record<string, unknown>) => (keys.subscriptions as Record<string, unknown>[])[0]!;
  it('false: no subscriber keys; true: all active subscribers', () => {
    expect(first(snap(member))).not.toHaveProperty('subscribers');
    const sub = first(snap(member, { includeSubscribers: true }));
    const expected = Object.values(realm.subscriptions)
      .filter((s) => s.stream_id === sub.stream_id && s.active && realm.users[String(s.user_id)]!.is_active)
      .map((s) => s.user_id)
      .sort((a, b) => a - b);
    expect(sub.subscribers).toEqual(expected);
    expect(sub.subscriber_count).toBe(expected.length);
  });

  it('a guest cannot know the subscribers of channels it may not access', () => {
    const keys = snap(guest, { includeSubscribers: true });
    for (const c of keys.unsubscribed as Record<string, unknown>[]) {
      const ch = realm.channels[String(c.stream_id)]!;
      if (!channelMetadataAccess(realm, guest, ch)) expect(c.subscribers).toEqual([]);
    }
  });

  describe('partial with a 300-subscriber channel', () => {
    const big: RealmState = structuredClone(realm);
    const target = publicChannels[0]!;
    const DAY = 86_400;
    let next = Math.max(...users.map((u) => u.user_id)) + 1;
    const fresh: number[] = [];
    const stale: number[] = [];
    const bots: number[] = [];
    while (
      Object.values(big.subscriptions).filter(
        (s) => s.stream_id === target.stream_id && s.active && big.users[String(s.user_id)]!.is_active,
      ).length < 300
    ) {
      const id = next++;
      const kind = id % 3;
      const last = kind === 0 ? NOW - 13 * DAY : NOW - 15 * DAY;
      big.users[String(id)] = { ...member, user_id: id, email: `u${id}@x.test`, is_bot: kind === 2, last_active: last };
      (kind === 0 ? fresh : kind === 2 ? bots : stale).push(id);
      big.subscriptions[`${id}:${target.stream_id}`] = {
        ...Object.values(realm.subscriptions)[0]!,
        user_id: id,
        stream_id: target.stream_id,
        active: true,
      };
    }
    const find = (keys: Record<string, unknown>, id: number) =>
      [...(keys.subscriptions as Record<string, unknown>[]), ...(keys.never_subscribed as Record<string, unknown>[])].find(
        (s) => s.stream_id === id,
      )!;

    it('250+ subscribers: partial_subscribers = bots + users active within 14 days', () => {
      const c = find(snap(admin, { includeSubscribers: 'partial' }, big), target.stream_id);
      expect(c).not.toHaveProperty('subscribers');
      const partial = c.partial_subscribers as number[];
      for (const id of [...fresh, ...bots]) expect(partial).toContain(id);
      for (const id of stale) expect(partial).not.toContain(id);
      expect(c.subscriber_count).toBeGreaterThanOrEqual(300);
      expect([...partial].sort((a, b) => a - b)).toEqual(partial);
    });

    it('smaller channels still get full subscribers; true gives the full list; below 412 partial acts as true', () => {
      const keys = snap(admin, { includeSubscribers: 'partial' }, big);
      for (const s of keys.subscriptions as Record<string, unknown>[])
        if (s.stream_id !== target.stream_id) expect(s).toHaveProperty('subscribers');
      expect(
        (find(snap(admin, { includeSubscribers: true }, big), target.stream_id).subscribers as number[]).length,
      ).toBeGreaterThanOrEqual(300);
      expect(find(snap(admin, { includeSubscribers: 'partial', features: features(411) }, big), target.stream_id)).toHaveProperty(
        'subscribers',
      );
      expectValid(keys);
    });
  });
});

describe('register snapshot: unread and messages', () => {
  it('unread_msgs only when both message and update_message_flags are in event_types', () => {
    expect(snap(member)).toHaveProperty('unread_msgs');
    expect(snap(member, { eventTypes: new Set(['message']) })).not.toHaveProperty('unread_msgs');
    expect(snap(member, { eventTypes: new Set(['message', 'update_message_flags']), fetchEventTypes: new Set(['realm']) })).toHaveProperty(
      'unread_msgs',
    );
  });

  it('unread_msgs is consistent', () => {
    const u = snap(member).unread_msgs as {
      count: number;
      pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
      streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
      huddles: { user_ids_string: string; unread_message_ids: number[] }[];
      mentions: number[];
      old_unreads_missing: boolean;
    };
    expect(u.old_unreads_missing).toBe(false);
    const asc = (l: number[]) => expect([...l].sort((a, b) => a - b)).toEqual(l);
    let count = 0;
    for (const p of u.pms) {
      expect(p.sender_id).toBe(p.other_user_id);
      asc(p.unread_message_ids);
      count += p.unread_message_ids.length;
    }
    for (const h of u.huddles) {
      const list = h.user_ids_string.split(',').map(Number);
      asc(list);
      expect(list).toContain(member.user_id);
      count += h.unread_message_ids.length;
    }
    for (const s of u.streams) {
      asc(s.unread_message_ids);
      if (!realm.subscriptions[`${member.user_id}:${s.stream_id}`]!.is_muted) count += s.unread_message_ids.length;
    }
    expect(u.count).toBe(count);
    asc(u.mentions);
    for (const id of u.mentions) expect(realm.user_messages[String(id)]!.flags[String(member.user_id)]).not.toContain('read');
  });

  it('without empty_topic_name the empty topic reads "general chat"', () => {
    const viewers = humans.filter((h) => {
      const u = snap(h).unread_msgs as { streams: { topic: string }[] };
      return u.streams.some((s) => s.topic === '');
    });
    expect(viewers.length).toBeGreaterThan(0);
    const viewer = viewers[0]!;
    const legacy = snap(viewer, { client: without('empty_topic_name') }).unread_msgs as { streams: { topic: string }[] };
    expect(legacy.streams.some((s) => s.topic === '')).toBe(false);
    expect(legacy.streams.some((s) => s.topic === 'general chat')).toBe(true);
  });

  it('max_message_id and recent_private_conversations', () => {
    const keys = snap(member);
    const received = Object.values(realm.user_messages)
      .filter((r) => r.flags[String(member.user_id)])
      .map((r) => r.message_id);
    expect(keys.max_message_id).toBe(Math.max(...received));
    const rpc = keys.recent_private_conversations as { max_message_id: number; user_ids: number[] }[];
    expect(rpc.length).toBeGreaterThan(0);
    for (let i = 1; i < rpc.length; i++) expect(rpc[i - 1]!.max_message_id).toBeGreaterThan(rpc[i]!.max_message_id);
    for (const c of rpc) expect(c.user_ids).not.toContain(member.user_id);
  });
});

describe('register snapshot: other keys', () => {
  it('fetch_event_types limits the keys; unknown types are ignored', () => {
    const keys = snap(member, {
      fetchEventTypes: new Set(['realm_linkifiers', 'no_such_type']),
      eventTypes: new Set(['realm_linkifiers']),
    });
    expect(Object.keys(keys).sort()).toEqual(['realm_filters', 'realm_linkifiers']);
    const realmKeys = snap(member, { fetchEventTypes: new Set(['realm']), eventTypes: new Set(['realm']) });
    expect(realmKeys).toMatchObject({
      realm_empty_topic_display_name: 'general chat',
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
    });
    expect(realmKeys).not.toHaveProperty('streams');
  });

  it('linkifier_url_template off gives []', () => {
    expect((snap(member).realm_linkifiers as unknown[]).length).toBeGreaterThan(0);
    expect(snap(member, { client: without('linkifier_url_template') }).realm_linkifiers).toEqual([]);
    expect(snap(member).realm_filters).toEqual([]);
  });

  it('deactivated groups only with include_deactivated_groups', () => {
    const deactivated = Object.values(realm.user_groups)
      .filter((g) => g.deactivated)
      .map((g) => g.id);
    expect(deactivated.length).toBeGreaterThan(0);
    const groupIds = (keys: Record<string, unknown>) => (keys.realm_user_groups as { id: number }[]).map((g) => g.id);
    expect(groupIds(snap(member))).toEqual(expect.arrayContaining(deactivated));
    for (const id of deactivated) expect(groupIds(snap(member, { client: without('include_deactivated_groups') }))).not.toContain(id);
    // A deactivated group grants nothing.
    for (const id of deactivated) expect(groupMembers(realm, id).size).toBe(0);
  });

  it('realm_user: users, deactivated users, system bots, own identity, gravatar', () => {
    const keys = snap(member);
    const realmUsers = keys.realm_users as { user_id: number; avatar_url: string | null }[];
    expect(realmUsers.map((u) => u.user_id)).toContain(bot.user_id);
    expect((keys.cross_realm_bots as { user_id: number }[]).map((u) => u.user_id)).toEqual(
      users.filter((u) => u.is_system_bot).map((u) => u.user_id),
    );
    expect((keys.realm_non_active_users as unknown[]).length).toBe(users.filter((u) => !u.is_active).length);
    expect(keys).toMatchObject({
      user_id: member.user_id,
      email: member.email,
      role: 400,
      is_admin: false,
      is_guest: false,
      is_moderator: false,
    });
    const gravatarUser = users.find(
      (u) => u.avatar_source === 'G' && u.is_active && !u.is_system_bot && u.settings.email_address_visibility === 1,
    )!;
    expect(realmUsers.find((u) => u.user_id === gravatarUser.user_id)!.avatar_url).toBeNull();
    const noGravatar = snap(member, { clientGravatar: false }).realm_users as { user_id: number; avatar_url: string | null }[];
    expect(noGravatar.every((u) => typeof u.avatar_url === 'string')).toBe(true);
  });

  it('user_status: only non-default fields, away only when presence is disabled', () => {
    const statuses = snap(member).user_status as Record<string, Record<string, unknown>>;
    for (const [id, s] of Object.entries(statuses)) {
      const u = realm.users[id]!;
      expect(s.away === true).toBe(u.settings.presence_enabled === false);
      if ('away' in s) expect(s.away).toBe(true);
      if ('status_text' in s) expect(s.status_text).not.toBe('');
    }
    expect(Object.keys(statuses).length).toBeGreaterThan(0);
  });

  it('presence: slim by ID, legacy by email, within the history limit', () => {
    const slim = snap(member).presences as Record<string, { active_timestamp: number }>;
    expect(Object.keys(slim).every((k) => /^\d+$/.test(k))).toBe(true);
    const legacy = snap(member, { slimPresence: false }).presences as Record<string, { aggregated: { status: string } }>;
    expect(Object.keys(legacy).every((k) => k.includes('@'))).toBe(true);
    const short = snap(member, { presenceHistoryLimitDays: 1 }).presences as Record<string, unknown>;
    expect(Object.keys(short).length).toBeLessThan(Object.keys(slim).length);
    expect(snap(member).server_timestamp).toBe(NOW);
  });

  it('personal lists: drafts newest first, scheduled messages by delivery time, navigation views stored only', () => {
    const owners = humans.map((h) => ({ h, keys: snap(h) }));
    const withDrafts = owners.find((o) => (o.keys.drafts as unknown[]).length > 1);
    if (withDrafts) {
      const d = withDrafts.keys.drafts as { timestamp: number }[];
      for (let i = 1; i < d.length; i++) expect(d[i - 1]!.timestamp).toBeGreaterThanOrEqual(d[i]!.timestamp);
    }
    for (const { h, keys } of owners) {
      const s = keys.scheduled_messages as { scheduled_delivery_timestamp: number; type: string }[];
      for (let i = 1; i < s.length; i++)
        expect(s[i - 1]!.scheduled_delivery_timestamp).toBeLessThanOrEqual(s[i]!.scheduled_delivery_timestamp);
      for (const m of s) expect(['stream', 'private']).toContain(m.type);
      const stored = Object.values(realm.navigation_views).filter((v) => v.user_id === h.user_id).length;
      expect((keys.navigation_views as unknown[]).length).toBe(stored);
    }
  });

  it('is deterministic', () => {
    expect(JSON.stringify(snap(admin, { includeSubscribers: true }))).toBe(JSON.stringify(snap(admin, { includeSubscribers: true })));
  });
});
