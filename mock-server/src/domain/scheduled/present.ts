import type { ClientView } from '../../contract/client-view.js';
import type { EventOf } from '../../contract/event-types.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import { ownedRows } from '../../store/indexes.js';
import type { RealmState, ScheduledMessageRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { presentTopic } from '../topics.js';

/**
 * The scheduled-message object (spec §2.1, reference §2, C2) and its events, in one place: the register
 * snapshot, the list operation and the `scheduled_messages` events all present rows through here, so a
 * client that follows the events ends up with what a new snapshot shows.
 */

type TopicView = Pick<ClientView, 'empty_topic_name'>;

/**
 * GET /scheduled_messages has no way to declare the empty_topic_name capability, so it answers as to a
 * client that did not (spec §1: the empty topic shows as realm_empty_topic_display_name).
 */
export const LIST_VIEW: TopicView = { empty_topic_name: false };

/** `type` is stored canonical (stream or private, reference §2); `topic` only for channel messages. */
export function presentScheduledMessage(row: ScheduledMessageRow, client: TopicView): SchemaOf<'ScheduledMessage'> {
  const out: SchemaOf<'ScheduledMessage'> = {
    scheduled_message_id: row.scheduled_message_id,
    type: row.type,
    to: Array.isArray(row.to) ? [...row.to] : row.to,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    read_by_sender: row.read_by_sender,
    failed: row.failed,
  };
  if (row.type === 'stream') out.topic = presentTopic(row.topic, client);
  return out;
}

/** Delivery order, and the order of every list (reference §2: by delivery time); ties by ID. */
export const byDeliveryTime =
  <T extends { scheduled_delivery_timestamp: number }>(id: (row: T) => number) =>
  (a: T, b: T) =>
    a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || id(a) - id(b);

/** A user's messages not sent yet, pending and failed alike (reference §2: lists include failed ones). */
export function undeliveredScheduledMessages(tables: Pick<RealmState, 'scheduled_messages'>, userId: number): ScheduledMessageRow[] {
  return ownedRows(tables, 'scheduled_messages', userId)
    .filter((s) => s.delivered_message_id === null)
    .sort(byDeliveryTime((s) => s.scheduled_message_id));
}

/**
 * `scheduled_messages` events (reference "Event payloads"), to every queue of the sender (reference §6),
 * each shaped for its client's empty-topic capability.
 */
export function emitScheduledAdd(tx: Tx, row: ScheduledMessageRow): void {
  const event = (client: TopicView): EventOf<'scheduled_messages', 'add'> => ({
    type: 'scheduled_messages',
    op: 'add',
    scheduled_messages: [presentScheduledMessage(row, client)],
  });
  tx.emit(event({ empty_topic_name: true }), [row.sender_id], event);
}

export function emitScheduledUpdate(tx: Tx, row: ScheduledMessageRow): void {
  const event = (client: TopicView): EventOf<'scheduled_messages', 'update'> => ({
    type: 'scheduled_messages',
    op: 'update',
    scheduled_message: presentScheduledMessage(row, client),
  });
  tx.emit(event({ empty_topic_name: true }), [row.sender_id], event);
}

export function emitScheduledRemove(tx: Tx, row: ScheduledMessageRow): void {
  tx.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.scheduled_message_id }, [row.sender_id]);
}
