import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, UserRow } from '../../store/state.js';
import type { EmitContext } from '../channels/events.js';
import { checkChannelName, visibleChannelByName } from '../channels/lookup.js';
import type { ActorContext } from '../actor.js';
import { badRequest, insufficientPermission, streamNameDoesNotExist, unauthorizedPrincipal } from '../errors.js';
import { isUnsubscribingOthers, mayUnsubscribe } from '../permissions.js';
import { removeSubscribers } from './membership.js';
import { resolvePrincipals } from './principals.js';

/**
 * DELETE /users/me/subscriptions (spec §4.8), checks in the reference order: principals → channel names →
 * permission on the existing channels when unsubscribing others (C12) → unknown names (C11).
 */
export function doUnsubscribe(tx: Tx, actor: ActorContext, p: ParamsOf<'unsubscribe'>): { removed: string[]; not_removed: string[] } {
  const { tables } = tx;
  const { user, features } = actor;
  // §4.8: before level 208 a bad principal is HTTP 403 UNAUTHORIZED_PRINCIPAL.
  const refuse = features.has('unsubscribe_principal_bad_request') ? badRequest : unauthorizedPrincipal;
  const targets = p.principals && p.principals.length > 0 ? resolvePrincipals(tables, p.principals, refuse) : [user];

  for (const name of p.subscriptions) checkChannelName(name);
  // A channel the caller may not know, and (before level 362, §9) an archived one, does not exist for them.
  const found = p.subscriptions.map((name) => ({
    name,
    channel: visibleChannelByName(tables, user, name, features.has('archived_channel_changes')),
  }));

  if (targets.some((t) => isUnsubscribingOthers(user, t))) {
    for (const { channel } of found) {
      if (channel && targets.some((t) => !mayUnsubscribe(tables, user, t, channel))) throw insufficientPermission();
    }
  }
  const unknown = found.find((f) => f.channel === undefined);
  if (unknown) throw streamNameDoesNotExist(unknown.name);

  const ctx: EmitContext = { tx, features, now: actor.now };
  const removed: string[] = [];
  const notRemoved: string[] = [];
  const done = new Set<number>();
  for (const { channel } of found as { channel: ChannelRow }[]) {
    if (done.has(channel.stream_id)) continue;
    done.add(channel.stream_id);
    const leaving: UserRow[] = [];
    for (const target of targets) {
      if (tables.subscriptions[`${target.user_id}:${channel.stream_id}`]?.active) {
        leaving.push(target);
        removed.push(channel.name);
      } else notRemoved.push(channel.name);
    }
    removeSubscribers(ctx, channel, leaving);
  }
  return { removed, not_removed: notRemoved };
}
