#!/usr/bin/env node
// The `teamchat` command: runs the TypeScript sources through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../mock-server/src/cli.ts');
