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

export function maySeeChannel(actor: ExploreActor, channel: KnownChannel, subscribed = subscribedTo(actor)): Sight {
  if (subscribed.has(channel.id)) return true;
  if (channel.private) return false;
  if (!actor.isGuest) return true;
  return channel.webPublic ? 'unknown' : false;
}

export function maySeeMessage(actor: ExploreActor, m: KnownMessage, k: Knowledge, subscribed = subscribedTo(actor)): Sight {
  if (m.channel === null) return m.participants.includes(actor.name);
  if (m.receivedBy?.has(actor.name)) return true;
  const channel = k.channel(m.channel);
  return channel ? maySeeChannel(actor, channel, subscribed) : 'unknown';
}

/** Messages of the sequence the actor may see now (live ones). */
export function visibleMessages(actor: ExploreActor, k: Knowledge): KnownMessage[] {
  const subscribed = subscribedTo(actor);
  return k.liveMessages().filter((m) => maySeeMessage(actor, m, k, subscribed) === true);
}
