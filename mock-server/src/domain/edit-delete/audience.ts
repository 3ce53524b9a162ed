import { indexOf } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { MessageRow, RealmState } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { emitStreamUpdate, metadataAudience } from '../channels/events.js';
import { activeSubscriberIds } from '../channels/subscribers.js';
import { messageVisibleTo } from '../messages/visibility.js';

/**
 * Who hears of a change to a message (companion tier, area edit-delete): the reference server tells the
 * users who received it and, for a channel whose history is shared, its current subscribers; here both
 * only while they may still see the message (access.ts rules through messageVisibleTo), so an event
 * never reaches someone who could not fetch the message. Users who are neither (a non-subscriber who
 * could read a public channel's history) learn of it when they next fetch, as with new messages.
 */
export function messageAudience(tables: RealmState, message: MessageRow): Set<number> {
  const candidates = new Set<number>();
  for (const id in tables.user_messages[String(message.id)]?.flags ?? {}) candidates.add(Number(id));
  if (message.stream_id !== null) for (const id of activeSubscriberIds(tables, message.stream_id)) candidates.add(id);
  const out = new Set<number>();
  for (const id of candidates) {
    const user = tables.users[String(id)];
    if (user?.is_active && !user.is_system_bot && messageVisibleTo(tables, user, message)) out.add(id);
  }
  return out;
}

/** `delete_message` (reference payload): one event per audience, split per client by events/shape.ts. */
export function emitDeletion(tx: Tx, messages: readonly MessageRow[], userIds: Iterable<number>): void {
  const users = [...userIds].sort((a, b) => a - b);
  const first = messages[0];
  if (!first || users.length === 0) return;
  const channel = first.type === 'stream' ? { stream_id: first.stream_id, topic: first.subject } : {};
  tx.emit(
    { type: 'delete_message', message_type: first.type, message_ids: messages.map((m) => m.id).sort((a, b) => a - b), ...channel },
    users,
  );
}

/**
 * §2.2 first_message_id follows moves and deletions: the lowest message ID the channel holds now (the
 * index is already up to date), announced as on sending to everyone who may know the channel.
 */
export function refreshFirstMessageId(tx: Tx, actor: ActorContext, streamId: number): void {
  const channel = tx.tables.channels[String(streamId)];
  if (!channel) return;
  const first = indexOf(tx.tables).messages.channel(streamId)?.ids.first ?? null;
  if (channel.first_message_id === first) return;
  const next = { ...channel, first_message_id: first };
  tx.put('channels', streamId, next);
  emitStreamUpdate(
    { tx, features: actor.features, now: actor.now },
    next,
    metadataAudience(tx, next).map((u) => u.user_id),
    'first_message_id',
    first,
  );
}
