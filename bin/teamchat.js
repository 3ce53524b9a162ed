#!/usr/bin/env node
// The `teamchat` command: runs the build's bundle, dist/teamchat.js (tools/build.ts; `npm run build`, which
// `npm install` runs in a checkout through `prepare`), and nothing else. `npm start`, `npm run teamchat` and
// `npm run conform` rebuild the bundle first, so they run the sources as they are now.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const entry = new URL('../dist/teamchat.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('teamchat: dist/teamchat.js is missing: run npm run build\n');
  process.exit(2);
}
const args = process.argv.slice(2);
// The server's heap grows by at most 2x its live size between full collections: V8 otherwise picks up to 4x
// for a heap this small, so a 16 MB live set after 10,000 durable writes sat in a 70 MB old space (RSS 158 MB;
// 130 MB with this), at no measurable cost in CPU per request. V8 reads this flag at every collection, so
// setting it here, before anything is allocated, works; a value given to node itself
// (`node --heap-growing-percent=N bin/teamchat.js serve`) wins.
const given = process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'));
if (args[0] === 'serve' && !given) setFlagsFromString('--heap-growing-percent=100');
const { main, runAsProcess } = await import(entry.href);
await runAsProcess(main, args);
