import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR_ENV } from '../mock-server/src/config/cache.js';

/**
 * vitest's globalSetup: one temporary product cache for the whole run (mock-server/src/config/cache.ts), named
 * by TEAMCHAT_CACHE_DIR for every test file and every server they start, in process or as a child. So the
 * dereferenced document and each demo realm template are made once per run and shared, and ordinary tests go
 * through the cached path. Removed when the run ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-test-cache-'));
  process.env[CACHE_DIR_ENV] = dir;
  return async () => {
    delete process.env[CACHE_DIR_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
