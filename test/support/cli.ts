import { fileURLToPath } from 'node:url';

/**
 * The `venue-search` command as the tests spawn it: the package's `bin`, dist/bin/venue-search.js
 * (the compiled CLI bundled by scripts/build-bin.mjs), which is what an installed package runs.
 * test/support/build-package.ts (vitest's globalSetup) builds dist/ once before any test file
 * runs, so it is never stale.
 *
 * Spawned with plain `node`, `serve --help` takes about 0.45 s on the 2-core machine (0.62 s
 * compiled but not bundled, docs/packaging.md). The tests once ran `node --import tsx
 * src/cli/main.ts`, which compiles the sources at every start: `--version` took 1.3 to 1.5 s
 * that way, and 2.4 s when the test gives the child its own TMPDIR (tsx's transform cache
 * lives there); every `serve --workers N` paid it again per worker. docs/testing.md has the
 * suite's figures.
 */
export const CLI_MAIN = fileURLToPath(new URL('../../dist/bin/venue-search.js', import.meta.url));
