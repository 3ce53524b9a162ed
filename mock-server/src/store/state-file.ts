import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ServerConfig } from '../config/config.js';
import { filePersistence } from './file-persistence.js';
import { acquireStateLock, type StateLock } from './state-lock.js';

/** The state file as the composition root opens it: its lock first, then its persistence (app.ts createMockServer). */

/** A line about the state file the operator should read (a damaged file kept aside, a stale lock taken over). */
const warnState = (line: string) => console.warn(`teamchat-kit: ${line}`);

export async function lockStateFile(statePath: string): Promise<StateLock> {
  const path = resolve(statePath);
  await mkdir(dirname(path), { recursive: true });
  return acquireStateLock(path, warnState);
}

export function openStateFile(config: Pick<ServerConfig, 'statePath' | 'durability' | 'reset'>) {
  // --reset regenerates the default realm, so a damaged file is no reason to refuse: it is kept aside.
  return filePersistence({
    path: resolve(config.statePath!),
    durability: config.durability,
    setAsideDamaged: config.reset,
    warn: warnState,
  });
}
