import type { Tx } from '../store/store.js';
import { badRequest } from './errors.js';
import { activeUserIds } from './users/lookup.js';

/**
 * Deactivating and reactivating the organization (the reference server's do_deactivate_realm and
 * do_reactivate_realm; here only the control API does it). Users are not deactivated: their keys answer
 * REALM_DEACTIVATED, checked before the account (http/auth.ts), until the organization is reactivated.
 */

/**
 * `realm` / deactivated `{realm_id}` to every active user: the reference sends it so that waiting long-polls
 * end (no one can authenticate to poll again). Their queues are left to expire as idle queues do, as the
 * reference leaves them: reactivated within ten minutes, a client polls its queue on.
 */
export function deactivateOrganization(tx: Tx): void {
  const realm = tx.tables.realm.realm;
  if (realm.deactivated === true) throw badRequest('The organization is already deactivated.');
  tx.put('realm', 'realm', { ...realm, deactivated: true });
  tx.emit({ type: 'realm', op: 'deactivated', realm_id: realm.id }, activeUserIds(tx.tables));
}

/** The reference sends no event (no client of the organization can be listening). */
export function reactivateOrganization(tx: Tx): void {
  const { deactivated, ...realm } = tx.tables.realm.realm;
  if (deactivated !== true) throw badRequest('The organization is not deactivated.');
  tx.put('realm', 'realm', realm);
}
