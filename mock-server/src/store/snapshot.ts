import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { StateDamaged } from './errors.js';
import { emptyState, withAllTables, type State } from './state.js';

/**
 * The snapshot file, a lowdb JSON document: the whole `State` (pretty-printed, so it reads like any
 * json-server/lowdb database) plus `journal_seq`, the sequence number of the last change it includes.
 * Journal lines with a sequence number at or below it are already in the snapshot and are skipped.
 */
export type SnapshotDocument = State & { journal_seq: number };

export class SnapshotFormatError extends StateDamaged {
  constructor(path: string, found: unknown) {
    super(`state file ${path} has format ${JSON.stringify(found)}, expected ${JSON.stringify(emptyState().format)}`);
    this.name = 'SnapshotFormatError';
  }
}

export class SnapshotFile {
  readonly #db: Low<SnapshotDocument | null>;

  constructor(
    readonly path: string,
    private readonly sync: boolean,
  ) {
    this.#db = new Low<SnapshotDocument | null>(new JSONFile<SnapshotDocument | null>(path), null);
  }

  /** The saved state and its sequence number, or null when there is no snapshot yet. */
  async read(): Promise<{ state: State; seq: number } | null> {
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
    const { journal_seq: seq, ...state } = doc as SnapshotDocument;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
      throw new StateDamaged(`state file ${this.path} has no valid journal_seq`);
    }
    if (typeof state.realms !== 'object' || state.realms === null) {
      throw new StateDamaged(`state file ${this.path} has no realms object`);
    }
    for (const realm of Object.values(state.realms)) withAllTables(realm);
    return { state, seq };
  }

  /**
   * Writes the snapshot and returns its size in bytes. lowdb (steno) writes a temporary file and
   * renames it over the old one, so a crash leaves either the old or the new snapshot, never a mix.
   *
   * The caller may keep mutating `state` while this is pending: lowdb stringifies synchronously inside
   * `write()` (Low.write → DataFile.write → JSON.stringify, all before the first await), so the bytes
   * are `state` exactly as of this call, which is what makes the `seq` recorded with it exact.
   */
  async write(state: State, seq: number): Promise<number> {
    this.#db.data = { ...state, journal_seq: seq };
    const written = this.#db.write();
    this.#db.data = null;
    await written;
    // steno does not fsync. For kill -9 the rename is enough (the page cache outlives the process); for
    // power loss we flush the new file and the directory entry before the caller truncates the journal.
    // Residual window: between steno's rename and our fsync the new inode's data may not be on disk;
    // ext4 (auto_da_alloc) and btrfs flush data on rename-over-existing, other filesystems may not.
    if (this.sync) {
      await fsyncPath(this.path);
      await fsyncPath(dirname(this.path));
    }
    return (await stat(this.path)).size;
  }
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
