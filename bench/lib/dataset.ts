import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { generateBenchVenues, type BenchLayout } from '../../scripts/fixtures/bench-venues.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { repoPath } from './paths.js';

/** Seed of every benchmark dataset: the same venues in every run and on every machine. */
export const BENCH_SEED = 20261121;

/** `count` generated bench venues (scripts/fixtures/bench-venues.ts), seeded with BENCH_SEED. */
export function benchVenues(count: number, layout: BenchLayout = 'spread'): VenueRecord[] {
  return generateBenchVenues(count, BENCH_SEED, layout);
}

/** Path of the NDJSON file of the `count` bench venues in .tmp/bench/ (written once, then reused). */
export function benchVenueFilePath(count: number): string {
  return repoPath('.tmp', 'bench', `venues-${count}-${BENCH_SEED}-v2.ndjson`);
}

/** Writes the NDJSON file of the `count` bench venues unless it exists; returns its path. */
export async function benchVenueFile(count: number): Promise<string> {
  const path = benchVenueFilePath(count);
  if (existsSync(path)) return path;
  mkdirSync(repoPath('.tmp', 'bench'), { recursive: true });
  const tmp = `${path}.${process.pid}.part`;
  const out = createWriteStream(tmp);
  for (const v of benchVenues(count)) {
    if (!out.write(`${JSON.stringify(v)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, path);
  return path;
}

/** Parses `10k`, `1m`, `100000` into a count. */
export function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) throw new Error(`bad size ${JSON.stringify(s)}: use e.g. 10k, 100k, 1m`);
  const mult = m[2]!.toLowerCase() === 'm' ? 1e6 : m[2]!.toLowerCase() === 'k' ? 1e3 : 1;
  return Math.round(Number(m[1]) * mult);
}

export function sizeLabel(n: number): string {
  return n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n);
}
