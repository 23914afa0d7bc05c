import { describe, expect, it } from 'vitest';
import { mergeVenues, overturePlaceToVenue, type OverturePlace } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesicDirect } from '../support/oracle.js';
import { wkbPoint } from '../support/wkb.js';
import { osmNode, overtureVenue } from './support/merge-records.js';

/**
 * The Overture mapping on hand-made rows (the shapes of Overture's schema, old and new
 * category fields), and the merge of Overture with OSM venues. Expected values are written
 * out by hand; distances between test points come from GeographicLib.
 */
const filter = { minConfidence: 0.5 };

const base: OverturePlace = {
  id: 'abc-123',
  geometry: wkbPoint(178.4419, -18.1416), // Suva, Fiji
  names: { primary: 'Kava Bar' },
  confidence: 0.9,
};

function mapped(row: OverturePlace): VenueRecord {
  const out = overturePlaceToVenue(row, filter);
  if (!out.ok) throw new Error(`skipped: ${out.reason}`);
  return out.record;
}

describe('Overture row to venue: kinds from categories, taxonomy and basic_category', () => {
  it('old categories: pizza_restaurant is a restaurant with cuisine pizza; alternate bar adds the genre and servesAlcohol', () => {
    const r = mapped({ ...base, categories: { primary: 'pizza_restaurant', alternate: ['bar', 'hotel'] } });
    expect(r).toMatchObject({ id: 'overture:abc-123', name: 'Kava Bar', primaryGenre: 'restaurant', additionalGenres: ['pizza', 'bar'], establishmentFlags: ['servesFood', 'servesAlcohol'] });
    expect(r.location.coordinates).toEqual([-18.1416, 178.4419]);
  });

  it('new taxonomy without categories: the most specific food word of the hierarchy decides', () => {
    const r = mapped({ ...base, taxonomy: { primary: 'gas_station_sushi', hierarchy: ['food_and_drink', 'restaurant', 'casual_eatery', 'gas_station_sushi'], alternates: ['coffee_shop'] } });
    expect(r.primaryGenre).toBe('restaurant');
    expect(r.additionalGenres).toEqual(['coffee_shop']);
  });

  it('taxonomy is preferred to the retiring categories when both are present', () => {
    const r = mapped({ ...base, categories: { primary: 'restaurant' }, taxonomy: { primary: 'cocktail_bar', hierarchy: ['food_and_drink', 'bar', 'cocktail_bar'] } });
    expect(r.primaryGenre).toBe('bar');
    expect(r.establishmentFlags).toEqual(['servesAlcohol', 'servesCocktails']);
    expect(r.additionalGenres).toBeUndefined(); // the old primary is superseded, not an alternate
  });

  it('basic_category alone is enough (pub)', () => {
    expect(mapped({ ...base, basic_category: 'pub' }).primaryGenre).toBe('pub');
  });

  it('walk-through 32: steakhouse, salad_bar, smoothie_juice_bar, delicatessen, desserts, tapas_bar are food and drink', () => {
    const genre = (primary: string) => (overturePlaceToVenue({ ...base, categories: { primary } }, filter) as { record?: { primaryGenre?: string } }).record?.primaryGenre;
    expect(['steakhouse', 'salad_bar', 'tapas_bar', 'smoothie_juice_bar', 'delicatessen', 'desserts'].map(genre)).toEqual(['restaurant', 'restaurant', 'restaurant', 'coffee_shop', 'fast_food', 'ice_cream']);
  });

  it('walk-through 32: only eat_and_drink of its own -> the first food-or-drink alternate gives the kind (taxonomy root food_and_drink too)', () => {
    expect(overturePlaceToVenue({ ...base, categories: { primary: 'eat_and_drink', alternate: ['shopping', 'jamaican_restaurant', 'bar'] } }, filter)).toMatchObject({
      ok: true,
      record: { primaryGenre: 'restaurant', additionalGenres: ['jamaican', 'bar'] },
    });
    expect(overturePlaceToVenue({ ...base, taxonomy: { primary: 'poutinerie', hierarchy: ['food_and_drink', 'poutinerie'], alternates: ['pub'] } }, filter)).toMatchObject({ ok: true, record: { primaryGenre: 'pub' } });
  });

  it('other kinds are skipped as not_food_or_drink with the category as detail', () => {
    expect(overturePlaceToVenue({ ...base, categories: { primary: 'hotel', alternate: ['restaurant'] } }, filter)).toEqual({ ok: false, reason: 'not_food_or_drink', detail: 'hotel' });
    expect(overturePlaceToVenue({ ...base }, filter)).toMatchObject({ ok: false, reason: 'not_food_or_drink', detail: 'no category' });
  });
});

describe('Overture row to venue: fields and skips', () => {
  const cafe = { ...base, categories: { primary: 'cafe' } };

  it('brand: a wikidata id alone makes a chain; contacts take the first non-empty entry; socials by host', () => {
    const r = mapped({
      ...cafe,
      brand: { names: null, wikidata: 'Q37158' },
      websites: ['', 'https://example.fj/'],
      phones: [' ', '+679 330 0000'],
      emails: ['hello@example.fj'],
      socials: ['https://www.instagram.com/kava', 'https://twitter.com/kava', 'https://www.facebook.com/kava'],
      addresses: [{ freeform: '1 Victoria Parade', locality: 'Suva', region: null, postcode: null, country: 'FJ' }],
    });
    expect(r).toMatchObject({
      isChain: true,
      business: { brandWikidata: 'Q37158' },
      websiteUri: 'https://example.fj/',
      contactNumber: '+679 330 0000',
      contactEmail: 'hello@example.fj',
      socials: { instagram: 'https://www.instagram.com/kava', facebook: 'https://www.facebook.com/kava' },
      formattedAddress: '1 Victoria Parade, Suva, FJ',
      confidence: 0.9,
    });
  });

  it('no brand: isChain absent (never invented)', () => {
    expect(mapped(cafe).isChain).toBeUndefined();
  });

  it('no geometry: the centre of bbox; bad WKB or an out-of-range point: bad_geometry', () => {
    const r = mapped({ ...cafe, geometry: null, bbox: { xmin: 179.9, xmax: 180, ymin: -16.8, ymax: -16.6 } });
    expect(r.location.coordinates[0]).toBeCloseTo(-16.7, 12);
    expect(r.location.coordinates[1]).toBeCloseTo(179.95, 12);
    expect(overturePlaceToVenue({ ...cafe, geometry: new Uint8Array([1, 1, 0]) }, filter)).toMatchObject({ ok: false, reason: 'bad_geometry' });
    expect(overturePlaceToVenue({ ...cafe, geometry: wkbPoint(181, 10) }, filter)).toMatchObject({ ok: false, reason: 'bad_geometry' });
    expect(overturePlaceToVenue({ ...cafe, geometry: null }, filter)).toMatchObject({ ok: false, reason: 'bad_geometry' });
  });

  it('low confidence, missing name', () => {
    expect(overturePlaceToVenue({ ...cafe, confidence: 0.49 }, filter)).toEqual({ ok: false, reason: 'low_confidence', detail: '0.49' });
    expect(overturePlaceToVenue({ ...cafe, names: { primary: '  ' } }, filter)).toMatchObject({ ok: false, reason: 'missing_name' });
  });

  it('text given as UTF-8 bytes (a file without string annotations) reads as text', () => {
    const r = mapped({ ...cafe, names: { primary: new TextEncoder().encode('Café Ōkubo') } });
    expect(r.name).toBe('Café Ōkubo');
  });
});


describe('merge: Overture venues join OSM venues so that OSM hours come across', () => {
  const hours: NonNullable<VenueRecord['regularOpeningHours']> = [{ days: ['Mon'], timeSlots: [{ open: '12:00', close: '23:00', isClosed: false, closeNextDay: false }] }];
  const osm = (id: number, name: string, lat: number, lon: number, extra: Partial<VenueRecord> = {}): VenueRecord => osmNode(id, name, [lat, lon], { regularOpeningHours: hours, ...extra });
  const ov = (id: string, name: string, at: [number, number], extra: Partial<VenueRecord> = {}): VenueRecord => overtureVenue(id, name, at, { confidence: 0.8, ...extra });
  const [lat0, lon0] = [51.5145, -0.1445];

  it('same name after folding within 50 m links (49 m); 51 m does not', () => {
    const { records, report } = mergeVenues([
      osm(1, 'Café Rouge', lat0, lon0),
      ov('a', 'CAFE ROUGE', geodesicDirect(lat0, lon0, 30, 49)),
      osm(2, 'The Crown', lat0 + 0.01, lon0),
      ov('b', 'The Crown', geodesicDirect(lat0 + 0.01, lon0, 200, 51)),
    ]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1', 'osm:node/2', 'overture:b']);
    expect(records[0]).toMatchObject({ name: 'Café Rouge', formattedAddress: 'a address', confidence: 0.8, regularOpeningHours: hours });
    expect(records[0]?.location.coordinates).toEqual([lat0, lon0]);
    expect(report.skipReasons.get('merged_into_osm')?.examples).toEqual(['overture:a (into osm:node/1)']);
    expect(report.counters.get('OSM records linked to an Overture record')).toBe(1);
    expect(report.balanced()).toBe(true);
  });

  it('a shared website (scheme, www and trailing slash ignored) or phone (national vs international form) links compatible names within 100 m, not at 150 m', () => {
    const { records } = mergeVenues([
      osm(1, 'Red Lion', lat0, lon0, { websiteUri: 'http://www.redlion.example/' }),
      ov('a', 'The Red Lion Pub', geodesicDirect(lat0, lon0, 90, 90), { websiteUri: 'https://redlion.example' }),
      osm(2, 'Blue Boar', lat0 + 0.05, lon0, { contactNumber: '020 7946 0000' }),
      ov('b', 'Blue Boar Inn', geodesicDirect(lat0 + 0.05, lon0, 0, 70), { contactNumber: '+44 20 7946 0000' }),
      osm(3, 'Green Man', lat0 - 0.05, lon0, { websiteUri: 'https://greenman.example/' }),
      ov('c', 'Green Man', geodesicDirect(lat0 - 0.05, lon0, 180, 150), { websiteUri: 'https://greenman.example/' }),
    ]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1', 'osm:node/2', 'osm:node/3', 'overture:c']);
    expect(records[0]?.formattedAddress).toBe('a address');
    expect(records[1]?.formattedAddress).toBe('b address');
  });

  it('each OSM venue takes one Overture venue, the nearest', () => {
    const { records } = mergeVenues([
      osm(1, 'Pret', lat0, lon0),
      ov('far', 'Pret', geodesicDirect(lat0, lon0, 0, 40)),
      ov('near', 'Pret', geodesicDirect(lat0, lon0, 180, 10)),
    ]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1', 'overture:far']);
    expect(records[0]?.formattedAddress).toBe('near address');
  });

  it('across the antimeridian (Taveuni, Fiji): 20 m apart on either side of 180 degrees still link', () => {
    const [lat, lon] = [-16.8, 179.9999];
    const other = geodesicDirect(lat, lon, 90, 20);
    expect(other[1]).toBeLessThan(0);
    const { records } = mergeVenues([osm(1, 'Meridian Cafe', lat, lon), ov('x', 'Meridian Café', other)]);
    expect(records.map((r) => r.id)).toEqual(['osm:node/1']);
  });
});
