import type { ClientView } from '../../contract/client-view.js';
import type { ParamsOf } from '../../contract/operation-types.js';
import type { EventOf } from '../../contract/event-types.js';
import { indexOf } from '../../store/indexes.js';
import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { channelById } from '../channels/lookup.js';
import { flagNotEditable, invalidFlag, invalidFlagOperation } from '../errors.js';
import { markRead } from '../messages/flags.js';
import { mayEditFlag, mayMarkUnreadInChannel } from '../permissions.js';
import { presentTopic } from '../topics.js';
import { flagCopyOf, writeFlags, type Copy } from './receipts.js';

/**
 * Message flags in bulk (companion tier; reference update-message-flags, mark-all-as-read,
 * mark-stream-as-read). Flags live per user in the `user_messages` rows; the receipts index
 * (store/index-receipts.ts) follows every write, so the register's unread_msgs is right after each change.
 */

/** Every flag name the API knows (reference: the flags of a user's copy that clients can see). */
const KNOWN_FLAGS: ReadonlySet<string> = new Set([
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'has_alert_word',
  'historical',
]);

/** Flags that make an unread message count as a mention (spec §2.13 unread_msgs.mentions). */
const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

export type FlagOp = 'add' | 'remove';

/** The reference's order of checks: flag known, flag editable, then the operation. */
export function checkFlagRequest(op: string, flag: string): FlagOp {
  if (!KNOWN_FLAGS.has(flag)) throw invalidFlag(flag);
  if (!mayEditFlag(flag)) throw flagNotEditable(flag);
  if (op !== 'add' && op !== 'remove') throw invalidFlagOperation(op);
  return op;
}

export interface FlagsResult {
  /** The IDs the request named, less those skipped (marking unread outside subscribed channels). */
  messages: number[];
  ignored_because_not_subscribed_channels?: number[];
  /** The IDs whose flag changed, ascending (not on the wire: the narrow operation counts them). */
  changed: number[];
}

/**
 * POST /messages/flags. Every ID must name a message the caller holds a copy of (kept after leaving its
 * channel) or may access (receipts.ts flagCopyOf), or nothing changes (`Invalid message(s)`). Choice:
 * that check comes before the unsubscribed-channel filter of marking unread, so that the ignored channel
 * list never names a channel the caller may not know.
 */
export function updateMessageFlags(tx: Tx, user: UserRow, ids: readonly number[], op: FlagOp, flag: string): FlagsResult {
  const copies = new Map<number, Copy>();
  for (const id of ids) if (!copies.has(id)) copies.set(id, flagCopyOf(tx.tables, user, id));
  const ignored = new Set<number>();
  const kept: number[] = [];
  for (const id of ids) {
    const { message } = copies.get(id)!;
    const skip =
      op === 'remove' && flag === 'read' && message.stream_id !== null && !mayMarkUnreadInChannel(tx.tables, user, message.stream_id);
    if (skip) ignored.add(message.stream_id!);
    else kept.push(id);
  }
  const changed = applyFlag(
    tx,
    user,
    [...new Set(kept)].map((id) => copies.get(id)!),
    op,
    flag,
  );
  const result: FlagsResult = { messages: kept, changed };
  if (op === 'remove' && flag === 'read') result.ignored_because_not_subscribed_channels = [...ignored].sort((a, b) => a - b);
  return result;
}

/**
 * Sets or clears one flag on the user's copies and tells the user's clients (`update_message_flags`, the
 * reference's shape; `message_details` when marking unread, so clients can rebuild their unread counts).
 * Choice: a message the user never received gets its historical copy only when the flag changes (starring
 * it, marking it unread); marking such a message read changes nothing, since the copy would start read,
 * and writes nothing (so max_message_id never moves without an event). Returns the changed IDs,
 * ascending. The event goes out even when none changed (`messages: []`), as the reference sends it.
 */
export function applyFlag(tx: Tx, user: UserRow, copies: readonly Copy[], op: FlagOp, flag: string): number[] {
  const changed: number[] = [];
  for (const { message, flags } of copies) {
    if (flags.includes(flag) === (op === 'add')) continue;
    writeFlags(tx, user.user_id, message.id, op === 'add' ? [...flags, flag] : flags.filter((f) => f !== flag));
    changed.push(message.id);
  }
  changed.sort((a, b) => a - b);
  if (op === 'add') {
    tx.emit({ type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false }, [user.user_id]);
    return changed;
  }
  const event: EventOf<'update_message_flags', 'remove'> = {
    type: 'update_message_flags',
    op,
    operation: op,
    flag,
    messages: changed,
    all: false,
  };
  if (flag === 'read') {
    const tables = tx.tables;
    tx.emit(event, [user.user_id], (client) => ({ ...event, message_details: messageDetails(tables, user, changed, client) }));
  } else tx.emit(event, [user.user_id]);
  return changed;
}

/** Reference update_message_flags / remove for `read`: what a client needs to count each message as unread again. */
type MessageDetails = NonNullable<EventOf<'update_message_flags', 'remove'>['message_details']>;
function messageDetails(tables: RealmState, user: UserRow, ids: number[], client: ClientView): MessageDetails {
  const out: MessageDetails = {};
  for (const id of ids) {
    const m = tables.messages[String(id)];
    if (!m) continue;
    const flags = tables.user_messages[String(id)]?.flags[String(user.user_id)] ?? [];
    const details: MessageDetails[string] = m.type === 'private' ? privateDetails(m, user) : channelDetails(tables, m, user, client);
    if (MENTION_FLAGS.some((f) => flags.includes(f))) details.mentioned = true;
    out[String(id)] = details;
  }
  return out;
}

function privateDetails(m: MessageRow, user: UserRow): MessageDetails[string] {
  return { type: 'private', user_ids: (m.dm_user_ids ?? []).filter((id) => id !== user.user_id) };
}

function channelDetails(tables: RealmState, m: MessageRow, user: UserRow, client: ClientView): MessageDetails[string] {
  const sub = tables.subscriptions[`${user.user_id}:${m.stream_id}`];
  // A channel message always has its channel; the row's type allows null for direct messages.
  const channel = m.stream_id !== null ? { stream_id: m.stream_id } : {};
  return { type: 'stream', ...channel, topic: presentTopic(m.subject, client), unmuted_stream_msg: sub?.is_muted !== true };
}

/** POST /messages/flags: the request's flag and operation checked first, in the reference's order. */
export function doUpdateMessageFlags(tx: Tx, actor: ActorContext, params: ParamsOf<'update-message-flags'>): FlagsResult {
  const op = checkFlagRequest(params.op, params.flag);
  return updateMessageFlags(tx, actor.user, params.messages, op, params.flag);
}

/**
 * POST /mark_all_as_read: every unread message of the user (the receipts index's list) becomes read at once,
 * so `complete` is always true. Choice (as the reference): the one event, `all` true with an empty list,
 * is sent even when nothing was unread, so every client of the user resets its unread state.
 */
export function doMarkAllAsRead(tx: Tx, actor: ActorContext): { complete: true } {
  const user = actor.user;
  const me = String(user.user_id);
  for (const id of indexOf(tx.tables).receipts.of(user.user_id).unread.toArray()) {
    const flags = tx.tables.user_messages[String(id)]!.flags[me]!;
    writeFlags(tx, user.user_id, id, [...flags, 'read']);
  }
  tx.emit({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true }, [user.user_id]);
  return { complete: true };
}

/**
 * POST /mark_stream_as_read: the user's unread messages of one channel whose content they may access
 * (archived channels included: their unread messages still count). Walks the shorter of the user's unread
 * list and the channel's messages. As mark-topic-as-read, the event is sent only when something changed.
 */
export function doMarkStreamAsRead(tx: Tx, actor: ActorContext, params: ParamsOf<'mark-stream-as-read'>): void {
  const user = actor.user;
  const channel = channelById(tx.tables, user, params.stream_id, { access: 'content', archived: true });
  const index = indexOf(tx.tables);
  const unread = index.receipts.of(user.user_id).unread;
  const inChannel = index.messages.channel(channel.stream_id)?.ids;
  if (!inChannel) return;
  const ids =
    unread.size < inChannel.size
      ? unread.toArray().filter((id) => tx.tables.messages[String(id)]?.stream_id === channel.stream_id)
      : inChannel.toArray();
  markRead(tx, user.user_id, ids);
}
