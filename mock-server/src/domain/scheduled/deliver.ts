import { features } from '../../config/features.js';
import type { Tx } from '../../store/store.js';
import type { RealmState, ScheduledMessageRow } from '../../store/state.js';
import { ApiError } from '../errors.js';
import { sendMessage, type SendContext } from '../messages/send.js';
import { conversationLink, quote, silentMention } from '../markdown/syntax.js';
import { senderKnowsChannel } from '../messages/send-request.js';
import { notifyUser } from './notify.js';
import { emitScheduledRemove, emitScheduledUpdate } from './present.js';
import { checkScheduledMessage } from './validate.js';

/**
 * Sending a scheduled message when its time comes (spec §3 leaves it "not shown"; reference §4.1
 * "Delivery"). The mock's delivery worker is notionally always running, so the message is sent as it
 * would have been at its delivery time: that is its timestamp, and the sender, channel and recipients
 * are checked as they are then, with the same checks as creation. When they refuse, the message stays
 * listed with `failed` true (§2.1, §3) and the Notification Bot tells the sender why.
 */

/** Reference §4.1: the text for a message the server could not send in time (it was not running). */
export const LATE_REASON = 'Message could not be sent at the scheduled time.';

export interface DeliveryOptions {
  /** The realm's time now (the notice of a late failure is sent now, not at the missed time). */
  now: number;
  /** Start-up found it more than ten minutes overdue (reference §4.1): it fails instead of being sent. */
  late: boolean;
}

export function deliverScheduledMessage(tx: Tx, id: number, options: DeliveryOptions): void {
  const row = tx.tables.scheduled_messages[String(id)];
  if (!row || row.failed || row.delivered_message_id !== null) return;
  const realm = tx.tables.realm.realm;
  const ctx: SendContext = { realm, features: features(realm.feature_level), now: row.scheduled_delivery_timestamp };
  const sender = tx.tables.users[String(row.sender_id)];
  if (options.late || !sender?.is_active) {
    fail(tx, row, options.late ? LATE_REASON : 'Your account is deactivated.', { ...ctx, now: options.now });
    return;
  }
  let checked;
  try {
    checked = checkScheduledMessage(tx, ctx, sender, {
      type: row.type,
      to: row.to,
      topic: row.type === 'stream' ? row.topic : undefined,
      content: row.content,
    });
  } catch (error) {
    // A refusal the sender would have got had they sent it now is the reason it failed; anything else is a bug.
    if (!(error instanceof ApiError)) throw error;
    fail(tx, row, error.message, ctx);
    return;
  }
  let message;
  try {
    message = sendMessage(tx, ctx, {
      sender,
      recipient: checked.recipient,
      content: checked.content,
      client: row.client,
      readBySender: row.read_by_sender,
    });
  } catch (error) {
    // sendMessage refuses before it writes anything, so the refusal can become the failure reason.
    if (!(error instanceof ApiError)) throw error;
    fail(tx, row, error.message, ctx);
    return;
  }
  const delivered: ScheduledMessageRow = { ...row, delivered_message_id: message.id };
  tx.put('scheduled_messages', id, delivered);
  emitScheduledRemove(tx, delivered);
}

function fail(tx: Tx, row: ScheduledMessageRow, reason: string, ctx: SendContext): void {
  const failed: ScheduledMessageRow = { ...row, failed: true };
  tx.put('scheduled_messages', row.scheduled_message_id, failed);
  emitScheduledUpdate(tx, failed);
  const sender = tx.tables.users[String(row.sender_id)];
  if (sender) notifyUser(tx, ctx, sender, failureNotice(tx.tables, row, reason));
}

/** The notice's wording is ours (the demo fixture's failed_notice shows the same style). */
export function failureNotice(tables: RealmState, row: ScheduledMessageRow, reason: string): string {
  return `I couldn't send the following message to ${destination(tables, row)} at the scheduled time. Reason: ${reason}\n\n${quote(row.content)}`;
}

/** Where it was going, as far as the sender may still know: a channel they lost sight of stays unnamed. */
function destination(tables: RealmState, row: ScheduledMessageRow): string {
  if (row.type === 'stream') {
    const channel = tables.channels[String(row.to)];
    const sender = tables.users[String(row.sender_id)];
    if (!channel || !sender || !senderKnowsChannel(tables, sender, channel)) return 'a channel you can no longer access';
    return conversationLink(channel, row.topic);
  }
  const others = (row.to as number[]).filter((id) => id !== row.sender_id);
  if (others.length === 0) return 'yourself';
  return others
    .map((id) => tables.users[String(id)])
    .map((u, i) => (u ? silentMention(u) : `user ${others[i]}`))
    .join(', ');
}
