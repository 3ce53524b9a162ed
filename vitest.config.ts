import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import LongFirstSequencer from './tools/test-sequencer.js';

/**
 * `npm run test:quick` (scripts/test-quick.sh) leaves out the files that drive a browser, run soak cycles or
 * whole conformance runs, or start programs as child processes: what is left are unit and in-process HTTP tests.
 */
const quick = process.env.TEAMCHAT_TEST_QUICK === '1';
const NOT_QUICK = [
  '**/*-browser.test.ts',
  'mock-server/test/soak/**',
  'mock-server/test/hostile/**',
  'mock-server/test/clients/**',
  'mock-server/test/conformance/no-control.test.ts',
  'mock-server/test/conformance/self-test.test.ts',
  'conformance/test/stub-target.test.ts',
  'mock-server/test/http/durability.test.ts',
  'mock-server/test/http/stock-js-client.test.ts',
  'mock-server/test/events/stock-clients.test.ts',
  'mock-server/test/store/kill.test.ts',
  'cli/test/compiled.test.ts',
  'cli/test/teamchat.test.ts',
];

export default defineConfig({
  // The documentation's examples (docs/examples/, shown in the README) import the package by name, as its users
  // do: here the name is the sources, so the examples run on every test run without a build.
  resolve: { alias: [{ find: /^teamchat-kit$/, replacement: fileURLToPath(new URL('./mock-server/src/index.ts', import.meta.url)) }] },
  test: {
    include: [
      'cli/**/*.test.ts',
      'mock-server/**/*.test.ts',
      'conformance/**/*.test.ts',
      'openapi/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'docs/examples/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, ...(quick ? NOT_QUICK : [])],
    // One module graph per worker, not per file: the dereferenced document, the compiled validators, the demo
    // realm's template and faker load once per worker (importing them again in each of ~200 files was most of
    // the run). Tests therefore own what they change (servers, spies, env) and give it back in their hooks.
    isolate: false,
    pool: 'forks',
    // Both cores (vitest's default leaves one idle on a 2-core machine); many files wait on sockets and children.
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    // One temporary product cache for the run; the browser of the browser tests, unpacked once before the
    // files run in parallel.
    globalSetup: ['./tools/test-cache-dir.ts', ...(quick ? [] : ['./tools/chromium.ts'])],
    // Real servers on loopback and child processes: time-outs generous for a busy 2-core CI.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    allowOnly: false,
    reporters: ['default', './tools/summary-reporter.ts', ['junit', { outputFile: 'reports/unit/junit.xml' }]],
  },
});
