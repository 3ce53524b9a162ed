import { topicMessages } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, MessageRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { conversationLink, messageLink, silentMention } from '../markdown/syntax.js';
import { sendMessage } from '../messages/send.js';
import { messageAccess } from '../messages/visibility.js';
import type { EditPlan, PropagateMode } from './check-edit.js';
import { RESOLVED_TOPIC_PREFIX, unresolvedName } from './check-edit.js';

/**
 * The notification bot's posts after a move or a resolution (reference do_update_message and
 * send_message_moved_breadcrumbs; texts are the reference's): "marked as resolved/unresolved" in the
 * resulting topic; "moved here from" in the new topic unless the resolution notice already says it all;
 * "moved to" in the old topic when asked. Whether the whole topic moved is judged with the mover's own
 * access, so a notice never reveals messages they cannot see.
 */

export interface NoticeOptions {
  mode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

export function postMoveNotices(tx: Tx, actor: ActorContext, plan: EditPlan, moved: readonly MessageRow[], options: NoticeOptions): void {
  const { message, channel } = plan;
  const bot = tx.tables.users[String(actor.realm.notification_bot_id)];
  if (!bot || !channel || (plan.topic === undefined && !plan.destination)) return;
  const oldTopic = message.subject;
  const newTopic = plan.topic ?? oldTopic;
  const target = plan.destination ?? channel;
  const user = silentMention(actor.user);
  const post = (where: ChannelRow, topic: string, content: string): MessageRow =>
    sendMessage(tx, actor, {
      sender: bot,
      recipient: { type: 'stream', channel: where, topic },
      content,
      client: 'Internal',
      readBySender: true,
    });

  let resolvedNotice: MessageRow | undefined;
  if (plan.topic !== undefined && plan.content === undefined) {
    const resolved = newTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !oldTopic.startsWith(RESOLVED_TOPIC_PREFIX);
    const unresolved = oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !newTopic.startsWith(RESOLVED_TOPIC_PREFIX);
    if (resolved || unresolved)
      resolvedNotice = post(target, newTopic, `${user} has marked this topic as ${resolved ? 'resolved' : 'unresolved'}.`);
  }

  const movedIds = new Set(moved.map((m) => m.id));
  const count = moved.length;
  const movedAll = options.mode === 'change_all' || !visibleRemains(tx, actor, channel.stream_id, oldTopic, movedIds);
  const oldLocation = conversationLink(channel, oldTopic);
  const newLocation = conversationLink(target, newTopic);

  const renamed = unresolvedName(oldTopic) !== unresolvedName(newTopic);
  if (options.notifyNewThread && (plan.destination || !resolvedNotice || renamed)) {
    if (resolvedNotice) movedIds.add(resolvedNotice.id);
    const preexisting = visibleRemains(tx, actor, target.stream_id, newTopic, movedIds);
    const link = messageLink(tx.tables, { id: message.id, stream_id: target.stream_id, subject: newTopic, dm_user_ids: null });
    const text =
      !preexisting && movedAll
        ? `This topic was moved here from ${oldLocation} by ${user}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${oldLocation} by ${user}.`
          : `${count} messages were moved here from ${oldLocation} by ${user}.`;
    post(target, newTopic, text);
  }
  if (options.notifyOldThread) {
    const text = movedAll
      ? `This topic was moved to ${newLocation} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${newLocation} by ${user}.`
        : `${count} messages were moved from this topic to ${newLocation} by ${user}.`;
    post(channel, oldTopic, text);
  }
}

/** Whether the topic still holds a message (other than `except`) that the mover may see. */
function visibleRemains(tx: Tx, actor: ActorContext, streamId: number, topic: string, except: ReadonlySet<number>): boolean {
  for (const id of topicMessages(tx.tables, streamId, topic)?.descending() ?? []) {
    if (except.has(id)) continue;
    const m = tx.tables.messages[String(id)];
    if (m && messageAccess(tx.tables, actor.user, m)) return true;
  }
  return false;
}
