import { Rng } from '../../scripts/fixtures/random.js';

/**
 * Seeded query sets shared by the workloads, so every size and every run asks the same
 * questions. Coordinates in degrees (WGS84); distances in metres.
 */
export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}
export interface WeightedLatLon extends LatLon {
  readonly weight: number;
}

/** The instant every search is evaluated at (a Saturday, 12:00 UTC). */
export const NOW = Date.UTC(2026, 10, 21, 12, 0);
/** Queries per set; timed loops cycle through them. */
export const QUERIES = 200;

/** The preferences of the "POINT with preferences" workloads (issue 4): kinds, a flag, vegan hard, open at 20:00, independent. */
export const PREFS = {
  establishmentFilters: ['restaurant', 'pub', 'freeWifi'],
  catersFilters: ['vegan'],
  openingConditions: { state: 'OPEN' as const, atTime: '2026-11-21T20:00:00Z' },
  chainPreference: 'PREFER_INDEPENDENT' as const,
  nonCompromise: ['catersFilters' as const],
};

const CHARING_CROSS: LatLon = { lat: 51.5074, lon: -0.1278 };

function jitter(rng: Rng, c: LatLon, meters: number): LatLon {
  return { lat: c.lat + ((rng.next() * 2 - 1) * meters) / 111_000, lon: c.lon + ((rng.next() * 2 - 1) * meters) / 69_000 };
}

/** POINT centres: uniform within ~2 km of Charing Cross (central London). */
export function pointCentres(): LatLon[] {
  const rng = new Rng(7);
  return Array.from({ length: QUERIES }, () => jitter(rng, CHARING_CROSS, 2000));
}

/** Groups of 4 friends within ~3 km of Charing Cross, weights 1 to 4. */
export function weightedGroups(): WeightedLatLon[][] {
  const rng = new Rng(8);
  return Array.from({ length: QUERIES }, () => Array.from({ length: 4 }, () => ({ ...jitter(rng, CHARING_CROSS, 3000), weight: rng.int(1, 4) })));
}

/** ~10 km routes west to east through central London, 4 vertices. */
export function cityRoutes(): LatLon[][] {
  const rng = new Rng(9);
  return Array.from({ length: QUERIES }, () => [
    jitter(rng, { lat: 51.5, lon: -0.2 }, 1500),
    jitter(rng, { lat: 51.51, lon: -0.16 }, 800),
    jitter(rng, { lat: 51.51, lon: -0.11 }, 800),
    jitter(rng, { lat: 51.52, lon: -0.07 }, 1000),
  ]);
}

/** ~290 km routes London - Birmingham - Manchester, 3 vertices. */
export function intercityRoutes(): LatLon[][] {
  const rng = new Rng(10);
  return Array.from({ length: QUERIES }, () => [
    jitter(rng, { lat: 51.53, lon: -0.13 }, 2000),
    jitter(rng, { lat: 52.48, lon: -1.9 }, 2000),
    jitter(rng, { lat: 53.48, lon: -2.24 }, 2000),
  ]);
}

export function pointBody(c: LatLon, radius: number, preferences: object = {}): object {
  return { locations: [{ lat: c.lat, lon: c.lon }], mode: { mode: 'POINT', maxDistance: radius }, preferences };
}

export function groupBody(group: readonly WeightedLatLon[], radius: number, preferences: object = {}): object {
  return { locations: group.map((l) => ({ lat: l.lat, lon: l.lon, weight: l.weight })), mode: { mode: 'POINT', maxDistance: radius }, preferences };
}

export function pathBody(route: readonly LatLon[], width: number): object {
  return { locations: route.map((p) => ({ lat: p.lat, lon: p.lon })), mode: { mode: 'PATH', maxDistance: width } };
}

/**
 * London - Manchester as a driver's route: 100 vertices through the towns along the M1 and
 * M6 (central London, Luton, Milton Keynes, Northampton, Coventry, Birmingham,
 * Wolverhampton, Stoke, Manchester), each inner vertex jittered up to ~300 m. `k` seeds the
 * jitter.
 */
export function longRoute(k = 0): LatLon[] {
  const rng = new Rng(100 + k);
  const towns: LatLon[] = [
    { lat: 51.507, lon: -0.128 },
    { lat: 51.879, lon: -0.417 },
    { lat: 52.04, lon: -0.76 },
    { lat: 52.24, lon: -0.9 },
    { lat: 52.41, lon: -1.51 },
    { lat: 52.48, lon: -1.9 },
    { lat: 52.586, lon: -2.128 },
    { lat: 53.0, lon: -2.18 },
    { lat: 53.48, lon: -2.24 },
  ];
  const out: LatLon[] = [];
  const legs = towns.length - 1;
  for (let v = 0; v < 100; v++) {
    const f = (v / 99) * legs;
    const leg = Math.min(legs - 1, Math.floor(f));
    const t = f - leg;
    const a = towns[leg]!;
    const b = towns[leg + 1]!;
    out.push(jitter(rng, { lat: a.lat + t * (b.lat - a.lat), lon: a.lon + t * (b.lon - a.lon) }, v === 0 || v === 99 ? 0 : 300));
  }
  return out;
}
