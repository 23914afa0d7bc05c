import { fileURLToPath } from 'node:url';

/**
 * The `venue-search` command as the tests spawn it: the package's `bin`, dist/bin/venue-search.js
 * (the compiled CLI bundled by scripts/build-bin.mjs), which is what an installed package runs. test/support/build-package.ts (vitest's
 * globalSetup) builds dist/ once before any test file runs, so it is never stale.
 *
 * Spawned with plain `node`, it starts in about 0.7 s on the 2-core machine; through
 * `node --import tsx src/cli/main.ts` it took 1.3 to 1.5 s, and 2.4 s when the test gives
 * the child its own TMPDIR (tsx's transform cache lives there). Every `serve --workers N`
 * paid that again per worker. docs/testing.md has the suite's figures.
 */
export const CLI_MAIN = fileURLToPath(new URL('../../dist/bin/venue-search.js', import.meta.url));
