import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['cli/**/*.test.ts', 'mock-server/**/*.test.ts', 'conformance/**/*.test.ts', 'openapi/**/*.test.ts', 'fixtures/**/*.test.ts'],
    // Real servers on loopback and child processes: keep files isolated, time-outs generous for a 2-core CI.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    allowOnly: false,
    globalSetup: ['./tools/test-cache-dir.ts'],
    reporters: ['default', './tools/summary-reporter.ts', ['junit', { outputFile: 'reports/unit/junit.xml' }]],
  },
});
