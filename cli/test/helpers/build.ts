import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
/** One build at a time per checkout: test files run in parallel, and two builds writing dist/ at once tear it. */
const LOCK = join(tmpdir(), `teamchat-build-${key}.lock`);
/**
 * Written when a build succeeds, with the test run's process (vitest's main process, the parent of its forked
 * workers): a build of the same run finished moments ago is reused; any other run builds again.
 */
const DONE = join(tmpdir(), `teamchat-build-${key}.done`);
const REUSE_MS = 120_000;
/**
 * Touched when a build succeeds, with the time it started: the inputs it read are at most that new. The build leaves
 * a product whose content did not change as it was, time included (tools/build.ts `writeIfChanged`), so the
 * products' own times say when they last changed, not when they were last built from the inputs.
 */
const BUILT = join(tmpdir(), `teamchat-build-${key}.built`);
const STALE_LOCK_MS = 300_000;
const WAIT_MS = 240_000;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/** Wall-clock milliseconds (the lock's and marker's ages are measured against file times). */
const wallClock = () => performance.timeOrigin + performance.now();
const age = (path: string) => {
  try {
    return wallClock() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
};

const sameRun = () => {
  try {
    return readFileSync(DONE, 'utf8') === String(process.ppid);
  } catch {
    return false;
  }
};

/** Folders of the checkout that test runs write to (the JUnit report): not inputs of the build. */
const OUTPUTS = new Set(['reports']);
/**
 * What a full build writes whole (tools/build.ts): dist/types/ is emptied and written first, the entries are
 * written after it. A build that stopped (tsc found an error) leaves the entries older than its inputs.
 */
const PRODUCTS = ['dist/types', ...['teamchat', 'index', 'conformance', 'control', 'template-worker'].map((e) => `dist/${e}.js`)];

const modified = (path: string) => {
  try {
    return statSync(join(root, path)).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * Whether dist/ was built after every input of the build last changed, so that building again would make the
 * same artefact (a fresh checkout's `npm ci` has just built it, through `prepare`): the oldest of the products,
 * or the start of the last build these tests ran, whichever is later, is newer than every file git lists in the
 * checkout (tracked, or new and not ignored), every folder holding them (a deleted file changes its folder) and
 * the lock of the installed dependencies. A product missing, an input changed since or gone: build again. Outside
 * a git checkout: always build.
 */
function builtSinceInputsChanged(): boolean {
  const products = Math.min(...PRODUCTS.map((p) => modified(p) ?? -Infinity));
  if (products === -Infinity) return false;
  const built = Math.max(products, wallClock() - age(BUILT));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (listed.status !== 0) return false;
  const inputs = new Set(['node_modules/.package-lock.json']);
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || OUTPUTS.has(file.split('/')[0]!)) continue;
    inputs.add(file);
    for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) inputs.add(folder);
  }
  for (const input of inputs) if ((modified(input) ?? Infinity) >= built) return false;
  return true;
}

/**
 * `npm run --silent build`, for the test files that run the compiled program (bin/teamchat.js runs dist/):
 * serialised across the test run's processes by a lock directory, and skipped when another file of the same run
 * built moments ago or dist/ is already built from the inputs as they are. The build's output ('' on success)
 * and status, as spawnSync gave them.
 */
export function buildDist(): { output: string; status: number | null } {
  const began = performance.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock left by a killed run is taken over; otherwise wait for the build in progress.
      if (age(LOCK) > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else if (performance.now() - began > WAIT_MS) throw new Error(`another build still holds ${LOCK}`);
      else sleep(200);
    }
  }
  try {
    if ((age(DONE) < REUSE_MS && sameRun()) || builtSinceInputsChanged()) return { output: '', status: 0 };
    const start = new Date(wallClock());
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
    if (build.status === 0) {
      writeFileSync(DONE, String(process.ppid));
      writeFileSync(BUILT, '');
      utimesSync(BUILT, start, start);
    }
    return { output: build.stderr + build.stdout, status: build.status };
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
