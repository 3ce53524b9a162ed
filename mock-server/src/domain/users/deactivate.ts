import type { ParamsOf } from '../../contract/operation-types.js';
import { indexOf } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { emitPeers, type EmitContext } from '../channels/events.js';
import { badRequest, insufficientPermission, mustBeOwner } from '../errors.js';
import * as may from '../permissions.js';
import { activeUserIds, targetUser } from './lookup.js';
import { isOnlyOwner } from './update-plan.js';
import { ROLE } from '../../contract/roles.js';

/**
 * DELETE /users/{user_id} (spec §4.17). Every check first (reference §4.17 "Checks", in order), then the
 * changes; a refusal writes nothing. deactivation_notification_comment is validated by the document
 * (stripped, at most 2000 characters) and otherwise unused: the reference server emails the user (no email
 * without the parameter, one without custom text for `""`), but the mock delivers no email, so there is
 * nothing to send it with.
 */
export function doDeactivateUser(tx: Tx, actor: ActorContext, params: ParamsOf<'deactivate-user'>): void {
  const target = checkDeactivation(tx, actor.user, params.user_id);
  deactivateAccount({ tx, features: actor.features, now: actor.now }, target);
}

/**
 * What deactivation does once allowed (the API's action, and the control API's, which has no caller):
 * the reference server deactivates a user's bots with them, the bots first (so no bot is left active
 * behind a deactivated owner); each bot gets the same events as a deactivated user.
 */
export function deactivateAccount(ctx: EmitContext, target: UserRow): void {
  const bots = target.is_bot
    ? []
    : Object.values(ctx.tx.tables.users).filter((u) => u.is_bot && u.is_active && u.bot_owner_id === target.user_id);
  for (const bot of bots) deactivateOne(ctx, bot);
  deactivateOne(ctx, target);
}

/** Spec §4.17 "BAD_REQUEST when the target is the only organization owner" (the only active human owner). */
export function refuseOnlyOwner(tx: Tx, target: UserRow): void {
  if (target.role === ROLE.owner && isOnlyOwner(tx.tables, target)) throw badRequest('Cannot deactivate the only organization owner');
}

function checkDeactivation(tx: Tx, caller: UserRow, userId: number): UserRow {
  // Bots are not taken here (`No such user`), nor deactivated users (`User is deactivated`).
  const target = targetUser(tx.tables, userId, { bots: false, deactivated: false });
  // Spec §4.17, §5: administrators only; C10: `Insufficient permission`, not the reference's text.
  if (!may.mayAdministerUsers(caller)) throw insufficientPermission();
  if (!may.mayDeactivateUser(caller, target)) throw mustBeOwner();
  refuseOnlyOwner(tx, target);
  return target;
}

/**
 * One account: is_active false (authentication then answers `Account is deactivated`, http/auth.ts),
 * then the events of reference §4.17 in its order. First `subscription` / `peer_remove` of the account
 * on each of its channels, archived ones too, to everyone who may know those subscribers (the account
 * no longer counts as a subscriber, §2.3 subscriber_count). Then `realm_user` / `update` with
 * `{user_id, is_active: false}` to every active user. The issue speaks of a "realm_user remove" event;
 * the reference server at the spec's feature levels announces a deactivation with this update (remove
 * is for users someone may no longer see at all), and clients move the user to their deactivated list.
 * The events/dispatcher.ts ends the account's event queues once that update is committed.
 */
function deactivateOne(ctx: EmitContext, user: UserRow): void {
  const { tx } = ctx;
  tx.put('users', user.user_id, { ...user, is_active: false });
  const channelIds = [...indexOf(tx.tables).people.subscribedChannels(user.user_id)].sort((a, b) => a - b);
  for (const id of channelIds) {
    const channel = tx.tables.channels[String(id)];
    if (channel) emitPeers(ctx, 'peer_remove', channel, [user.user_id]);
  }
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.user_id, is_active: false } }, activeUserIds(tx.tables));
}
