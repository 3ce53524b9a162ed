import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Helpers from '../../helpers/test-server.js';
import { goldenAnswers } from './answers.js';

/**
 * `npx tsx mock-server/test/http/golden/record.ts <checkout> <out.json>`: the golden answers of the
 * server in `<checkout>` (a worktree of any commit with the same test helpers), for demo-answers.json.
 */
const [checkout = '.', out = 'demo-answers.json'] = process.argv.slice(2);
const helpers = (await import(pathToFileURL(resolve(checkout, 'mock-server/test/helpers/test-server.ts')).href)) as typeof Helpers;
const server = await helpers.startTestServer();
try {
  await writeFile(out, JSON.stringify(await goldenAnswers(server, helpers), null, 1) + '\n');
} finally {
  await server.close();
}
