import type { Clock } from '../clock/clock.js';

/** The longest silence the control API sets (an hour of realm time): a forgotten one ends by itself. */
export const MAX_SILENCE_SECONDS = 3600;

interface Silence {
  /** Realm time (seconds, with a fraction) at which it ends. */
  until: number;
  cancel: () => void;
}

/**
 * Silent networks (control API `silence`): while one covers a queue, its long-polls get no answer and no
 * heartbeat; events stay queued. Kept per realm, for the whole realm (`null`) or one user. Each ends by a
 * timer on the realm clock, so advancing the realm's time past it ends it too; `onEnd` then answers the
 * waiting polls that have events. The registry owns this (its timers go with `clear` and `clearAll`).
 */
export class Silences {
  #byRealm = new Map<string, Map<number | null, Silence>>();

  constructor(
    private readonly clock: Clock,
    private readonly onEnd: (realmId: string, userId: number | null) => void,
  ) {}

  /** Zero cost when unused: one map lookup. */
  covers(realmId: string, userId: number): boolean {
    const realm = this.#byRealm.get(realmId);
    return realm !== undefined && (realm.has(null) || realm.has(userId));
  }

  /** Starts (or replaces) a silence; returns its end in realm time. */
  start(realmId: string, userId: number | null, seconds: number): number {
    this.#end(realmId, userId, false);
    const until = this.clock.realmNowMs(realmId) / 1000 + seconds;
    const cancel = this.clock.setTimer(realmId, until, () => this.#end(realmId, userId, true));
    const realm = this.#byRealm.get(realmId) ?? new Map<number | null, Silence>();
    realm.set(userId, { until, cancel });
    this.#byRealm.set(realmId, realm);
    return until;
  }

  /** Lifts one user's silence, or (userId null) every silence of the realm; the waiting polls are answered. */
  lift(realmId: string, userId: number | null): void {
    if (userId !== null) return this.#end(realmId, userId, true);
    for (const key of [...(this.#byRealm.get(realmId)?.keys() ?? [])]) this.#end(realmId, key, true);
  }

  /** A realm reset, restored or deleted: its silences go without answering anyone (its queues end anyway). */
  clear(realmId: string): void {
    for (const silence of this.#byRealm.get(realmId)?.values() ?? []) silence.cancel();
    this.#byRealm.delete(realmId);
  }

  clearAll(): void {
    for (const realmId of [...this.#byRealm.keys()]) this.clear(realmId);
  }

  /** The realm's silences: who (null: everyone) and until when (realm time). */
  list(realmId: string): { user_id: number | null; until: number }[] {
    return [...(this.#byRealm.get(realmId)?.entries() ?? [])].map(([userId, s]) => ({ user_id: userId, until: s.until }));
  }

  #end(realmId: string, userId: number | null, notify: boolean): void {
    const realm = this.#byRealm.get(realmId);
    const silence = realm?.get(userId);
    if (!realm || !silence) return;
    silence.cancel();
    realm.delete(userId);
    if (realm.size === 0) this.#byRealm.delete(realmId);
    if (notify) this.onEnd(realmId, userId);
  }
}
