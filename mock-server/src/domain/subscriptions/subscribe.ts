import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import { channelContentAccess, channelMetadataAccess } from '../access.js';
import type { ChannelGroupSetting, ChannelRow, GroupSettingValue, RealmState, TopicsPolicy, UserRow } from '../../store/state.js';
import type { EmitContext } from '../channels/events.js';
import { channelByName, checkChannelName, readChannelDescription } from '../channels/lookup.js';
import type { ActorContext } from '../actor.js';
import { parseRetention } from '../channels/update-plan.js';
import { badRequest, insufficientPermission } from '../errors.js';
import { normalizeGroupSetting, validateGroupSetting } from '../group-settings.js';
import { renderMarkdown } from '../markdown.js';
import * as may from '../permissions.js';
import { systemGroupId } from '../present/channels.js';
import { addSubscribers } from './membership.js';
import { resolvePrincipals } from './principals.js';

/**
 * POST /users/me/subscriptions (companion: the spec shows no way to join a channel; the reference
 * server's parameters and answers). Joins existing channels and creates missing ones with the creation
 * defaults (§3: a new channel without topics_policy gets `inherit`).
 */
export interface SubscribeParams {
  subscriptions: { name: string; description?: string }[];
  principals?: (number | string)[];
  authorization_errors_fatal: boolean;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers?: boolean;
  message_retention_days?: string | number;
  topics_policy?: TopicsPolicy;
  folder_id?: number | null;
  groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

type Grouped = Record<string, string[]>;

/**
 * Channel-level permission defaults of a new channel, as on the reference server: the creator administers
 * it; nobody else gets a channel-level grant (adding subscribers, moving, deleting, resolving) until an
 * administrator gives one, so a new private channel is readable by its subscribers only.
 */
function creationGroups(tables: Pick<RealmState, 'user_groups'>, creator: UserRow): Record<ChannelGroupSetting, GroupSettingValue> {
  const sys = (name: string) => systemGroupId(tables, name) ?? 0;
  return {
    can_add_subscribers_group: sys('role:nobody'),
    can_administer_channel_group: { direct_members: [creator.user_id], direct_subgroups: [] },
    can_create_topic_group: sys('role:everyone'),
    can_delete_any_message_group: sys('role:nobody'),
    can_delete_own_message_group: sys('role:everyone'),
    can_move_messages_out_of_channel_group: sys('role:nobody'),
    can_move_messages_within_channel_group: sys('role:nobody'),
    can_remove_subscribers_group: sys('role:administrators'),
    can_resolve_topics_group: sys('role:nobody'),
    can_send_message_group: sys('role:everyone'),
    can_subscribe_group: sys('role:nobody'),
  };
}

/** The answer of POST /users/me/subscriptions (`unauthorized` only when authorization errors are not fatal). */
export interface SubscribeResult {
  subscribed: Grouped;
  already_subscribed: Grouped;
  new_subscription_messages_sent: boolean;
  unauthorized?: string[];
}

/** POST /users/me/subscriptions (§4.8 companion): new channels take the permission settings sent, one field each. */
export function doSubscribe(tx: Tx, actor: ActorContext, params: ParamsOf<'subscribe'>): SubscribeResult {
  const groups: SubscribeParams['groups'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = params[setting];
    if (value !== undefined) groups[setting] = value;
  }
  return subscribe(tx, actor, { ...params, groups });
}

export function subscribe(tx: Tx, actor: ActorContext, p: SubscribeParams): SubscribeResult {
  const { tables } = tx;
  const { user, features, now } = actor;
  const targets = p.principals && p.principals.length > 0 ? resolvePrincipals(tables, p.principals) : [user];
  const others = targets.some((t) => t.user_id !== user.user_id);
  const wanted: { name: string; description: string; channel: ChannelRow | undefined }[] = [];
  for (const entry of p.subscriptions) {
    checkChannelName(entry.name);
    const description = readChannelDescription(entry.description ?? '');
    const channel = channelByName(tables, entry.name);
    // Archived channels are not found by name below level 362 (§9), and never for joining.
    if (channel?.is_archived) throw badRequest(`Invalid channel name '${entry.name}'`);
    if (!wanted.some((w) => w.name.toLowerCase() === entry.name.toLowerCase()))
      wanted.push({ name: channel && channelMetadataAccess(tables, user, channel) ? channel.name : entry.name, description, channel });
  }

  // A channel the caller may not join (a private one they may not know included) is refused with the
  // name they sent, so the answer tells nothing they did not already say.
  const unauthorized: string[] = [];
  const allowed = wanted.filter(({ name, channel }) => {
    if (!channel) return true;
    // Adding others to a channel one can read but may not add people to is a permission refusal, always
    // fatal (reference server); not being able to join or reach the channel follows authorization_errors_fatal.
    if (others && channelContentAccess(tables, user, channel) && !may.mayAddSubscribers(tables, user, channel))
      throw insufficientPermission();
    const ok = others
      ? may.mayAddSubscribers(tables, user, channel) && (!targets.includes(user) || may.maySubscribeSelf(tables, user, channel))
      : may.maySubscribeSelf(tables, user, channel);
    if (ok) return true;
    if (p.authorization_errors_fatal) throw badRequest(`Unable to access channel (${name}).`);
    unauthorized.push(name);
    return false;
  });

  const toCreate = allowed.filter((w) => !w.channel);
  if (toCreate.length > 0) checkCreation(tx, actor, p);
  const ctx: EmitContext = { tx, features, now };
  const subscribed: Grouped = {};
  const already: Grouped = {};
  for (const w of allowed) {
    const created = !w.channel;
    const channel = w.channel ?? createChannel(tx, actor, p, w.name, w.description);
    const fresh: UserRow[] = [];
    for (const target of targets) {
      const list = tables.subscriptions[`${target.user_id}:${channel.stream_id}`]?.active ? already : subscribed;
      (list[String(target.user_id)] ??= []).push(channel.name);
      if (list === subscribed) fresh.push(target);
    }
    addSubscribers(ctx, channel, fresh, created);
  }
  const out: SubscribeResult = { subscribed, already_subscribed: already, new_subscription_messages_sent: false };
  if (!p.authorization_errors_fatal) out.unauthorized = unauthorized;
  return out;
}

/** Who may create which kind of channel (reference §4.16 step 3 rights, applied at creation). */
function checkCreation(tx: Tx, actor: ActorContext, p: SubscribeParams): void {
  const { tables } = tx;
  const { user, realm } = actor;
  if (p.invite_only && !may.mayCreatePrivateChannel(tables, realm, user)) throw insufficientPermission();
  if (!p.invite_only && !may.mayCreatePublicChannel(tables, realm, user)) throw insufficientPermission();
  if (p.is_web_public) {
    if (p.invite_only) throw badRequest('Invalid parameters');
    if (!realm.web_public_streams_enabled || !realm.enable_spectator_access) throw badRequest('Web-public channels are not enabled.');
    if (!may.mayCreateWebPublicChannel(tables, realm, user)) throw insufficientPermission();
  }
  if (p.message_retention_days !== undefined) {
    parseRetention(p.message_retention_days);
    if (!may.mayManageRetention(user)) throw insufficientPermission();
  }
  if (p.topics_policy !== undefined && p.topics_policy !== 'inherit' && !may.maySetTopicsPolicy(tables, realm, user))
    throw insufficientPermission();
  if (p.folder_id !== undefined && p.folder_id !== null && !tables.channel_folders[String(p.folder_id)])
    throw badRequest('Invalid channel folder ID');
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = p.groups[setting];
    if (value !== undefined) validateGroupSetting(tables, setting, value);
  }
}

function createChannel(tx: Tx, actor: ActorContext, p: SubscribeParams, name: string, description: string): ChannelRow {
  const defaults = creationGroups(tx.tables, actor.user);
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = p.groups[setting];
    if (value !== undefined) defaults[setting] = normalizeGroupSetting(tx.tables, value);
  }
  const id = tx.nextId('channels');
  const channel: ChannelRow = {
    stream_id: id,
    name,
    description,
    rendered_description: renderMarkdown(description, { tables: tx.tables, author: actor.user }),
    first_message_id: null,
    date_created: actor.now,
    creator_id: actor.user.user_id,
    invite_only: p.invite_only,
    is_web_public: p.is_web_public,
    // Public channels always share history; private ones only when asked (reference server defaults).
    history_public_to_subscribers: p.invite_only ? (p.history_public_to_subscribers ?? false) : true,
    message_retention_days: p.message_retention_days === undefined ? null : parseRetention(p.message_retention_days),
    folder_id: p.folder_id ?? null,
    is_archived: false,
    // §3: "A new channel created without topics_policy gets inherit".
    topics_policy: p.topics_policy ?? 'inherit',
    recipient_id: tx.nextId('recipients'),
    ...defaults,
  };
  tx.put('channels', id, channel);
  return channel;
}
