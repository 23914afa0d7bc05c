// Random POINT / PATH queries and their brute-force answers, shared by the oracle tests.
import { lineString, point } from '@turf/helpers';
import { pointToLineDistance } from '@turf/point-to-line-distance';
import geographiclib from 'geographiclib-geodesic';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, routeDistance } from '../support/oracle.js';
import { oracleCentre, oracleMatch, oracleOpenState, type OraclePrefs } from './support.js';

const wgs84 = geographiclib.Geodesic.WGS84;

export interface Query {
  locations: Array<{ lat: number; lon: number; weight?: number; label?: string }>;
  mode: { mode: 'POINT' | 'PATH'; maxDistance: number };
  preferences?: OraclePrefs;
}

export interface Expected {
  /** Venue index -> oracle distance, for venues inside that pass the hard filters. */
  inside: Map<number, number>;
  /** Venues whose oracle distance lies within `band` of the edge (either answer accepted) -> that distance. */
  edge: Map<number, number>;
  /** Venues whose distance in `inside` is exact (GeographicLib), not turf's screen. */
  exact: Set<number>;
  /** Longest leg of a PATH, metres (turf's great circles drift from geodesics on long legs). */
  longestLeg: number;
  centre: { lat: number; lon: number };
}

/** Moves (lat, lon) by (north, east) metres on the WGS84 ellipsoid. */
export function offset(lat: number, lon: number, north: number, east: number): { lat: number; lon: number } {
  const azi = (Math.atan2(east, north) * 180) / Math.PI;
  const p = wgs84.Direct(lat, lon, azi, Math.hypot(north, east));
  return { lat: p.lat2!, lon: p.lon2! };
}

export function randomQuery(
  rnd: () => number,
  venues: readonly VenueRecord[],
  mode: 'POINT' | 'PATH',
  vocabulary: { establishmentFilters: string[]; catersFilters: string[]; vibes: string[] },
  baseMs: number,
): Query {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const logUniform = (lo: number, hi: number) => lo * Math.pow(hi / lo, rnd());
  const anchor = pick(venues).location.coordinates;
  const locations: Query['locations'] = [];
  let maxDistance: number;
  if (mode === 'POINT') {
    const n = 1 + Math.floor(rnd() * 5);
    for (let k = 0; k < n; k++) {
      const p = offset(anchor[0], anchor[1], (rnd() - 0.5) * 3000, (rnd() - 0.5) * 3000);
      const loc: Query['locations'][number] = { lat: p.lat, lon: p.lon };
      if (rnd() < 0.4) loc.weight = pick([0, 0.5, 1, 3]);
      if (rnd() < 0.3) loc.label = `friend-${k}`;
      locations.push(loc);
    }
    if (!locations.some((l) => l.weight === undefined || l.weight > 0)) locations[0]!.weight = 1;
    maxDistance = rnd() < 0.05 ? logUniform(5000, 15_000) : logUniform(50, 3000);
  } else if (rnd() < 0.15) {
    // Between towns: vertices at venues anywhere in the data (legs up to hundreds of km).
    const n = 2 + Math.floor(rnd() * 2);
    for (let k = 0; k < n; k++) {
      const c = pick(venues).location.coordinates;
      locations.push({ lat: c[0], lon: c[1] });
    }
    maxDistance = logUniform(200, 5000);
  } else {
    // Through a town: a random walk that may double back.
    const n = 2 + Math.floor(rnd() * 5);
    let p = { lat: anchor[0], lon: anchor[1] };
    for (let k = 0; k < n; k++) {
      locations.push({ lat: p.lat, lon: p.lon });
      p = offset(p.lat, p.lon, (rnd() - 0.5) * 4000, (rnd() - 0.5) * 4000);
    }
    maxDistance = logUniform(30, 1500);
  }
  const query: Query = { locations, mode: { mode, maxDistance } };
  if (rnd() < 0.6) query.preferences = randomPreferences(rnd, vocabulary, baseMs);
  return query;
}

export function randomPreferences(
  rnd: () => number,
  vocabulary: { establishmentFilters: string[]; catersFilters: string[]; vibes: string[] },
  baseMs: number,
): OraclePrefs {
  const some = (xs: readonly string[], max: number) => {
    const n = Math.floor(rnd() * (max + 1));
    return Array.from({ length: n }, () => xs[Math.floor(rnd() * xs.length)]!);
  };
  const prefs: OraclePrefs = {};
  if (rnd() < 0.6) prefs.establishmentFilters = some(vocabulary.establishmentFilters, 3);
  if (rnd() < 0.5) prefs.catersFilters = some(vocabulary.catersFilters, 2);
  if (rnd() < 0.3) prefs.vibes = some(vocabulary.vibes, 2);
  if (rnd() < 0.4) prefs.chainPreference = (['PREFER_INDEPENDENT', 'PREFER_CHAIN', 'NO_PREFERENCE'] as const)[Math.floor(rnd() * 3)]!;
  if (rnd() < 0.5) {
    prefs.openingConditions = { state: rnd() < 0.8 ? 'OPEN' : 'CLOSED' };
    if (rnd() < 0.7) prefs.openingConditions.atTime = new Date(baseMs + Math.floor(rnd() * 14 * 24 * 60) * 60_000).toISOString();
  }
  const fields = ['establishmentFilters', 'catersFilters', 'openingConditions', 'vibes', 'chainPreference'];
  prefs.nonCompromise = fields.filter(() => rnd() < 0.25);
  return prefs;
}

/**
 * Brute force over every venue: the POINT distance is GeographicLib's exact geodesic from
 * the centre; the PATH distance is turf's pointToLineDistance (spherical) to screen, then
 * the exact WGS84 route distance (GeographicLib, golden section) for venues whose turf
 * distance is within 1 % + 50 m of the edge. `band` metres either side of the edge are
 * "edge" venues that may go either way.
 */
export function bruteForce(query: Query, venues: readonly VenueRecord[], kinds: Set<string>, nowMs: number, band: number): Expected {
  const inside = new Map<number, number>();
  const edge = new Map<number, number>();
  const exact = new Set<number>();
  const maxD = query.mode.maxDistance;
  const isPath = query.mode.mode === 'PATH' && query.locations.length > 1;
  const centre = isPath ? routeHalfway(query.locations) : query.locations.length === 1 ? query.locations[0]! : oracleCentre(query.locations);
  const line = isPath ? lineString(query.locations.map((l) => [l.lon, l.lat])) : null;
  const route = query.locations.map((l) => [l.lat, l.lon] as const);
  let longestLeg = 0;
  for (let k = 0; k + 1 < route.length; k++) longestLeg = Math.max(longestLeg, geodesic(route[k]![0], route[k]![1], route[k + 1]![0], route[k + 1]![1]));
  // turf's spherical great circle vs the WGS84 geodesic: a lateral drift growing with the
  // leg's length squared (tens of metres on a 600 km leg); screen generously.
  const margin = maxD * 0.01 + 50 + (longestLeg * longestLeg) / 5e9;
  // Coarse box (degrees) around the centre or route, generous, to skip far venues quickly.
  const padLat = (maxD + 1000) / 100_000;
  const lats = query.locations.map((l) => l.lat);
  const lons = query.locations.map((l) => l.lon);
  const minLat = (isPath ? Math.min(...lats) : centre.lat) - padLat;
  const maxLat = (isPath ? Math.max(...lats) : centre.lat) + padLat;
  const padLon = padLat / Math.max(0.05, Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180));
  const minLon = (isPath ? Math.min(...lons) : centre.lon) - padLon;
  const maxLon = (isPath ? Math.max(...lons) : centre.lon) + padLon;
  const atTime = query.preferences?.openingConditions?.atTime;
  const instant = atTime === undefined ? nowMs : Date.parse(atTime);
  venues.forEach((v, i) => {
    const [lat, lon] = v.location.coordinates;
    if (lat < minLat || lat > maxLat || lon < minLon || lon > maxLon) return;
    let d: number;
    if (line) {
      d = pointToLineDistance(point([lon, lat]), line, { units: 'meters' });
      if (d > maxD + margin) return;
      if (Math.abs(d - maxD) <= margin) {
        d = routeDistance(route, lat, lon).distance;
        exact.add(i);
      }
    } else {
      d = geodesic(centre.lat, centre.lon, lat, lon);
      exact.add(i);
    }
    if (d > maxD + band) return;
    const needsOpen = query.preferences?.openingConditions !== undefined;
    const m = oracleMatch(v, query.preferences ?? {}, kinds, needsOpen ? oracleOpenState(v, instant) : 'unknown');
    if (!m.passes) return;
    if (Math.abs(d - maxD) <= band) edge.set(i, d);
    else inside.set(i, d);
  });
  return { inside, edge, exact, longestLeg, centre };
}

/** The point halfway along a route of WGS84 geodesic legs (GeographicLib Direct). */
export function routeHalfway(locations: ReadonlyArray<{ lat: number; lon: number }>): { lat: number; lon: number } {
  const legs = [];
  let total = 0;
  for (let k = 0; k + 1 < locations.length; k++) {
    const a = locations[k]!;
    const b = locations[k + 1]!;
    const line = wgs84.InverseLine(a.lat, a.lon, b.lat, b.lon);
    legs.push(line);
    total += line.s13!;
  }
  let rest = total / 2;
  for (const line of legs) {
    if (rest <= line.s13! || line === legs[legs.length - 1]) {
      const p = line.Position(Math.min(rest, line.s13!));
      return { lat: p.lat2!, lon: p.lon2! };
    }
    rest -= line.s13!;
  }
  return locations[0]!;
}

/** The point `along` metres along a route of geodesic legs. */
export function routePointAt(locations: ReadonlyArray<{ lat: number; lon: number }>, along: number): { lat: number; lon: number } {
  let rest = along;
  for (let k = 0; k + 1 < locations.length; k++) {
    const a = locations[k]!;
    const b = locations[k + 1]!;
    const line = wgs84.InverseLine(a.lat, a.lon, b.lat, b.lon);
    if (rest <= line.s13! || k + 2 === locations.length) {
      const p = line.Position(Math.min(rest, line.s13!));
      return { lat: p.lat2!, lon: p.lon2! };
    }
    rest -= line.s13!;
  }
  return locations[0]!;
}
