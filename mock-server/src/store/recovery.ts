import { rename } from 'node:fs/promises';
import { machineStamp } from '../clock/clock.js';
import { StateDamaged, StateFileUnreadable } from './errors.js';
import { JournalCorruptError, readJournal, type JournalLine } from './journal.js';
import type { SnapshotFile } from './snapshot.js';
import { ignoreMissing } from './state-lock.js';
import { applyChange, emptyState, type State } from './state.js';

/** What start-up read: the state, and what it needs to start from a clean snapshot and journal. */
export interface Loaded {
  hadSnapshot: boolean;
  state: State;
  snapshotSeq: number;
  lastSeq: number;
  replayed: number;
  /** Journal lines read (replayed or skipped). */
  lines: number;
  /** Lines of the snapshot's own tail (a snapshot written alongside appends). */
  tail: number;
  tornBytes: number;
}

export interface RecoveryOptions {
  log: (msg: string) => void;
  warn: (msg: string) => void;
  /** A damaged file is set aside (`--reset`) instead of refused. */
  setAsideDamaged: boolean;
}

/** Start-up: the snapshot, its tail, then the journal's newer lines, replayed in order. */
export class Recovery {
  constructor(
    private readonly snapshot: SnapshotFile,
    private readonly journalPath: string,
    private readonly options: RecoveryOptions,
  ) {}

  async read(): Promise<Loaded> {
    const path = this.snapshot.path;
    let loaded: Loaded;
    try {
      loaded = await this.#read();
    } catch (e) {
      if (!(e instanceof StateDamaged)) throw e;
      if (!this.options.setAsideDamaged) throw new StateFileUnreadable(path, e);
      // Kept, not deleted: the damaged file may still hold what someone wants back by hand.
      const stamp = machineStamp();
      const aside = `${path}.corrupt-${stamp}`;
      await rename(path, aside).catch(ignoreMissing);
      await rename(this.journalPath, `${this.journalPath}.corrupt-${stamp}`).catch(ignoreMissing);
      this.options.warn(`state: ${e.message}; kept it as ${aside} and started afresh (--reset)`);
      const state = emptyState();
      loaded = { hadSnapshot: false, state, snapshotSeq: 0, lastSeq: 0, replayed: 0, lines: 0, tail: 0, tornBytes: 0 };
    }
    if (loaded.tornBytes > 0) {
      this.options.log(`state: dropped ${loaded.tornBytes} bytes of an unfinished journal write (never acknowledged)`);
    }
    return loaded;
  }

  /** The snapshot with its tail and the journal replayed on it; throws `StateDamaged` for what no crash leaves. */
  async #read(): Promise<Loaded> {
    const saved = await this.snapshot.read();
    const state = saved?.state ?? emptyState();
    const snapshotSeq = saved?.seq ?? 0;
    // The tail was written whole before the snapshot's rename: a line it cannot apply is damage.
    replay(state, saved?.tail ?? [], (line, e) => new StateDamaged(`state file ${this.snapshot.path}: journal_tail line ${line}: ${e}`));
    const { lines, tornBytes } = await readJournal(this.journalPath);
    // At or below snapshotSeq: the process died after a snapshot was written but before the journal was
    // emptied. Those changes are in the snapshot; replaying them could resurrect deleted rows.
    const newer = lines.filter((line) => line.seq > snapshotSeq);
    const skipped = lines.length - newer.length;
    replay(state, newer, (line, e) => new JournalCorruptError(this.journalPath, skipped + line, e));
    const lastSeq = newer.length > 0 ? newer[newer.length - 1]!.seq : snapshotSeq;
    return {
      hadSnapshot: saved !== null,
      state,
      snapshotSeq,
      lastSeq,
      replayed: newer.length,
      lines: lines.length,
      tail: saved?.tail.length ?? 0,
      tornBytes,
    };
  }
}

function replay(state: State, lines: JournalLine[], damaged: (lineNo: number, reason: string) => Error): void {
  for (const [index, line] of lines.entries()) {
    for (const change of line.changes) {
      try {
        applyChange(state, change);
      } catch (e) {
        throw damaged(index + 1, (e as Error).message);
      }
    }
  }
}
