import { join } from 'node:path';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadFixtureVenues } from '../search/support.js';

/**
 * Writes a snapshot of the bundled fixtures (the engine `createEngine` builds from
 * fixtures/venues.ndjson) to `dir`/fixtures.vsnap and returns its path. For tests that start
 * `serve` (or the live service) many times and test something other than reading the data:
 * a service starts 0.6 to 0.9 s sooner from the snapshot than from the NDJSON file (measured
 * under tsx: `serve --workers 1` 2.7 -> 2.1 s, the crash test's live server 3.2 -> 2.3 s).
 * Operators serve snapshots too (docs/snapshots.md).
 */
export function writeFixturesSnapshot(dir: string): string {
  const path = join(dir, 'fixtures.vsnap');
  writeSnapshot(createEngine(loadFixtureVenues()), path);
  return path;
}
