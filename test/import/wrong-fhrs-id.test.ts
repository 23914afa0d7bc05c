import { describe, expect, it } from 'vitest';
import { mergeVenues } from '../../src/import/merge.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, geodesicDirect } from '../support/oracle.js';

/**
 * Audit 72e F2: an OSM `fhrs:id` naming another business (a restaurant 1.3 km off, under a
 * name sharing no word with the pub's, at another postcode) made one venue of two: the
 * restaurant vanished into the pub, and the pub's own registration stayed beside it. Such an
 * id is not followed; a far link whose names share a word (a pub that moved) still is.
 * Hand-made records after the real ones (London pubs, FHRS London); points placed with
 * GeographicLib.
 */
const PUB: [number, number] = [51.5258, -0.0876];
const at = (bearing: number, meters: number): [number, number] => geodesicDirect(PUB[0], PUB[1], bearing, meters);

const pub: VenueRecord = {
  id: 'osm:node/248444184',
  name: 'Sports Bar & Grill',
  location: { type: 'Point', coordinates: PUB },
  primaryGenre: 'pub',
  formattedAddress: 'Classic House, 174-180 Old Street, London, EC1V 9BP',
  externalIds: { osm: 'node/248444184', fhrs: '416514' },
};
const restaurant: VenueRecord = {
  id: 'fhrs:416514',
  name: 'Santore Ristorante Italiano',
  location: { type: 'Point', coordinates: at(250, 1330) },
  primaryGenre: 'restaurant',
  formattedAddress: 'Ground Floor, 59-61 Exmouth Market, Islington, EC1R 4QL',
  externalIds: { fhrs: '416514' },
};
const pubRegistration: VenueRecord = {
  id: 'fhrs:978567',
  name: 'Sports Bar & Grill',
  location: { type: 'Point', coordinates: at(90, 14) },
  primaryGenre: 'pub',
  formattedAddress: 'Ground Floor, 174-180 Old Street, London, EC1V 9RQ',
  externalIds: { fhrs: '978567' },
  contactNumber: '+44 20 7000 0000',
};

describe('merge: an fhrs:id naming another business far away is not followed (audit 72e F2)', () => {
  it('the oracle: the restaurant is 1,330 m from the pub, its registration 14 m', () => {
    expect(geodesic(PUB[0], PUB[1], ...restaurant.location.coordinates)).toBeCloseTo(1330, 3);
    expect(geodesic(PUB[0], PUB[1], ...pubRegistration.location.coordinates)).toBeCloseTo(14, 3);
  });

  it('the restaurant stays a venue; the pub takes its own registration by name and distance', () => {
    const { records, report } = mergeVenues([pub, restaurant, pubRegistration]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/248444184', 'fhrs:416514']);
    expect(records[0]!.contactNumber).toBe('+44 20 7000 0000');
    expect(records[1]).toEqual(restaurant);
    expect(report.counters.get('OSM fhrs:id naming an FHRS record of another name and postcode more than 500 m away: not linked')).toBe(1);
    expect(report.counters.get('OSM records linked to FHRS by name and distance')).toBe(1);
    expect(report.counters.get('OSM fhrs:id with no FHRS record in the inputs')).toBeUndefined();
    expect(report.balanced()).toBe(true);
  });

  it('a far link whose names share a word (a pub that moved) is followed, and counted as far', () => {
    const moved: VenueRecord = { ...restaurant, name: 'Sports Bar', primaryGenre: 'pub' };
    const { records, report } = mergeVenues([pub, moved]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/248444184']);
    expect(report.counters.get('linked points more than 500 m apart')).toBe(1);
  });

  it('a far link at the same postcode (a renamed business registered at its address) is followed', () => {
    const renamed: VenueRecord = { ...restaurant, formattedAddress: '174-180 Old Street, London, EC1V 9BP' };
    const { records } = mergeVenues([pub, renamed]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/248444184']);
  });
});
