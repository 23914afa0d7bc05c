/**
 * Memory child (bench/workloads/memory.ts), run with --expose-gc in a fresh process:
 * generates argv[2] bench venues, then measures heap used + array buffers (after gc())
 * before and after building and warming the engine, and once more after the caller has let
 * its records go (the whole engine: it keeps its own compact copy of the records). Prints
 * one JSON line.
 */
import { benchVenues } from '../lib/dataset.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const n = Number(process.argv[2]);

function used(): number {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const empty = used();
let venues: VenueRecord[] | null = benchVenues(n);
const withRecords = used();
const engine = createEngine(venues, { validate: false });
const built = used();
engine.warm();
const warmed = used();
venues = null; // the caller lets its records go
const wholeEngineBytes = used() - empty;
process.stdout.write(
  `${JSON.stringify({ n, recordsBytes: withRecords - empty, engineBuiltBytes: built - withRecords, engineWarmBytes: warmed - withRecords, wholeEngineBytes, searchPathBytes: engine.searchPathBytes, size: engine.size, released: venues === null })}\n`,
);
