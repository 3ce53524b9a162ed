import { badRequest, snapshotNameTooLong, snapshotNotFound, tooManySnapshots } from '../domain/errors.js';
import type { RealmState } from '../store/state.js';

/** Named snapshots per realm (each a full copy of the realm in memory) and the length of a name. */
export const MAX_SNAPSHOTS_PER_REALM = 20;
export const MAX_SNAPSHOT_NAME = 64;

/**
 * The named snapshots of every realm, in memory for the life of the process (a test-run tool, not
 * realm data); `Control` owns one and drops a realm's with the realm.
 */
export class Snapshots {
  #byRealm = new Map<string, Map<string, RealmState>>();

  save(realmId: string, name: string, tables: RealmState): void {
    if (!name) throw badRequest('A snapshot needs a name.');
    if (name.length > MAX_SNAPSHOT_NAME) throw snapshotNameTooLong(MAX_SNAPSHOT_NAME);
    const byName = this.#byRealm.get(realmId) ?? new Map<string, RealmState>();
    // A known name is replaced; a new one beyond the cap is refused before anything is copied.
    if (!byName.has(name) && byName.size >= MAX_SNAPSHOTS_PER_REALM) throw tooManySnapshots(MAX_SNAPSHOTS_PER_REALM);
    byName.set(name, structuredClone(tables));
    this.#byRealm.set(realmId, byName);
  }

  names(realmId: string): string[] {
    return [...(this.#byRealm.get(realmId)?.keys() ?? [])];
  }

  /** A copy of the snapshot, to install as the realm. */
  copy(realmId: string, name: string): RealmState {
    const snapshot = this.#byRealm.get(realmId)?.get(name);
    if (!snapshot) throw snapshotNotFound(realmId, name);
    return structuredClone(snapshot);
  }

  delete(realmId: string, name: string): void {
    if (!this.#byRealm.get(realmId)?.delete(name)) throw snapshotNotFound(realmId, name);
  }

  dropRealm(realmId: string): void {
    this.#byRealm.delete(realmId);
  }
}
