import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two test files at a time. Vitest's default is one fewer than the cores, so on CI's
    // 2 cores it ran every file in turn; many files spend their time waiting on child
    // processes (servers, PostgreSQL, npm, Chromium). Measured on this 2-core machine, the
    // whole suite: 776 s with one worker, 638 s with two (docs/testing.md).
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
