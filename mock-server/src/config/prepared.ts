import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `npm run build` prepares so that start-up need not (issue 17 item 2): tools/prepare-build.ts,
 * run after tsc, writes the dereferenced OpenAPI document and the default demo realm into dist/prepared/.
 * The directory is found from this module (dist/mock-server/src/config/ → dist/prepared/), so code run
 * from the sources (tests, tsx) never reads what a build of possibly other sources prepared: there the
 * directory does not exist and everything is prepared at run time, as before.
 */
export const PREPARED_DIR = fileURLToPath(new URL('../../../prepared/', import.meta.url));

/** tsc's record of the last build: written whenever tsc emitted something, absent from the published package. */
const BUILD_INFO = fileURLToPath(new URL('../../../.tsbuildinfo', import.meta.url));

/**
 * Which compilation the prepared files belong to: the size and time of dist/.tsbuildinfo when they were
 * written (null when there is none). A later `tsc` alone (without the preparation step) changes it, and
 * the prepared files are then ignored rather than trusted for code they were not made by.
 */
export function buildStamp(): string | null {
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
  let text: string;
  try {
    text = readFileSync(join(PREPARED_DIR, name), 'utf8');
  } catch {
    return null;
  }
  const prepared = JSON.parse(text) as Prepared<T>;
  const stamp = buildStamp();
  return stamp === null || prepared.build === stamp ? prepared.content : null;
}

/** The form of every prepared file: the build it belongs to and what was prepared. */
export interface Prepared<T> {
  build: string | null;
  content: T;
}

/** Writes a prepared file for this build (tools/prepare-build.ts; the run-time cache below), atomically. */
export async function writePrepared(name: string, content: unknown): Promise<void> {
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
export const BUILT = existsSync(PREPARED_DIR);
const KEPT_CACHE_FILES = 16;

export function readCached<T>(name: string): T | null {
  return BUILT ? readPrepared<T>(join('cache', name)) : null;
}

export async function writeCached(name: string, content: unknown): Promise<void> {
  if (!BUILT) return;
  try {
    await writePrepared(join('cache', name), content);
    const dir = join(PREPARED_DIR, 'cache');
    const files = await Promise.all(
      (await readdir(dir)).filter((f) => f.endsWith('.json')).map(async (f) => ({ f, at: (await stat(join(dir, f))).mtimeMs })),
    );
    files.sort((a, b) => a.at - b.at);
    for (const { f } of files.slice(0, Math.max(0, files.length - KEPT_CACHE_FILES))) await rm(join(dir, f), { force: true });
  } catch {
    // A cache that cannot be written (read-only installation, full disk) only means generating again next time.
  }
}
