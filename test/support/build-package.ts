import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Set once this run has built dist/. A test that runs vitest again inside the suite
 * (test/accounts/http-suite-on-postgres.test.ts) inherits it, so its globalSetup does not
 * rebuild: `npm run build` empties dist/src first, and the files running beside it that spawn
 * the command line would find no dist/bin/venue-search.js.
 */
const BUILT_ENV = 'VENUE_SEARCH_TEST_DIST_BUILT';

/**
 * vitest's globalSetup: `npm run build` once, before any test file, so the tests that spawn
 * the command line run the package's compiled code (test/support/cli.ts) and the packed-tarball
 * test packs this very build (test/install/tarball.test.ts packs with --ignore-scripts).
 * The build's own output is shown only when it fails.
 */
export default function buildPackage(): void {
  if (process.env[BUILT_ENV] === '1') return;
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed before the tests could start:\n${stdout}${stderr}`, { cause: err });
  }
  process.env[BUILT_ENV] = '1';
}
