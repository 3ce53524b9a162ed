import { indexOf } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { MessageRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { emitStreamUpdate, metadataAudience } from '../channels/events.js';

/** `delete_message` (reference payload): one event per audience, split per client by events/shape.ts. */
export function emitDeletion(tx: Tx, messages: readonly MessageRow[], userIds: Iterable<number>): void {
  const users = [...userIds].sort((a, b) => a - b);
  const first = messages[0];
  if (!first || users.length === 0) return;
  const channel = first.type === 'stream' && first.stream_id !== null ? { stream_id: first.stream_id, topic: first.subject } : {};
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
