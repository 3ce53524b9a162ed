import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ScheduledMessageRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { badRequest, deliveryNotInFuture, missingResource } from '../errors.js';
import { checkChannelTopic, readTopic } from '../topics.js';
import { emitScheduledUpdate } from './present.js';
import { canonicalType, checkFuture, checkScheduledMessage } from './validate.js';

/**
 * One of the caller's scheduled messages, still to be sent (reference §4.2 steps 5 and 6): another
 * user's, a missing one and a reminder (reminders share the ID sequence but not the table) are all
 * "does not exist" with HTTP 404 (reference §7); a delivered one was "already sent".
 */
export function editableScheduledMessage(tx: Tx, userId: number, id: number): ScheduledMessageRow {
  const row = tx.tables.scheduled_messages[String(id)];
  if (!row || row.sender_id !== userId) throw missingResource('Scheduled message does not exist');
  if (row.delivered_message_id !== null) throw badRequest('Scheduled message was already sent');
  return row;
}

/**
 * PATCH /scheduled_messages/{id} (spec §4.2, §3), the reference's nine steps in order. Steps 1–4 look
 * at the request alone, before the message is fetched. A successful edit makes a failed message
 * pending again (reference §4.2: `failed` is reset).
 */
export function doUpdateScheduledMessage(tx: Tx, actor: ActorContext, p: ParamsOf<'update-scheduled-message'>): void {
  const { type, to, content, topic, scheduled_delivery_timestamp: timestamp } = p;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && timestamp === undefined)
    throw badRequest('Nothing to change');
  // §4.2 "When changing the type, to is required": a type sent without `to` is refused even when it
  // equals the current one (reference "Readings that are not conflicts").
  if (type !== undefined && to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
  if (type !== undefined && canonicalType(type) === 'stream' && topic === undefined)
    throw badRequest('Topic required when updating scheduled message type to channel.');
  if (timestamp !== undefined) checkFuture(timestamp, actor.now);
  const row = editableScheduledMessage(tx, actor.user.user_id, p.scheduled_message_id);
  // §3: "failed scheduled message … scheduled_delivery_timestamp must be supplied".
  if (row.failed && timestamp === undefined) throw deliveryNotInFuture();

  let next: ScheduledMessageRow = { ...row, failed: false };
  if (timestamp !== undefined) next.scheduled_delivery_timestamp = timestamp;
  if (type !== undefined || to !== undefined || content !== undefined) {
    // Step 8: the whole message as it would become is checked again, as in §4.1.
    const newType = type === undefined ? row.type : canonicalType(type);
    const keptTopic = row.type === 'stream' ? row.topic : undefined;
    const checked = checkScheduledMessage(tx, actor, actor.user, {
      type: newType,
      to: to ?? row.to,
      topic: newType === 'stream' ? (topic ?? keptTopic) : undefined,
      content: content ?? row.content,
    });
    next = {
      ...next,
      type: checked.type,
      to: checked.to,
      topic: checked.topic,
      content: checked.content,
      rendered_content: checked.rendered_content,
    };
  } else if (topic !== undefined && row.type === 'stream') {
    // Only the topic changed: it alone is read (stripped, truncated) and held to the channel's policy.
    const newTopic = readTopic(topic, actor.features);
    const channel = tx.tables.channels[String(row.to)];
    if (channel) checkChannelTopic(newTopic, channel, actor.realm, actor.features);
    next.topic = newTopic;
  }
  // A topic for a direct message is ignored silently (reference §4.2 step 8).
  tx.put('scheduled_messages', next.scheduled_message_id, next);
  emitScheduledUpdate(tx, next);
}
