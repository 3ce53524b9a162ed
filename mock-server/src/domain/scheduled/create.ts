import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ScheduledMessageRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { clientName, defaultReadBySender } from '../messages/send-request.js';
import { emitScheduledAdd, emitScheduledUpdate } from './present.js';
import { editableScheduledMessage } from './edit.js';
import { canonicalType, checkFuture, checkScheduledMessage } from './validate.js';

/**
 * POST /scheduled_messages (spec §4.1; reference §4.1 for the order of checks). Below level 184 a
 * `scheduled_message_id` makes the same request an edit of that message (§9 "level 184 moved editing
 * of scheduled messages to its own operation and dropped scheduled_message_id from creation"): every
 * value is replaced, after the same checks; the pipeline does not even read the parameter from 184 on.
 * Answers the scheduled message's ID.
 */
export function doCreateScheduledMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'create-scheduled-message'>): number {
  const client = clientName(actor.userAgent);
  const sender = actor.user;
  checkFuture(params.scheduled_delivery_timestamp, actor.now);
  const checked = checkScheduledMessage(tx, actor, sender, {
    type: canonicalType(params.type),
    to: params.to,
    topic: params.topic,
    content: params.content,
  });
  const readBySender = params.read_by_sender ?? defaultReadBySender(client, sender, checked.recipient);
  const values = {
    type: checked.type,
    to: checked.to,
    topic: checked.topic,
    content: checked.content,
    rendered_content: checked.rendered_content,
    scheduled_delivery_timestamp: params.scheduled_delivery_timestamp,
    read_by_sender: readBySender,
    failed: false,
  };

  if (params.scheduled_message_id !== undefined) {
    // The pre-184 edit: the message is looked up only once the request itself is acceptable.
    const old = editableScheduledMessage(tx, sender.user_id, params.scheduled_message_id);
    const row: ScheduledMessageRow = { ...old, ...values };
    tx.put('scheduled_messages', row.scheduled_message_id, row);
    emitScheduledUpdate(tx, row);
    return row.scheduled_message_id;
  }

  const id = tx.nextId('scheduled_messages');
  const row: ScheduledMessageRow = { scheduled_message_id: id, sender_id: sender.user_id, ...values, delivered_message_id: null, client };
  tx.put('scheduled_messages', id, row);
  emitScheduledAdd(tx, row);
  return id;
}
