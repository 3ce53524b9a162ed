import { topicMessages } from '../../store/indexes.js';
import { appendTo } from '../lists.js';
import type { EventOf } from '../../contract/event-types.js';
import type { Tx } from '../../store/store.js';
import type { EditHistoryEntry, MessageRow, RealmState, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { channelContentAccess, isSubscribed } from '../access.js';
import { activeSubscriberIds } from '../channels/subscribers.js';
import { moveTimeLimitExceeded } from '../errors.js';
import { renderMessage, topicLinks } from '../markdown.js';
import { contentFlags, CONTENT_FLAGS } from '../messages/content-flags.js';
import { checkGroupMentions } from '../messages/mentions.js';
import { checkWildcardMentions } from '../messages/wildcard-mentions.js';
import { messageAudience, messageAccess } from '../messages/visibility.js';
import { ignoresMoveTimeLimits } from '../permissions.js';
import { emitDeletion, refreshFirstMessageId } from './audience.js';
import type { EditPlan, PropagateMode } from './check-edit.js';
import { claimAttachments } from '../live/uploads.js';
import { moveTopicPolicies, type TopicMove } from './move-policies.js';

/**
 * Applying a checked edit (companion tier, area edit-delete): new message rows with their edit_history
 * entry (§2.5: newest first, only what changed), receipts that follow a channel move, then the events:
 * `update_message` to everyone who may see a changed message, `delete_message` to those a channel move
 * took it from (reference do_update_message).
 */

/**
 * The messages a move takes: the edited one and, with change_later (it and those after it) or change_all,
 * the rest of its topic that the mover may see (reference: messages of protected history the mover never
 * received stay where they are). From the topic index, never a scan of the channel.
 */
export function messagesToMove(tables: RealmState, user: UserRow, message: MessageRow, mode: PropagateMode): MessageRow[] {
  if (mode === 'change_one' || message.stream_id === null) return [message];
  const out: MessageRow[] = [];
  for (const id of topicMessages(tables, message.stream_id, message.subject) ?? []) {
    if (mode === 'change_later' && id < message.id) continue;
    const m = tables.messages[String(id)];
    if (m && (m.id === message.id || messageAccess(tables, user, m))) out.push(m);
  }
  return out;
}

/**
 * Reference check_time_limit_for_change_all_propagate_mode: a change_all move of someone who is not a
 * moderator must not reach messages older than the stricter applicable move limit.
 */
export function checkChangeAllLimit(plan: EditPlan, user: UserRow, now: number, moved: readonly MessageRow[]): void {
  if (ignoresMoveTimeLimits(user)) return;
  const limits = [
    plan.topic !== undefined ? plan.settings.move_messages_within_stream_limit_seconds : null,
    plan.destination ? plan.settings.move_messages_between_streams_limit_seconds : null,
  ].filter((l): l is number => l !== null);
  if (limits.length === 0) return;
  const deadline = Math.min(...limits) + 20;
  const allowed = moved.filter((m) => now - m.timestamp <= deadline).sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
  if (allowed.length < moved.length) throw moveTimeLimitExceeded(allowed[0]?.id ?? null, moved.length, allowed.length);
}

export function applyEdit(
  tx: Tx,
  actor: ActorContext,
  plan: EditPlan,
  moved: readonly MessageRow[],
  mode: PropagateMode,
  topicMove?: TopicMove,
): MessageRow[] {
  const { message, destination } = plan;
  const tables = tx.tables;
  const now = actor.now;
  const isMove = plan.topic !== undefined || destination !== undefined;
  const before = new Map(moved.map((m) => [m.id, messageAudience(tables, m)]));

  const sender = tables.users[String(message.sender_id)] ?? actor.user;
  const rendered = plan.content === undefined ? undefined : renderMessage(plan.content, { tables, author: sender });
  // New wildcard mentions answer to the organization's policy (reference update-message); content sent again unchanged does not.
  const channel = message.stream_id === null ? undefined : tables.channels[String(message.stream_id)];
  if (rendered && channel && plan.content !== message.content)
    checkWildcardMentions(tables, actor.features, sender, channel, message.subject, rendered.mentions);
  if (rendered) checkGroupMentions(tables, actor.user, rendered.mentions);

  const after: MessageRow[] = [];
  for (const m of moved) {
    const entry: EditHistoryEntry = { user_id: actor.user.user_id, timestamp: now };
    const next: MessageRow = { ...m };
    if (m.id === message.id && rendered && plan.content !== undefined) {
      entry.prev_content = m.content;
      entry.prev_rendered_content = m.rendered_content;
      Object.assign(next, {
        content: plan.content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
        last_edit_timestamp: now,
      });
    }
    if (destination) {
      entry.prev_stream = m.stream_id!;
      entry.stream = destination.stream_id;
      Object.assign(next, { stream_id: destination.stream_id, recipient_id: destination.recipient_id });
    }
    if (plan.topic !== undefined) {
      entry.prev_topic = m.subject;
      entry.topic = plan.topic;
      next.subject = plan.topic;
    }
    // §2.5 last_moved_timestamp: resolving or unresolving does not count as a move. Before the field (reference
    // get-messages, feature level 365) a move was an edit like any other: last_edit_timestamp told it.
    if (isMove && !plan.resolveOnly) next.last_moved_timestamp = now;
    if (isMove && !actor.features.has('message_last_moved_timestamp_field')) next.last_edit_timestamp = now;
    next.edit_history = [entry, ...m.edit_history];
    tx.put('messages', m.id, next);
    after.push(next);
  }

  if (rendered) {
    const edited = after.find((m) => m.id === message.id)!;
    updateContentFlags(tx, edited, contentFlags(tables, edited, rendered.mentions));
    // Area live: links to uploads added by the edit open the files to the message's readers, as sending does.
    claimAttachments(tx, edited);
  }
  if (destination) followChannelMove(tx, after);
  // Before update_message, as the reference sends them.
  if (topicMove) moveTopicPolicies(tx, actor.user, now, topicMove, mode);

  emitUpdates(tx, actor, plan, mode, after, before);
  if (destination) {
    refreshFirstMessageId(tx, actor, message.stream_id!);
    refreshFirstMessageId(tx, actor, destination.stream_id);
  }
  return after;
}

/** A content edit recomputes the content flags of every receiver (mentions, alert words); the rest stay. */
function updateContentFlags(tx: Tx, message: MessageRow, contentOf: (userId: number) => string[]): void {
  const row = tx.tables.user_messages[String(message.id)];
  if (!row) return;
  const flags: Record<string, string[]> = {};
  for (const [user, list] of Object.entries(row.flags))
    flags[user] = [...list.filter((f) => !CONTENT_FLAGS.has(f)), ...contentOf(Number(user))];
  tx.put('user_messages', message.id, { message_id: message.id, flags });
}

/**
 * Receipts after a channel move (reference): a receipt stays only where it still gives access the new
 * channel would give anyway (a subscriber, or anyone with content access when its history is shared), so
 * users the move shuts out lose the message; in a destination with protected history every current
 * subscriber gets a receipt, marked read, since being subscribed when the messages arrive is what gives
 * access there.
 */
function followChannelMove(tx: Tx, moved: readonly MessageRow[]): void {
  const tables = tx.tables;
  for (const m of moved) {
    const channel = tables.channels[String(m.stream_id)]!;
    const flags: Record<string, string[]> = { ...tables.user_messages[String(m.id)]?.flags };
    for (const id of Object.keys(flags)) {
      const user = tables.users[id];
      if (!user || user.is_system_bot) continue;
      const keeps =
        isSubscribed(tables, user.user_id, channel.stream_id) ||
        (channel.history_public_to_subscribers && channelContentAccess(tables, user, channel));
      if (!keeps) delete flags[id];
    }
    if (!channel.history_public_to_subscribers)
      for (const id of activeSubscriberIds(tables, channel.stream_id)) flags[String(id)] ??= ['read'];
    tx.put('user_messages', m.id, { message_id: m.id, flags });
  }
}

function emitUpdates(
  tx: Tx,
  actor: ActorContext,
  plan: EditPlan,
  mode: PropagateMode,
  after: readonly MessageRow[],
  before: ReadonlyMap<number, Set<number>>,
): void {
  const { message, channel, destination } = plan;
  const edited = after.find((m) => m.id === message.id)!;
  const base: Omit<EventOf<'update_message'>, 'message_ids' | 'flags'> = {
    type: 'update_message',
    user_id: actor.user.user_id,
    edit_timestamp: actor.now,
    message_id: message.id,
    rendering_only: false,
    ...(channel ? { stream_name: channel.name, stream_id: channel.stream_id } : {}),
    ...(plan.topic !== undefined || destination ? { propagate_mode: mode, orig_subject: message.subject } : {}),
    ...(destination ? { new_stream_id: destination.stream_id } : {}),
    ...(plan.topic !== undefined ? { subject: plan.topic, topic_links: topicLinks(plan.topic, Object.values(tx.tables.linkifiers)) } : {}),
    ...(plan.content !== undefined
      ? {
          orig_content: message.content,
          orig_rendered_content: message.rendered_content,
          content: edited.content,
          rendered_content: edited.rendered_content,
          is_me_message: edited.is_me_message,
        }
      : {}),
  };
  // Per user: the changed messages they may see now, and those they could see before and no longer can.
  const sees = new Map<number, number[]>();
  const lost = new Map<number, MessageRow[]>();
  for (const m of after) {
    const now = messageAudience(tx.tables, m);
    for (const id of now) appendTo(sees, id, m.id);
    for (const id of before.get(m.id) ?? []) if (!now.has(id)) appendTo(lost, id, m);
  }
  const flagsOf = (userId: number) => tx.tables.user_messages[String(message.id)]?.flags[String(userId)] ?? ['read'];
  const groups = new Map<string, { ids: number[]; flags: string[]; users: number[] }>();
  for (const [userId, ids] of [...sees].sort(([a], [b]) => a - b)) {
    const flags = flagsOf(userId);
    const key = `${ids.join(',')}|${flags.join(',')}`;
    const group = groups.get(key) ?? { ids, flags: [...flags], users: [] };
    group.users.push(userId);
    groups.set(key, group);
  }
  for (const { ids, flags, users } of groups.values()) tx.emit({ ...base, message_ids: [...ids].sort((a, b) => a - b), flags }, users);
  // The messages as the losers knew them: in the old channel and topic.
  const byIds = new Map<string, { messages: MessageRow[]; users: number[] }>();
  for (const [userId, messages] of lost) {
    const key = messages.map((m) => m.id).join(',');
    const group = byIds.get(key) ?? {
      messages: messages.map((m) => ({ ...m, stream_id: message.stream_id, subject: message.subject })),
      users: [],
    };
    group.users.push(userId);
    byIds.set(key, group);
  }
  for (const { messages, users } of byIds.values()) emitDeletion(tx, messages, users);
}
