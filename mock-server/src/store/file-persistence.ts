import { stat } from 'node:fs/promises';
import { JournalWriter } from './journal.js';
import type { Persistence } from './persistence.js';
import { Recovery } from './recovery.js';
import { Compaction, snapshotNow } from './compaction.js';
import { SnapshotFile } from './snapshot.js';
import { SnapshotText } from './snapshot-text.js';
import type { Change, State } from './state.js';

export interface FilePersistenceOptions {
  /** The lowdb JSON file holding the snapshot; the journal lives next to it as `<path>.journal`. */
  path: string;
  /** 'fsync' (default): acknowledged writes survive power loss. 'write': they survive a process crash. */
  durability?: 'fsync' | 'write';
  /** The journal is compacted once it is larger than this and larger than the last snapshot. */
  compactMinBytes?: number;
  /**
   * A snapshot at least this large (as the last one or the journal was) is written while appends go on; a
   * smaller one is written at once, holding appends up for about as long as the finish of a concurrent one
   * would (both wait for the same flushes, see snapshot.ts). Default 256 KiB; 0: always alongside appends.
   */
  concurrentSnapshotMinBytes?: number;
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
  /** Journal lines written while a snapshot was being written (carried in its tail). */
  tailLines: number;
}

export interface FilePersistence extends Persistence {
  readonly stats: Readonly<FilePersistenceStats>;
  /** Resolves once no journal write and no compaction is under way (close waits for it too). */
  settled(): Promise<void>;
}

const DEFAULT_COMPACT_MIN_BYTES = 4 * 1024 * 1024;
const DEFAULT_CONCURRENT_SNAPSHOT_MIN_BYTES = 256 * 1024;

/**
 * Snapshot plus journal.
 *
 * Every `append` call gets the next sequence number and is queued; one flusher writes everything queued
 * as a single journal line and syncs it, then acknowledges those calls at once. Calls arriving meanwhile
 * form the next line, written as soon as the previous one is durable (group commit), so the number of
 * fsyncs tracks the disk's speed, not the request rate, and a write costs the size of its changes.
 *
 * When the journal outgrows the snapshot, a compaction writes a new snapshot and empties the journal:
 * snapshot bytes are paid for by at least as many journal bytes, so the amortised cost stays O(size of the
 * change) whatever the size of the state. A snapshot of at least `concurrentSnapshotMinBytes` is written
 * alongside appends; only its last step holds them up (compaction.ts).
 *
 * Crash safety rests on three orderings:
 *  1. a call is acknowledged only after its journal line (or a snapshot containing it) is durable;
 *  2. the journal is truncated only after a snapshot covering every line in it is durable, and the
 *     snapshot records that coverage (`journal_seq`), so lines left over by a crash in between are
 *     recognised and skipped instead of being replayed on top of the realms they already shaped;
 *  3. lines are replayed in order (a snapshot's tail, then the journal's lines above `journal_seq`), and
 *     only a torn last journal line (never acknowledged) is tolerated.
 */
export function filePersistence(options: FilePersistenceOptions): FilePersistence {
  return new FilePersistenceImpl(options);
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
  readonly stats: FilePersistenceStats = {
    appends: 0,
    journalWrites: 0,
    journalBytes: 0,
    snapshotWrites: 0,
    snapshotBytes: 0,
    tailLines: 0,
  };
  readonly #path: string;
  readonly #journalPath: string;
  readonly #snapshot: SnapshotFile;
  readonly #text = new SnapshotText();
  readonly #sync: boolean;
  readonly #compactMinBytes: number;
  readonly #concurrentMinBytes: number;
  readonly #log: (msg: string) => void;
  readonly #recovery: Recovery;
  #journal: JournalWriter | null = null;
  #getState: (() => State) | null = null;
  #loading = false;
  /** The sequence number of the newest `append` call (every change up to it is in the live state). */
  #lastSeq = 0;
  /** The sequence number of the last journal line written. */
  #writtenSeq = 0;
  #snapshotSize = 0;
  #queue: Pending[] = [];
  #flusher: Promise<void> | null = null;
  #compaction: Compaction | null = null;
  #failure: Error | null = null;
  #closing: Promise<void> | null = null;

  constructor(options: FilePersistenceOptions) {
    this.#path = options.path;
    this.#journalPath = `${options.path}.journal`;
    this.#sync = (options.durability ?? 'fsync') === 'fsync';
    this.#snapshot = new SnapshotFile(options.path, this.#sync);
    this.#compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
    this.#concurrentMinBytes = options.concurrentSnapshotMinBytes ?? DEFAULT_CONCURRENT_SNAPSHOT_MIN_BYTES;
    this.#log = options.log ?? (() => {});
    this.#recovery = new Recovery(this.#snapshot, this.#journalPath, {
      log: this.#log,
      warn: options.warn ?? this.#log,
      setAsideDamaged: options.setAsideDamaged ?? false,
    });
    this.description = `file ${options.path}`;
  }

  async load(): Promise<State> {
    if (this.#loading) throw new Error(`${this.description}: load() may be called once`);
    this.#loading = true;
    const { hadSnapshot, state, snapshotSeq, lastSeq, replayed, lines, tornBytes } = await this.#recovery.read();
    this.#lastSeq = this.#writtenSeq = lastSeq;
    // Start from a clean pair: the replayed state as the snapshot, then an empty journal. Until the
    // truncation the old lines are all <= lastSeq, so a crash in between just replays nothing.
    if (!hadSnapshot || lines > 0 || tornBytes > 0) {
      this.#snapshotSize = await this.#snapshotNow(state);
    } else {
      this.#snapshotSize = (await stat(this.#path)).size;
    }
    this.#journal = await JournalWriter.open(this.#journalPath, this.#sync);
    if (this.#journal.size > 0) await this.#journal.truncate();
    this.#log(`state: loaded ${this.#path} (snapshot seq ${snapshotSeq}, ${replayed} journal lines replayed)`);
    return state;
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
    this.#text.changed(changes);
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

  async settled(): Promise<void> {
    while (this.#flusher || this.#compaction) await (this.#flusher ?? this.#compaction!.settled);
  }

  async #close(): Promise<void> {
    await this.settled();
    const journal = this.#journal;
    if (!journal) return;
    try {
      if (!this.#failure && this.#getState && journal.size > 0) {
        this.#snapshotSize = await this.#snapshotNow(this.#getState());
        await journal.truncate();
      }
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
      while (!this.#failure && (this.#queue.length > 0 || this.#compaction?.bodyDone)) {
        if (this.#compaction?.bodyDone) {
          await this.#finishCompaction(this.#compaction);
          continue;
        }
        // No await between a capture (below, at the end of the previous turn) and this splice: the calls
        // taken here are exactly those the captured state includes beyond the journal, so this line's
        // sequence number is the capture's and every later line is above it.
        const batch = this.#queue.splice(0);
        try {
          await this.#writeBatch(batch);
        } catch (e) {
          this.#fail(e, batch);
          return;
        }
        // A compaction that failed meanwhile stopped everything: nothing is acknowledged after a failure.
        if (this.#failure) return void this.#rejectAll(batch, this.#failure);
        for (const pending of batch) pending.resolve();
        if (!this.#compaction && this.#getState && this.#journal!.size > Math.max(this.#compactMinBytes, this.#snapshotSize)) {
          await this.#startCompaction();
        }
      }
    } catch (e) {
      this.#fail(e, []);
    } finally {
      this.#flusher = null;
    }
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    const parts = batch.filter((p) => p.json.length > 0).map((p) => p.json);
    if (parts.length === 0) return; // only empty transactions: nothing to make durable
    // The line carries the batch's last sequence number: a line never holds calls from both sides of a
    // capture (see #flushLoop), so one number per line is enough.
    const seq = batch[batch.length - 1]!.seq;
    const line = `{"seq":${seq},"changes":[${parts.join(',')}]}`;
    this.stats.journalBytes += await this.#journal!.append(`${line}\n`);
    this.stats.journalWrites++;
    this.#writtenSeq = seq;
    this.#compaction?.written(seq, line);
  }

  /**
   * Opens the temporary file, then (with no await after it) captures the state: the calls still queued are
   * part of it, and the flusher's next splice takes exactly them. A small snapshot is written at once.
   */
  async #startCompaction(): Promise<void> {
    const writer = await this.#snapshot.begin();
    if (this.#failure) return void (await writer.abandon());
    const body = this.#text.capture(this.#getState!());
    const compaction = new Compaction(this.#lastSeq, writer);
    this.#compaction = compaction;
    const written = writer.writeBody(body);
    // The journal outgrew the last snapshot, so it bounds the new one from below (a realm just created or
    // imported arrives as one large line after a small snapshot).
    if (Math.max(this.#snapshotSize, this.#journal!.size) < this.#concurrentMinBytes) {
      await written;
      return this.#finishCompaction(compaction);
    }
    written.then(
      () => {
        compaction.bodyDone = true;
        this.#flusher ??= this.#flushLoop();
      },
      (e: unknown) => {
        this.#fail(e, []);
        compaction.settle();
      },
    );
  }

  /** Runs only inside the flusher, between journal writes: the last line written is the last in the journal. */
  async #finishCompaction(compaction: Compaction): Promise<void> {
    try {
      // Alongside appends, the line after the capture carried the capture's sequence (or nothing was left to
      // write); written at once, the calls queued at the capture were not journaled (acknowledged below).
      const seq = Math.max(compaction.seq, this.#writtenSeq);
      const size = await compaction.writer.finish(compaction.tail, seq);
      this.#counted(size);
      this.stats.tailLines += compaction.tail.length;
      // Only now may the lines go: every one of them is <= seq and thus in the durable snapshot. The next
      // line's fdatasync makes the emptying durable (one flush fewer while appends wait).
      await this.#journal!.truncate(false);
      this.#snapshotSize = size;
      this.#compaction = null;
      // Queued calls up to seq are durable inside the snapshot: acknowledge them without journaling (they
      // sit at the head of the queue; later ones stay queued for the next line).
      let covered = 0;
      while (covered < this.#queue.length && this.#queue[covered]!.seq <= seq) covered++;
      for (const pending of this.#queue.splice(0, covered)) pending.resolve();
    } finally {
      compaction.settle();
    }
  }

  async #snapshotNow(state: State): Promise<number> {
    return this.#counted(await snapshotNow(this.#snapshot, this.#text, state, this.#lastSeq));
  }

  #counted(size: number): number {
    this.stats.snapshotWrites++;
    this.stats.snapshotBytes += size;
    return size;
  }

  /** Fail-stop: after one failed write nothing is acknowledged again, so no answer overstates durability. */
  #fail(error: unknown, batch: Pending[]): void {
    const failure = this.#failure ?? (error instanceof Error ? error : new Error(String(error)));
    if (!this.#failure) this.#log(`state: writing ${this.#path} failed, refusing further writes: ${failure.message}`);
    this.#failure = failure;
    this.#rejectAll(batch, failure);
    const compaction = this.#compaction;
    if (compaction) {
      this.#compaction = null;
      void compaction.writer.abandon().finally(compaction.settle);
    }
  }

  #rejectAll(batch: Pending[], failure: Error): void {
    for (const pending of [...batch, ...this.#queue.splice(0)]) pending.reject(failure);
  }
}
