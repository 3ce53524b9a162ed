import { realmTables } from './checks.js';
import type { AppContext } from '../app-context.js';
import { features } from '../config/features.js';
import type { EmitContext } from '../domain/channels/events.js';
import { badRequest } from '../domain/errors.js';
import { deactivateOrganization, reactivateOrganization } from '../domain/organization.js';
import { reactivateAccount, regenerateApiKey } from '../domain/users/account-control.js';
import { deactivateAccount, refuseOnlyOwner } from '../domain/users/deactivate.js';
import { targetUser } from '../domain/users/lookup.js';
import { MAX_SILENCE_SECONDS } from '../events/silences.js';
import type { Tx } from '../store/store.js';
import type { RealmState, UserRow } from '../store/state.js';

/**
 * What a real server does to its clients on a bad day, on demand (control API, docs/control-api.md "Server-side
 * events"): a restart of the event queues, an account or the whole organization deactivated and back, a
 * regenerated API key, a silent network. Each goes through the same domain actions, transactions and event
 * delivery as the API, without a caller's permission check (the developer asks).
 */

/** An account as the control API lists it (`GET …/credentials`). */
export interface Credential {
  user_id: number;
  email: string;
  api_key: string;
  full_name: string;
  role: number;
  is_bot: boolean;
  is_active: boolean;
}

export const credentialOf = (u: UserRow): Credential => ({
  user_id: u.user_id,
  email: u.email,
  api_key: u.api_key,
  full_name: u.full_name,
  role: u.role,
  is_bot: u.is_bot,
  is_active: u.is_active,
});

export interface RestartResult {
  realm_id: string;
  /** null: every user's queues. */
  user_id: number | null;
  /** How many queues ended. */
  queues: number;
}

export interface RealmActivation {
  realm_id: string;
  deactivated: boolean;
}

export interface SilenceResult {
  realm_id: string;
  /** null: the whole realm. */
  user_id: number | null;
  /** Realm time (seconds, with a fraction) at which it ends; null: lifted. */
  until: number | null;
  /** Every silence of the realm now. */
  silences: { user_id: number | null; until: number }[];
}

/**
 * Drops the realm's event queues, or one user's, as a server restart that loses them does: a long-poll waiting
 * on one is answered with what the queue holds (the reference finishes a queue's waiting handler before it
 * drops the queue), and the next poll gets BAD_EVENT_QUEUE_ID, so the client registers again.
 */
export function restartQueues(app: AppContext, realmId: string, options: { user_id?: number | undefined } = {}): RestartResult {
  const tables = realmTables(app.store, realmId);
  const userId = options.user_id === undefined ? null : anyUser(tables, options.user_id).user_id;
  const queues = userId === null ? app.queues.dropRealm(realmId, true) : app.queues.dropUser(realmId, userId, true);
  return { realm_id: realmId, user_id: userId, queues };
}

/**
 * What DELETE /users/{user_id} does once allowed: the account (with its bots, for a human) is deactivated, the
 * others hear of it, its queues end, and its next request answers USER_DEACTIVATED. A bot may be named too
 * (the API's own route takes humans only). The only owner is refused as the API refuses it, so the control
 * API never makes a realm the API could not reach.
 */
export async function deactivateUser(app: AppContext, realmId: string, userId: number): Promise<Credential> {
  realmTables(app.store, realmId);
  return app.store.transact(realmId, (tx) => {
    const target = targetUser(tx.tables, userId, { bots: true, deactivated: false });
    refuseOnlyOwner(tx, target);
    deactivateAccount(emitContext(app, realmId, tx), target);
    return credentialOf(tx.tables.users[String(userId)]!);
  });
}

/** The reverse: the account authenticates again and the others hear of it (domain/users/account-control.ts). */
export async function reactivateUser(app: AppContext, realmId: string, userId: number): Promise<Credential> {
  realmTables(app.store, realmId);
  return app.store.transact(realmId, (tx) => {
    reactivateAccount(emitContext(app, realmId, tx), anyUser(tx.tables, userId));
    return credentialOf(tx.tables.users[String(userId)]!);
  });
}

/** A new key for the account (answered); the old one answers INVALID_API_KEY from now on. */
export async function rotateApiKey(app: AppContext, realmId: string, userId: number): Promise<Credential> {
  realmTables(app.store, realmId);
  return app.store.transact(realmId, (tx) => credentialOf(regenerateApiKey(tx, anyUser(tx.tables, userId))));
}

export async function deactivateRealm(app: AppContext, realmId: string): Promise<RealmActivation> {
  realmTables(app.store, realmId);
  await app.store.transact(realmId, (tx) => deactivateOrganization(tx));
  return { realm_id: realmId, deactivated: true };
}

export async function reactivateRealm(app: AppContext, realmId: string): Promise<RealmActivation> {
  realmTables(app.store, realmId);
  await app.store.transact(realmId, (tx) => reactivateOrganization(tx));
  return { realm_id: realmId, deactivated: false };
}

/**
 * A silent network for `seconds` of realm time (0 lifts it: without user_id every silence of the realm): the
 * long-polls of the realm, or of one user, get neither events nor heartbeats, and events wait in their queues.
 * Other requests are answered as usual; a poll with dont_block too (it is not held open).
 */
export function silence(app: AppContext, realmId: string, options: { seconds: number; user_id?: number | undefined }): SilenceResult {
  const tables = realmTables(app.store, realmId);
  const { seconds } = options;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SILENCE_SECONDS) {
    throw badRequest(`seconds must be a number from 0 to ${MAX_SILENCE_SECONDS}.`);
  }
  const userId = options.user_id === undefined ? null : anyUser(tables, options.user_id).user_id;
  const { silences } = app.queues;
  let until: number | null = null;
  if (seconds === 0) silences.lift(realmId, userId);
  else until = silences.start(realmId, userId, seconds);
  return { realm_id: realmId, user_id: userId, until, silences: silences.list(realmId) };
}

/** Any account of the realm, bots and deactivated ones included; unknown (or the system bot): `No such user`. */
function anyUser(tables: Pick<RealmState, 'users'>, userId: number): UserRow {
  if (!Number.isSafeInteger(userId)) throw badRequest('user_id is not an integer');
  return targetUser(tables, userId, { bots: true, deactivated: true });
}

function emitContext(app: AppContext, realmId: string, tx: Tx): EmitContext {
  return { tx, features: features(tx.tables.realm.realm.feature_level), now: app.clock.now(realmId) };
}
