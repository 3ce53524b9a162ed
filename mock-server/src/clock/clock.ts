/**
 * The injected clock (ARCHITECTURE.md §1.5): the only place that reads the machine's time.
 *
 * Time is per realm: realm time = server time + the realm's `clock_offset`. Isolated realms therefore
 * move through time independently, so a conformance scenario that advances its realm's clock by ten
 * minutes (to expire an event queue, §6.2) does not disturb scenarios running in other realms.
 *
 * The server time either follows the machine (`system`) or stands still until advanced (`frozen`,
 * for deterministic tests). Timers are set in realm time; they fire when that realm's time reaches
 * them, whether because real time passed or because the control API advanced the clock.
 */
export type ClockMode = 'system' | 'frozen';

interface Timer {
  id: number;
  realmId: string;
  /** Realm time in milliseconds at which the timer is due. */
  dueMs: number;
  fn: () => void;
  handle: NodeJS.Timeout | null;
}

export class Clock {
  #mode: ClockMode;
  /** Frozen mode: the server time. System mode: a shift added to the machine's time. */
  #baseMs: number;
  #timers = new Map<number, Timer>();
  #nextTimerId = 1;
  #offsetOf: (realmId: string) => number = () => 0;

  constructor(mode: ClockMode = 'system', startSeconds?: number) {
    this.#mode = mode;
    const machine = Date.now();
    this.#baseMs = mode === 'frozen' ? (startSeconds ?? Math.floor(machine / 1000)) * 1000 : 0;
    if (mode === 'system' && startSeconds !== undefined) this.#baseMs = startSeconds * 1000 - machine;
  }

  get mode(): ClockMode {
    return this.#mode;
  }

  /** Tells the clock how to find a realm's offset (the offset lives in the realm's persisted row). */
  resolveOffsetsWith(fn: (realmId: string) => number): void {
    this.#offsetOf = fn;
  }

  serverNowMs(): number {
    return this.#mode === 'frozen' ? this.#baseMs : Date.now() + this.#baseMs;
  }

  /** Server time in whole seconds (spec §1: timestamps are integer UNIX seconds). */
  serverNow(): number {
    return Math.floor(this.serverNowMs() / 1000);
  }

  realmNowMs(realmId: string): number {
    return this.serverNowMs() + this.#offsetOf(realmId) * 1000;
  }

  /** A realm's time in whole seconds. */
  now(realmId: string): number {
    return Math.floor(this.realmNowMs(realmId) / 1000);
  }

  /** Moves the server time forward for every realm (frozen or system mode alike), then fires due timers. */
  advanceServer(seconds: number): void {
    this.#baseMs += seconds * 1000;
    this.fireDue();
  }

  /**
   * Runs a function when the realm's time reaches `dueSeconds`. Returns a cancel function.
   * Used by event queues (heartbeats, expiry) and scheduled deliveries.
   */
  setTimer(realmId: string, dueSeconds: number, fn: () => void): () => void {
    const timer: Timer = { id: this.#nextTimerId++, realmId, dueMs: dueSeconds * 1000, fn, handle: null };
    this.#timers.set(timer.id, timer);
    this.#arm(timer);
    return () => this.#cancel(timer);
  }

  /** Runs a function after `seconds` of the realm's time. */
  setTimeout(realmId: string, seconds: number, fn: () => void): () => void {
    return this.setTimer(realmId, this.realmNowMs(realmId) / 1000 + seconds, fn);
  }

  /** Fires every timer whose realm time has come, in due order (after a realm's offset changed). */
  fireDue(realmId?: string): void {
    const due = [...this.#timers.values()]
      .filter((t) => (realmId === undefined || t.realmId === realmId) && t.dueMs <= this.realmNowMs(t.realmId))
      .sort((a, b) => a.dueMs - b.dueMs || a.id - b.id);
    for (const timer of due) {
      if (!this.#timers.has(timer.id)) continue; // cancelled by an earlier callback
      this.#cancel(timer);
      run(timer);
    }
    // Timers not yet due may now be due sooner in real time: re-arm them.
    for (const timer of this.#timers.values()) if (realmId === undefined || timer.realmId === realmId) this.#arm(timer);
  }

  /** Cancels every timer (server shutdown). */
  stop(): void {
    for (const timer of [...this.#timers.values()]) this.#cancel(timer);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  #arm(timer: Timer): void {
    if (timer.handle) clearTimeout(timer.handle);
    timer.handle = null;
    if (this.#mode === 'frozen') return; // frozen time only moves when advanced
    const delay = Math.max(0, timer.dueMs - this.realmNowMs(timer.realmId));
    // Node caps timeouts at ~24.8 days; a longer wait simply re-arms when it fires early.
    timer.handle = setTimeout(() => this.#onRealTimeout(timer), Math.min(delay, 2 ** 31 - 1));
    timer.handle.unref();
  }

  #onRealTimeout(timer: Timer): void {
    if (!this.#timers.has(timer.id)) return;
    if (timer.dueMs > this.realmNowMs(timer.realmId)) return this.#arm(timer);
    this.#cancel(timer);
    run(timer);
  }

  #cancel(timer: Timer): void {
    if (timer.handle) clearTimeout(timer.handle);
    this.#timers.delete(timer.id);
  }
}

/**
 * A timer's function (a heartbeat, a queue's expiry, a scheduled delivery) runs in Node's timer or in the
 * control call that moved time: a throw would be uncaught there, or cut the other due timers short and fail
 * an unrelated request. It is logged (it is a bug) and the other timers run.
 */
function run(timer: Timer): void {
  try {
    timer.fn();
  } catch (error) {
    console.error(`teamchat-kit: a timer of realm '${timer.realmId}' failed (this is a bug):`, error);
  }
}

/** The machine's time, for file times outside any realm (the product cache's "last used", config/cache.ts). */
export function machineTime(): Date {
  return new Date();
}

/** The machine's time for a file name (`state.json.corrupt-2026-11-27T09-12-00-000Z`): sorts, and has no `:`. */
export function machineStamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}
