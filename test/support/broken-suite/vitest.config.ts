import { defineConfig } from 'vitest/config';

// Runs only the deliberately broken suites beside this file, with the project's reporter.
export default defineConfig({
  test: {
    include: ['**/*.broken.ts'],
    reporters: ['../summary-reporter.ts'],
  },
});
