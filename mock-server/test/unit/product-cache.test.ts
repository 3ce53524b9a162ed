import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR_ENV, cacheDirOf, productCache, type LineReader } from '../../src/config/cache.js';

/**
 * The product cache (config/cache.ts): entries found by product and key, read-only shipped products before the
 * cache directory, bounded by entries and bytes with the least recently used out first, damaged entries
 * ignored and replaced, unwritable directories meaning only that nothing is cached.
 */
let root: string;
beforeAll(async () => void (root = await mkdtemp(join(tmpdir(), 'teamchat-product-cache-'))));
afterAll(async () => rm(root, { recursive: true, force: true }));

let made = 0;
const fresh = async () => join(root, `d${made++}`);

/** Collects an entry's lines. */
const lines = (): LineReader<string[]> => {
  const seen: string[] = [];
  return { line: (text) => void seen.push(text), done: () => seen };
};
const entries = async (dir: string) => (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();

describe('entries by product and key', () => {
  it('finds what was written under the same product and key, and nothing under another key or product', async () => {
    const cache = productCache(await fresh(), { shipped: null });
    expect(await cache.write('doc', 'k1', ['{"a":1}', '[2]'])).toBe(true);
    expect(await cache.read('doc', 'k1', lines)).toEqual(['{"a":1}', '[2]']);
    expect(await cache.read('doc', 'k2', lines)).toBeNull();
    expect(await cache.read('other', 'k1', lines)).toBeNull();
    // An empty product is a product.
    expect(await cache.write('doc', 'empty', [])).toBe(true);
    expect(await cache.read('doc', 'empty', lines)).toEqual([]);
  });

  it('without a directory writes nothing and finds nothing but the shipped products', async () => {
    const shipped = await fresh();
    expect(await productCache(shipped, { shipped: null }).write('doc', 'k', ['shipped'])).toBe(true);
    const cache = productCache(null, { shipped });
    expect(cache.dir).toBeNull();
    expect(await cache.write('doc', 'k2', ['x'])).toBe(false);
    expect(await cache.read('doc', 'k', lines)).toEqual(['shipped']);
  });

  it('ensure makes a product only when its key has no whole entry, and names the entry', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null });
    let makes = 0;
    const make = async () => {
      makes += 1;
      return ['{"made":true}'];
    };
    const name = await cache.ensure('doc', 'k', make);
    expect(await entries(dir)).toEqual([name]);
    expect(await cache.ensure('doc', 'k', make)).toBe(name);
    expect(makes).toBe(1);
    // A damaged entry is not whole: it is made again.
    const text = await readFile(join(dir, name!), 'utf8');
    await writeFile(join(dir, name!), text.slice(0, -3));
    expect(await cache.ensure('doc', 'k', make)).toBe(name);
    expect(makes).toBe(2);
    expect(await cache.read('doc', 'k', lines)).toEqual(['{"made":true}']);
    expect(await productCache(null, { shipped: null }).ensure('doc', 'k', make)).toBeNull();
    expect(makes).toBe(2);
  });

  it('reads the shipped products first, never writes or removes them, and keeps its own entries elsewhere', async () => {
    const [shipped, dir] = [await fresh(), await fresh()];
    await productCache(shipped, { shipped: null }).write('doc', 'k', ['shipped']);
    const before = await readFile(join(shipped, (await entries(shipped))[0]!), 'utf8');
    const cache = productCache(dir, { shipped });
    expect(await cache.write('doc', 'k', ['cached'])).toBe(true);
    expect(await cache.read('doc', 'k', lines)).toEqual(['shipped']);
    // A damaged shipped entry is passed over (the cache directory answers) but left as it is.
    const [name] = await entries(shipped);
    await writeFile(join(shipped, name!), before.slice(0, -3));
    expect(await cache.read('doc', 'k', lines)).toEqual(['cached']);
    expect(await entries(shipped)).toEqual([name]);
    expect(await readFile(join(shipped, name!), 'utf8')).toBe(before.slice(0, -3));
  });
});

describe('damaged entries', () => {
  it.each([
    ['cut after a line', (text: string) => text.slice(0, text.indexOf('\n', text.indexOf('\n') + 1) + 1)],
    ['cut inside a line', (text: string) => text.slice(0, -5)],
    ['empty', () => ''],
    ['another header', (text: string) => text.replace('"k"', '"j"')],
  ])('%s: ignored, removed, and replaced by the next write', async (_name, damage) => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null });
    await cache.write('doc', 'k', ['[1]', '[2]', '[3]']);
    const [name] = await entries(dir);
    const path = join(dir, name!);
    await writeFile(path, damage(await readFile(path, 'utf8')));
    // The reader given a fresh start per attempt: a failed attempt's lines are never returned.
    expect(await cache.read('doc', 'k', lines)).toBeNull();
    expect(await entries(dir)).toEqual([]);
    expect(await cache.write('doc', 'k', ['[1]', '[2]', '[3]'])).toBe(true);
    expect(await cache.read('doc', 'k', lines)).toEqual(['[1]', '[2]', '[3]']);
  });

  it('a reader that refuses a line (unparseable content) counts as a damaged entry', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null });
    await cache.write('doc', 'k', ['not json']);
    const parsing = (): LineReader<unknown> => ({ line: (text) => JSON.parse(text), done: () => 'parsed' });
    expect(await cache.read('doc', 'k', parsing)).toBeNull();
    expect(await entries(dir)).toEqual([]);
  });
});

describe('bounds', () => {
  it('keeps at most `entries` entries: the least recently used (written or read) go first', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null, bounds: { entries: 3, bytes: 1 << 20 } });
    for (const key of ['a', 'b', 'c']) await cache.write('p', key, [key]);
    // Times set apart, so the order does not rest on the file system's time resolution.
    const names = await entries(dir);
    for (const [i, name] of names.entries()) await utimes(join(dir, name), 1_000 + i, 1_000 + i);
    const oldest = (await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(dir, n))).mtimeMs })))).sort((x, y) => x.t - y.t);
    // Reading the oldest makes it the most recently used, so the next oldest is evicted instead.
    const keyOf = async (name: string) => JSON.parse((await readFile(join(dir, name), 'utf8')).split('\n')[0]!).key as string;
    const [oldestKey, nextKey] = [await keyOf(oldest[0]!.n), await keyOf(oldest[1]!.n)];
    expect(await cache.read('p', oldestKey, lines)).toEqual([oldestKey]);
    expect(await cache.write('p', 'd', ['d'])).toBe(true);
    expect(await entries(dir)).toHaveLength(3);
    expect(await cache.read('p', oldestKey, lines)).toEqual([oldestKey]);
    expect(await cache.read('p', nextKey, lines)).toBeNull();
    expect(await cache.read('p', 'd', lines)).toEqual(['d']);
  });

  it('keeps at most `bytes` bytes, and does not cache a product larger than the whole cache', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null, bounds: { entries: 100, bytes: 3_000 } });
    const big = (c: string) => [c.repeat(900)];
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      expect(await cache.write('p', key, big(key))).toBe(true);
      const sizes = await Promise.all((await entries(dir)).map(async (n) => (await stat(join(dir, n))).size));
      expect(sizes.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(3_000);
    }
    expect(await cache.read('p', 'e', lines)).toEqual(big('e'));
    expect(await cache.write('p', 'huge', ['x'.repeat(3_001)])).toBe(false);
    expect(await cache.read('p', 'huge', lines)).toBeNull();
    expect(await cache.read('p', 'e', lines)).toEqual(big('e'));
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('removes temporary files left by writers that died an hour ago or more, and leaves newer ones', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'p-x.jsonl.1.dead.tmp'), 'partial');
    await utimes(join(dir, 'p-x.jsonl.1.dead.tmp'), 1_000, 1_000);
    await writeFile(join(dir, 'p-y.jsonl.2.live.tmp'), 'partial');
    await cache.write('p', 'k', ['v']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual(['p-y.jsonl.2.live.tmp']);
  });
});

describe('a directory that cannot be written', () => {
  it('means only that nothing is cached: writes answer false, reads find nothing, nothing throws', async () => {
    const file = join(await fresh(), 'a-file');
    await mkdir(resolve(file, '..'), { recursive: true });
    await writeFile(file, 'not a directory');
    const cache = productCache(join(file, 'cache'), { shipped: null });
    expect(await cache.write('p', 'k', ['v'])).toBe(false);
    expect(await cache.read('p', 'k', lines)).toBeNull();
  });

  // Root writes into a directory whatever its mode: the mode is what refuses other users.
  it.skipIf(process.getuid?.() === 0)('a read-only directory: its entries are still read, nothing is written', async () => {
    const dir = await fresh();
    const cache = productCache(dir, { shipped: null });
    await cache.write('p', 'old', ['v']);
    const { chmod } = await import('node:fs/promises');
    await chmod(dir, 0o555);
    try {
      expect(await cache.write('p', 'new', ['w'])).toBe(false);
      expect(await cache.read('p', 'old', lines)).toEqual(['v']);
    } finally {
      await chmod(dir, 0o755);
    }
  });
});

describe('concurrent writers', () => {
  it('of one entry, interleaved with readers: every read finds nothing or the whole product, and one entry remains', async () => {
    const dir = await fresh();
    const writers = Array.from({ length: 8 }, () => productCache(dir, { shipped: null }));
    const product = Array.from({ length: 5_000 }, (_, i) => JSON.stringify([i, 'x'.repeat(200)]));
    const reads: (string[] | null)[] = [];
    const reading = (async () => {
      for (let i = 0; i < 20; i += 1) reads.push(await writers[0]!.read('p', 'k', lines));
    })();
    const written = await Promise.all(writers.map((cache) => cache.write('p', 'k', product)));
    await reading;
    expect(written).toEqual(writers.map(() => true));
    for (const read of reads) if (read !== null) expect(read).toEqual(product);
    expect(await writers[0]!.read('p', 'k', lines)).toEqual(product);
    expect(await readdir(dir)).toHaveLength(1);
  });
});

describe('cacheDirOf: configuration decides', () => {
  const withEnv = (value: string | undefined, run: () => void) => {
    const saved = process.env[CACHE_DIR_ENV];
    if (value === undefined) delete process.env[CACHE_DIR_ENV];
    else process.env[CACHE_DIR_ENV] = value;
    try {
      run();
    } finally {
      if (saved === undefined) delete process.env[CACHE_DIR_ENV];
      else process.env[CACHE_DIR_ENV] = saved;
    }
  };

  it('the given directory, or none when null, whatever the environment', () =>
    withEnv('/tmp/from-env', () => {
      expect(cacheDirOf({ cacheDir: 'rel/cache', statePath: 's/state.json' })).toBe(resolve('rel/cache'));
      expect(cacheDirOf({ cacheDir: null, statePath: 's/state.json' })).toBeNull();
    }));

  it('else TEAMCHAT_CACHE_DIR, else beside the state file, else none for a state in memory', () => {
    withEnv('/tmp/from-env', () => expect(cacheDirOf({ statePath: null })).toBe('/tmp/from-env'));
    withEnv(undefined, () => {
      expect(cacheDirOf({ statePath: '.teamchat/state.json' })).toBe(resolve('.teamchat/cache'));
      expect(cacheDirOf({ statePath: null })).toBeNull();
    });
  });

  it('the test run has one temporary cache directory, set by the global setup', () => {
    expect(process.env[CACHE_DIR_ENV]).toMatch(/teamchat-test-cache-/);
  });
});
