import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../mock-server/src/config/config.js';
import { PREPARED_DIR, writePrepared } from '../mock-server/src/config/prepared.js';
import { generateTemplate, PREPARED_DEMO_REALMS, templateKey } from '../mock-server/src/fixtures/demo-cache.js';
import { bundleCli } from './bundle-cli.js';
import { DEFAULT_OPENAPI_PATH, PREPARED_DOCUMENT, prepareDocument } from '../mock-server/src/http/openapi.js';

/**
 * The second half of `npm run build` (issue 17 item 2), run compiled after tsc (`node dist/tools/prepare-build.js`),
 * so what it prepares comes from the code just compiled and lands in that build's dist/prepared/
 * (mock-server/src/config/prepared.ts): work the server would otherwise repeat at every start.
 *
 * - openapi.json: the OpenAPI document parsed and dereferenced, with the hash of the YAML it came from.
 * - demo-realms.json: the demo realm's template for the default seed (fixtures/demo-cache.ts), so that
 *   `teamchat serve` makes its realm without loading the generator.
 * - dist/bundle/: the CLI as one start-up bundle (tools/bundle-cli.ts), which bin/teamchat.js runs.
 *
 * Each file records the build it belongs to (config/prepared.ts `buildStamp`), so a later tsc alone makes the
 * server ignore it instead of trusting it; the servers' own cache (dist/prepared/cache/) is emptied, since it
 * belongs to the previous build. Silent on success: `npm run --silent build` prints nothing.
 */
async function main(): Promise<void> {
  // What earlier builds' servers cached belongs to those builds.
  if (PREPARED_DIR === null) throw new Error('prepare-build runs compiled: node dist/tools/prepare-build.js');
  await rm(join(PREPARED_DIR, 'cache'), { recursive: true, force: true });
  await writePrepared(PREPARED_DOCUMENT, await prepareDocument(await readFile(DEFAULT_OPENAPI_PATH, 'utf8')));
  const demo = { seed: DEFAULT_CONFIG.seed };
  await writePrepared(PREPARED_DEMO_REALMS, { [templateKey(demo)]: await generateTemplate(demo) });
  await bundleCli(join(PREPARED_DIR, '..'));
}

await main();
