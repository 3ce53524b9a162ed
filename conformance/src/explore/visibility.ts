import type { ExploreActor } from './actors.js';
import type { Knowledge, KnownChannel, KnownMessage } from './knowledge.js';

/**
 * Who may see what, judged from the actor's own register state (which the events oracle keeps honest)
 * and the channels explore made: a direct message its participants; a channel message the channel's
 * subscribers (explore's private channels share their history, and nobody may add subscribers, so no
 * group grants access), and anyone but guests in a public channel (spec §2.2, §2.8). Access is judged
 * now (§4.3 "not visible to the caller"; reference has_message_access): an actor that left a private
 * channel (a guest: any channel) may no longer fetch, react to or hear of changes to its messages, even
 * those it received. Its feed still holds what it received (mayHoldMessage). `unknown` where the spec
 * leaves it to the server (web-public channels for guests, archived channels): the oracles then judge
 * nothing.
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
  // Receiving a channel message grants nothing lasting: access follows the channel as it is now.
  const channel = k.channel(key);
  if (!channel) return 'unknown';
  return maySeeChannel(actor, channel, subscribed, when);
}

/**
 * Whether the actor's own copy of the message may show up in what concerns only it (its feed, its flag
 * events): a message it received, even in a channel it left since (reference: GET /messages and flag
 * changes work on the user's own copies), or one it may see now.
 */
export function mayHoldMessage(
  actor: ExploreActor,
  m: KnownMessage,
  k: Knowledge,
  subscribed = subscribedTo(actor),
  when: When = 'now',
): Sight {
  if ((when === 'before' && m.movedFrom !== undefined ? m.receivedBefore : m.receivedBy)?.has(actor.name)) return true;
  return maySeeMessage(actor, m, k, subscribed, when);
}

/** The sequence's channels the actor is in now and that are not archived (where it may post and act). */
export function liveChannelsOf(actor: ExploreActor, k: Knowledge): KnownChannel[] {
  const subscribed = subscribedTo(actor);
  return k.channels.filter((c) => !c.archived && subscribed.has(c.id));
}

/** Messages of the sequence the actor may see now (live ones). */
export function visibleMessages(actor: ExploreActor, k: Knowledge): KnownMessage[] {
  const subscribed = subscribedTo(actor);
  return k.liveMessages().filter((m) => maySeeMessage(actor, m, k, subscribed) === true);
}
