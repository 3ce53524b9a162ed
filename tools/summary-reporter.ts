import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line in the plain form CI systems read in any language
 * ("vitest: N passed, N failed, N skipped"), after vitest's own report.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') failedTests++;
        else count.skipped++;
      }
      // A file that failed to load, or whose hook failed (its tests then skipped), failed outside any test: it
      // counts as one failure, so that the line never says 0 failed for a run that failed.
      count.failed += failedTests === 0 && module.state() === 'failed' ? 1 : failedTests;
    }
    console.log(`\nvitest: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
