import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { generateVenues } from '../../scripts/fixtures/generate-venues.js';
import type { VenueRecord } from '../../src/schema/venue.js';

/** Seed of every benchmark dataset: the same venues in every run and on every machine. */
export const BENCH_SEED = 20261121;

const cache = new Map<number, VenueRecord[]>();

/**
 * `count` generated venues (clustered in UK towns; detail-only fields left out, since they
 * are never on the search path), cached for the process.
 */
export function benchVenues(count: number): VenueRecord[] {
  let v = cache.get(count);
  if (!v) {
    v = generateVenues(count, BENCH_SEED, { details: false });
    cache.set(count, v);
  }
  return v;
}

/** Frees a cached dataset (large runs hold one size at a time). */
export function dropVenues(count: number): void {
  cache.delete(count);
}

/** Path of an NDJSON file with the `count` venues, written once into .tmp/bench/. */
export async function benchVenueFile(count: number): Promise<string> {
  const dir = new URL('../../.tmp/bench/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const path = new URL(`venues-${count}-${BENCH_SEED}.ndjson`, dir).pathname;
  if (existsSync(path)) return path;
  const tmp = `${path}.part`;
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
