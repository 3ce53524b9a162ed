import type { MockServer } from '../../src/app.js';
import type { ChannelRow, GroupSettingValue, RealmState, UserRow } from '../../src/store/state.js';
import type { Who } from '../helpers/test-server.js';

/**
 * The test's own model of who may know a channel, written from the spec and the reference doc rather
 * than imported, so the sweep does not inherit a bug of the code it checks (no-leak.test.ts cross-checks
 * it against domain/access.ts):
 * - content access (reference "Shared access checks", C18): web-public channels; subscribers; guests
 *   nothing else (§2.3 can_subscribe_group "except guests"); public channels; for private channels the
 *   members of can_add_subscribers_group or can_subscribe_group;
 * - metadata access (§2.2, reference §4.15/§4.16): content access, or (guests never) organization
 *   administrators and members of can_administer_channel_group.
 */

export interface Account extends Who {
  user_id: number;
  role: number;
  is_bot: boolean;
  full_name: string;
}

/** Spec §1 group-setting value → active holders (subgroups nest; deactivated groups grant nothing). */
export function holders(tables: RealmState, value: GroupSettingValue): Set<number> {
  const out = new Set<number>();
  const seen = new Set<number>();
  const visit = (groupId: number): void => {
    const group = tables.user_groups[String(groupId)];
    if (seen.has(groupId) || !group || group.deactivated) return;
    seen.add(groupId);
    group.members.forEach((id) => out.add(id));
    group.direct_subgroup_ids.forEach(visit);
  };
  if (typeof value === 'number') visit(value);
  else {
    value.direct_members.forEach((id) => out.add(id));
    value.direct_subgroups.forEach(visit);
  }
  for (const id of [...out]) if (!tables.users[String(id)]?.is_active) out.delete(id);
  return out;
}

export const subscribed = (tables: RealmState, userId: number, streamId: number): boolean =>
  tables.subscriptions[`${userId}:${streamId}`]?.active === true;

export function hasContentAccess(tables: RealmState, user: UserRow, channel: ChannelRow): boolean {
  if (channel.is_web_public || subscribed(tables, user.user_id, channel.stream_id)) return true;
  if (user.role === 600) return false;
  if (!channel.invite_only) return true;
  return (
    holders(tables, channel.can_add_subscribers_group).has(user.user_id) || holders(tables, channel.can_subscribe_group).has(user.user_id)
  );
}

export function hasMetadataAccess(tables: RealmState, user: UserRow, channel: ChannelRow): boolean {
  if (hasContentAccess(tables, user, channel)) return true;
  if (user.role === 600) return false;
  return user.role <= 200 || holders(tables, channel.can_administer_channel_group).has(user.user_id);
}

/** Every account that can call the API (active, not the system bot), with its key. */
export function accounts(server: MockServer, realmId: string): Account[] {
  return server.control
    .credentials(realmId)
    .filter((c) => c.is_active)
    .map((c) => ({ user_id: c.user_id, email: c.email, api_key: c.api_key, role: c.role, is_bot: c.is_bot, full_name: c.full_name }));
}

export const tablesOf = (server: MockServer, realmId: string): RealmState => server.context.store.realm(realmId)!;

/** Accounts with no metadata access to the channel: the people nothing about it may reach. */
export function outsidersOf(server: MockServer, realmId: string, streamId: number): Account[] {
  const tables = tablesOf(server, realmId);
  const channel = tables.channels[String(streamId)]!;
  return accounts(server, realmId).filter((a) => !hasMetadataAccess(tables, tables.users[String(a.user_id)]!, channel));
}

/** Channels the account may know: the only stream IDs any answer to it may carry. */
export function knownChannelIds(tables: RealmState, userId: number): Set<number> {
  const user = tables.users[String(userId)]!;
  return new Set(
    Object.values(tables.channels)
      .filter((c) => hasMetadataAccess(tables, user, c))
      .map((c) => c.stream_id),
  );
}

/**
 * Spec §4.15 include_owner_subscribed: "For bots, channels their owner subscribes to". The one listing
 * in which a bot may see a channel it has no metadata access to.
 */
export function ownerSubscribedIds(tables: RealmState, userId: number): Set<number> {
  const owner = tables.users[String(userId)]?.bot_owner_id;
  if (owner === null || owner === undefined) return new Set();
  return new Set(
    Object.values(tables.subscriptions)
      .filter((s) => s.user_id === owner && s.active)
      .map((s) => s.stream_id),
  );
}

export interface Secret {
  streamId: number;
  /** Labelled strings that must never reach an outsider: name, description, message text, topics. */
  strings: { label: string; text: string }[];
  subscribers: number[];
}

/**
 * What an outsider must not learn about the channel. Message text and topics count only where they are
 * distinctive: a string that also occurs outside the channel (another channel's message, a user's name)
 * could legitimately reach the outsider and would make the sweep fail for the wrong reason.
 */
export function secretOf(tables: RealmState, streamId: number): Secret {
  const channel = tables.channels[String(streamId)]!;
  const mine = Object.values(tables.messages).filter((m) => m.stream_id === streamId);
  const corpus: string[] = [tables.realm.realm.name];
  for (const c of Object.values(tables.channels)) if (c.stream_id !== streamId) corpus.push(c.name, c.description, c.rendered_description);
  for (const m of Object.values(tables.messages)) if (m.stream_id !== streamId) corpus.push(m.content, m.rendered_content, m.subject);
  for (const u of Object.values(tables.users)) corpus.push(u.full_name, u.email);
  for (const g of Object.values(tables.user_groups)) corpus.push(g.name, g.description);
  const distinctive = (s: string) => s.length >= 8 && !corpus.some((c) => c.includes(s));
  const strings = [
    { label: 'name', text: channel.name },
    { label: 'description', text: channel.description },
    { label: 'rendered_description', text: channel.rendered_description },
  ];
  for (const m of mine) {
    strings.push(
      { label: `message ${m.id} content`, text: m.content },
      { label: `message ${m.id} rendered_content`, text: m.rendered_content },
    );
    strings.push({ label: `message ${m.id} topic`, text: m.subject });
  }
  const subscribers = Object.values(tables.subscriptions)
    .filter((s) => s.stream_id === streamId && s.active)
    .map((s) => s.user_id)
    .sort((a, b) => a - b);
  const unique = strings.filter((s, i) => distinctive(s.text) && strings.findIndex((t) => t.text === s.text) === i);
  return { streamId, strings: unique, subscribers };
}

/** The secret after insiders changed the channel: old and new strings alike stay secret. */
export function grow(secret: Secret, tables: RealmState): Secret {
  const now = secretOf(tables, secret.streamId);
  const strings = [...secret.strings];
  for (const s of now.strings) if (!strings.some((t) => t.text === s.text)) strings.push(s);
  return {
    streamId: secret.streamId,
    strings,
    subscribers: [...new Set([...secret.subscribers, ...now.subscribers])].sort((a, b) => a - b),
  };
}
