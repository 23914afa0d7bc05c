/**
 * Snapshot open child (bench/children/world-scale-child.ts): in a fresh process run with
 * --expose-gc, loads the snapshot argv[2] with readSnapshot (places: null, as the world-scale
 * engine was built), warms it (which must build nothing of size: a snapshot holds the search
 * and find structures), answers the POINT 1 km search and the find given as JSON in argv[3]
 * (`{lat, lon, q, now}`), and prints one JSON line: each phase in ms, ms since the process
 * started when both answered, the whole loaded engine's bytes (heap used + array buffers
 * after gc(), less the same measure taken before loading), and SHA-256 digests of the two
 * answers' JSON (the parent compares them with its own engine's).
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const used = (): number => {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

const ask = JSON.parse(process.argv[3]!) as { lat: number; lon: number; q: string; now: number };
const imported = performance.now();
const empty = used();
let t = performance.now();
const engine = readSnapshot(process.argv[2]!, { places: null });
const readMs = performance.now() - t;
t = performance.now();
engine.warm();
const warmMs = performance.now() - t;
t = performance.now();
const search = engine.search({ locations: [{ lat: ask.lat, lon: ask.lon }], mode: { mode: 'POINT', maxDistance: 1000 } }, { now: ask.now });
const searchMs = performance.now() - t;
t = performance.now();
const find = engine.find({ q: ask.q }, { now: ask.now });
const findMs = performance.now() - t;
const answeredAt = performance.now();
const loadedBytes = used() - empty; // `engine` is still reachable here
process.stdout.write(
  `${JSON.stringify({ imported, readMs, warmMs, searchMs, findMs, answeredAt, loadedBytes, venues: engine.size, searchDigest: digest(search), findDigest: digest(find), totalResults: search.totalResults, totalFound: find.totalFound })}\n`,
);
