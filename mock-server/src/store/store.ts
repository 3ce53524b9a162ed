import type { ClientView } from '../contract/client-view.js';
import type { EmittedEvent } from '../contract/event-types.js';
import { StateWriteFailed } from './errors.js';
import { keepIndex, keptIndex } from './indexes.js';
import type { Persistence } from './persistence.js';
import { shareEmptyLists, shareFlags, shareRealmValues } from './shared-values.js';
import {
  applyChange,
  type Change,
  type MessageRow,
  type RealmState,
  type RowOf,
  type Sequence,
  type State,
  type TableName,
  type UserMessagesRow,
  TABLE_NAMES,
} from './state.js';

/** An event produced by a transaction, delivered only after the change is durable (ARCHITECTURE §3). */
export interface PendingEvent {
  /** A described event (contract/event-types.ts): a wrong or missing field does not compile. */
  event: EmittedEvent;
  /** Who may receive it; the event system filters further per queue. */
  userIds: number[];
  /** Optional per-client variant (capability effects specific to this event); null drops it. */
  shape?: (client: ClientView) => PendingEvent['event'] | PendingEvent['event'][] | null;
}

/** What a transaction function sees: the realm's tables (read) and the only ways to change them. */
export interface Tx {
  readonly realmId: string;
  readonly tables: RealmState;
  get<T extends TableName>(table: T, key: string | number): RowOf<T> | undefined;
  put<T extends TableName>(table: T, key: string | number, row: RowOf<T>): void;
  delete(table: TableName, key: string | number): void;
  /** Takes the next ID of a sequence (IDs are never reused, even after a rollback is retried). */
  nextId(sequence: Sequence): number;
  emit(event: PendingEvent['event'], userIds: number[], shape?: PendingEvent['shape']): void;
}

const DURABLE: Promise<void> = Promise.resolve();

export type ChangeWatcher = (change: Change, previous: unknown) => void;

/**
 * The live state and its transactions.
 *
 * A transaction function runs synchronously on the live state, so transactions never interleave and
 * need no lock. Each change goes through `#apply`, which records the previous row: if the function
 * throws, the undo entries are applied in reverse and the state is exactly as before ("a failing
 * request changes nothing"). On success the changes go to persistence, and the caller is answered only
 * once they are durable. Cost per transaction is the size of its changes, never the size of the state.
 */
export class Store {
  #state: State;
  #watchers: ChangeWatcher[] = [];
  #lastWrite: Promise<void> = Promise.resolve();
  #broken = false;
  #onCommit: ((realmId: string, events: PendingEvent[], seq: number) => void) | null = null;
  /** Sequence number of the last transaction applied to the live state (durable or not yet). */
  #appliedSeq = 0;
  /** Writes handed to persistence (transactions with changes, realm replacements), and how many are durable. */
  #writes = 0;
  #durableWrites = 0;
  /** The writes not yet durable, in mark order (marks are consecutive). */
  #inFlight: { mark: number; write: Promise<void> }[] = [];
  /**
   * Every applied change takes the next number of one store-wide counter as its realm's version, so a realm
   * replaced (reset, restored, deleted and created again) never shows a version it had before.
   */
  #changeCount = 0;
  #versions = new Map<string, number>();

  private constructor(
    state: State,
    private readonly persistence: Persistence,
  ) {
    this.#state = state;
    for (const realm of Object.values(state.realms)) this.#keep(realm);
  }

  static async open(persistence: Persistence): Promise<Store> {
    const state = await persistence.load();
    const store = new Store(state, persistence);
    persistence.attach(() => store.#state);
    return store;
  }

  get description(): string {
    return this.persistence.description;
  }

  /** Read access to the whole state. Callers must not mutate it: use `transact`. */
  get state(): Readonly<State> {
    return this.#state;
  }

  realm(realmId: string): RealmState | undefined {
    return this.#state.realms[realmId];
  }

  realmIds(): string[] {
    return Object.keys(this.#state.realms);
  }

  /** Indexes (API keys, …) follow every applied change, forward or undo. */
  watch(watcher: ChangeWatcher): void {
    this.#watchers.push(watcher);
  }

  /**
   * Where committed events go (the event dispatcher), with the transaction's sequence number, so a
   * queue whose register snapshot already shows a change does not get that change's event again.
   */
  onCommit(fn: (realmId: string, events: PendingEvent[], seq: number) => void): void {
    this.#onCommit = fn;
  }

  /**
   * A number that changes with every change applied to the realm (a rolled-back one included) and is never
   * reused, also across a replacement of the realm: whatever is built from the realm's rows alone at one
   * version is the same at any later time the realm has that version (http/answer-cache.ts).
   */
  versionOf(realmId: string): number {
    return this.#versions.get(realmId) ?? 0;
  }

  /** The sequence number of the newest transaction the live state (and so any snapshot) includes. */
  get appliedSeq(): number {
    return this.#appliedSeq;
  }

  /**
   * Runs `fn` as one transaction of one realm. Resolves with its result once the change is durable;
   * rejects with whatever `fn` threw (after rolling back), or with STATE_WRITE_FAILED.
   */
  async transact<T>(realmId: string, fn: (tx: Tx) => T): Promise<T> {
    const { result, changes, events } = this.#run(realmId, fn);
    const seq = ++this.#appliedSeq;
    // A transaction without changes still waits for the writes before it, so events keep commit order.
    if (changes.length > 0) await this.#persist(changes);
    else await this.#lastWrite;
    if (events.length > 0) this.#onCommit?.(realmId, events, seq);
    return result;
  }

  /** Creates, replaces (reset, snapshot restore) or removes a whole realm, durably. */
  async replaceRealm(realmId: string, realm: RealmState | null): Promise<void> {
    if (this.#broken) throw new StateWriteFailed();
    const change: Change = { realm: realmId, table: null, key: null, row: realm };
    this.#apply(change);
    await this.#persist([change]);
  }

  /** A mark of the writes applied so far, for `durableThrough`. */
  get writeMark(): number {
    return this.#writes;
  }

  /**
   * Resolves once every write up to `mark` is durable: at once when they already are. Every answer waits on
   * it, so none shows data that a crash could still take back; a write's answer, built from its own
   * transaction, does not wait for the writes that arrived after it.
   */
  durableThrough(mark: number): Promise<void> {
    if (mark <= this.#durableWrites) return DURABLE;
    const first = this.#inFlight[0];
    return first ? (this.#inFlight[mark - first.mark]?.write ?? this.#lastWrite) : this.#lastWrite;
  }

  async close(): Promise<void> {
    await this.#lastWrite.catch(() => {});
    await this.persistence.close();
  }

  #run<T>(realmId: string, fn: (tx: Tx) => T): { result: T; changes: Change[]; events: PendingEvent[] } {
    if (this.#broken) throw new StateWriteFailed();
    const tables = this.#state.realms[realmId];
    if (!tables) throw new Error(`transaction on unknown realm ${realmId}`);
    const changes: Change[] = [];
    const undo: Change[] = [];
    const events: PendingEvent[] = [];
    const write = (table: TableName, key: string, row: unknown) => {
      const change: Change = { realm: realmId, table, key, row };
      const previous = this.#apply(change);
      undo.push({ realm: realmId, table, key, row: previous === undefined ? null : previous });
      changes.push(change);
    };
    const tx: Tx = {
      realmId,
      tables,
      get: (table, key) => (tables[table] as Record<string, never>)[String(key)],
      put: (table, key, row) => write(table, String(key), row),
      delete: (table, key) => write(table, String(key), null),
      nextId: (sequence) => {
        const counters = tables.counters.counters;
        const id = counters[sequence] ?? 1;
        write('counters', 'counters', { ...counters, [sequence]: id + 1 });
        return id;
      },
      emit: (event, userIds, shape) => events.push(shape ? { event, userIds, shape } : { event, userIds }),
    };
    try {
      const result = fn(tx);
      if (result instanceof Promise) throw new Error('transaction functions must be synchronous');
      return { result, changes, events };
    } catch (error) {
      for (const change of undo.reverse()) this.#apply(change);
      throw error;
    }
  }

  /**
   * Applies one change, keeps the realm's indexes in step (store/indexes.ts) and tells the watchers;
   * returns the row it replaced. Undo entries come through here too, so a rollback restores the indexes.
   */
  #apply(change: Change): unknown {
    const realm = this.#state.realms[change.realm];
    const previous = change.table === null ? realm : (realm?.[change.table] as Record<string, unknown> | undefined)?.[change.key];
    if (change.table === 'user_messages' && change.row !== null) shareFlags(change.row as UserMessagesRow);
    if (change.table === 'messages' && change.row !== null) shareEmptyLists(change.row as MessageRow);
    applyChange(this.#state, change);
    // A removed realm keeps no number: whatever creates it again is a change that takes a new one.
    if (change.table === null && change.row === null) this.#versions.delete(change.realm);
    else this.#versions.set(change.realm, ++this.#changeCount);
    if (change.table === null) {
      if (change.row !== null) this.#keep(change.row);
    } else if (realm) {
      keptIndex(realm)?.update(change.table, change.key, previous, change.row);
    }
    for (const watcher of this.#watchers) watcher(change, previous);
    return previous;
  }

  /** A realm enters the store (loaded, created, replaced): its indexes start from its rows. */
  #keep(realm: RealmState): void {
    // Realms of older state files or exports lack the tables added since: they start empty.
    for (const table of TABLE_NAMES) (realm as unknown as Record<string, object>)[table] ??= {};
    shareRealmValues(realm);
    keepIndex(realm);
  }

  #persist(changes: Change[]): Promise<void> {
    const mark = ++this.#writes;
    const write = this.persistence.append(changes).then(
      // Journal lines become durable in order: this write's durability covers every earlier one.
      () => {
        if (mark > this.#durableWrites) this.#durableWrites = mark;
        while (this.#inFlight.length > 0 && this.#inFlight[0]!.mark <= this.#durableWrites) this.#inFlight.shift();
      },
      (error: unknown) => {
        // Fail-stop: the live state now holds changes that are not on disk, so accept no more writes.
        this.#broken = true;
        console.error('teamchat-kit: state write failed:', error);
        throw new StateWriteFailed({ cause: error });
      },
    );
    this.#inFlight.push({ mark, write });
    this.#lastWrite = write;
    return write;
  }
}
