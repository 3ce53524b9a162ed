import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../../../cli/package-root.js';

/**
 * What `npm run build` prepares so that start-up need not (issue 17 item 2): tools/prepare-build.ts,
 * run after tsc, writes the dereferenced OpenAPI document and the default demo realm into dist/prepared/.
 * Only compiled code (a `.js` module: dist/'s modules or the start-up bundle, dist/bundle/) reads it, from
 * the package root, so code run from the sources (tests, tsx) never reads what a build of possibly other
 * sources prepared: there everything is prepared at run time, as before. Found from the root rather than
 * from this module's URL because in the bundle every module shares the bundle's URL.
 */
export const DIST_DIR: string | null = fileURLToPath(import.meta.url).endsWith('.js') ? packagePath('dist') : null;
export const PREPARED_DIR: string | null = DIST_DIR === null ? null : join(DIST_DIR, 'prepared');

/** tsc's record of the last build: written whenever tsc emitted something, absent from the published package. */
const BUILD_INFO = DIST_DIR === null ? null : join(DIST_DIR, '.tsbuildinfo');

/**
 * Which compilation the prepared files belong to: the size and time of dist/.tsbuildinfo when they were
 * written (null when there is none). A later `tsc` alone (without the preparation step) changes it, and
 * the prepared files are then ignored rather than trusted for code they were not made by.
 */
export function buildStamp(): string | null {
  if (BUILD_INFO === null) return null;
  try {
    const info = statSync(BUILD_INFO);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * A prepared file's JSON when it belongs to this build, else null (run from the sources, not prepared, or
 * a later compilation). An installed package has no .tsbuildinfo (package.json `files` leaves it out) and
 * a dist/ that never changes, so there whatever was prepared is current.
 */
export function readPrepared<T>(name: string): T | null {
  if (PREPARED_DIR === null) return null;
  let text: string;
  try {
    text = readFileSync(join(PREPARED_DIR, name), 'utf8');
  } catch {
    return null;
  }
  const prepared = JSON.parse(text) as Prepared<T>;
  return current(prepared.build) ? prepared.content : null;
}

function current(build: unknown): boolean {
  const stamp = buildStamp();
  return stamp === null || build === stamp;
}

/** The form of every prepared file: the build it belongs to and what was prepared. */
export interface Prepared<T> {
  build: string | null;
  content: T;
}

/** Writes a prepared file for this build (tools/prepare-build.ts; the run-time cache below), atomically. */
export async function writePrepared(name: string, content: unknown): Promise<void> {
  if (PREPARED_DIR === null) throw new Error('only compiled code prepares files (tools/prepare-build.ts)');
  const path = join(PREPARED_DIR, name);
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ build: buildStamp(), content } satisfies Prepared<unknown>));
  await rename(temporary, path);
}

/**
 * What the built server prepares for itself at run time (issue 17 item 3: the demo realm of a seed the build
 * did not prepare), under dist/prepared/cache/, keyed by the caller and stamped with the build like the rest.
 * Only a built server has the directory; run from the sources nothing is cached on disk. At most
 * KEPT_CACHE_FILES stay (the oldest written go first), and a read-only installation simply caches nothing.
 */
export const BUILT = PREPARED_DIR !== null && existsSync(PREPARED_DIR);
/** The cache directory of a built server (null when run from the sources). */
const CACHE_DIR = BUILT ? join(PREPARED_DIR!, 'cache') : null;
const KEPT_CACHE_FILES = 16;

async function pruneCache(): Promise<void> {
  const dir = CACHE_DIR;
  if (dir === null) return;
  const files = await Promise.all(
    (await readdir(dir)).filter((f) => /\.jsonl?$/.test(f)).map(async (f) => ({ f, at: (await stat(join(dir, f))).mtimeMs })),
  );
  files.sort((a, b) => a.at - b.at);
  for (const { f } of files.slice(0, Math.max(0, files.length - KEPT_CACHE_FILES))) await rm(join(dir, f), { force: true });
}

/**
 * A cache too large to hold as one text (issue 17, memory: a 75 MB template read as one string and parsed
 * costs its text, its parsed copy and the garbage between them at once, and RSS keeps that peak): one JSON
 * value a line, after a line recording the build. Writing consumes every line, even when nothing can be
 * written (the caller may build something from them as they go), holds at most WRITE_BATCH characters of
 * them at once, and tells whether the file was written.
 */
const WRITE_BATCH = 1 << 20;

export async function writeCachedLines(name: string, lines: Iterable<string>): Promise<boolean> {
  const path = CACHE_DIR === null ? '' : join(CACHE_DIR, name);
  // Two realms of one new size made at once write the same cache from two threads of this process.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let file: Awaited<ReturnType<typeof open>> | null = null;
  try {
    if (CACHE_DIR !== null) {
      await mkdir(dirname(path), { recursive: true });
      file = await open(temporary, 'w');
    }
  } catch {
    file = null; // a read-only installation simply caches nothing
  }
  let batch = `${JSON.stringify({ build: buildStamp() })}\n`;
  const flush = async () => {
    const text = batch;
    batch = '';
    try {
      await file?.write(text);
    } catch {
      await file?.close();
      file = null; // a cache that cannot be written (full disk) only means generating again next time
      await rm(temporary, { force: true });
    }
  };
  for (const line of lines) {
    batch += `${line}\n`;
    if (batch.length >= WRITE_BATCH) await flush();
  }
  await flush();
  if (!file) return false;
  try {
    await file.close();
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true });
    return false;
  }
  await pruneCache().catch(() => undefined);
  return true;
}

/** Calls `each` with every line of a cache written by writeCachedLines for this build; false when there is none. */
export async function readCachedLines(name: string, each: (line: string) => void): Promise<boolean> {
  if (CACHE_DIR === null) return false;
  const input = createReadStream(join(CACHE_DIR, name), { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header = true;
  try {
    for await (const line of lines) {
      if (!header) each(line);
      else if (!current((JSON.parse(line) as { build?: unknown }).build)) return false;
      header = false;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  } finally {
    lines.close();
    input.destroy();
  }
  return !header;
}
