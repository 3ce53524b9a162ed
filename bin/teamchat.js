#!/usr/bin/env node
// The `teamchat` command. It runs the compiled code in dist/ (`npm run build`; `npm install` builds it
// through the `prepare` script), so no TypeScript is transpiled at run time; the commands are dispatched by
// cli/teamchat.ts (`npm start`, `npm run teamchat` and `npm run conform` come through here too).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/teamchat.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('teamchat: dist/ is missing: run npm run build (npm install runs it too)\n');
  process.exit(2);
}
const { runAsProcess } = await import('../dist/cli/common.js');
const { main } = await import(entry.href);
await runAsProcess(main, process.argv.slice(2));
