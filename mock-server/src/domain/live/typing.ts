import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { activeSubscriberIds } from '../channels/subscribers.js';
import { channelById } from '../channels/lookup.js';
import {
  typingDisabled,
  typingInvalidUser,
  typingMayNotPost,
  typingMissing,
  typingMissingChannel,
  typingNotAuthorized,
} from '../errors.js';
import { mayPostToChannel, mayReachChannelForSending } from '../permissions.js';

/**
 * Typing notifications (companion tier, area live; reference "Set typing status"). Nothing is stored:
 * a notification is an event only. The reference server sends no `stop` when a client goes quiet; its
 * clients expire a `start` themselves after the periods below, which register announces (type `realm`),
 * so the mock does the same and keeps no timers.
 */

/** Reference defaults (register keys server_typing_*; reference feature level 204). */
export const TYPING_PERIODS_MS = {
  server_typing_started_expiry_period_milliseconds: 15_000,
  server_typing_stopped_wait_period_milliseconds: 5_000,
  server_typing_started_wait_period_milliseconds: 10_000,
} as const;

/** A setting absent from a user row (rows made before these settings existed) is on, the reference default. */
const settingOn = (user: UserRow, name: string) => user.settings[name] !== false;
const person = (u: UserRow) => ({ user_id: u.user_id, email: u.email });

/** Receivers: active accounts that did not switch typing notifications off (receives_typing_notifications). */
function receivers(users: UserRow[]): number[] {
  return users.filter((u) => u.is_active && settingOn(u, 'receives_typing_notifications')).map((u) => u.user_id);
}

export function doSetTypingStatus(tx: Tx, actor: ActorContext, p: ParamsOf<'set-typing-status'>): void {
  const sender = actor.user;
  if (p.type === 'stream' || p.type === 'channel') {
    // The reference's order: stream_id, topic, the sender's setting, then channel access and posting rights.
    if (p.stream_id === undefined) throw typingMissingChannel();
    if (p.topic === undefined) throw typingMissing('topic');
    if (!settingOn(sender, 'send_stream_typing_notifications')) throw typingDisabled('stream messages');
    const channel = channelById(tx.tables, sender, p.stream_id, { access: 'content', archived: false });
    if (!mayReachChannelForSending(tx.tables, sender, channel)) throw typingNotAuthorized(channel.name);
    if (!mayPostToChannel(tx.tables, sender, channel)) throw typingMayNotPost();
    const subscribers = activeSubscriberIds(tx.tables, channel.stream_id).map((id) => tx.tables.users[String(id)]!);
    tx.emit(
      { type: 'typing', message_type: 'stream', op: p.op, sender: person(sender), stream_id: channel.stream_id, topic: p.topic },
      receivers(subscribers),
    );
    return;
  }
  if (p.to === undefined) throw typingMissing("'to' argument");
  // zulip-js sends a one-element list as its only element: read a lone integer as that list.
  const ids = Array.isArray(p.to) ? [...p.to] : [p.to];
  if (ids.length === 0) throw typingMissing("'to' list", 'Empty');
  if (!settingOn(sender, 'send_private_typing_notifications')) throw typingDisabled('direct messages');
  if (!ids.includes(sender.user_id)) ids.push(sender.user_id);
  // One unknown ID refuses the whole request, as on the reference (a partial group would name another
  // conversation). System bots count as recipients there too (cross-realm bots).
  const users = ids.map((id) => {
    const user = tx.tables.users[String(id)];
    if (!user) throw typingInvalidUser(id);
    return user;
  });
  // Every participant, the sender included, is listed and (when active) notified: the reference's audience.
  tx.emit({ type: 'typing', message_type: 'direct', op: p.op, sender: person(sender), recipients: users.map(person) }, receivers(users));
}
