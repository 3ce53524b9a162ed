#!/usr/bin/env node
// The `teamchat` command. It runs the compiled code in dist/ (`npm run build`; `npm install` builds it
// through the `prepare` script), so no TypeScript is transpiled at run time; the commands are dispatched by
// cli/teamchat.ts (`npm start`, `npm run teamchat` and `npm run conform` come through here too).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const entry = new URL('../dist/cli/teamchat.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('teamchat: dist/ is missing: run npm run build (npm install runs it too)\n');
  process.exit(2);
}
const args = process.argv.slice(2);
// The server's heap grows by at most 2x its live size between full collections (issue 17, RSS after writes).
// V8 otherwise picks up to 4x for a heap this small: a 16 MB live set after 10,000 durable writes sat in a
// 70 MB old space (RSS 158 MB; 130 MB with this), at no measurable cost in CPU per request. V8 reads this
// flag at every collection, so setting it here, before anything is allocated, works; a value given to node
// itself (`node --heap-growing-percent=N bin/teamchat.js serve`) wins.
const given = process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'));
if (args[0] === 'serve' && !given) setFlagsFromString('--heap-growing-percent=100');
const from = bundleIsCurrent() ? '../dist/bundle/' : '../dist/cli/';
const { runAsProcess } = await import(`${from}common.js`);
const { main } = await import(`${from}teamchat.js`);
await runAsProcess(main, args);

/**
 * The start-up bundle (tools/bundle-cli.ts) holds the same code as dist/'s modules and starts faster; it is
 * used only when it belongs to the build in dist/ (the stamp of config/prepared.ts: dist/.tsbuildinfo's size
 * and time, absent from an installed package), so a later `tsc` alone never runs stale code.
 */
function bundleIsCurrent() {
  try {
    const { build } = JSON.parse(readFileSync(new URL('../dist/bundle/build.json', import.meta.url), 'utf8'));
    const info = statSync(new URL('../dist/.tsbuildinfo', import.meta.url), { throwIfNoEntry: false });
    return info === undefined || build === `${info.size}:${info.mtimeMs}`;
  } catch {
    return false;
  }
}
