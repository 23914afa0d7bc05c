import type { Reporter, SerializedError, TestModule } from 'vitest/node';

type TestRunEndReason = 'passed' | 'interrupted' | 'failed';

/**
 * Prints the plain closing line CI reads: `N passed, N failed`, nothing after it (skipped
 * tests, if any, are counted on the line before: `N skipped`).
 *
 * Invariant: the line says `0 failed` only when vitest itself passed. Besides failed tests,
 * each of these counts as one failure:
 * - an error attached to a module or a suite rather than to a test: a failing `beforeAll` or
 *   `afterAll`, or a module that failed to collect (syntax error, import that throws);
 * - an unhandled error or rejection;
 * - a module in the failed state whose failure has no other count;
 * - a run that vitest ends as failed or interrupted with nothing else counted.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = mod.errors().length;
      for (const suite of mod.children.allSuites()) failedHere += suite.errors().length;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      if (failedHere === 0 && mod.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    if (failed === 0 && reason !== 'passed') failed = 1;
    process.stdout.write(`\n${skipped ? `${skipped} skipped\n` : ''}${passed} passed, ${failed} failed\n`);
  }
}
