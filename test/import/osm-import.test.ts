import { booleanPointInPolygon, centerOfMass, polygon } from '@turf/turf';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import { VenueRecordSchema, type VenueRecord } from '../../src/schema/venue.js';

const FIX = new URL('../../fixtures/import/', import.meta.url).pathname;

async function load(file: string) {
  const { records, report } = await collectRun(importOsm(FIX + file));
  const byId = new Map(records.map((r) => [r.id, r]));
  return { records, report, byId, get: (id: string) => byId.get(id) as VenueRecord };
}

describe('importOsm: Overpass GeoJSON sample (fixtures/import/osm-overpass-sample.geojson)', async () => {
  const { records, report, get } = await load('osm-overpass-sample.geojson');

  it('every written record validates against VenueRecordSchema (TypeBox Value.Check)', () => {
    for (const r of records) expect([...Value.Errors(VenueRecordSchema, r)].map((e) => `${r.id} ${e.path} ${e.message}`)).toEqual([]);
  });

  it('counts add up: 11 features read, 1 derived site relation, 6 written, skips by reason', () => {
    expect(report.read).toBe(11);
    expect(report.derived).toBe(1);
    expect(report.written).toBe(records.length);
    expect(records.map((r) => r.id).sort()).toEqual(
      ['osm:node/1001', 'osm:node/1010', 'osm:node/1011', 'osm:relation/3003', 'osm:relation/3004', 'osm:way/2002'].sort(),
    );
    const skips = Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, g.examples]));
    expect(skips).toEqual({
      missing_name: ['node/1003 (amenity=restaurant)'],
      not_food_or_drink: ['node/1004 (amenity=bank)'],
      site_relation_member: ['way/2005 (tags on relation/3003)', 'way/2006 (tags on relation/3003)'],
      bad_geometry: ['node/1008 (Point [200,95])'], // the fixture's coordinates, out of range
      duplicate_id: ['node/1001'],
    });
    expect(report.balanced()).toBe(true);
  });

  it('ids and externalIds are derived from the OSM type and id (stable across re-imports)', async () => {
    const again = await load('osm-overpass-sample.geojson');
    expect(again.records).toEqual(records);
    expect(get('osm:node/1001').externalIds).toEqual({ osm: 'node/1001', fhrs: '12345', wikidata: 'Q999' });
  });

  it('location is [lat, lon] (GeoJSON [lon, lat] swapped at the boundary)', () => {
    expect(get('osm:node/1001').location).toEqual({ type: 'Point', coordinates: [51.5, -0.1] });
  });

  it('amenity -> primaryGenre (cafe -> coffee_shop, shop=bakery -> bakery); cuisine split on ; -> additionalGenres', () => {
    expect(get('osm:node/1001').primaryGenre).toBe('pub');
    expect(get('osm:way/2002').primaryGenre).toBe('coffee_shop');
    expect(get('osm:relation/3004').primaryGenre).toBe('bar');
    expect(get('osm:node/1011').primaryGenre).toBe('bakery');
    expect(get('osm:node/1001').additionalGenres).toEqual(['british', 'pizza', 'burger']);
  });

  it('brand / brand:wikidata -> isChain and business; no brand -> isChain absent (not invented)', () => {
    expect(get('osm:node/1001').isChain).toBe(true);
    expect(get('osm:node/1001').business).toEqual({ brand: 'Testbrew', operator: 'Testbrew Pubs Ltd', brandWikidata: 'Q123456' });
    expect(get('osm:way/2002').isChain).toBeUndefined();
  });

  it('diet:* yes/only -> catersFlags; other diet keys and values are counted, not recorded', () => {
    expect(get('osm:node/1001').catersFlags).toEqual(['vegan', 'glutenFree']);
    expect(report.counters.get('diet tag not recorded: diet:halal=yes')).toBe(1);
    expect(report.counters.get('diet tag not recorded: diet:vegetarian=limited')).toBe(1);
  });

  it('internet_access=wlan -> freeWifi unless internet_access:fee=yes; pub -> servesAlcohol; cocktails -> servesCocktails; dog, outdoor_seating, wheelchair, live_music flagged as in amenities', () => {
    // node/1001: dog=leashed, outdoor_seating=garden, wheelchair=yes; way/2002: outdoor_seating=no
    expect(get('osm:node/1001').establishmentFlags).toEqual(['freeWifi', 'servesAlcohol', 'dogFriendly', 'outdoorSeating', 'wheelchairAccessible']);
    expect(get('osm:way/2002').establishmentFlags).toBeUndefined();
    expect(get('osm:relation/3004').establishmentFlags).toEqual(['servesAlcohol', 'servesCocktails']);
  });

  it('wheelchair, toilets:wheelchair, outdoor_seating (garden = yes, no = false), dog=leashed', () => {
    expect(get('osm:node/1001').accessibility).toEqual({ wheelchairEntrance: true, wheelchairToilet: false });
    expect(get('osm:node/1001').amenities).toEqual({ outdoorSeating: true, dogFriendly: true });
    expect(get('osm:way/2002').amenities).toEqual({ outdoorSeating: false });
  });

  it('addr:* -> formattedAddress; website, first phone of a ; list, email', () => {
    const r = get('osm:node/1001');
    expect(r.formattedAddress).toBe('12 High Street, London N1 1AA');
    expect(r.websiteUri).toBe('https://testarms.example');
    expect(r.contactNumber).toBe('+44 20 7946 0000');
    expect(r.contactEmail).toBe('hello@testarms.example');
    // the list's other number is said in the report (audit 72e F4: dropped silently)
    expect(report.counters.get('phone lists: the first number kept, the others not recorded')).toBe(1);
  });

  it('opening_hours -> regularOpeningHours + openingHoursText; notes when approximated or left out', () => {
    const pub = get('osm:node/1001');
    expect(pub.openingHoursText).toBe('Mo-Th 12:00-23:00; Fr,Sa 12:00-01:00; Su 12:00-22:30');
    expect(pub.regularOpeningHours?.find((g) => g.days.includes('Fri'))?.timeSlots).toEqual([
      { open: '12:00', close: '01:00', isClosed: false, closeNextDay: true },
    ]);
    // Saturday keeps its hour past midnight (audit 72e F1), said in a note
    expect(pub.regularOpeningHours?.find((g) => g.days.includes('Sat'))?.timeSlots).toEqual([
      { open: '12:00', close: '01:00', isClosed: false, closeNextDay: true },
    ]);
    expect(pub.openingHoursNotes?.join(' ')).toMatch(/^kept past midnight: "Su 12:00-22:30" read as an additional rule/);
    expect(get('osm:relation/3004').openingHoursNotes?.join(' ')).toMatch(/holiday/);
    expect(get('osm:node/1010').regularOpeningHours).toBeUndefined();
    expect(get('osm:node/1010').openingHoursNotes?.join(' ')).toMatch(/week to week/);
    expect(get('osm:node/1011').openingHoursNotes?.join(' ')).toMatch(/open-ended/);
    expect(report.counters.get('opening_hours exact')).toBe(2);
  });

  it('U-shaped building way: the centre of mass lies outside, so the point is on the surface (turf oracle)', () => {
    const ring = [
      [-0.1, 51.5], [-0.0997, 51.5], [-0.0997, 51.5003], [-0.0998, 51.5003], [-0.0998, 51.5001],
      [-0.0999, 51.5001], [-0.0999, 51.5003], [-0.1, 51.5003], [-0.1, 51.5],
    ];
    const shape = polygon([ring]);
    expect(booleanPointInPolygon(centerOfMass(shape), shape)).toBe(false);
    const [lat, lon] = get('osm:way/2002').location.coordinates;
    expect(booleanPointInPolygon([lon, lat], shape)).toBe(true);
  });

  it('site relation from member ways without amenity: relation id, reltags, mean of the member centres', () => {
    const r = get('osm:relation/3003');
    expect(r.name).toBe('The Site Inn');
    expect(r.externalIds).toEqual({ osm: 'relation/3003', fhrs: '777' });
    const [lat, lon] = r.location.coordinates;
    // member squares centred on (-0.1999, 51.4001) and (-0.1995, 51.4001)
    expect(lat).toBeCloseTo(51.4001, 6);
    expect(lon).toBeCloseTo(-0.1997, 6);
  });

  it('MultiPolygon relation: centre of its square', () => {
    const [lat, lon] = get('osm:relation/3004').location.coordinates;
    expect(lat).toBeCloseTo(51.6001, 6);
    expect(lon).toBeCloseTo(-0.2999, 6);
  });
});

describe('importOsm: bare numeric ids (Isle of Man shape)', () => {
  it('Point -> node, closed LineString -> way with its ring centre; takeaway=only, reservation=required', async () => {
    const { records, get, report } = await load('osm-bare-ids.geojson');
    expect(records.map((r) => r.id)).toEqual(['osm:node/4001', 'osm:way/5002']);
    expect(get('osm:node/4001').formattedAddress).toBe('Falcon House, Loch Promenade, Douglas');
    const [lat, lon] = get('osm:way/5002').location.coordinates;
    expect(lat).toBeCloseTo(54.0994, 6);
    expect(lon).toBeCloseTo(-4.6339, 6);
    expect(get('osm:way/5002').amenities).toEqual({ takeaway: true, reservable: true });
    expect(report.balanced()).toBe(true);
  });
});

describe('importOsm: Veggiekarte GeoJSON (icon stands for amenity, category for diet)', async () => {
  const { records, report, get } = await load('veggie-sample.geojson');
  it('ids from _type/_id; supermarket icon skipped; counts add up', () => {
    expect(records.map((r) => r.id)).toEqual(['osm:node/6001', 'osm:way/7002', 'osm:node/6003', 'osm:relation/8005']);
    expect(report.skipReasons.get('not_food_or_drink')?.examples).toEqual(['node/6004 (shop=supermarket)']);
    expect(report.balanced()).toBe(true);
  });
  it('category -> catersFlags: vegan_only -> vegan; vegetarian_only -> vegetarian + vegan; vegan_limited -> nothing', () => {
    expect(get('osm:node/6001').catersFlags).toEqual(['vegan']);
    expect(get('osm:way/7002').catersFlags?.slice().sort()).toEqual(['vegan', 'vegetarian']);
    expect(get('osm:node/6003').catersFlags).toBeUndefined();
    expect(get('osm:relation/8005').catersFlags).toEqual(['vegetarian']);
  });
  it('icon -> genre (maki_restaurant-pizza -> restaurant, bakery -> bakery); contact_* and addr_* kept', () => {
    expect(get('osm:way/7002').primaryGenre).toBe('restaurant');
    expect(get('osm:relation/8005').primaryGenre).toBe('bakery');
    const cafe = get('osm:node/6001');
    expect(cafe.primaryGenre).toBe('coffee_shop');
    expect(cafe.additionalGenres).toEqual(['cake']);
    expect(cafe.formattedAddress).toBe('Regents Park Road 363, London N3 1DH');
    expect(cafe.socials).toEqual({ instagram: 'onlyvegan' });
    expect(cafe.websiteUri).toBe('https://onlyvegan.example');
  });
});

describe('importOsm: points NDJSON', () => {
  it('reads {osm_id, lat, lon, tags}; bad lines are skipped and reported by line', async () => {
    const { records, report, get } = await load('osm-points.ndjson');
    expect(records.map((r) => r.id)).toEqual(['osm:node/9001', 'osm:relation/9002']);
    expect(get('osm:node/9001').establishmentFlags).toContain('freeWifi');
    expect(get('osm:node/9001').regularOpeningHours).toEqual([
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], timeSlots: [{ open: '00:00', close: '24:00', isClosed: false, closeNextDay: false }] },
    ]);
    const examples = Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, g.examples]));
    expect(examples).toEqual({
      bad_geometry: ['node/9003 (lat "north", lon -0.1)'], // as the fixture's line 3 has them
      malformed_line: [expect.stringMatching(/^line 4 \(.*JSON/)], // with JSON.parse's reason (its wording is the runtime's)
      missing_osm_id: ['line 5'],
    });
    expect(report.read).toBe(5);
    expect(report.balanced()).toBe(true);
  });
});

describe('importOsmRows: fhrs:id', () => {
  it('a list of ids (OSM ";" values) is kept whole, ";"-joined in OSM order without repeats, counted (audit 68e F2); text is not recorded', async () => {
    const { importOsmRows } = await import('../../src/import/osm-import.js');
    const row = (id: string, fhrs: string) => ({ kind: 'element' as const, element: { type: 'node' as const, id, tags: { amenity: 'pub', name: `Pub ${id}`, 'fhrs:id': fhrs }, point: { lat: 51.5, lon: -0.1 } } });
    const { records, report } = await collectRun(importOsmRows([row('1', '354096;1398897'), row('2', '776662; 776662'), row('3', '12345'), row('4', 'see notes'), row('5', '7 ; 5;7')]));
    expect(records.map((r) => r.externalIds?.fhrs)).toEqual(['354096;1398897', '776662', '12345', undefined, '7;5']);
    expect(report.counters.get('fhrs:id with several values (all kept)')).toBe(2);
    expect(report.counters.get('fhrs:id not recorded (not a number)')).toBe(1);
  });
});
