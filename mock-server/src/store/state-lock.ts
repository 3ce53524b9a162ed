import { link, readFile, unlink, writeFile } from 'node:fs/promises';

/**
 * One server per state file. Two servers on one file both append to its journal and both answer the
 * same new ids, so one of them loses acknowledged writes at the next start: `<state>.lock` holds the pid
 * of the server that owns the file, and a second server refuses to start before it reads or writes any
 * of the file's data.
 *
 * The lock is made by writing the pid to a file of our own and hard-linking it to the lock's name:
 * link(2) fails when the name exists (as O_EXCL does), and the lock is never seen empty, so a reader
 * always finds a pid. A lock whose pid no longer runs was left by a crash (kill -9, power loss) and is
 * taken over. Two servers taking over the same stale lock at the same instant could both succeed; that
 * needs two starts within the same few microseconds after a crash, which a developer's machine does not see.
 */

/** Another live process holds the state file. */
export class StateInUse extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `the state file is in use by another server (pid ${pid}, lock ${lockPath}): stop that server or pass another --state (or --in-memory)`,
    );
    this.name = 'StateInUse';
  }
}

export interface StateLock {
  readonly path: string;
  /** Removes the lock if it is still ours. Called once, after the state file's last write. */
  release(): Promise<void>;
}

/**
 * Lock files this process holds. A lock naming our own pid that is not among them was left by an earlier
 * process that had the same pid (a container's pid 1 restarted after a crash): stale, taken over.
 */
const heldHere = new Set<string>();

export async function acquireStateLock(statePath: string, log: (line: string) => void): Promise<StateLock> {
  const path = `${statePath}.lock`;
  if (heldHere.has(path)) throw new StateInUse(path, process.pid);
  const own = `${path}.${process.pid}`;
  await writeFile(own, `${process.pid}\n`, { mode: 0o644 }).catch((e: Error) => {
    throw new Error(`cannot lock the state file ${statePath} (${e.message}): pass a --state in a directory you can write`);
  });
  try {
    if (!(await linked(own, path))) {
      const holder = await holderOf(path);
      if (holder !== null && holder !== process.pid && isRunning(holder)) throw new StateInUse(path, holder);
      log(
        holder === process.pid
          ? `state: took over ${path}, left by an earlier process with this pid (${holder})`
          : `state: took over ${path} from pid ${holder ?? '(unreadable)'}, which is no longer running`,
      );
      await unlink(path).catch(ignoreMissing);
      if (!(await linked(own, path))) throw new StateInUse(path, (await holderOf(path)) ?? 0);
    }
  } finally {
    await unlink(own).catch(ignoreMissing);
  }
  heldHere.add(path);
  let released = false;
  return {
    path,
    release: async () => {
      if (released) return;
      released = true;
      heldHere.delete(path);
      // Only our own: a lock another process took over (ours looked stale to it) is not ours to remove.
      if ((await holderOf(path)) === process.pid) await unlink(path).catch(ignoreMissing);
    },
  };
}

async function linked(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links (vfat, some network mounts): an exclusive create does the same, but
    // the lock exists empty for a moment, in which a server starting at that instant could take it over.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createdExclusively(to);
    throw e;
  }
}

async function createdExclusively(path: string): Promise<boolean> {
  try {
    await writeFile(path, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The pid a lock file names, or null when it names none (or is gone). */
async function holderOf(path: string): Promise<number | null> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const pid = /^\s*(\d+)\s*$/.exec(text)?.[1];
  return pid === undefined ? null : Number(pid);
}

/** Whether a process with this pid runs (EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** For a `catch` of a file operation: a file already gone is no error. */
export function ignoreMissing(e: NodeJS.ErrnoException): void {
  if (e.code !== 'ENOENT') throw e;
}
