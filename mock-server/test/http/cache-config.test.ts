import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../cli/package-root.js';
import { CACHE_DIR_ENV, productCache } from '../../src/config/cache.js';
import { DEFAULT_OPENAPI_PATH, ensureDocument } from '../../src/http/openapi.js';
import { main } from '../../src/cli.js';
import { startTestServer } from '../helpers/test-server.js';
import { plantRealmName } from '../helpers/plant-realm-name.js';
import { stop, type Spawned } from '../helpers/spawn-server.js';

/**
 * The cache directory is configuration (config/cache.ts `cacheDirOf`): `cacheDir` / `--cache-dir`, `--no-cache`,
 * TEAMCHAT_CACHE_DIR, else beside the state file. The library (createMockServer) and the command line find one
 * product at one path; a start with a warm cache loads neither the YAML parser nor the realm generator; and
 * nothing is ever written under dist/.
 */
let root: string;
const spawned: Spawned[] = [];
/** The cache directories of this file's in-process servers (none: null). */
const usedCacheDirs: string[] = [];
const noted = <T extends { context: { config: { cacheDir?: string | null } } }>(server: T): T => {
  if (server.context.config.cacheDir) usedCacheDirs.push(server.context.config.cacheDir);
  return server;
};
let shippedBefore: string[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamchat-cache-config-'));
  shippedBefore = await shippedEntries();
});
afterAll(async () => {
  for (const server of spawned) await stop(server);
  await rm(root, { recursive: true, force: true });
});

/**
 * The products shipped in dist/prepared/, by name and size. A server may read them, never write: a write would
 * add an entry or change one. Names and sizes rather than times, since the artefact's smoke test
 * (cli/test/compiled.test.ts) may rebuild dist/ meanwhile, rewriting the same entries by rename.
 */
async function shippedEntries(): Promise<string[]> {
  const dir = packagePath('dist/prepared');
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir)).filter((name) => !name.endsWith('.tmp')).sort();
  return Promise.all(names.map(async (name) => `${name} ${(await stat(join(dir, name))).size}`));
}

const templates = async (dir: string) => (existsSync(dir) ? (await readdir(dir)).filter((f) => f.startsWith('demo-realm-')) : []);

/** Runs `fn` with TEAMCHAT_CACHE_DIR set to `value` (undefined: unset), as the server reads it at start. */
async function withCacheEnv<T>(value: string | undefined, fn: () => Promise<T>): Promise<T> {
  const saved = process.env[CACHE_DIR_ENV];
  if (value === undefined) delete process.env[CACHE_DIR_ENV];
  else process.env[CACHE_DIR_ENV] = value;
  try {
    return await fn();
  } finally {
    process.env[CACHE_DIR_ENV] = saved;
  }
}

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** `teamchat serve` from the sources, with extra node options; resolves with its URL once the banner is out. */
async function serve(args: string[], env: NodeJS.ProcessEnv, imports: string[] = []): Promise<Spawned & { url: string }> {
  const hooks = imports.flatMap((file) => ['--import', file]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...hooks, CLI, 'serve', '--port', '0', '--in-memory', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)[\s\S]*try: curl/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
  const server = { child, url, output: () => output };
  spawned.push(server);
  return server;
}

describe('where a server caches', () => {
  it('beside its state file by default: a template it had to make is cached there', () =>
    withCacheEnv(undefined, async () => {
      const state = join(root, 'beside', 'state.json');
      const server = noted(await startTestServer({ statePath: state, seed: 17 }));
      try {
        expect(server.context.config.cacheDir).toBe(join(root, 'beside', 'cache'));
        expect(await templates(join(root, 'beside', 'cache'))).toHaveLength(1);
      } finally {
        await server.close();
      }
    }));

  it('nowhere with cacheDir null (whatever TEAMCHAT_CACHE_DIR says), or in memory without TEAMCHAT_CACHE_DIR', async () => {
    const state = join(root, 'none', 'state.json');
    const fromEnv = join(root, 'none-env');
    const cases = [
      { env: fromEnv, options: { statePath: state, cacheDir: null } },
      { env: undefined, options: { statePath: null } },
    ];
    for (const { env, options } of cases) {
      const server = await withCacheEnv(env, () => startTestServer({ ...options, seed: 18 }));
      await server.close();
      expect(server.context.config.cacheDir).toBeNull();
    }
    expect(await readdir(join(root, 'none'))).not.toContain('cache');
    expect(existsSync(fromEnv)).toBe(false);
  });

  it('TEAMCHAT_CACHE_DIR for a server in memory (the test run sets one)', async () => {
    const server = noted(await startTestServer());
    await server.close();
    expect(server.context.config.cacheDir).toBe(process.env[CACHE_DIR_ENV]);
  });
});

describe('one product, one path, from the library and the command line', () => {
  it('a template the library cached is what `teamchat serve --cache-dir` starts on, loading no YAML parser or generator', async () => {
    const dir = join(root, 'shared');
    const server = noted(await startTestServer({ cacheDir: dir, seed: 19 }));
    await server.close();
    const [entry] = await templates(dir);
    expect(entry).toBeDefined();
    await ensureDocument(await readFile(DEFAULT_OPENAPI_PATH, 'utf8'), productCache(dir, { shipped: null }));
    // A realm name planted in the entry shows the command line read the library's entry.
    await plantRealmName(join(dir, entry!), 'Planted');
    // The hooks make the process fail on importing the YAML parser, the reference resolver or faker.
    const preparedOnly = fileURLToPath(new URL('../../../cli/test/fixtures/prepared-only.mjs', import.meta.url));
    const cli = await serve(['--cache-dir', dir, '--seed', '19'], { ...process.env, [CACHE_DIR_ENV]: '' }, [preparedOnly]);
    const realms = (await (await fetch(`${cli.url}/__mock/realms`)).json()) as { realms: { realm_id: string; name: string }[] };
    expect(realms.realms.find((r) => r.realm_id === 'demo')?.name).toBe('Planted');
    await stop(cli);
    expect(cli.output()).not.toContain('imported');
    // `--no-cache` passes over the same warm cache, though TEAMCHAT_CACHE_DIR names it: the document (unless the
    // build shipped it) and the template of seed 19 (never shipped) are made again.
    const cold = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', preparedOnly, CLI, 'serve', '--port', '0', '--in-memory', '--no-cache', '--seed', '19'],
      {
        env: { ...process.env, [CACHE_DIR_ENV]: dir },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(cold.stderr).toMatch(/imported (yaml|@apidevtools\/swagger-parser|@faker-js\/faker)/);
    expect(cold.status).toBe(2);
  });

  it('`--no-cache` with `--cache-dir` is a usage error', async () => {
    const stderr: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (text: string) => stderr.push(text) > 0 } };
    expect(await main(['serve', '--in-memory', '--port', '0', '--no-cache', '--cache-dir', root], io as never)).toBe(2);
    expect(stderr.join('')).toMatch(/--no-cache.*cannot be used with.*--cache-dir/);
  });
});

describe('dist/', () => {
  it('is never written to at run time: no cache directory of this file lies in it, the shipped products are as they were', async () => {
    const dist = packagePath('dist');
    for (const dir of usedCacheDirs) expect(dir.startsWith(dist)).toBe(false);
    expect(usedCacheDirs.length).toBeGreaterThan(0);
    expect(await shippedEntries()).toEqual(shippedBefore);
  });
});
