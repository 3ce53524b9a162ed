import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line in the plain form CI systems read in any language
 * ("vitest: N passed, N failed, N skipped"), after vitest's own report.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else count.skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) count.failed++;
    }
    console.log(`\nvitest: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
