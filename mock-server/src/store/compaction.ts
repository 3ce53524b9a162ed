import type { SnapshotFile, SnapshotWriter } from './snapshot.js';
import type { SnapshotText } from './snapshot-text.js';
import type { State } from './state.js';

/**
 * One compaction under way (file-persistence.ts), in three steps:
 *  1. capture: between two journal writes, the state as of sequence `seq` (the last call so far; calls still
 *     queued form the next line, whose sequence is then `seq`) is captured without serialising it;
 *  2. body: the captured state is serialised and written to the temporary file (snapshot-text.ts,
 *     snapshot.ts) while the flusher goes on appending and acknowledging lines, each durable on its own;
 *     lines above `seq` are also kept here (`tail`);
 *  3. finish, between two journal writes again: the tail and `journal_seq` E (the last line written) end the
 *     snapshot, which is flushed and renamed over the old one, and the directory flushed; then the journal,
 *     all of whose lines are ≤ E, is emptied. Only this step holds up appends.
 * A crash before the rename leaves the old snapshot and the whole journal (the temporary file is overwritten
 * next time); after it, the new snapshot and a journal of lines it covers (skipped on load) or none.
 */
export class Compaction {
  /** Journal lines above `seq` written since the capture, as written (without the newline). */
  readonly tail: string[] = [];
  /** The body is written and flushed: the flusher may finish it. */
  bodyDone = false;
  /** Settles once the compaction is finished or has failed (close waits for it). */
  readonly settled: Promise<void>;
  readonly settle: () => void;

  constructor(
    /** The last `append` call the captured state includes. */
    readonly seq: number,
    readonly writer: SnapshotWriter,
  ) {
    let settle!: () => void;
    this.settled = new Promise<void>((resolve) => (settle = resolve));
    this.settle = settle;
  }

  /** Every journal line written while this compaction is under way. */
  written(seq: number, line: string): void {
    if (seq > this.seq) this.tail.push(line);
  }
}

/** A snapshot of `state` as it is, written at once (load, close: nothing is appended meanwhile). Returns its size. */
export async function snapshotNow(file: SnapshotFile, text: SnapshotText, state: State, seq: number): Promise<number> {
  const writer = await file.begin();
  try {
    await writer.writeBody(text.capture(state));
    return await writer.finish([], seq);
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}
