import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root (the folder of venue-search's package.json), found upwards from
 * this file, so bench paths hold both when the bench runs from TypeScript sources (tsx) and
 * when `npm run bench` runs it compiled under .tmp/bench-dist/.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'venue-search-engine') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('bench: cannot find the venue-search-engine package.json above the bench');
    dir = up;
  }
}

export const REPO_ROOT = findRoot();

/** A path inside the repository. */
export function repoPath(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}

/** Whether this bench runs compiled (.js), as `npm run bench` runs it, or from sources. */
export const COMPILED = import.meta.url.endsWith('.js');

/**
 * The node arguments to run a bench child script `name` (from bench/children, without an
 * extension) the way this process runs: compiled JS, or TypeScript through tsx.
 */
export function childScript(name: string): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return COMPILED ? [join(here, '..', 'children', `${name}.js`)] : ['--import', 'tsx', join(here, '..', 'children', `${name}.ts`)];
}

/**
 * The node arguments to run the `venue-search` command the way this process runs: compiled,
 * the bundled command `npm run bench` builds into .tmp/bench-dist/bin (scripts/build-bin.mjs),
 * as an installed package's `bin` is; from sources, node + tsx on src/cli/main.ts.
 */
export function commandLine(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return COMPILED ? [join(here, '..', '..', 'bin', 'venue-search.js')] : ['--import', 'tsx', repoPath('src', 'cli', 'main.ts')];
}
