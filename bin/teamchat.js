#!/usr/bin/env node
// The `teamchat` command: runs the TypeScript sources through tsx, so no build step is needed. The
// commands are dispatched by cli/teamchat.ts (also what `npm run teamchat` runs).
import { register } from 'tsx/esm/api';

register();
const { runAsProcess } = await import('../cli/common.ts');
const { main } = await import('../cli/teamchat.ts');
await runAsProcess(main, process.argv.slice(2));
