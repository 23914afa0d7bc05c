import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // the examples import the package by name, as a user's code does; in the suite that is src/
    // (test/install/tarball.test.ts runs the README examples against the packed package itself)
    alias: [{ find: /^venue-search-engine$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // `npm run build` once before any file: the tests that spawn the command line run the
    // compiled package (test/support/cli.ts), and the tarball test packs this build.
    globalSetup: ['./test/support/build-package.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two test files at a time. Vitest's default is one fewer than the cores, so on CI's
    // 2 cores it ran every file in turn; many files spend their time waiting on child
    // processes (servers, PostgreSQL, npm, Chromium). Measured on this 2-core machine, the
    // whole suite: 776 s with one worker, 638 s with two (docs/testing.md).
    maxWorkers: 2,
    // Files share their worker's module cache (no fresh import of the sources per file):
    // the suite's summed import time fell from 108 s to 24-32 s, its wall time from 600-694 s
    // to 522-580 s (docs/testing.md). Safe because no test mocks a module or stubs a global, and
    // the two that set process.env.TZ restore it.
    isolate: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
