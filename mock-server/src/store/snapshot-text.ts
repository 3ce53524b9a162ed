import type { Change, State } from './state.js';

/**
 * The snapshot's text, made without stopping the event loop for the whole state.
 *
 * The text is exactly `JSON.stringify({...state, journal_seq}, null, 2)` (lowdb's layout: a state file reads
 * like any json-server database), built per table:
 *  - a table's text is kept after it is written and reused while no change reached that table (persistence
 *    sees every change in `append`, and a replaced realm brings new table objects), so a compaction
 *    serialises only the tables written since the last one: at 10,000 messages the message table's ~7 MB
 *    stays as it was while drafts change;
 *  - `capture` takes, synchronously, what the state is at that instant: the kept texts and, for the other
 *    tables, their rows (rows are immutable and replaced whole, so a list of references is a consistent
 *    copy; the live tables may change right after);
 *  - the captured tables are then serialised in slices of about SLICE_BYTES, each written before the next
 *    is made, so requests and journal writes go on while a large table is written (a slice of 512 KiB
 *    costs a few milliseconds of the loop; the whole 7 MB message table of a 10,000-message realm ~50 ms).
 */
const SLICE_BYTES = 512 * 1024;
/** Rows per slice until the first slice of a table tells how large its rows are. */
const FIRST_SLICE_ROWS = 256;

interface Kept {
  /** The table object the text was made from: a replaced table (realm replaced) never matches. */
  table: object;
  /** The table's text, indented for its place in the document; null while it is being made. */
  text: string | null;
}

interface CapturedTable {
  realm: string;
  name: string;
  kept: Kept;
  rows: [string, unknown][];
}

/** The document's pieces: text, or a table captured as rows, in document order. */
type Piece = string | CapturedTable;

/** A table's depth in the document (doc, realms, realm, table). */
const INDENT_TABLE = '      ';

export class SnapshotText {
  /** realm → table name → kept text. */
  readonly #kept = new Map<string, Map<string, Kept>>();

  /** Every change handed to persistence comes through here first: what it touches is made again. */
  changed(changes: readonly Change[]): void {
    for (const change of changes) {
      if (change.table === null) this.#kept.delete(change.realm);
      else this.#kept.get(change.realm)?.delete(change.table);
    }
  }

  /** Forgets every kept text (a state that did not come through `changed`, e.g. a fresh load). */
  clear(): void {
    this.#kept.clear();
  }

  /** Bytes of text kept for reuse (for the benchmarks' memory figures). */
  get keptBytes(): number {
    let bytes = 0;
    for (const tables of this.#kept.values()) for (const kept of tables.values()) bytes += kept.text?.length ?? 0;
    return bytes;
  }

  /**
   * The document without its closing part (`journal_seq`, maybe `journal_tail`, `}`: the writer adds them once
   * it knows them), as `state` is now. The returned generator may run long after this call.
   */
  capture(state: State): AsyncGenerator<string> {
    const pieces: Piece[] = ['{'];
    let first = true;
    for (const [key, value] of Object.entries(state)) {
      if (value === undefined) continue;
      pieces.push(`${first ? '' : ','}\n  ${JSON.stringify(key)}: `);
      first = false;
      if (key === 'realms') this.#captureRealms(value as State['realms'], pieces);
      else pieces.push(indent(JSON.stringify(value, null, 2), '  '));
    }
    return this.#emit(pieces);
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
        const known = kept.get(name);
        if (known && known.table === table && known.text !== null) {
          pieces.push(known.text);
          continue;
        }
        const fresh: Kept = { table, text: null };
        kept.set(name, fresh);
        pieces.push({ realm: id, name, kept: fresh, rows: Object.entries(table) });
      }
      pieces.push('\n    }');
    }
    pieces.push('\n  }');
  }

  /**
   * The document in pieces of at most about SLICE_BYTES. The consumer writes each piece before it asks for the
   * next, so the loop is free during every write and busy for at most one slice's serialisation at a time.
   */
  async *#emit(pieces: Piece[]): AsyncGenerator<string> {
    let pending = '';
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        pending += piece;
        while (pending.length >= 2 * SLICE_BYTES) {
          const cut = cutAt(pending, SLICE_BYTES);
          yield pending.slice(0, cut);
          pending = pending.slice(cut);
        }
        continue;
      }
      const parts: string[] = [];
      for (const slice of slices(piece.rows)) {
        yield `${pending}${parts.length === 0 ? '{\n' : ',\n'}${slice}`;
        pending = '';
        parts.push(slice);
      }
      pending += parts.length === 0 ? '{}' : `\n${INDENT_TABLE}}`;
      // Kept only if no change reached the table since the capture (`changed` removed or replaced it).
      if (this.#kept.get(piece.realm)?.get(piece.name) === piece.kept) {
        piece.kept.text = parts.length === 0 ? '{}' : `{\n${parts.join(',\n')}\n${INDENT_TABLE}}`;
      }
    }
    if (pending.length > 0) yield pending;
  }
}

/** Where to cut `text` near `at` without splitting a surrogate pair (a lone half would not survive UTF-8). */
function cutAt(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Rows as indented `"key": {...}` text, about SLICE_BYTES a slice. Each slice is stringified inside three
 * wrapping objects, so JSON.stringify itself indents the rows to their depth in the document (a table sits at
 * depth 3: document, realms, realm); the wrapper's fixed head and foot are then cut off.
 */
function* slices(rows: [string, unknown][]): Generator<string> {
  let size = FIRST_SLICE_ROWS;
  for (let start = 0; start < rows.length;) {
    const batch = rows.slice(start, start + size);
    start += batch.length;
    // An object made of a contiguous run of the table's entries keeps their order: integer keys come
    // first and ascending in both, the others in insertion order.
    const text = JSON.stringify({ r: { r: { t: Object.fromEntries(batch) } } }, null, 2);
    size = Math.max(1, Math.round(SLICE_BYTES / Math.max(1, text.length / batch.length)));
    if (text.length === EMPTY_SLICE.length) continue; // only undefined rows, which JSON.stringify leaves out
    yield text.slice(SLICE_HEAD.length, -SLICE_FOOT.length);
  }
}

const SLICE_HEAD = `{\n  "r": {\n    "r": {\n      "t": {\n`;
const SLICE_FOOT = `\n      }\n    }\n  }\n}`;
const EMPTY_SLICE = JSON.stringify({ r: { r: { t: {} } } }, null, 2);

/** JSON.stringify(…, null, 2) text moved deeper: its line breaks are all structural (strings escape theirs). */
function indent(text: string, by: string): string {
  return text.includes('\n') ? text.replace(/\n/g, `\n${by}`) : text;
}
