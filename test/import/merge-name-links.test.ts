import { describe, expect, it } from 'vitest';
import { mergeVenues } from '../../src/import/index.js';
import { compatibleVenueNames, venueNameKey } from '../../src/import/name-key.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';
import { osmNode as osm, overtureVenue as ov } from './support/merge-records.js';

/**
 * Regressions of audit 62d finding 9 (Overture↔OSM join): hand-made records, expected links
 * written out by hand; each test point is placed at a GeographicLib geodesic distance from
 * its partner, and that distance is checked back with GeographicLib.
 */
function away(lat: number, lon: number, azimuth: number, meters: number): [number, number] {
  return geodesicDirect(lat, lon, azimuth, meters);
}

function metersBetween(a: VenueRecord, b: VenueRecord): number {
  const [lat1, lon1] = a.location.coordinates;
  const [lat2, lon2] = b.location.coordinates;
  return geodesic(lat1, lon1, lat2, lon2);
}

const P0: [number, number] = [51.5, -0.1];

describe('venue name key and compatible names (one rule for both joins)', () => {
  it('a leading "the" is dropped, a "the" elsewhere is kept, a lone "the" stays a name', () => {
    expect(venueNameKey('The Red Lion')).toBe('red lion');
    expect(venueNameKey('THE  RED-LION')).toBe('red lion');
    expect(venueNameKey('Red Lion')).toBe('red lion');
    expect(venueNameKey('Bell and the Crown')).toBe('bell and the crown');
    expect(venueNameKey('The')).toBe('the');
  });

  it('compatible: one name\'s words within the other\'s, filler words ignored; empty names never', () => {
    expect(compatibleVenueNames('Costa', 'Costa Coffee')).toBe(true);
    expect(compatibleVenueNames('The Brick Brewery', 'Brick Brewery Taproom')).toBe(true);
    expect(compatibleVenueNames('Rose & Crown', 'The Rose and the Crown')).toBe(true);
    expect(compatibleVenueNames('Ace Pizza', 'Pembury Tavern')).toBe(false);
    expect(compatibleVenueNames('Costa Coffee', 'Costa Express')).toBe(false);
    expect(compatibleVenueNames('The', 'The Crown')).toBe(false);
  });
});

describe('merge: Overture↔OSM contact links (audit 62d finding 9)', () => {
  it('a chain\'s branch 700 m away sharing the website is not merged into another branch (the audit\'s Costa records)', () => {
    const costa = osm(1, 'Costa', P0, { websiteUri: 'https://www.costa.co.uk/' });
    const other = ov('A', 'Costa Coffee', away(P0[0], P0[1], 0, 700), { websiteUri: 'http://costa.co.uk', contactNumber: '+44 20 1111 2222' });
    expect(metersBetween(costa, other)).toBeCloseTo(700, 6);
    const { records, report } = mergeVenues([costa, other]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1', 'overture:A']);
    expect(records[0]).toEqual(costa);
    expect(report.skipReasons.get('merged_into_osm')).toBeUndefined();
  });

  it('a shared phone 900 m away does not link; 99 m with compatible names does, 101 m does not', () => {
    const a = osm(4, 'Tooth Café', P0, { contactNumber: '020 7000 1234' });
    const far = ov('D', 'Tooth Cafe', away(P0[0], P0[1], 90, 900), { contactNumber: '+44 20 7000 1234', formattedAddress: '3 Tooth St' });
    const b = osm(5, 'Blue Boar', [51.6, -0.1], { contactNumber: '020 7946 0000' });
    const near = ov('E', 'Blue Boar Inn', away(51.6, -0.1, 45, 99), { contactNumber: '+44 20 7946 0000' });
    const c = osm(6, 'Grey Goose', [51.7, -0.1], { contactNumber: '020 7946 1111' });
    const out = ov('F', 'Grey Goose Inn', away(51.7, -0.1, 45, 101), { contactNumber: '+44 20 7946 1111' });
    expect(metersBetween(b, near)).toBeLessThan(100);
    expect(metersBetween(c, out)).toBeGreaterThan(100);
    const { records } = mergeVenues([a, far, b, near, c, out]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/4', 'overture:D', 'osm:node/5', 'osm:node/6', 'overture:F']);
    expect(records[0]?.formattedAddress).toBeUndefined();
    expect(records[2]?.formattedAddress).toBe('E address');
  });

  it('two venues in one building sharing a phone, names unrelated, 4 m apart: not linked', () => {
    const pub = osm(7, 'Pembury Tavern', P0, { contactNumber: '020 8986 8597' });
    const pizza = ov('G', 'Ace Pizza', away(P0[0], P0[1], 180, 4), { contactNumber: '+44 20 8986 8597' });
    expect(mergeVenues([pub, pizza]).records.map((r) => r.id)).toEqual(['osm:node/7', 'overture:G']);
  });

  it('"The Red Lion" and "Red Lion" 11 m apart are one venue (leading "the" ignored)', () => {
    const lion = osm(3, 'The Red Lion', [51.7, -0.3]);
    const c = ov('C', 'Red Lion', away(51.7, -0.3, 0, 11), { formattedAddress: '2 Lion Lane' });
    const { records } = mergeVenues([lion, c]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/3']);
    expect(records[0]).toEqual({ ...lion, formattedAddress: '2 Lion Lane' });
  });
});
