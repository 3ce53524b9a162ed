import { open, rename, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { StateDamaged } from './errors.js';
import { asLine, type JournalLine } from './journal.js';
import { emptyState, withAllTables, type State } from './state.js';

/**
 * The snapshot file, a lowdb JSON document: the whole `State` (pretty-printed, so it reads like any
 * json-server/lowdb database) plus `journal_seq`, the sequence number of the last change it includes.
 * Journal lines with a sequence number at or below it are already in the snapshot and are skipped.
 *
 * A snapshot written while appends went on (file-persistence.ts) also has `journal_tail`: the journal lines
 * written after the state was captured, in order, to be replayed onto the state on load; `journal_seq` is
 * then the last of them. A file without it (the layout written before) is read the same way.
 */
export type SnapshotDocument = State & { journal_seq: number; journal_tail?: unknown };

export class SnapshotFormatError extends StateDamaged {
  constructor(path: string, found: unknown) {
    super(`state file ${path} has format ${JSON.stringify(found)}, expected ${JSON.stringify(emptyState().format)}`);
    this.name = 'SnapshotFormatError';
  }
}

export interface SavedSnapshot {
  state: State;
  seq: number;
  /** Lines to replay onto `state` (already checked: in order, none above `seq`). */
  tail: JournalLine[];
}

export class SnapshotFile {
  readonly #db: Low<SnapshotDocument | null>;

  constructor(
    readonly path: string,
    private readonly sync: boolean,
  ) {
    this.#db = new Low<SnapshotDocument | null>(new JSONFile<SnapshotDocument | null>(path), null);
  }

  /** The saved state, its sequence number and tail, or null when there is no snapshot yet. */
  async read(): Promise<SavedSnapshot | null> {
    try {
      await this.#db.read();
    } catch (e) {
      // lowdb's JSON.parse. Its message quotes the file's first characters: say where, not what.
      if (e instanceof SyntaxError) {
        const at = /position (\d+)/.exec(e.message)?.[1];
        const where = at ? `at character ${at}` : /end of JSON/.test(e.message) ? 'it ends early' : 'an unexpected character';
        throw new StateDamaged(`state file ${this.path} is not valid JSON (${where})`);
      }
      throw e;
    }
    const doc: unknown = this.#db.data;
    this.#db.data = null; // do not keep a second copy of the state alive
    if (doc === null) return null;
    const format = typeof doc === 'object' && doc !== null ? (doc as { format?: unknown }).format : undefined;
    if (format !== emptyState().format) throw new SnapshotFormatError(this.path, format);
    const { journal_seq: seq, journal_tail: rawTail, ...state } = doc as SnapshotDocument;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
      throw new StateDamaged(`state file ${this.path} has no valid journal_seq`);
    }
    if (typeof state.realms !== 'object' || state.realms === null) {
      throw new StateDamaged(`state file ${this.path} has no realms object`);
    }
    for (const realm of Object.values(state.realms)) withAllTables(realm);
    return { state, seq, tail: this.#tail(rawTail, seq) };
  }

  #tail(raw: unknown, seq: number): JournalLine[] {
    if (raw === undefined) return [];
    const lines = Array.isArray(raw) ? raw.map(asLine) : [null];
    let previous = -Infinity;
    for (const line of lines) {
      // Written whole before the rename, so anything odd here is damage, not a crash.
      if (line === null || line.seq <= previous || line.seq > seq) {
        throw new StateDamaged(`state file ${this.path} has an invalid journal_tail`);
      }
      previous = line.seq;
    }
    return lines as JournalLine[];
  }

  /** Starts a new snapshot in lowdb's temporary file (`.<name>.tmp` beside it); see SnapshotWriter. */
  async begin(): Promise<SnapshotWriter> {
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
    return new SnapshotWriter(this.path, temp, await open(temp, 'w'), this.sync);
  }
}

/** The body is flushed every this many bytes, so the disk never has a whole snapshot to write at once. */
const SYNC_EVERY_BYTES = 1024 * 1024;

/**
 * One snapshot being written: the body (the captured state's text, written while appends go on), then
 * `finish` (the tail and `journal_seq`, a flush, the rename over the old snapshot and a flush of the
 * directory). A crash before the rename leaves the old snapshot and the whole journal; after it, the new
 * snapshot and a journal whose lines it covers up to `journal_seq`, which load skips.
 */
export class SnapshotWriter {
  #bytes = 0;
  #closed = false;

  constructor(
    readonly path: string,
    readonly temp: string,
    private readonly handle: FileHandle,
    private readonly sync: boolean,
  ) {}

  /**
   * Writes the body. In fsync mode it is flushed each SYNC_EVERY_BYTES: one flush of many megabytes holds up
   * the journal's own small flushes on the same disk for as long as it takes (measured: a journal fdatasync's
   * p99 7 → 12 ms, its maximum 15 → 51 ms beside 6 MB flushed at once; ~7 and 12 ms flushed per MiB).
   */
  async writeBody(pieces: AsyncIterable<Buffer[]>): Promise<void> {
    let unsynced = 0;
    for await (const piece of pieces) {
      if (this.sync && unsynced >= SYNC_EVERY_BYTES) {
        await this.handle.datasync();
        unsynced = 0;
      }
      const bytes = await writeAll(this.handle, piece);
      this.#bytes += bytes;
      unsynced += bytes;
    }
    // Flushed here, alongside appends, so that `finish` (which holds them up) flushes only its own few bytes.
    if (this.sync) await this.handle.datasync();
  }

  /** Ends the document with `tail` (journal lines as written) and `seq`, and puts it in place. Returns its size. */
  async finish(tail: readonly string[], seq: number): Promise<number> {
    const end = `${tail.length > 0 ? `,\n  "journal_tail": [\n    ${tail.join(',\n    ')}\n  ]` : ''},\n  "journal_seq": ${seq}\n}`;
    await writeFile(this.handle, end);
    if (this.sync) await this.handle.datasync();
    this.#closed = true;
    await this.handle.close();
    await rename(this.temp, this.path);
    // For kill -9 the rename is enough; for power loss the directory entry must be on disk before the
    // caller empties the journal (the new file's data already is: flushed above, before the rename).
    if (this.sync) await fsyncPath(dirname(this.path));
    return (await stat(this.path)).size;
  }

  /** After a failure: releases the file and removes the unfinished temporary file. */
  async abandon(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      await this.handle.close().catch(() => {});
    }
    await unlink(this.temp).catch(() => {});
  }

  /** Bytes of body written so far. */
  get bodyBytes(): number {
    return this.#bytes;
  }
}

/**
 * Writes `buffers` in order with as few writev(2) calls as the kernel allows (a write may be short: the rest
 * follows), without first copying them into one buffer. Returns the bytes written.
 */
async function writeAll(handle: FileHandle, buffers: Buffer[]): Promise<number> {
  let total = 0;
  for (const buffer of buffers) total += buffer.length;
  let rest = buffers;
  for (let written = 0; written < total;) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('snapshot write made no progress');
    written += bytesWritten;
    rest = after(rest, bytesWritten);
  }
  return total;
}

/** `buffers` without their first `bytes` bytes. */
function after(buffers: Buffer[], bytes: number): Buffer[] {
  let i = 0;
  while (i < buffers.length && bytes >= buffers[i]!.length) bytes -= buffers[i++]!.length;
  const rest = buffers.slice(i);
  if (bytes > 0) rest[0] = rest[0]!.subarray(bytes);
  return rest;
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
