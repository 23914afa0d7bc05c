// Named world cases (issue 19, item 3): venues' time zones around the world, Fiji across
// the antimeridian (POINT and PATH with opening hours), non-Latin names in find, and place
// names outside the UK through the gazetteer's world option. Oracles: an atlas (the zones
// and coordinates written here by hand), Intl's time-zone database for local wall-clock
// time, GeographicLib for distances, hand-written expectations for names.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { zoneForLocation } from '../../src/hours/index.js';
import { DefaultPlaceResolver } from '../../src/places/default-resolver.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic, prng, routeDistance } from '../support/oracle.js';
import { offset } from './oracle-queries.js';

type Hours = NonNullable<VenueRecord['regularOpeningHours']>;
const slot = (open: string, close: string) => ({ open, close, isClosed: false, closeNextDay: false });
/** Mon-Fri 09:00-17:00, Sat 10:00-14:00, Sun closed. */
const HOURS: Hours = [
  { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], timeSlots: [slot('09:00', '17:00')] },
  { days: ['Sat'], timeSlots: [slot('10:00', '14:00')] },
  { days: ['Sun'], timeSlots: [{ open: '00:00', close: '00:00', isClosed: true, closeNextDay: false }] },
];

/** Open by HOURS at `ms`, reading the local weekday and time in `zone` from Intl (not our code). */
function oracleOpen(zone: string, ms: number): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(ms);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const minutes = Number(get('hour')) * 60 + Number(get('minute'));
  const day = get('weekday');
  if (day === 'Sun') return false;
  if (day === 'Sat') return minutes >= 600 && minutes < 840;
  return minutes >= 540 && minutes < 1020;
}

// Places and their IANA zones from an atlas. Offsets of 45 minutes (Kathmandu, Chatham),
// half hours (St John's, Kolkata, Tehran, Lord Howe's 30-minute DST), +13/+14 across the
// date line (Apia, Kiritimati), both sides of 180° in Fiji, and southern-hemisphere DST.
const PLACES: Array<[name: string, lat: number, lon: number, zone: string]> = [
  ['Tokyo Station', 35.6812, 139.7671, 'Asia/Tokyo'],
  ['Kathmandu, Durbar Square', 27.7043, 85.3071, 'Asia/Kathmandu'],
  ['Waitangi, Chatham Islands', -43.9535, -176.5597, 'Pacific/Chatham'],
  ["St John's, Newfoundland", 47.5615, -52.7126, 'America/St_Johns'],
  ['Honolulu', 21.3069, -157.8583, 'Pacific/Honolulu'],
  ['Suva, Fiji', -18.1416, 178.4419, 'Pacific/Fiji'],
  ['Taveuni, Fiji, east of 180°', -16.82, -179.97, 'Pacific/Fiji'],
  ['Apia, Samoa', -13.8333, -171.7667, 'Pacific/Apia'],
  ['Kiritimati, Kiribati', 1.8721, -157.4278, 'Pacific/Kiritimati'],
  ['Adak, Alaska', 51.88, -176.6581, 'America/Adak'],
  ['Santiago de Chile', -33.4489, -70.6693, 'America/Santiago'],
  ['Lord Howe Island', -31.5553, 159.0821, 'Australia/Lord_Howe'],
  ['Casablanca', 33.5731, -7.5898, 'Africa/Casablanca'],
  ['Reykjavik', 64.1466, -21.9426, 'Atlantic/Reykjavik'],
  ['Sydney', -33.8688, 151.2093, 'Australia/Sydney'],
  ['Kolkata', 22.5726, 88.3639, 'Asia/Kolkata'],
  ['Tehran', 35.6892, 51.389, 'Asia/Tehran'],
  ['London, Charing Cross', 51.5074, -0.1278, 'Europe/London'],
];

describe('time zones of venues worldwide: isOpen in each venue\'s own zone (Intl as the oracle)', () => {
  const venues: VenueRecord[] = PLACES.map(([name, lat, lon], k) => ({ id: `tz-${k}`, name, location: { type: 'Point', coordinates: [lat, lon] }, regularOpeningHours: HOURS }));
  const engine = createEngine(venues, { places: null });

  it.each(PLACES)('%s is in %s', (_name, lat, lon, zone) => {
    expect(zoneForLocation(lat, lon)).toBe(zone);
  });

  // Two weeks: an ordinary November week, and the week of 5 April 2026, when New Zealand
  // (Chatham), eastern Australia, Lord Howe and Chile leave summer time. Every 15 minutes
  // (every zone's local :00, :15, :30 and :45) and one minute before each.
  const weeks = [Date.UTC(2026, 10, 22, 0), Date.UTC(2026, 2, 30, 0)];
  const instants: number[] = [];
  for (const start of weeks) {
    for (let t = start; t < start + 8 * 86_400_000; t += 15 * 60_000) instants.push(t, t - 60_000);
  }

  it.each(PLACES.map((p, k) => [p[0], k, p[3]] as const))('%s: search and basic details say open exactly when the local clock is within the hours', (_name, k, zone) => {
    const v = venues[k]!;
    const [lat, lon] = v.location.coordinates;
    let mismatches = 0;
    let opens = 0;
    for (const now of instants) {
      const want = oracleOpen(zone, now);
      if (want) opens++;
      const res = engine.search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 100 } }, { now });
      expect(res.establishments.map((e) => e.id)).toEqual([v.id]);
      if (res.establishments[0]!.isOpen !== want) mismatches++;
      if (engine.basic(v.id, { now }).isOpen !== want) mismatches++;
    }
    expect(opens).toBeGreaterThan(instants.length / 5);
    expect(mismatches).toBe(0);
  });
});

describe('Fiji across the antimeridian: real places on both sides of 180°', () => {
  // Taveuni lies across the 180° meridian; venues scattered 12 km around (-16.82, 180),
  // longitudes written the way data has them (179.9x and -179.9x).
  const rnd = prng(19);
  const venues: VenueRecord[] = Array.from({ length: 600 }, (_, k) => {
    const p = offset(-16.82, 180, (rnd() * 2 - 1) * 12_000, (rnd() * 2 - 1) * 12_000);
    const lon = p.lon > 180 ? p.lon - 360 : p.lon;
    return { id: `fj-${k}`, name: `Taveuni ${k}`, location: { type: 'Point', coordinates: [p.lat, lon] }, regularOpeningHours: HOURS };
  });
  const engine = createEngine(venues, { places: null });
  const west = venues.filter((v) => v.location.coordinates[1] > 0).length;

  it('the venues lie on both sides (sanity)', () => {
    expect(west).toBeGreaterThan(200);
    expect(venues.length - west).toBeGreaterThan(200);
  });

  it('POINT centred on 180° (two friends either side of the line): exactly the venues within 4 km, at their geodesic distances', () => {
    const locations = [{ lat: -16.83, lon: 179.985 }, { lat: -16.81, lon: -179.985 }];
    const all = engine.search({ locations, mode: { mode: 'POINT', maxDistance: 4000 } }, { limit: 100, now: Date.UTC(2026, 10, 22, 22) });
    const c = all.centerPoint;
    expect(Math.abs(Math.abs(c.Lon) - 180)).toBeLessThan(0.001);
    const want = venues.filter((v) => geodesic(c.Lat, c.Lon, v.location.coordinates[0], v.location.coordinates[1]) <= 4000);
    expect(all.totalResults).toBe(want.length);
    expect(want.some((v) => v.location.coordinates[1] > 0) && want.some((v) => v.location.coordinates[1] < 0)).toBe(true);
    for (const e of all.establishments) {
      const v = venues.find((x) => x.id === e.id)!;
      expect(Math.abs(e.distanceMeters - geodesic(c.Lat, c.Lon, v.location.coordinates[0], v.location.coordinates[1]))).toBeLessThan(1);
    }
  });

  it('PATH crossing 180° with OPEN as a must, Monday 10:00 in Fiji: the corridor\'s venues (GeographicLib), all open', () => {
    const route = [{ lat: -16.9, lon: 179.9 }, { lat: -16.82, lon: 180 }, { lat: -16.74, lon: -179.9 }];
    // 10:00 Monday in Fiji (UTC+12, no summer time in 2026) is 22:00 Sunday UTC.
    const atTime = '2026-11-22T22:00:00Z';
    const body = { locations: route, mode: { mode: 'PATH', maxDistance: 1500 }, preferences: { openingConditions: { state: 'OPEN', atTime }, nonCompromise: ['openingConditions'] } };
    const path = route.map((p) => [p.lat, p.lon] as const);
    const want = venues.filter((v) => routeDistance(path, v.location.coordinates[0], v.location.coordinates[1]).distance <= 1500).map((v) => v.id).sort();
    expect(want.length).toBeGreaterThan(20);
    const got: string[] = [];
    for (let off = 0; ; off += 100) {
      const res = engine.search(body, { limit: 100, offset: off, now: 0 });
      for (const e of res.establishments) {
        expect(e.isOpen).toBe(true);
        got.push(e.id);
      }
      if (off + 100 >= res.totalResults) break;
    }
    expect(got.sort()).toEqual(want);
    // 18:00 Monday in Fiji: every venue is closed, so a must-be-open search finds none.
    const closed = engine.search({ ...body, preferences: { ...body.preferences, openingConditions: { state: 'OPEN', atTime: '2026-11-23T06:00:00Z' } } }, { now: 0 });
    expect(closed.totalResults).toBe(0);
  });
});

describe('find: non-Latin names (case and accent folding; scripts without spaces matched by prefix)', () => {
  const v = (id: string, name: string, lat: number, lon: number): VenueRecord => ({ id, name, location: { type: 'Point', coordinates: [lat, lon] } });
  const engine = createEngine(
    [
      v('ja-sushi', 'すし善', 35.68, 139.76),
      v('ja-ramen', '東京ラーメン 本店', 35.69, 139.7),
      v('zh-yogurt', '北京酸奶 Beijing Yogurt', 40.7, -74),
      v('ru', 'Ресторан ПУШКИН', 55.76, 37.6),
      v('el', 'Ταβέρνα Ο Θανάσης', 37.97, 23.72),
      v('de', 'Café Müller', 48.1, 11.5),
      v('tr', 'ÇİĞ KÖFTE', 41, 29),
      v('ko', '스타벅스 강남점', 37.5, 127),
      v('ar', 'مطعم الشام', 33.5, 36.3),
      // vocalised Arabic and pointed Hebrew (marks a reader may leave out); Hindi, whose vowel signs are letters
      v('ar-vowelled', 'مَطْعَم بيروت', 33.9, 35.5),
      v('he', 'קָפֶה נַחַת', 32.08, 34.78),
      v('hi-delhi', 'दिल्ली ढाबा', 28.6, 77.2),
      v('hi-dal', 'दाल भंडार', 28.61, 77.21),
    ],
    { places: null },
  );
  const found = (q: string) => engine.find({ q }, { now: 0 }).establishments.map((e) => e.id);

  it.each([
    ['Japanese, whole name', 'すし善', ['ja-sushi']],
    ['Japanese, prefix of a name written without spaces', 'すし', ['ja-sushi']],
    ['Japanese, prefix of the first word', '東京', ['ja-ramen']],
    ['Japanese, the second (space-separated) word', '本店', ['ja-ramen']],
    ['Chinese, prefix', '北京', ['zh-yogurt']],
    ['Chinese name found by its Latin word', 'beijing', ['zh-yogurt']],
    ['Cyrillic, lower case finds upper case', 'пушкин', ['ru']],
    ['Cyrillic, two words, the last a prefix', 'ресторан пушк', ['ru']],
    ['Greek without accents finds the accented name', 'ταβερνα', ['el']],
    ['Greek in capitals (final sigma)', 'ΘΑΝΑΣΗΣ', ['el']],
    ['German umlaut and acute folded', 'cafe muller', ['de']],
    ['German, capitals with umlaut', 'MÜLLER', ['de']],
    ['Turkish dotted capital I and cedilla folded', 'cig kofte', ['tr']],
    ['Korean word', '강남', ['ko']],
    ['Arabic word', 'الشام', ['ar']],
    ['Arabic without vowel marks finds the vowelled name (and the plain one)', 'مطعم', ['ar', 'ar-vowelled']],
    ['Hebrew without points finds the pointed name', 'קפה', ['he']],
    ['Hindi: a word with vowel signs is one word (not its consonants)', 'दिल्ली', ['hi-delhi']],
    ['Hindi: the other name by its own word', 'दाल', ['hi-dal']],
  ] as const)('%s: %s', (_what, q, want) => {
    expect(found(q)).toEqual(want);
  });

  it.each([
    ['a word inside a Japanese name written without spaces is not a prefix', 'ラーメン'],
    ['the end of a Chinese name written without spaces is not a prefix', '酸奶'],
    ['Cyrillic is not transliterated to Greek', 'таверна'],
  ])('%s (%s): not found', (_what, q) => {
    expect(found(q)).toEqual([]);
  });
});

describe('place names outside the UK: the gazetteer\'s world option (countries: null)', () => {
  const world = new DefaultPlaceResolver([], { countries: null });
  const uk = new DefaultPlaceResolver([]);

  // Atlas coordinates of each city centre; the gazetteer's point must be within 10 km.
  it.each([
    ['Suva', -18.1416, 178.4419],
    ['Tokyo', 35.6762, 139.6503],
    ['São Paulo', -23.5505, -46.6333],
    ['Sao Paulo', -23.5505, -46.6333],
    ['zurich', 47.3769, 8.5417],
    ['Reykjavík', 64.1466, -21.9426],
    ["Nuku'alofa", -21.1394, -175.2049],
    ['Apia', -13.8333, -171.7667],
    ['Kathmandu', 27.7172, 85.324],
    ['New York', 40.7128, -74.006],
    // letters NFKD does not decompose (ø, ł, ß), typed in ASCII as venue names' are (audit 67d F1)
    ['Tromso', 69.6496, 18.956],
    ['Wroclaw', 51.1079, 17.0385],
    ['Lodz', 51.7592, 19.456],
    ['Bialystok', 53.1325, 23.1688],
    ['Giessen', 50.5841, 8.6784],
    ['TROMSØ', 69.6496, 18.956],
  ])('%s resolves within 10 km of the atlas point', (name, lat, lon) => {
    const place = world.resolve(name);
    expect(place).not.toBeNull();
    expect(geodesic(place!.lat, place!.lon, lat, lon)).toBeLessThan(10_000);
  });

  it('the default (UK-first) gazetteer does not know Suva or Tokyo', () => {
    expect(uk.resolve('Suva')).toBeNull();
    expect(uk.resolve('Tokyo')).toBeNull();
  });

  it('find with location "Suva" on a world engine: venues around Suva by distance; native-script names (東京, München) are unknown (GeoNames names only)', () => {
    const records: VenueRecord[] = [
      { id: 'suva-1', name: 'Bula Coffee', location: { type: 'Point', coordinates: [-18.1405, 178.4233] } },
      { id: 'suva-2', name: 'Bula Bar', location: { type: 'Point', coordinates: [-18.15, 178.45] } },
      { id: 'nadi', name: 'Bula Cafe Nadi', location: { type: 'Point', coordinates: [-17.7765, 177.4356] } },
    ];
    const engine = createEngine(records, { places: () => new DefaultPlaceResolver(records, { countries: null }) });
    const res = engine.find({ q: 'bula', location: 'Suva' }, { now: 0 });
    expect(res.establishments.map((e) => e.id)).toEqual(['suva-2', 'suva-1'].sort((a, b) => {
      const d = (id: string) => {
        const c = records.find((r) => r.id === id)!.location.coordinates;
        return geodesic(-18.14161, 178.44149, c[0], c[1]);
      };
      return d(a) - d(b);
    }));
    for (const name of ['東京', 'München']) {
      try {
        engine.find({ q: 'bula', location: name }, { now: 0 });
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(VenueSearchError);
        expect((err as VenueSearchError).code).toBe('unknown_place');
        expect((err as Error).message).toContain(name);
      }
    }
  });
});
