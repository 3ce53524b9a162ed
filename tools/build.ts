import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { prepareShippedProducts } from './prepare-build.js';

/**
 * `npm run build` (and `prepare`): the one artefact, made one way, into dist/.
 *
 * 1. `tsc -p tsconfig.build.json`: type-checks and writes declarations only (dist/types/), for the package's
 *    `types`. No JavaScript comes from tsc; a bare `tsc` (tsconfig.json has noEmit) writes nothing.
 * 2. esbuild bundles every entry from the TypeScript sources: the CLI (dist/teamchat.js, all bin/teamchat.js
 *    runs), the package entries (dist/index.js, dist/conformance.js, dist/control.js) and the realm
 *    generator's worker (dist/template-worker.js). Code loaded on demand (the suite, the generator, pino,
 *    highlight.js) stays in chunks of their own (`splitting`), so `serve` does not parse it. Every package the
 *    program uses is bundled except those package.json still lists as `dependencies`.
 * 3. Redoc's page script, which GET /docs serves as a file, is copied into dist/redoc/.
 * 4. tools/prepare-build.ts writes the products shipped read-only in dist/prepared/ (the dereferenced
 *    document, the default demo realm), so a start neither parses YAML nor generates a realm.
 *
 * `--bundle-only` skips tsc (steps 2-4 take a second or two): `npm start`, `npm run teamchat` and
 * `npm run conform` run it first, so they always run the code as it is now.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/** The package entries (package.json `exports`) and the files run as programs or threads. */
export const ENTRIES = {
  teamchat: 'cli/teamchat.ts',
  index: 'mock-server/src/index.ts',
  conformance: 'conformance/src/api.ts',
  control: 'mock-server/src/control/client.ts',
  'template-worker': 'mock-server/src/fixtures/template-worker.ts',
};

/**
 * A module that loads a CommonJS package on first use, synchronously (ajv, highlight.js, the emoji table),
 * declares `const require = createRequire(import.meta.url)`: Node runs that from the sources as it is. Here
 * the declaration is dropped, so each `require('package')` is esbuild's own: the package is bundled and still
 * evaluated only when that call first runs. A `require` of a computed name is left to Node (re2-wasm).
 */
const bundleLazyRequires: Plugin = {
  name: 'bundle-lazy-requires',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('const require = createRequire(import.meta.url);')) return undefined;
      return { contents: text.replace(/^\s*const require = createRequire\(import\.meta\.url\);$/m, ''), loader: 'ts' };
    });
  },
};

/**
 * What the program requires by name only when first needed, kept out of the chunks as files of their own beside
 * them, so that a start does not read and parse them with the chunk that renders Markdown: highlight.js's common
 * languages (the first highlighted block), all its languages (1.6 MB, the first block in a rarer language), the
 * emoji names (the first emoji). The bundles require each by its file name, relative to the chunk that asks.
 */
const APART: Record<string, string> = {
  'highlight.js/lib/common': 'highlight-common.cjs',
  'highlight.js': 'highlight-every-language.cjs',
  'emojibase-data/en/shortcodes/iamcal.json': 'emoji-iamcal.json',
};

const keepApart: Plugin = {
  name: 'keep-apart',
  setup(b) {
    b.onResolve({ filter: /^(highlight\.js|emojibase-data)(\/|$)/ }, (args) =>
      args.kind === 'require-call' && Object.hasOwn(APART, args.path) ? { path: `./${APART[args.path]!}`, external: true } : undefined,
    );
  },
};

/** A file kept apart: the JSON as it is, a CommonJS package bundled into one CommonJS file. */
async function apartFile(name: string): Promise<Uint8Array> {
  const path = createRequire(import.meta.url).resolve(name);
  if (path.endsWith('.json')) return readFile(path);
  const result = await build({
    entryPoints: [path],
    write: false,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    minifyWhitespace: true,
    logLevel: 'error',
  });
  return result.outputFiles[0]!.contents;
}

/** The dependencies left to Node at run time (package.json `dependencies`). */
async function runtimeDependencies(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {});
}

/**
 * Writes the bundles. A file whose content is unchanged is left alone and a changed one replaced by a rename, and
 * chunks no longer produced go last: a program already running from dist/ (a server started before `npm start`
 * rebuilt) never reads a half-written file or misses a chunk it loads later. Chunk names carry their content's
 * hash, so a changed chunk is a new file.
 */
async function bundle(): Promise<void> {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(root, path)])),
    outdir: dist,
    write: false,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    // Bundled CommonJS calls require() for Node's built-ins (and re2-wasm); an ES module has none of its own.
    banner: {
      js: "import { createRequire as __teamchatCreateRequire } from 'node:module'; const require = __teamchatCreateRequire(import.meta.url);",
    },
    external: await runtimeDependencies(),
    plugins: [bundleLazyRequires, keepApart],
    legalComments: 'none',
    // A third less to read and parse at every start; names are kept, so stack traces stay readable.
    minifyWhitespace: true,
    logLevel: 'error',
  });
  const chunks = join(dist, 'chunks');
  const written = new Set<string>(Object.values(APART).map((file) => join(chunks, file)));
  for (const file of result.outputFiles) {
    const apart = Object.values(APART).find((name) => file.text.includes(`"./${name}"`));
    if (apart !== undefined && dirname(file.path) !== chunks) throw new Error(`${file.path} requires ./${apart} but is not a chunk`);
    written.add(file.path);
    await writeIfChanged(file.path, file.contents);
  }
  for (const [name, file] of Object.entries(APART)) await writeIfChanged(join(chunks, file), await apartFile(name));
  for (const name of await readdir(chunks)) if (!written.has(join(chunks, name))) await rm(join(chunks, name), { force: true });
}

async function writeIfChanged(path: string, contents: Uint8Array): Promise<void> {
  const old = await readFile(path).catch(() => null);
  if (old !== null && Buffer.compare(old, contents) === 0) return;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

/** Redoc's standalone page script (its styles are inside it) and its licence, served by GET /docs/…. */
async function copyRedoc(): Promise<void> {
  const script = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  for (const file of ['redoc.standalone.js', 'redoc.standalone.js.LICENSE.txt'])
    await writeIfChanged(join(dist, 'redoc', file), await readFile(join(dirname(script), file)));
}

function typecheck(): void {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

async function main(): Promise<void> {
  if (!process.argv.includes('--bundle-only')) {
    // Only the declarations are emptied first (tsc would leave a removed module's behind). The bundles, Redoc's
    // script and the shipped products are replaced file by file, so a server or test reading dist/ while a build
    // runs never finds it gone.
    await rm(join(dist, 'types'), { recursive: true, force: true });
    typecheck();
  }
  await bundle();
  await copyRedoc();
  await prepareShippedProducts(join(dist, 'prepared'));
}

await main();
