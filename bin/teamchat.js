#!/usr/bin/env node
// The `teamchat` command: runs the TypeScript sources through tsx, so no build step is needed.
// `teamchat conform …` is the conformance suite (conformance/src/cli.ts); every other command is the mock
// server's CLI. The suite is loaded on its own so that it never pulls in the mock server's code.
import { register } from 'tsx/esm/api';

register();
if (process.argv[2] === 'conform') {
  const { main } = await import('../conformance/src/cli.ts');
  process.exitCode = await main(process.argv.slice(2));
} else {
  await import('../mock-server/src/cli.ts');
}
