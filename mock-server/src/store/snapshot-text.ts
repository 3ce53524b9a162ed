import { chunkText, planChunks, type Chunk, type ChunkSizes, type KeptTable } from './snapshot-chunks.js';
import type { Change, State } from './state.js';

/**
 * The snapshot's text, made without stopping the event loop for the whole state, and re-made only where the
 * state changed.
 *
 * The text is exactly `JSON.stringify({...state, journal_seq}, null, 2)` (lowdb's layout: a state file reads
 * like any json-server database), built per table and, inside a table, per chunk of consecutive rows
 * (snapshot-chunks.ts):
 *  - a chunk's text is kept as UTF-8 bytes once made and reused while its rows are the same rows in the same
 *    order and none of them changed (persistence sees every change in `append`; rows are immutable and replaced
 *    whole; a replaced realm brings new table objects). A table that only grows (drafts, messages) makes only
 *    its new rows' text at a compaction; an edit re-makes the one chunk that holds the row. Kept bytes are
 *    written as they are: the unchanged bulk of the state costs a copy, not a serialisation, at every compaction
 *    (concatenating it as one string and cutting it again cost 60 ms of the loop at once on a 21 MB state);
 *  - `capture` decides, synchronously, what the state is at that instant: the kept chunks still valid and, for
 *    the other rows, references to them (a list of references is a consistent copy; the live tables may change
 *    right after);
 *  - new chunks are serialised as the text is read, about SERIALISE_BYTES between two pieces, so requests and
 *    journal writes go on while a large table is written; they reach the file in one writev(2) per ~WRITE_BYTES.
 */
const CHUNK_BYTES = 64 * 1024;
/** New text made between two pieces: the longest the loop is held (~1 ms per 100 KiB on this machine). */
const SERIALISE_BYTES = 128 * 1024;
/** A group of buffers is handed to the file once this large (one writev: kept bytes are not even copied). */
const WRITE_BYTES = 512 * 1024;

/** The document's pieces in order: fixed text, or a table as chunks. */
type Piece = string | Chunk[];

/** A table's depth in the document (doc, realms, realm, table). */
const INDENT_TABLE = '      ';

export class SnapshotText {
  /** realm → table name → its kept chunks. */
  readonly #kept = new Map<string, Map<string, KeptTable>>();
  readonly #sizes: ChunkSizes;
  /** Bytes of row text made so far (kept chunks reused are not made again): for tests and benchmarks. */
  readonly stats = { madeBytes: 0 };

  /** Chunk sizes: tests make them small, so that a small state spans many chunks. */
  constructor(sizes: Partial<ChunkSizes> = {}) {
    this.#sizes = { chunkBytes: CHUNK_BYTES, ...sizes };
  }

  /** Every change handed to persistence comes through here first: what it touches is made again. */
  changed(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.table === null) this.#kept.delete(change.realm);
      else this.#kept.get(change.realm)?.get(change.table)?.dirty.add(change.key);
    }
  }

  /**
   * The document without its closing part (`journal_seq`, maybe `journal_tail`, `}`: the writer adds them once
   * it knows them), as `state` is now. The returned generator may run long after this call.
   */
  capture(state: State): AsyncGenerator<Buffer[]> {
    const pieces: Piece[] = ['{'];
    let first = true;
    for (const [key, value] of Object.entries(state)) {
      if (value === undefined) continue;
      pieces.push(`${first ? '' : ','}\n  ${JSON.stringify(key)}: `);
      first = false;
      if (key === 'realms') this.#captureRealms(value as State['realms'], pieces);
      else pieces.push(indent(JSON.stringify(value, null, 2), '  '));
    }
    return emit(pieces, this.stats);
  }

  #captureRealms(realms: State['realms'], pieces: Piece[]): void {
    const ids = Object.keys(realms);
    if (ids.length === 0) return void pieces.push('{}');
    pieces.push('{');
    for (const [i, id] of ids.entries()) {
      pieces.push(`${i > 0 ? ',' : ''}\n    ${JSON.stringify(id)}: `);
      const realm = realms[id] as unknown as Record<string, unknown>;
      const names = Object.keys(realm).filter((name) => realm[name] !== undefined);
      if (names.length === 0) {
        pieces.push('{}');
        continue;
      }
      let kept = this.#kept.get(id);
      if (!kept) this.#kept.set(id, (kept = new Map()));
      pieces.push('{');
      for (const [j, name] of names.entries()) {
        pieces.push(`${j > 0 ? ',' : ''}\n${INDENT_TABLE}${JSON.stringify(name)}: `);
        const table = realm[name];
        if (typeof table !== 'object' || table === null || Array.isArray(table)) {
          pieces.push(indent(JSON.stringify(table, null, 2), INDENT_TABLE));
          continue;
        }
        const planned = planChunks(kept.get(name), table as Record<string, unknown>, this.#sizes);
        kept.set(name, planned);
        pieces.push(planned.chunks);
      }
      pieces.push('\n    }');
    }
    pieces.push('\n  }');
  }
}

/**
 * The document as groups of buffers of about WRITE_BYTES. The consumer writes each group before it asks for the
 * next, so the loop is free during every write and busy for at most about SERIALISE_BYTES of new text at a time.
 */
async function* emit(pieces: Piece[], stats: { madeBytes: number }): AsyncGenerator<Buffer[]> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let made = 0;
  /** Fixed text not yet held. */
  let text = '';
  const hold = (bytes: Buffer) => {
    held.push(bytes);
    heldBytes += bytes.length;
  };
  const holdText = () => {
    if (text.length > 0) hold(Buffer.from(text));
    text = '';
  };
  const take = () => {
    const piece = held;
    held = [];
    heldBytes = made = 0;
    return piece;
  };
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      continue;
    }
    let any = false;
    for (const chunk of piece) {
      if (chunk.bytes === null) {
        chunk.bytes = Buffer.from(chunkText(chunk));
        chunk.rows = null;
        made += chunk.bytes.length;
        stats.madeBytes += chunk.bytes.length;
      }
      if (chunk.bytes.length === 0) continue; // only undefined rows, which JSON.stringify leaves out
      text += any ? ',\n' : '{\n';
      any = true;
      holdText();
      hold(chunk.bytes);
      if (heldBytes >= WRITE_BYTES || made >= SERIALISE_BYTES) yield take();
    }
    text += any ? `\n${INDENT_TABLE}}` : '{}';
  }
  holdText();
  if (heldBytes > 0) yield take();
}

/** JSON.stringify(…, null, 2) text moved deeper: its line breaks are all structural (strings escape theirs). */
function indent(text: string, by: string): string {
  return text.includes('\n') ? text.replace(/\n/g, `\n${by}`) : text;
}
