import { describe, expect, it } from 'vitest';
import { mergeVenues } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { osmNode } from './support/merge-records.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';

/**
 * Regressions of audit 62d finding 1: OSM and FHRS records that no `fhrs:id` links are
 * linked by equal names within 50 m. Hand-made records, expected output written out by
 * hand; test points are placed at GeographicLib geodesic distances and checked back with it.
 */
function away([lat, lon]: [number, number], azimuth: number, meters: number): [number, number] {
  return geodesicDirect(lat, lon, azimuth, meters);
}

function metersBetween(a: VenueRecord, b: VenueRecord): number {
  const [lat1, lon1] = a.location.coordinates;
  const [lat2, lon2] = b.location.coordinates;
  return geodesic(lat1, lon1, lat2, lon2);
}

const osm = (id: number, name: string, at: [number, number], extra: Partial<VenueRecord> = {}): VenueRecord => osmNode(id, name, at, { primaryGenre: 'pub', ...extra });
const fhrs = (id: number, name: string, at: [number, number]): VenueRecord => ({
  id: `fhrs:${id}`,
  name,
  location: { type: 'Point', coordinates: at },
  formattedAddress: `${id} High Street, London`,
  primaryGenre: 'restaurant',
  establishmentFlags: ['servesFood'],
  externalIds: { fhrs: String(id) },
});
const P: [number, number] = [51.5538, -0.1676];

describe('merge: OSM↔FHRS links by name and distance (audit 62d finding 1)', () => {
  it('The Roebuck without fhrs:id and FHRS "The Roebuck" 3 m away are one venue: OSM id, name, point and fields; FHRS fills gaps', () => {
    const o = osm(67827145, 'The Roebuck', P, { contactNumber: '+44 20 7435 7354', establishmentFlags: ['servesAlcohol'] });
    const f = fhrs(1045546, 'The Roebuck', away(P, 10, 3));
    const { records, report } = mergeVenues([o, f]);
    expect(records).toEqual([
      {
        id: 'osm:node/67827145',
        name: 'The Roebuck',
        location: { type: 'Point', coordinates: P },
        primaryGenre: 'pub',
        externalIds: { osm: 'node/67827145', fhrs: '1045546' },
        contactNumber: '+44 20 7435 7354',
        establishmentFlags: ['servesAlcohol', 'servesFood'],
        formattedAddress: '1045546 High Street, London',
      },
    ]);
    expect(report.skipReasons.get('merged_into_osm')?.examples).toEqual(['fhrs:1045546 (into osm:node/67827145)']);
    expect(report.counters.get('OSM records linked to FHRS by name and distance')).toBe(1);
    expect(report.counters.get('OSM records linked to FHRS by fhrs:id')).toBeUndefined();
    expect(report.balanced()).toBe(true);
  });

  it('names compare folded, without a leading "the": "Queens" 49 m from "The Queen\'s" links, 51 m does not', () => {
    const q = osm(1, "The Queen's", P);
    const near = fhrs(11, 'QUEENS', away(P, 120, 49));
    const b = osm(2, 'Bell', away(P, 0, 5000));
    const far = fhrs(12, 'The Bell', away(b.location.coordinates, 300, 51));
    expect(metersBetween(q, near)).toBeLessThan(50);
    expect(metersBetween(b, far)).toBeGreaterThan(50);
    const { records } = mergeVenues([q, b, near, far]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1', 'osm:node/2', 'fhrs:12']);
    expect(records[0]?.externalIds).toEqual({ osm: 'node/1', fhrs: '11' });
  });

  it('each record takes one partner, nearest first: two FHRS Crowns at 30 m and 10 m, one OSM Crown', () => {
    const c = osm(3, 'Crown', P);
    const { records } = mergeVenues([c, fhrs(21, 'Crown', away(P, 0, 30)), fhrs(22, 'Crown', away(P, 180, 10))]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/3', 'fhrs:21']);
    expect(records[0]?.externalIds?.fhrs).toBe('22');
  });

  it('two OSM Crowns 20 m and 40 m from one FHRS Crown: the nearer takes it, the other stays alone', () => {
    const f = fhrs(23, 'Crown', P);
    const a = osm(4, 'Crown', away(P, 90, 40));
    const b = osm(5, 'Crown', away(P, 270, 20));
    const { records } = mergeVenues([a, b, f]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/4', 'osm:node/5']);
    expect(records[0]?.externalIds).toEqual({ osm: 'node/4' });
    expect(records[1]?.externalIds).toEqual({ osm: 'node/5', fhrs: '23' });
  });

  it('an fhrs:id link keeps priority: neither its OSM nor its FHRS record takes a name partner', () => {
    // osm 6 names FHRS 31 (renamed since, 200 m off); FHRS 32, 5 m away, has osm 6's name;
    // osm 7 has FHRS 31's name, 5 m from it, but FHRS 31 is taken by the id.
    const a = osm(6, 'Dog and Duck', P, { externalIds: { fhrs: '31' } });
    const f31 = fhrs(31, 'Old Dog', away(P, 45, 200));
    const f32 = fhrs(32, 'Dog & Duck', away(P, 90, 5));
    const b = osm(7, 'Old Dog', away(f31.location.coordinates, 0, 5));
    const { records, report } = mergeVenues([a, b, f31, f32]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/6', 'osm:node/7', 'fhrs:32']);
    expect(records[0]?.formattedAddress).toBe('31 High Street, London');
    expect(records[1]?.formattedAddress).toBeUndefined();
    expect(report.counters.get('OSM records linked to FHRS by fhrs:id')).toBe(1);
    expect(report.counters.get('OSM records linked to FHRS by name and distance')).toBeUndefined();
  });

  it('an fhrs:id absent from the inputs (a newer id) does not stop a name link; OSM\'s id stays (OSM first)', () => {
    const a = osm(8, 'Swan', P, { externalIds: { fhrs: '999' } });
    const { records, report } = mergeVenues([a, fhrs(41, 'The Swan', away(P, 0, 20))]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/8']);
    expect(records[0]?.externalIds).toEqual({ osm: 'node/8', fhrs: '999' });
    expect(records[0]?.formattedAddress).toBe('41 High Street, London');
    expect(report.counters.get('OSM fhrs:id with no FHRS record in the inputs')).toBe(1);
    expect(report.counters.get('OSM records linked to FHRS by name and distance')).toBe(1);
  });
});
