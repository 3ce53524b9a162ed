import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { packagePath } from '../../../cli/package-root.js';
import { machineTime } from '../clock/clock.js';

/**
 * Products the server would otherwise make at every start (the dereferenced OpenAPI document, a demo realm's
 * template), found by a key made of everything they are made from. Because the key is the inputs, a product
 * found is the product that would be made, whoever made it: the same lookup serves the sources, the build and
 * a library import, and configuration alone (the cache directory) decides whether anything is written.
 *
 * Where a product is looked for, after the caller's own in-memory copies:
 * - the products shipped read-only with the artefact (`dist/prepared/`, written by tools/prepare-build.ts);
 * - the cache directory (`cacheDirOf`): read and written, bounded by entries and bytes, least recently used
 *   out first. A directory that cannot be written (read-only, full) only means nothing is cached.
 *
 * An entry is a file of JSON lines: a header naming the product and its key, the product's own lines, and a
 * trailer counting them, so a damaged or cut entry is told from a whole one (and is then ignored and
 * replaced). Writes go to a temporary file renamed into place, so concurrent writers and readers only ever
 * see whole entries. A product is read and written a line at a time: a 100,000-message template (~75 MB)
 * never exists as one string.
 */
export const SHIPPED_DIR = packagePath('dist/prepared');

/** The environment variable naming the cache directory when the configuration does not (tests set it). */
export const CACHE_DIR_ENV = 'TEAMCHAT_CACHE_DIR';

export interface CacheBounds {
  /** Entries kept at most. */
  entries: number;
  /** Bytes of entries kept at most; a product larger than this alone is not cached. */
  bytes: number;
}

export const CACHE_BOUNDS: Readonly<CacheBounds> = { entries: 32, bytes: 1024 * 1024 * 1024 };

/**
 * The cache directory of a configuration: `cacheDir` when given (null: none), else TEAMCHAT_CACHE_DIR, else
 * `cache/` beside the state file; none for a state kept in memory.
 */
export function cacheDirOf(config: { cacheDir?: string | null; statePath: string | null }): string | null {
  if (config.cacheDir !== undefined) return config.cacheDir === null ? null : resolve(config.cacheDir);
  const fromEnv = process.env[CACHE_DIR_ENV];
  if (fromEnv) return resolve(fromEnv);
  return config.statePath === null ? null : join(dirname(resolve(config.statePath)), 'cache');
}

/** Reads one entry's lines into a product; a fresh one per attempt, since an attempt may fail halfway. */
export interface LineReader<T> {
  line(text: string): void;
  done(): T;
}

export interface ProductCache {
  /** The directory written to, or null: nothing is written. */
  readonly dir: string | null;
  /** The product of this key, from the shipped products or the cache directory; null when neither has it whole. */
  read<T>(product: string, key: string, reader: () => LineReader<T>): Promise<T | null>;
  /** Caches the product's lines under its key; whether it was written (false: no directory, or it refused). */
  write(product: string, key: string, lines: Iterable<string>): Promise<boolean>;
  /**
   * The file name of this key's whole entry in the cache directory, made from `lines()` only when there is none
   * yet (a product made once is not made again); null when there is no directory or it refused the entry.
   */
  ensure(product: string, key: string, lines: () => Promise<Iterable<string>>): Promise<string | null>;
}

export interface CacheOptions {
  /** The read-only products consulted first (default: the artefact's); null: none. */
  shipped?: string | null;
  bounds?: CacheBounds;
}

/** A cache writing into `dir` (null: reading the shipped products only). */
export function productCache(dir: string | null, options: CacheOptions = {}): ProductCache {
  const shipped = options.shipped === undefined ? SHIPPED_DIR : options.shipped;
  const bounds = options.bounds ?? CACHE_BOUNDS;
  return {
    dir,
    async read(product, key, reader) {
      const name = entryName(product, key);
      if (shipped !== null) {
        const found = await readEntry(join(shipped, name), product, key, reader, false);
        if (found !== null) return found.value;
      }
      return dir === null ? null : ((await readEntry(join(dir, name), product, key, reader, true))?.value ?? null);
    },
    write: (product, key, lines) => (dir === null ? Promise.resolve(false) : writeEntry(dir, bounds, product, key, lines)),
    async ensure(product, key, lines) {
      if (dir === null) return null;
      const name = entryName(product, key);
      if ((await readEntry(join(dir, name), product, key, wholeness, true)) !== null) return name;
      return (await writeEntry(dir, bounds, product, key, await lines())) ? name : null;
    },
  };
}

/** Reads nothing of an entry: only whether it is whole. */
const wholeness = (): LineReader<true> => ({ line: () => undefined, done: () => true });

/** The cache of a server's configuration (see `cacheDirOf`). */
export const cacheFor = (config: { cacheDir?: string | null; statePath: string | null }): ProductCache => productCache(cacheDirOf(config));

/** The cache outside a server (tools, tests, direct calls): TEAMCHAT_CACHE_DIR when set, else the shipped products only. */
export const defaultCache = (): ProductCache => cacheFor({ statePath: null });

const ENTRY = /\.jsonl$/;
const entryName = (product: string, key: string) =>
  `${product}-${createHash('sha256').update(`${product}\n${key}`).digest('hex').slice(0, 32)}.jsonl`;
const header = (product: string, key: string) => JSON.stringify({ product, key });
const trailer = (lines: number) => JSON.stringify({ lines });

/**
 * The entry's product, or null when there is none or it is not whole (then, in the cache directory, it is
 * removed: the next write replaces it). A hit in the cache directory marks the entry used, for eviction.
 */
async function readEntry<T>(
  path: string,
  product: string,
  key: string,
  reader: () => LineReader<T>,
  owned: boolean,
): Promise<{ value: T } | null> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  const into = reader();
  let headed = false;
  let count = 0;
  // Each line is given to the reader once the next one shows it is not the trailer.
  let pending: string | null = null;
  try {
    for await (const line of lines) {
      if (!headed) {
        if (line !== header(product, key)) throw new Error('another product');
        headed = true;
        continue;
      }
      if (pending !== null) {
        into.line(pending);
        count += 1;
      }
      pending = line;
    }
    if (pending !== trailer(count)) throw new Error('not whole');
    const value = into.done();
    if (owned) await utimes(path, machineTime(), machineTime()).catch(() => undefined);
    return { value };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && owned) await rm(path, { force: true }).catch(() => undefined);
    return null;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** Characters written at once: a batch of lines, never the whole product. */
const WRITE_BATCH = 1 << 20;
/** A temporary file this old was left by a writer that died: removed when room is made. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

async function writeEntry(dir: string, bounds: CacheBounds, product: string, key: string, lines: Iterable<string>): Promise<boolean> {
  const name = entryName(product, key);
  // Unique per writer: other processes, or threads of this one, may write the same entry at once.
  const temporary = join(dir, `${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let file: FileHandle | null = null;
  try {
    await mkdir(dir, { recursive: true });
    file = await open(temporary, 'w');
    let bytes = 0;
    let batch = `${header(product, key)}\n`;
    const flush = async () => {
      bytes += Buffer.byteLength(batch);
      // Stopped as soon as it is known: the rest would only be written to be removed.
      if (bytes > bounds.bytes) throw new Error('larger than the whole cache');
      await file!.write(batch);
      batch = '';
    };
    let count = 0;
    for (const line of lines) {
      batch += `${line}\n`;
      count += 1;
      if (batch.length >= WRITE_BATCH) await flush();
    }
    batch += `${trailer(count)}\n`;
    await flush();
    await file.close();
    file = null;
    await makeRoom(dir, bounds, name, bytes);
    await rename(temporary, join(dir, name));
    return true;
  } catch {
    // Read-only, full, or too large: the product is simply not cached.
    await file?.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    return false;
  }
}

/**
 * Evicts the least recently used entries until one more of `bytes` fits (the entry `name` is being replaced).
 * Writers of other entries at the same moment may each make room for their own only: the bounds then hold to
 * within those few entries, and the next write restores them.
 */
async function makeRoom(dir: string, bounds: CacheBounds, name: string, bytes: number): Promise<void> {
  const now = machineTime().getTime();
  const entries: { file: string; size: number; used: number }[] = [];
  for (const file of await readdir(dir)) {
    const info = await stat(join(dir, file)).catch(() => null);
    if (info === null) continue;
    if (file.endsWith('.tmp')) {
      if (now - info.mtimeMs > STALE_TEMPORARY_MS) await rm(join(dir, file), { force: true }).catch(() => undefined);
    } else if (ENTRY.test(file) && file !== name) entries.push({ file, size: info.size, used: info.mtimeMs });
  }
  entries.sort((a, b) => a.used - b.used);
  let kept = entries.reduce((sum, e) => sum + e.size, 0);
  let count = entries.length;
  for (const entry of entries) {
    if (count + 1 <= bounds.entries && kept + bytes <= bounds.bytes) break;
    await rm(join(dir, entry.file), { force: true }).catch(() => undefined);
    count -= 1;
    kept -= entry.size;
  }
}
