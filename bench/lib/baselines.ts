/**
 * The alternatives our queries are compared with, built the way a user of each library
 * would build them, over the same coordinates (store order: index i is venue i).
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { buffer } from '@turf/buffer';
import { distance as turfDistance } from '@turf/distance';
import { lineString, point } from '@turf/helpers';
import { create, insertMultiple, search as oramaSearch, type Orama } from '@orama/orama';
import Flatbush from 'flatbush';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { LocalFrame } from '../../src/geo/distance.js';
import type { LatLon } from './queries.js';

/** Half-sizes in degrees of a box holding a circle of `r` metres at latitude `lat`, with 1 % slack. */
function boxHalf(lat: number, r: number): { dLat: number; dLon: number } {
  return { dLat: (r / 110_574) * 1.01, dLon: (r / (111_320 * Math.cos((lat * Math.PI) / 180))) * 1.01 };
}

export class Baselines {
  readonly kd: KDBush;
  readonly flat: Flatbush;
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  private orama: Orama<{ location: 'geopoint' }> | null = null;

  constructor(lat: Float64Array, lon: Float64Array) {
    const n = lat.length;
    this.lat = lat;
    this.lon = lon;
    this.kd = new KDBush(n, 64, Float64Array);
    for (let i = 0; i < n; i++) this.kd.add(lon[i]!, lat[i]!);
    this.kd.finish();
    this.flat = new Flatbush(n);
    for (let i = 0; i < n; i++) this.flat.add(lon[i]!, lat[i]!, lon[i]!, lat[i]!);
    this.flat.finish();
  }

  /**
   * Raw kdbush: the circle's box, then the same WGS84 distance filter as ours (src/geo's rule,
   * LocalFrame.ruledDistance), its scales computed once per query as a user of kdbush would
   * (cheap-ruler style) rather than per venue: the per-venue nearDistanceMeters it used until
   * issue 16 gives the same venues but doubled the baseline's time at 1M town-centre venues.
   */
  kdbushRadius(c: LatLon, r: number): number[] {
    const { dLat, dLon } = boxHalf(c.lat, r);
    const frame = new LocalFrame(c.lat, c.lon);
    const { lat, lon } = this;
    const out: number[] = [];
    for (const i of this.kd.range(c.lon - dLon, c.lat - dLat, c.lon + dLon, c.lat + dLat)) {
      if (frame.ruledDistance(lat[i]!, lon[i]!) <= r) out.push(i);
    }
    return out;
  }

  /** flatbush with points as zero-size boxes: `search` by the circle's box, then the same distance filter (one frame per query). */
  flatbushRadius(c: LatLon, r: number): number[] {
    const { dLat, dLon } = boxHalf(c.lat, r);
    const frame = new LocalFrame(c.lat, c.lon);
    const { lat, lon } = this;
    return this.flat.search(c.lon - dLon, c.lat - dLat, c.lon + dLon, c.lat + dLat, (i) => frame.ruledDistance(lat[i]!, lon[i]!) <= r);
  }

  /** geokdbush `around`: every venue within r (great-circle, spherical), nearest first. */
  geokdbushRadius(c: LatLon, r: number, maxResults = Infinity): number[] {
    return around(this.kd, c.lon, c.lat, maxResults, r / 1000);
  }

  /** turf brute force: turf.distance (haversine) from the centre to every venue. */
  turfBruteRadius(c: LatLon, r: number): number[] {
    const from = [c.lon, c.lat];
    const km = r / 1000;
    const out: number[] = [];
    const to = [0, 0];
    for (let i = 0; i < this.lat.length; i++) {
      to[0] = this.lon[i]!;
      to[1] = this.lat[i]!;
      if (turfDistance(from, to, { units: 'kilometers' }) <= km) out.push(i);
    }
    return out;
  }

  /** Builds the Orama database (one geopoint per venue); returns the build time, ms. */
  buildOrama(): number {
    const t0 = performance.now();
    const db = create({ schema: { location: 'geopoint' } as const });
    const docs = Array.from(this.lat, (la, i) => ({ id: String(i), location: { lat: la, lon: this.lon[i]! } }));
    insertMultiple(db, docs, 10_000);
    this.orama = db;
    return performance.now() - t0;
  }

  /** Frees the Orama database (its heap would otherwise weigh on every later measurement). */
  dropOrama(): void {
    this.orama = null;
  }

  /** Orama geosearch: `radius` on the geopoint, `limit` hits; returns [count, hit indices]. */
  oramaRadius(c: LatLon, r: number, limit = 20): { count: number; ids: number[] } {
    if (!this.orama) throw new Error('buildOrama first');
    const res = oramaSearch(this.orama, {
      term: '',
      where: { location: { radius: { coordinates: { lat: c.lat, lon: c.lon }, unit: 'm', value: r, inside: true } } },
      limit,
    }) as { count: number; hits: { id: string }[] };
    return { count: res.count, ids: res.hits.map((h) => Number(h.id)) };
  }

  /** turf: buffer the route (8 steps per quarter circle), then point-in-polygon for the kdbush candidates of its box. */
  turfCorridor(route: readonly LatLon[], width: number): number[] {
    const poly = buffer(lineString(route.map((p) => [p.lon, p.lat])), width / 1000, { units: 'kilometers', steps: 8 })!;
    const ring = poly.geometry.coordinates.flat(poly.geometry.type === 'MultiPolygon' ? 2 : 1) as unknown as number[][];
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const [x, y] of ring) {
      minX = Math.min(minX, x!);
      maxX = Math.max(maxX, x!);
      minY = Math.min(minY, y!);
      maxY = Math.max(maxY, y!);
    }
    const out: number[] = [];
    for (const i of this.kd.range(minX, minY, maxX, maxY)) if (booleanPointInPolygon(point([this.lon[i]!, this.lat[i]!]), poly)) out.push(i);
    return out;
  }
}

/** Venues in exactly one of the two sets. */
export function symmetricDifference(a: readonly number[], b: readonly number[]): number[] {
  const sa = new Set(a);
  const sb = new Set(b);
  const out: number[] = [];
  for (const x of sa) if (!sb.has(x)) out.push(x);
  for (const x of sb) if (!sa.has(x)) out.push(x);
  return out;
}
