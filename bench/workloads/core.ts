import KDBush from 'kdbush';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { distanceMeters } from '../../src/geo/distance.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { benchVenueFile, benchVenues, sizeLabel } from '../lib/dataset.js';
import { measure, timeOnce, timeOnceAsync } from '../lib/measure.js';
import type { WorkloadResult } from '../lib/report.js';
import { seededRandom } from '../../scripts/fixtures/random.js';

export interface CoreOptions {
  readonly sizes: readonly number[];
  readonly timeMs: number;
}

/** Soho, central London: the centre of the "1 km radius" workload. */
const SOHO = { lat: 51.5136, lon: -0.1365 };

/**
 * Issue 2's figures: load + build time from an NDJSON file, bytes per venue of the search
 * path (store columns + index), and a 1 km radius query in central London beside raw kdbush
 * (bounding-box range + the same distance filter) on the same data, in the same run.
 */
export async function coreWorkloads(opts: CoreOptions): Promise<WorkloadResult[]> {
  const results: WorkloadResult[] = [];
  for (const n of opts.sizes) {
    const file = await benchVenueFile(n);
    const load = await timeOnceAsync(() => readVenues(file));
    const build = timeOnce(() => createEngine(load.value.venues, { validate: false }));
    const engine = build.value;
    results.push({
      workload: 'load + build',
      params: { venues: sizeLabel(n), file: 'NDJSON' },
      timings: [],
      figures: {
        'read + validate (ms)': load.ms,
        'build store + index (ms)': build.ms,
        'total (ms)': load.ms + build.ms,
        'search-path bytes per venue': engine.searchPathBytes / n,
      },
    });

    // Same coordinates, raw kdbush built the usual way.
    const venues = benchVenues(n);
    const raw = new KDBush(n);
    for (const v of venues) raw.add(v.location.coordinates[1], v.location.coordinates[0]);
    raw.finish();

    const rnd = seededRandom(1);
    const centres = Array.from({ length: 64 }, () => ({ lat: SOHO.lat + (rnd() - 0.5) * 0.01, lon: SOHO.lon + (rnd() - 0.5) * 0.016 }));
    const r = 1000;
    const hits = new HitBuffer();
    const rawQuery = (c: { lat: number; lon: number }): number[] => {
      const dLat = r / 110_574;
      const dLon = r / (111_320 * Math.cos((c.lat * Math.PI) / 180)) * 1.01;
      const out: number[] = [];
      for (const id of raw.range(c.lon - dLon, c.lat - dLat * 1.01, c.lon + dLon, c.lat + dLat * 1.01)) {
        const v = venues[id]!.location.coordinates;
        if (distanceMeters(c.lat, c.lon, v[0], v[1]) <= r) out.push(id);
      }
      return out;
    };
    // What most users write: the same range query and a spherical haversine filter.
    const haversineQuery = (c: { lat: number; lon: number }): number => {
      const dLat = r / 110_574;
      const dLon = r / (111_320 * Math.cos((c.lat * Math.PI) / 180)) * 1.01;
      let count = 0;
      for (const id of raw.range(c.lon - dLon, c.lat - dLat * 1.01, c.lon + dLon, c.lat + dLat * 1.01)) {
        const v = venues[id]!.location.coordinates;
        if (haversine(c.lat, c.lon, v[0], v[1]) <= r) count++;
      }
      return count;
    };
    // Equality outside the timed loop: the same venues for every centre.
    let compared = 0;
    for (const c of centres) {
      engine.spatial.withinRadius(c.lat, c.lon, r, hits);
      const ours = Array.from(hits.idx.subarray(0, hits.length)).sort((a, b) => a - b);
      const theirs = rawQuery(c).sort((a, b) => a - b);
      if (ours.length !== theirs.length || ours.some((x, i) => x !== theirs[i])) {
        throw new Error(`radius results differ from raw kdbush at ${c.lat},${c.lon}: ${ours.length} vs ${theirs.length}`);
      }
      compared += ours.length;
    }
    let k = 0;
    const timings = measure(
      [
        ['venue-search withinRadius', () => { const c = centres[k++ & 63]!; return engine.spatial.withinRadius(c.lat, c.lon, r, hits); }],
        ['kdbush range + same WGS84 filter', () => rawQuery(centres[k++ & 63]!).length],
        ['kdbush range + haversine filter', () => haversineQuery(centres[k++ & 63]!)],
      ],
      { timeMs: opts.timeMs },
    );
    results.push({
      workload: 'radius 1 km, central London',
      params: { venues: sizeLabel(n), radiusMeters: r, meanHits: Math.round(compared / centres.length) },
      timings,
      checks: { 'same venues as kdbush': `${centres.length} centres, ${compared} hits, identical` },
    });
  }
  return results;
}

/** Spherical haversine (mean radius), as typical user code writes it: a baseline only. */
function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}
