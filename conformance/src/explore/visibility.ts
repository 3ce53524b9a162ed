import type { ExploreActor } from './actors.js';
import type { Knowledge, KnownChannel, KnownMessage } from './knowledge.js';

/**
 * Who may see what, judged from the actor's own register state (which the events oracle keeps honest)
 * and the channels explore made: a direct message its participants; a channel message the channel's
 * subscribers (explore's private channels share their history), and anyone but guests in a public
 * channel (spec §2.2, §2.8). `unknown` where the spec leaves it to the server (web-public channels for
 * guests): the oracles then judge nothing.
 */
export type Sight = boolean | 'unknown';

export function subscribedTo(actor: ExploreActor): Set<number> {
  const subs = (actor.state.subscriptions ?? []) as { stream_id?: unknown }[];
  return new Set(subs.map((s) => s.stream_id).filter((id): id is number => typeof id === 'number'));
}

/** `before`: as the channel was before the latest step that changed its privacy. */
export type When = 'now' | 'before';

export function maySeeChannel(actor: ExploreActor, channel: KnownChannel, subscribed = subscribedTo(actor), when: When = 'now'): Sight {
  if (subscribed.has(channel.id)) return true;
  // A legacy client's state leaves archived channels out (no archived_channels capability): its
  // subscriptions no longer say whether it may read them.
  if (channel.archived) return 'unknown';
  // Messages received while subscribed: the server's call once the actor left (see KnownChannel.everIn).
  if (channel.everIn?.has(actor.name) && (channel.private || actor.isGuest)) return 'unknown';
  if (when === 'before' ? (channel.wasPrivate ?? channel.private) : channel.private) return false;
  if (!actor.isGuest) return true;
  return channel.webPublic ? 'unknown' : false;
}

/** `before`: where the message was and what its channel was before the latest step that moved it or changed the channel. */
export function maySeeMessage(
  actor: ExploreActor,
  m: KnownMessage,
  k: Knowledge,
  subscribed = subscribedTo(actor),
  when: When = 'now',
): Sight {
  const key = when === 'before' && m.movedFrom !== undefined ? m.movedFrom : m.channel;
  if (key === null) return m.participants.includes(actor.name);
  if (m.receivedBy?.has(actor.name)) return true;
  const channel = k.channel(key);
  return channel ? maySeeChannel(actor, channel, subscribed, when) : 'unknown';
}

/** Messages of the sequence the actor may see now (live ones). */
export function visibleMessages(actor: ExploreActor, k: Knowledge): KnownMessage[] {
  const subscribed = subscribedTo(actor);
  return k.liveMessages().filter((m) => maySeeMessage(actor, m, k, subscribed) === true);
}
