import { indexOf } from '../../store/indexes.js';
import type { RealmState, UserRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { isRealmAdmin } from '../access.js';
import { emitPeers, type EmitContext } from '../channels/events.js';
import { badRequest } from '../errors.js';
import { newApiKey } from './api-key.js';
import { activeUserIds } from './lookup.js';

/**
 * Account changes the control API makes without a caller (no permission check: the developer asks): the
 * reference server's do_reactivate_user and do_regenerate_api_key, below their views' permission checks.
 */

/**
 * Reactivation (reference do_reactivate_user): is_active true, then `realm_user` / update
 * `{user_id, is_active: true}` to every active user, `realm_bot` / update `{user_id, is_active: true}` to a
 * bot's owner and the human administrators, and `peer_add` on each of the account's channels that is not
 * archived, to everyone who may know its subscribers (the undoing of deactivation's `peer_remove`).
 * Left out, because this server does not model them: `realm_export_consent` (admins) and `user_group` /
 * add_members (group members here never lose a deactivated user, so there is nothing to add back).
 * The reference server takes an active user too and sends the events again; here that is refused.
 */
export function reactivateAccount(ctx: EmitContext, target: UserRow): void {
  const { tx } = ctx;
  if (target.is_active) throw badRequest('User is already active');
  tx.put('users', target.user_id, { ...target, is_active: true });
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: target.user_id, is_active: true } }, activeUserIds(tx.tables));
  if (target.is_bot) {
    tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: target.user_id, is_active: true } }, botOwnerAudience(tx.tables, target));
  }
  const channelIds = [...indexOf(tx.tables).people.subscribedChannels(target.user_id)].sort((a, b) => a - b);
  for (const id of channelIds) {
    const channel = tx.tables.channels[String(id)];
    if (channel && !channel.is_archived) emitPeers(ctx, 'peer_add', channel, [target.user_id]);
  }
}

/**
 * A new API key (reference do_regenerate_api_key): the old one stops authenticating at once (INVALID_API_KEY;
 * http/auth.ts's index follows the row), sessions and event queues are untouched (a queue belongs to the
 * user, so the new key polls it on). Only a bot's change is announced: `realm_bot` / update
 * `{user_id, api_key}` to its owner and the human administrators.
 */
export function regenerateApiKey(tx: Tx, target: UserRow): UserRow {
  const row = { ...target, api_key: newApiKey() };
  tx.put('users', target.user_id, row);
  if (target.is_bot)
    tx.emit(
      { type: 'realm_bot', op: 'update', bot: { user_id: target.user_id, api_key: row.api_key } },
      botOwnerAudience(tx.tables, target),
    );
  return row;
}

/**
 * Who hears of a bot's changes (reference bot_owner_user_ids): its owner and the realm's active human
 * administrators. The reference narrows this to the owner for a bot whose default channels are private;
 * bots here have no default channels, so none is private.
 */
function botOwnerAudience(tables: Pick<RealmState, 'users'>, bot: UserRow): number[] {
  const ids = new Set(
    Object.values(tables.users)
      .filter((u) => u.is_active && !u.is_bot && isRealmAdmin(u))
      .map((u) => u.user_id),
  );
  const owner = bot.bot_owner_id === null ? undefined : tables.users[String(bot.bot_owner_id)];
  if (owner?.is_active) ids.add(owner.user_id);
  return [...ids].sort((a, b) => a - b);
}
