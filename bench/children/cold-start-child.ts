/**
 * Cold-start child (bench/workloads/cold-start.ts, bench/lib/snapshot-load.ts): loads the
 * data file given as argv[2] (an NDJSON file: read, validate and build; a `.vsnap` snapshot:
 * readSnapshot), answers one POINT search (1 km, central London, with preferences) and one
 * find ("red lion", no centre: from NDJSON the name index is built at this first use; a
 * snapshot holds it), then
 * prints one JSON line with its own phase timings (ms since the process started). With
 * `--check` after the file it adds the digest of the snapshot check searches' answers.
 * With argv[2] = '--empty' it only imports the engine and prints: the runtime's own start.
 * `--threads=N` after an NDJSON file: readVenues' `threads` (default: its own default).
 * Also the minor page faults of the build (`buildFaults`: createEngine; 0 for a snapshot),
 * each page of fresh memory the kernel maps in.
 */
import { performance } from 'node:perf_hooks';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine, type Engine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { NOW, PREFS, pointBody } from '../lib/queries.js';
import { answersDigest } from '../lib/snapshot-check.js';

const file = process.argv[2];
const imported = performance.now();
if (file === '--empty' || file === undefined) {
  process.stdout.write(`${JSON.stringify({ imported })}\n`);
} else {
  let engine: Engine;
  let read: number;
  const faults = (): number => process.resourceUsage().minorPageFault;
  let faultsAtRead: number;
  if (file.endsWith('.vsnap')) {
    engine = readSnapshot(file);
    read = performance.now();
    faultsAtRead = faults();
  } else {
    const threadsArg = process.argv.find((a) => a.startsWith('--threads='));
    const { venues } = await readVenues(file, threadsArg !== undefined ? { threads: Number(threadsArg.slice('--threads='.length)) } : {});
    read = performance.now();
    faultsAtRead = faults();
    engine = createEngine(venues, { validate: false });
  }
  const built = performance.now();
  const buildFaults = faults() - faultsAtRead;
  const res = engine.search(pointBody({ lat: 51.5074, lon: -0.1278 }, 1000, PREFS), { limit: 20, now: NOW });
  const answered = performance.now();
  const find = engine.find({ q: 'red lion', limit: 20 }, { now: NOW });
  const found = performance.now();
  const digest = process.argv[3] === '--check' ? answersDigest(engine) : undefined;
  process.stdout.write(`${JSON.stringify({ imported, read, built, answered, found, totalResults: res.totalResults, totalFound: find.totalFound, venues: engine.size, digest, buildFaults })}\n`);
}
