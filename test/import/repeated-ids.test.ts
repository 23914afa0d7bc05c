import { describe, expect, it } from 'vitest';
import { mergeVenues } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';

/**
 * Regressions of audit 62d finding 7: two records of one id (two OSM extracts of one
 * element) become one: the first keeps its values, the later fills what it lacks, flag and
 * word lists are united. Hand-made records; the expected records are written out by hand.
 */
const hours: NonNullable<VenueRecord['regularOpeningHours']> = [{ days: ['Mon'], timeSlots: [{ open: '12:00', close: '23:00', isClosed: false, closeNextDay: false }] }];

// As in the London pubs extract (osm:way/171299014: vegetarian) ...
const fromPubs: VenueRecord = {
  id: 'osm:way/171299014',
  name: 'The Spread Eagle',
  location: { type: 'Point', coordinates: [51.5412, -0.1431] },
  primaryGenre: 'pub',
  externalIds: { osm: 'way/171299014' },
  catersFlags: ['vegetarian'],
  establishmentFlags: ['servesAlcohol'],
  amenities: { outdoorSeating: true },
  openingHoursText: 'Mo 12:00-23:00',
  regularOpeningHours: hours,
};
// ... and in Veggiekarte's GB extract (vegan), a few fields apart.
const fromVeg: VenueRecord = {
  id: 'osm:way/171299014',
  name: 'Spread Eagle',
  location: { type: 'Point', coordinates: [51.5413, -0.1432] },
  primaryGenre: 'restaurant',
  externalIds: { osm: 'way/171299014', wikidata: 'Q1' },
  catersFlags: ['vegan', 'vegetarian'],
  establishmentFlags: ['servesAlcohol', 'servesFood'],
  additionalGenres: ['vegan'],
  amenities: { outdoorSeating: false, takeaway: true },
  contactNumber: '+44 20 7267 1410',
  openingHoursText: 'Mo-Su 10:00+',
  openingHoursNotes: ['open-ended times: Mo-Su 10:00+'],
};

describe('merge: a repeated id folds into the first record (audit 62d finding 7)', () => {
  it('the first keeps its values; fields it lacks come from the later; flag lists united; hours stay together', () => {
    const { records, report } = mergeVenues([fromPubs, fromVeg]);
    expect(records).toEqual([
      {
        id: 'osm:way/171299014',
        name: 'The Spread Eagle',
        location: { type: 'Point', coordinates: [51.5412, -0.1431] },
        primaryGenre: 'pub',
        externalIds: { osm: 'way/171299014', wikidata: 'Q1' },
        catersFlags: ['vegetarian', 'vegan'],
        establishmentFlags: ['servesAlcohol', 'servesFood'],
        additionalGenres: ['vegan'],
        amenities: { outdoorSeating: true, takeaway: true },
        contactNumber: '+44 20 7267 1410',
        openingHoursText: 'Mo 12:00-23:00',
        regularOpeningHours: hours,
      },
    ]);
    // externalIds, catersFlags, establishmentFlags, additionalGenres, amenities, contactNumber
    expect(report.counters.get('fields filled from a repeated id')).toBe(6);
    expect(report.skipReasons.get('duplicate_id')).toEqual({ count: 1, examples: ['osm:way/171299014 (folded, 6 fields filled)'] });
    expect(report.read).toBe(2);
    expect(report.balanced()).toBe(true);
  });

  it('lists of both are united, first\'s items first; the first without hours takes the later\'s hours whole', () => {
    const a: VenueRecord = { id: 'osm:node/1', name: 'Anchor', location: { type: 'Point', coordinates: [51, 0] }, additionalGenres: ['thai'], vibes: ['cosy'], highlights: ['garden'] };
    const b: VenueRecord = {
      id: 'osm:node/1',
      name: 'The Anchor',
      location: { type: 'Point', coordinates: [52, 1] },
      additionalGenres: ['vegan', 'thai'],
      vibes: ['lively'],
      highlights: ['garden'],
      openingHoursText: 'Mo 12:00-23:00',
      regularOpeningHours: hours,
      openingHoursNotes: ['note'],
    };
    const { records, report } = mergeVenues([a, b]);
    expect(records).toEqual([
      {
        id: 'osm:node/1',
        name: 'Anchor',
        location: { type: 'Point', coordinates: [51, 0] },
        additionalGenres: ['thai', 'vegan'],
        vibes: ['cosy', 'lively'],
        highlights: ['garden'],
        openingHoursText: 'Mo 12:00-23:00',
        regularOpeningHours: hours,
        openingHoursNotes: ['note'],
      },
    ]);
    expect(report.counters.get('fields filled from a repeated id')).toBe(5);
  });

  it('a repeated id under another name (the element changed hands between the extracts) is not folded: the first stays as it is (audit 72e F3)', () => {
    // as osm:way/497785764: "The Crown", a pub in the 2024 London pubs, "Le Pain Quotidien", a vegan cafe in Veggiekarte 2022
    const pub: VenueRecord = { id: 'osm:way/497785764', name: 'The Crown', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' };
    const cafe: VenueRecord = {
      id: 'osm:way/497785764',
      name: 'Le Pain Quotidien',
      location: { type: 'Point', coordinates: [51.5, -0.1] },
      primaryGenre: 'coffee_shop',
      catersFlags: ['vegan'],
      websiteUri: 'https://www.lepainquotidien.com',
    };
    const { records, report } = mergeVenues([pub, cafe]);
    expect(records).toEqual([pub]);
    expect(report.skipReasons.get('duplicate_id')).toEqual({ count: 1, examples: ['osm:way/497785764 (not folded: named "Le Pain Quotidien" here, "The Crown" in the first)'] });
    expect(report.counters.get('repeated ids under another name, not folded')).toBe(1);
    expect(report.counters.get('fields filled from a repeated id')).toBeUndefined();
    expect(report.balanced()).toBe(true);
  });

  it('an fhrs:id only the later copy carries links the FHRS record (folding comes before linking); order is first appearance', () => {
    const osmA: VenueRecord = { id: 'osm:node/2', name: 'Crown', location: { type: 'Point', coordinates: [51.5, -0.1] }, externalIds: { osm: 'node/2' } };
    const other: VenueRecord = { id: 'osm:node/3', name: 'Bell', location: { type: 'Point', coordinates: [51.6, -0.1] }, externalIds: { osm: 'node/3' } };
    const osmA2: VenueRecord = { ...osmA, externalIds: { osm: 'node/2', fhrs: '77' } };
    const fhrs: VenueRecord = { id: 'fhrs:77', name: 'Old Crown Inn', location: { type: 'Point', coordinates: [51.501, -0.1] }, formattedAddress: '1 Crown St', externalIds: { fhrs: '77' } };
    const { records, report } = mergeVenues([osmA, other, osmA2, fhrs, other]);
    expect(records).toEqual([{ ...osmA2, formattedAddress: '1 Crown St' }, other]);
    expect(report.counters.get('OSM records linked to FHRS by fhrs:id')).toBe(1);
    expect(report.skipReasons.get('duplicate_id')).toEqual({ count: 2, examples: ['osm:node/2 (folded, 1 field filled)', 'osm:node/3 (folded)'] });
    expect(report.balanced()).toBe(true);
  });
});
