import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Ends the run with one line, "N passed, N failed, N skipped", summed over every project, which
 * CI reads. Errors outside tests (a crashing setup) count as failures so they cannot pass silently.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[], unhandledErrors: readonly unknown[], reason: TestRunEndReason) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let testsInModule = 0;
      for (const test of testModule.children.allTests()) {
        testsInModule++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but must not vanish from the count.
      if (testsInModule === 0 && testModule.state() === 'failed') failed++;
    }
    // A run that failed outside any test (e.g. global setup) must not read as a clean run.
    if (reason === 'failed' && failed === 0) failed = 1;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
