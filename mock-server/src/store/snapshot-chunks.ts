/**
 * A table of the snapshot as chunks of consecutive rows (snapshot-text.ts), and which of them a new snapshot can
 * reuse. A table's rows are in JavaScript's property order: integer keys ascending, then the other keys in the
 * order they were added. Every change reaches `dirty` (rows are replaced whole, never edited in place), so a chunk
 * none of whose rows is dirty still holds the same rows; it is reused where those rows still follow one another.
 */

/** Consecutive rows of a table and, once made, their text. */
export interface Chunk {
  keys: string[];
  /** The rows as captured, until the text is made. */
  rows: unknown[] | null;
  /**
   * The text, or null until made. A chunk of a capture whose text was never read is still right while none of
   * its rows changed since: its rows are those of that capture, and later changes mark their keys dirty.
   */
  bytes: Buffer | null;
}

export interface KeptTable {
  /** The table object the chunks describe: a replaced table (realm replaced) never matches. */
  table: object;
  chunks: Chunk[];
  /** Keys written since the chunks were planned. */
  dirty: Set<string>;
  /** Every key is an integer index (messages, drafts, …): chunks are numeric ranges, found without listing keys. */
  indexKeys: boolean;
}

export interface ChunkSizes {
  /** About this many bytes of text per chunk. */
  chunkBytes: number;
}

/** Rows serialised at planning to tell a new table's row size. */
const SAMPLE_ROWS = 16;

type Rows = Record<string, unknown>;

/**
 * The table's chunks now, synchronously (the capture's instant): kept chunks where still valid, new chunks (rows
 * captured by reference) elsewhere. A table that only grew costs the new rows; no text is made here.
 */
export function planChunks(known: KeptTable | undefined, table: Rows, sizes: ChunkSizes): KeptTable {
  if (known?.table !== table) return fromKeys(table, Object.keys(table), sizes);
  if (known.dirty.size === 0) return known;
  const dirty = [...known.dirty];
  if (known.indexKeys && dirty.every(isIndex)) return byRanges(known, table, dirty, sizes);
  return byKeys(known, table, Object.keys(table), sizes);
}

function fromKeys(table: Rows, keys: string[], sizes: ChunkSizes): KeptTable {
  return {
    table,
    chunks: newChunks(table, keys, sampledRowsPerChunk(table, keys, sizes)),
    dirty: new Set(),
    indexKeys: lastIsIndex(keys),
  };
}

/**
 * Integer keys: each chunk covers the range from its first to its last key, so a dirty key falls in one chunk
 * (edited or removed there) or in the gap after one (added there); only the chunks so marked are made again, from
 * their keys and the dirty keys in their gaps, without listing the table's keys.
 */
function byRanges(known: KeptTable, table: Rows, dirtyKeys: string[], sizes: ChunkSizes): KeptTable {
  const chunks = known.chunks;
  const dirty = ascending(dirtyKeys);
  if (chunks.length === 0)
    return fromKeys(
      table,
      dirty.keys.filter((key) => Object.hasOwn(table, key)),
      sizes,
    );
  const rowsPerChunk = rowsFitting(chunks, sizes) ?? sampledRowsPerChunk(table, dirtyKeys, sizes);
  const lows = chunks.map((chunk) => Number(chunk.keys[0]));
  const next: Chunk[] = [];
  let d = 0; // the next dirty key, in ascending order
  // The dirty keys below chunk i + 1's first key fall in chunk i or in the gap after it (below the first chunk: in it).
  const dirtyIn = (i: number) => d < dirty.keys.length && (i + 1 === chunks.length || dirty.numbers[d]! < lows[i + 1]!);
  for (let i = 0; i < chunks.length;) {
    if (!dirtyIn(i)) {
      next.push(chunks[i]!);
      i++;
      continue;
    }
    // A run of chunks to make again, merged with the dirty keys among and after them (both ascending): a dirty
    // key stays if its row is there, any other key of the run's chunks is still there.
    const keys: string[] = [];
    for (; i < chunks.length && dirtyIn(i); i++) {
      const end = i + 1 === chunks.length ? dirty.keys.length : firstAtOrAbove(dirty.numbers, lows[i + 1]!, d);
      for (const key of chunks[i]!.keys) {
        const n = Number(key);
        for (; d < end && dirty.numbers[d]! < n; d++) if (Object.hasOwn(table, dirty.keys[d]!)) keys.push(dirty.keys[d]!);
        if (d < end && dirty.numbers[d] === n) {
          if (Object.hasOwn(table, key)) keys.push(key);
          d++;
        } else {
          keys.push(key);
        }
      }
      for (; d < end; d++) if (Object.hasOwn(table, dirty.keys[d]!)) keys.push(dirty.keys[d]!);
    }
    for (const chunk of newChunks(table, keys, rowsPerChunk)) next.push(chunk);
  }
  return { table, chunks: next, dirty: new Set(), indexKeys: true };
}

/**
 * Any keys: each kept chunk none of whose rows is dirty is reused where its first and last keys stand as many
 * places apart as it has rows (then the rows between are its own: none of them left, and a key added between
 * them would push them apart); the rows between reused chunks become new chunks.
 */
function byKeys(known: KeptTable, table: Rows, keys: string[], sizes: ChunkSizes): KeptTable {
  const rowsPerChunk = rowsFitting(known.chunks, sizes) ?? sampledRowsPerChunk(table, keys, sizes);
  const byFirstKey = new Map<string, Chunk>();
  for (const chunk of known.chunks) {
    if (chunk.keys.length > 0 && !chunk.keys.some((key) => known.dirty.has(key))) byFirstKey.set(chunk.keys[0]!, chunk);
  }
  const chunks: Chunk[] = [];
  let fresh = 0; // the first row not yet in a chunk
  for (let at = 0; at < keys.length;) {
    const chunk = byFirstKey.get(keys[at]!);
    const end = at + (chunk?.keys.length ?? 0);
    if (chunk && keys[end - 1] === chunk.keys[chunk.keys.length - 1]) {
      for (const made of newChunks(table, keys.slice(fresh, at), rowsPerChunk)) chunks.push(made);
      chunks.push(chunk);
      at = fresh = end;
    } else {
      at++;
    }
  }
  for (const made of newChunks(table, keys.slice(fresh), rowsPerChunk)) chunks.push(made);
  return { table, chunks, dirty: new Set(), indexKeys: lastIsIndex(keys) };
}

/** Chunks of `rowsPerChunk` rows over `keys`, rows captured by reference. */
function newChunks(table: Rows, keys: string[], rowsPerChunk: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < keys.length; start += rowsPerChunk) {
    const chunkKeys = keys.slice(start, start + rowsPerChunk);
    chunks.push({ keys: chunkKeys, rows: chunkKeys.map((key) => table[key]), bytes: null });
  }
  return chunks;
}

/** Rows per chunk for about `chunkBytes`, from the rows already made; null before any. */
function rowsFitting(chunks: Chunk[], sizes: ChunkSizes): number | null {
  let rows = 0;
  let bytes = 0;
  for (const chunk of chunks) {
    if (chunk.bytes === null) continue;
    rows += chunk.keys.length;
    bytes += chunk.bytes.length;
  }
  return rows === 0 || bytes === 0 ? null : Math.max(1, Math.round((sizes.chunkBytes * rows) / bytes));
}

/** Rows per chunk for about `chunkBytes`, from the size of a few of `keys`' rows spread over them. */
function sampledRowsPerChunk(table: Rows, keys: string[], sizes: ChunkSizes): number {
  const step = Math.max(1, Math.floor(keys.length / SAMPLE_ROWS));
  let rows = 0;
  let length = 0;
  for (let i = 0; i < keys.length && rows < SAMPLE_ROWS; i += step, rows++) {
    // Compact JSON plus the key: the indented text is larger, so chunks come out somewhat above chunkBytes.
    length += keys[i]!.length + (JSON.stringify(table[keys[i]!]) ?? '').length;
  }
  return rows === 0 ? 1 : Math.max(1, Math.round((sizes.chunkBytes * rows) / Math.max(1, length)));
}

/** A's rows as indented `"key": {...}` lines, for its place in the document (snapshot-text.ts). */
export function chunkText(chunk: Chunk): string {
  const rows = Object.create(null) as Rows; // any key is an own key, `__proto__` too
  for (let i = 0; i < chunk.keys.length; i++) rows[chunk.keys[i]!] = chunk.rows![i];
  // Stringified inside three wrapping objects, so JSON.stringify itself indents the rows to their depth (a table
  // sits at depth 3: document, realms, realm); the wrapper's fixed head and foot are then cut off. Built from a
  // run of the table's keys in order, the object keeps that order (integer keys ascending first, then the others).
  const text = JSON.stringify({ r: { r: { t: rows } } }, null, 2);
  return text.length === EMPTY_WRAPPER.length ? '' : text.slice(WRAPPER_HEAD.length, -WRAPPER_FOOT.length);
}

const WRAPPER_HEAD = `{\n  "r": {\n    "r": {\n      "t": {\n`;
const WRAPPER_FOOT = `\n      }\n    }\n  }\n}`;
const EMPTY_WRAPPER = JSON.stringify({ r: { r: { t: {} } } }, null, 2);

/** An array index, which JavaScript orders numerically before every other key. */
function isIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/** Integer keys come first, so the last key tells whether all of them are. */
const lastIsIndex = (keys: string[]) => keys.length === 0 || isIndex(keys[keys.length - 1]!);

/** Integer keys and their values, ascending (keys written in order, as new IDs are, need no sort). */
function ascending(keys: string[]): { keys: string[]; numbers: number[] } {
  const numbers = keys.map(Number);
  let sorted = true;
  for (let i = 1; i < numbers.length && sorted; i++) sorted = numbers[i - 1]! < numbers[i]!;
  if (sorted) return { keys, numbers };
  const order = numbers.map((_, i) => i).sort((a, b) => numbers[a]! - numbers[b]!);
  return { keys: order.map((i) => keys[i]!), numbers: order.map((i) => numbers[i]!) };
}

/** The first position at or after `from` whose value is at or above `n` in ascending `values`. */
function firstAtOrAbove(values: number[], n: number, from: number): number {
  let lo = from;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
