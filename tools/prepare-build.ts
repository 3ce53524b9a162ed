import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../mock-server/src/config/config.js';
import type { Prepared } from '../mock-server/src/config/prepared.js';
import { generateTemplate, PREPARED_DEMO_REALMS, templateKey } from '../mock-server/src/fixtures/demo-cache.js';
import { DEFAULT_OPENAPI_PATH, PREPARED_DOCUMENT, prepareDocument } from '../mock-server/src/http/openapi.js';
import { readFile } from 'node:fs/promises';

/**
 * The products `npm run build` ships read-only in the artefact (tools/build.ts calls this with dist/prepared/):
 * work the server would otherwise repeat at every start.
 *
 * - openapi.json: the OpenAPI document parsed and dereferenced, with the hash of the YAML it came from.
 * - demo-realms.json: the demo realm's template for the default seed (fixtures/demo-cache.ts), so that
 *   `teamchat serve` makes its realm without loading the generator.
 */
export async function prepareShippedProducts(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await write(join(dir, PREPARED_DOCUMENT), await prepareDocument(await readFile(DEFAULT_OPENAPI_PATH, 'utf8')));
  const demo = { seed: DEFAULT_CONFIG.seed };
  await write(join(dir, PREPARED_DEMO_REALMS), { [templateKey(demo)]: await generateTemplate(demo) });
}

async function write(path: string, content: unknown): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ build: null, content } satisfies Prepared<unknown>));
  await rename(temporary, path);
}
