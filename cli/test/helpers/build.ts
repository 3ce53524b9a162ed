import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * `npm run --silent build`, for the test files that run the compiled program (bin/teamchat.js runs dist/):
 * serialised across the test run's processes by a lock directory, and skipped when another file of the same run
 * built moments ago. The build's output ('' on success) and status, as spawnSync gave them.
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
    if (age(DONE) < REUSE_MS && sameRun()) return { output: '', status: 0 };
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
    if (build.status === 0) {
      writeFileSync(DONE, String(process.ppid));
    }
    return { output: build.stderr + build.stdout, status: build.status };
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
