import { rename, stat } from 'node:fs/promises';
import { machineStamp } from '../clock/clock.js';
import { StateDamaged, StateFileUnreadable } from './errors.js';
import { JournalCorruptError, JournalWriter, readJournal } from './journal.js';
import type { Persistence } from './persistence.js';
import { SnapshotFile } from './snapshot.js';
import { ignoreMissing } from './state-lock.js';
import { applyChange, emptyState, type Change, type State } from './state.js';

export interface FilePersistenceOptions {
  /** The lowdb JSON file holding the snapshot; the journal lives next to it as `<path>.journal`. */
  path: string;
  /** 'fsync' (default): acknowledged writes survive power loss. 'write': they survive a process crash. */
  durability?: 'fsync' | 'write';
  /** The journal is compacted once it is larger than this and larger than the last snapshot. */
  compactMinBytes?: number;
  log?: (msg: string) => void;
  /** What the operator should read (a damaged file kept aside); default: `log`. */
  warn?: (msg: string) => void;
  /**
   * A damaged state file or journal (`StateDamaged`) is renamed to `<name>.corrupt-<time>` and the state
   * starts empty (`teamchat serve --reset`). Otherwise loading it throws `StateFileUnreadable`.
   */
  setAsideDamaged?: boolean;
}

/** Counters for tests and benchmarks. */
export interface FilePersistenceStats {
  appends: number;
  journalWrites: number;
  journalBytes: number;
  snapshotWrites: number;
  snapshotBytes: number;
}

export interface FilePersistence extends Persistence {
  readonly stats: Readonly<FilePersistenceStats>;
}

const DEFAULT_COMPACT_MIN_BYTES = 4 * 1024 * 1024;

/**
 * Snapshot plus journal.
 *
 * Every `append` call gets the next sequence number and is queued; one flusher writes everything queued
 * as a single journal line and syncs it, then acknowledges those calls. Calls arriving meanwhile wait for
 * the next flush (group commit), so the number of fsyncs tracks the disk's speed, not the request rate,
 * and a write costs the size of its changes. When the journal outgrows the snapshot, the flusher writes
 * a new snapshot and empties the journal: snapshot bytes are paid for by at least as many journal bytes,
 * so the amortised cost stays O(size of the change) whatever the size of the state.
 *
 * Crash safety rests on three orderings:
 *  1. a call is acknowledged only after its journal line (or a snapshot containing it) is durable;
 *  2. the journal is truncated only after a snapshot covering every line in it is durable, and the
 *     snapshot records that coverage (`journal_seq`), so lines left over by a crash in between are
 *     recognised and skipped instead of being replayed on top of the realms they already shaped;
 *  3. lines are replayed in order, and only a torn last line (never acknowledged) is tolerated.
 */
export function filePersistence(options: FilePersistenceOptions): FilePersistence {
  return new FilePersistenceImpl(options);
}

/** What `load` read: the state, and what it needs to start from a clean snapshot and journal. */
interface Loaded {
  hadSnapshot: boolean;
  state: State;
  snapshotSeq: number;
  lastSeq: number;
  replayed: number;
  /** Journal lines read (replayed or skipped). */
  lines: number;
  tornBytes: number;
}

interface Pending {
  seq: number;
  /** The changes as a JSON array without its brackets, serialised at `append` time. */
  json: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

class FilePersistenceImpl implements FilePersistence {
  readonly description: string;
  readonly stats: FilePersistenceStats = { appends: 0, journalWrites: 0, journalBytes: 0, snapshotWrites: 0, snapshotBytes: 0 };
  readonly #path: string;
  readonly #journalPath: string;
  readonly #snapshot: SnapshotFile;
  readonly #sync: boolean;
  readonly #compactMinBytes: number;
  readonly #log: (msg: string) => void;
  readonly #warn: (msg: string) => void;
  readonly #setAsideDamaged: boolean;
  #journal: JournalWriter | null = null;
  #getState: (() => State) | null = null;
  #loading = false;
  /** The sequence number of the newest `append` call (every change up to it is in the live state). */
  #lastSeq = 0;
  #snapshotSize = 0;
  #queue: Pending[] = [];
  #flusher: Promise<void> | null = null;
  #failure: Error | null = null;
  #closing: Promise<void> | null = null;

  constructor(options: FilePersistenceOptions) {
    this.#path = options.path;
    this.#journalPath = `${options.path}.journal`;
    this.#sync = (options.durability ?? 'fsync') === 'fsync';
    this.#snapshot = new SnapshotFile(options.path, this.#sync);
    this.#compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
    this.#log = options.log ?? (() => {});
    this.#warn = options.warn ?? this.#log;
    this.#setAsideDamaged = options.setAsideDamaged ?? false;
    this.description = `file ${options.path}`;
  }

  async load(): Promise<State> {
    if (this.#loading) throw new Error(`${this.description}: load() may be called once`);
    this.#loading = true;
    let loaded: Loaded;
    try {
      loaded = await this.#read();
    } catch (e) {
      if (!(e instanceof StateDamaged)) throw e;
      if (!this.#setAsideDamaged) throw new StateFileUnreadable(this.#path, e);
      // Kept, not deleted: the damaged file may still hold what someone wants back by hand.
      const stamp = machineStamp();
      const aside = `${this.#path}.corrupt-${stamp}`;
      await rename(this.#path, aside).catch(ignoreMissing);
      await rename(this.#journalPath, `${this.#journalPath}.corrupt-${stamp}`).catch(ignoreMissing);
      this.#warn(`state: ${e.message}; kept it as ${aside} and started afresh (--reset)`);
      loaded = { hadSnapshot: false, state: emptyState(), snapshotSeq: 0, lastSeq: 0, replayed: 0, lines: 0, tornBytes: 0 };
    }
    const { hadSnapshot, state, snapshotSeq, lastSeq, replayed, lines, tornBytes } = loaded;
    this.#lastSeq = lastSeq;
    if (tornBytes > 0) this.#log(`state: dropped ${tornBytes} bytes of an unfinished journal write (never acknowledged)`);

    // Start from a clean pair: the replayed state as the snapshot, then an empty journal. Until the
    // truncation the old lines are all <= lastSeq, so a crash in between just replays nothing.
    if (!hadSnapshot || lines > 0 || tornBytes > 0) {
      this.#snapshotSize = await this.#writeSnapshot(state, lastSeq);
    } else {
      this.#snapshotSize = (await stat(this.#path)).size;
    }
    this.#journal = await JournalWriter.open(this.#journalPath, this.#sync);
    if (this.#journal.size > 0) await this.#journal.truncate();
    this.#log(`state: loaded ${this.#path} (snapshot seq ${snapshotSeq}, ${replayed} journal lines replayed)`);
    return state;
  }

  /** The snapshot with the journal replayed on it; throws `StateDamaged` for what no crash leaves. */
  async #read(): Promise<Loaded> {
    const saved = await this.#snapshot.read();
    const state = saved?.state ?? emptyState();
    const snapshotSeq = saved?.seq ?? 0;
    const { lines, tornBytes } = await readJournal(this.#journalPath);
    let lastSeq = snapshotSeq;
    let replayed = 0;
    for (const [index, line] of lines.entries()) {
      // At or below snapshotSeq: the process died after a snapshot was written but before the journal
      // was emptied. Those changes are in the snapshot; replaying them could resurrect deleted rows.
      if (line.seq <= snapshotSeq) continue;
      for (const change of line.changes) {
        try {
          applyChange(state, change);
        } catch (e) {
          throw new JournalCorruptError(this.#journalPath, index + 1, (e as Error).message);
        }
      }
      lastSeq = line.seq;
      replayed++;
    }
    return { hadSnapshot: saved !== null, state, snapshotSeq, lastSeq, replayed, lines: lines.length, tornBytes };
  }

  attach(getState: () => State): void {
    this.#getState = getState;
  }

  append(changes: readonly Change[]): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing) return Promise.reject(new Error(`${this.description} is closed`));
    if (!this.#journal) return Promise.reject(new Error(`${this.description}: append() before load()`));
    let json: string;
    try {
      json = JSON.stringify(changes).slice(1, -1);
    } catch (e) {
      // The live state now holds a change that can never reach the disk: stop rather than diverge.
      this.#fail(e, []);
      return Promise.reject(this.#failure);
    }
    const seq = ++this.#lastSeq;
    this.stats.appends++;
    const done = new Promise<void>((resolve, reject) => this.#queue.push({ seq, json, resolve, reject }));
    this.#flusher ??= this.#flushLoop();
    return done;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    while (this.#flusher) await this.#flusher;
    const journal = this.#journal;
    if (!journal) return;
    try {
      if (!this.#failure && this.#getState && journal.size > 0) await this.#compact();
    } finally {
      this.#journal = null;
      await journal.close();
    }
  }

  async #flushLoop(): Promise<void> {
    // Yield once so that calls made in the same tick share the first write, and so that this promise is
    // stored in #flusher before the loop can finish and clear it.
    await null;
    try {
      while (this.#queue.length > 0 && !this.#failure) {
        const batch = this.#queue.splice(0);
        try {
          await this.#writeBatch(batch);
        } catch (e) {
          this.#fail(e, batch);
          return;
        }
        for (const pending of batch) pending.resolve();
        if (this.#getState && this.#journal!.size > Math.max(this.#compactMinBytes, this.#snapshotSize)) {
          try {
            await this.#compact();
          } catch (e) {
            this.#fail(e, []);
            return;
          }
        }
      }
    } finally {
      this.#flusher = null;
    }
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    const parts = batch.filter((p) => p.json.length > 0).map((p) => p.json);
    if (parts.length === 0) return; // only empty transactions: nothing to make durable
    // The line carries the batch's last sequence number: lines never straddle a snapshot (compaction
    // runs between flushes and takes queued calls with it), so one number per line is enough.
    const line = `{"seq":${batch[batch.length - 1]!.seq},"changes":[${parts.join(',')}]}\n`;
    this.stats.journalBytes += await this.#journal!.append(line);
    this.stats.journalWrites++;
  }

  /** Runs only inside the flusher or at close, so no journal write is in progress. */
  async #compact(): Promise<void> {
    // The live state already includes every call up to #lastSeq, journaled or still queued, and the
    // snapshot serialises it synchronously: the seq recorded is exact.
    const seq = this.#lastSeq;
    this.#snapshotSize = await this.#writeSnapshot(this.#getState!(), seq);
    // Queued calls up to `seq` are durable inside the snapshot: acknowledge them without journaling
    // (they sit at the head of the queue; later ones stay queued for the next line).
    let covered = 0;
    while (covered < this.#queue.length && this.#queue[covered]!.seq <= seq) covered++;
    for (const pending of this.#queue.splice(0, covered)) pending.resolve();
    // Only now may the lines go: every one of them is <= seq and thus in the durable snapshot.
    await this.#journal!.truncate();
  }

  async #writeSnapshot(state: State, seq: number): Promise<number> {
    const size = await this.#snapshot.write(state, seq);
    this.stats.snapshotWrites++;
    this.stats.snapshotBytes += size;
    return size;
  }

  /** Fail-stop: after one failed write nothing is acknowledged again, so no answer overstates durability. */
  #fail(error: unknown, batch: Pending[]): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    this.#failure ??= failure;
    this.#log(`state: writing ${this.#path} failed, refusing further writes: ${failure.message}`);
    for (const pending of [...batch, ...this.#queue.splice(0)]) pending.reject(failure);
  }
}
