import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../cli/package-root.js';
import { isEntryPoint } from '../cli/common.js';
import { productCache } from '../mock-server/src/config/cache.js';
import { DEFAULT_CONFIG } from '../mock-server/src/config/config.js';
import { ensureTemplate } from '../mock-server/src/fixtures/demo-cache.js';
import { DEFAULT_OPENAPI_PATH, ensureDocument } from '../mock-server/src/http/openapi.js';

/**
 * The products shipped read-only in the artefact (`dist/prepared/`, mock-server/src/config/cache.ts), so that
 * `teamchat serve` with the default document and seed neither parses YAML nor generates a realm, even with no
 * cache directory:
 * - the package's OpenAPI document, dereferenced (keyed by the YAML's hash and PREPARER_VERSION);
 * - the demo realm's template for the default seed (keyed by its options and GENERATOR_VERSION).
 * Keyed by their inputs like every cached product, so whichever code reads them (sources, build, library
 * import) finds only products it would make itself. `dir` ends holding only these.
 */
export async function prepareShippedProducts(dir: string): Promise<void> {
  // Each entry is made only when missing (a rebuild of unchanged inputs makes nothing) and renamed into place
  // whole, so a server started meanwhile (a test beside the build) always finds whole products.
  const shipped = productCache(dir, { shipped: null, bounds: { entries: Infinity, bytes: Infinity } });
  const kept = [
    await ensureDocument(await readFile(DEFAULT_OPENAPI_PATH, 'utf8'), shipped),
    await ensureTemplate({ seed: DEFAULT_CONFIG.seed }, shipped),
  ];
  if (kept.includes(null)) throw new Error(`cannot write the shipped products into ${dir}`);
  for (const name of await readdir(dir)) if (!kept.includes(name)) await rm(join(dir, name), { recursive: true, force: true });
}

// Run as a script (with tsx): the shipped products only; tools/build.ts calls the function itself.
if (isEntryPoint(import.meta.url)) {
  await prepareShippedProducts(packagePath('dist/prepared'));
}
