/**
 * Cold-start child (bench/workloads/cold-start.ts): reads the NDJSON file given as argv[2],
 * builds the engine and answers one POINT search (1 km, central London, with preferences),
 * then prints one JSON line with its own phase timings (ms since the process started).
 * With argv[2] = '--empty' it only imports the engine and prints: the runtime's own start.
 */
import { performance } from 'node:perf_hooks';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { NOW, PREFS, pointBody } from '../lib/queries.js';

const file = process.argv[2];
const imported = performance.now();
if (file === '--empty' || file === undefined) {
  process.stdout.write(`${JSON.stringify({ imported })}\n`);
} else {
  const { venues } = await readVenues(file);
  const read = performance.now();
  const engine = createEngine(venues, { validate: false });
  const built = performance.now();
  const res = engine.search(pointBody({ lat: 51.5074, lon: -0.1278 }, 1000, PREFS), { limit: 20, now: NOW });
  const answered = performance.now();
  process.stdout.write(`${JSON.stringify({ imported, read, built, answered, totalResults: res.totalResults, venues: venues.length })}\n`);
}
