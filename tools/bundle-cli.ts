import { statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The start-up bundle (issue 17's cold start, measured again in issue 19): `bin/teamchat.js` runs the CLI from
 * dist/bundle/ rather than from dist/'s ~200 modules and the ~450 files of their dependencies. Node's module
 * loader spends most of a start resolving, reading and linking those files (a CPU profile puts ~400 ms of a
 * loaded machine's start in it); one bundle of them parses in a fraction of that. The bundle is made from the
 * compiled modules just written by tsc, so it holds exactly that build's code; dist/'s modules stay what the
 * package's `exports` give to importers, and what the bundle itself falls back to (below).
 *
 * - Code loaded on demand (the conformance suite, the realm generator, pino, highlight.js' languages) stays in
 *   chunks of its own (`splitting`), so `serve` does not parse it.
 * - Files a module finds at run time (the prepared document, the demo template, the generator's worker, the
 *   OpenAPI YAML, RE2's WebAssembly, Redoc's page) are found from the package root or with `createRequire`,
 *   never relative to a module's URL: in the bundle all modules share one URL.
 * - `build.json` records the build (`buildStamp`): after a later `tsc` alone the bundle is
 *   stale, and bin/teamchat.js then runs dist/'s modules instead.
 */
export async function bundleCli(dist: string): Promise<void> {
  const outdir = join(dist, 'bundle');
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { teamchat: join(dist, 'cli/teamchat.js'), common: join(dist, 'cli/common.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    // Dependencies written as CommonJS call require() for Node's built-ins; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __teamchatCreateRequire } from 'node:module'; const require = __teamchatCreateRequire(import.meta.url);",
    },
    // CommonJS packages loaded on demand by name (`await import('yaml')`) stay Node's to load: a bundled one
    // would be a chunk with only a default export, and the destructured names would be undefined. Both serve
    // only off the start-up path (a stale prepared document, GET /openapi.yaml). pino, loaded the same way but
    // on the default path (the request log), is bundled and read through its default export (log.ts).
    // faker (3.4 MB of locales, ES modules) serves only the realm generator and the suite's seeded order,
    // never a start: left to Node it keeps the published package small.
    external: ['yaml', '@apidevtools/swagger-parser', '@faker-js/faker'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  await writeFile(join(outdir, 'build.json'), JSON.stringify({ build: buildStamp(dist) }));
}

/** Which compilation the bundle belongs to: dist/.tsbuildinfo's size and time (bin/teamchat.js compares them). */
function buildStamp(dist: string): string | null {
  const info = statSync(join(dist, '.tsbuildinfo'), { throwIfNoEntry: false });
  return info === undefined ? null : `${info.size}:${info.mtimeMs}`;
}
