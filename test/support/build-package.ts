import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * vitest's globalSetup: `npm run build` once, before any test file, so the tests that spawn
 * the command line run the package's compiled code (test/support/cli.ts) and the packed-tarball
 * test packs this very build (test/install/tarball.test.ts packs with --ignore-scripts).
 * The build's own output is shown only when it fails.
 */
export default function buildPackage(): void {
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed before the tests could start:\n${stdout}${stderr}`, { cause: err });
  }
}
