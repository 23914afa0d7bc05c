import { readFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { describe, expect, it } from 'vitest';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { Engine, RestoredEngineParts, createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { buildOpeningTables } from '../../src/search/opening-states.js';
import { CompactRecordSource } from '../../src/store/compact-records.js';
import { CompactRecordsBuilder } from '../../src/store/compact-records-builder.js';
import { ArrayRecordSource } from '../../src/store/record-source.js';
import { VenueStore } from '../../src/store/venue-store.js';
import { prng } from '../support/oracle.js';
import { randomQuery } from '../search/oracle-queries.js';

/**
 * Issue 19 item 2: an engine built from records keeps them in its own compact form
 * (src/store/compact-records.ts), never the caller's objects, and answers exactly as an
 * engine that reads the caller's objects (the engine before the change, rebuilt here from
 * the same columns over an ArrayRecordSource of the original records).
 */
const FIXTURES = new URL('../../fixtures/venues.ndjson', import.meta.url).pathname;
const fixtures = (): VenueRecord[] =>
  readFileSync(FIXTURES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as VenueRecord);

const at = (lat: number, lon: number) => ({ type: 'Point' as const, coordinates: [lat, lon] as [number, number] });

/** The same engine reading the caller's objects: today's behaviour, as the oracle. */
function objectEngine(compact: Engine, originals: readonly VenueRecord[]): Engine {
  const s = compact.store;
  const byId = new Map(originals.map((r) => [r.id, r]));
  const ordered = Array.from({ length: s.size }, (_, i) => byId.get(s.id(i))!);
  const store = new VenueStore(
    {
      lat: s.lat,
      lon: s.lon,
      chain: s.chain,
      caters: s.caters,
      primaryGenre: s.primaryGenre,
      termWords: s.terms.words,
      termStart: s.termStart,
      termCodes: s.termCodes,
      vibeWords: s.vibes.words,
      vibeStart: s.vibeStart,
      vibeCodes: s.vibeCodes,
      genreSpellings: s.genreSpellings,
      idOrder: s.idsInOrder(),
    },
    new ArrayRecordSource(ordered),
  );
  const tree = new KDBush(s.size, 64, Float64Array);
  for (let i = 0; i < s.size; i++) tree.add(s.lon[i]!, s.lat[i]!);
  tree.finish();
  const { hours, zones } = buildOpeningTables(store);
  return new Engine(new RestoredEngineParts(store, tree, hours, zones, null));
}

describe('compact records: every record comes back equal, keys in the same order', () => {
  it('bench venues and the rich fixtures (images, menus, details): JSON text of each decoded record equals the original\'s', () => {
    for (const originals of [generateBenchVenues(10_000, 7), fixtures()]) {
      const expected = new Map(originals.map((r) => [r.id, JSON.stringify(r)]));
      const { store } = createEngine(originals);
      expect(store.source).toBeInstanceOf(CompactRecordSource);
      const wrong: string[] = [];
      for (let i = 0; i < store.size; i++) {
        const id = store.id(i);
        const text = expected.get(id);
        if (JSON.stringify(store.record(i)) !== text || store.name(i) !== (JSON.parse(text!) as VenueRecord).name || store.indexOf(id) !== i) wrong.push(id);
      }
      expect(wrong).toEqual([]);
      expect(expected.size).toBe(store.size);
      expect(store.indexOf('no-such-id')).toBe(-1);
    }
  });

  it('awkward values: unpaired surrogates, long and non-ASCII texts, odd key order, undefined, a non-canonical location, empty lists', () => {
    const long = 'x'.repeat(70_000);
    const records = [
      { name: 'Key order first', id: 'k1', location: at(51.5, -0.1), primaryGenre: 'pub' },
      { id: 'lone-\uD800', name: 'Bad \uDC00 name', location: at(51.6, -0.1), description: 'd\uD83D' },
      { id: 'long', name: 'ÄÖÜ '.repeat(40), location: at(51.7, -0.1), description: long, isChain: true, vibes: [] },
      { id: 'u', name: 'Undef', location: at(51.8, -0.1), displayName: undefined, additionalGenres: ['a', 'a', 'Ä'] },
      { id: 'neg0', name: 'Zero', location: { type: 'Point', coordinates: [-0, 0] }, timeZone: 'Europe/London' },
      { id: 'odd-location', name: 'Odd', location: { coordinates: [51.9, -0.1], type: 'Point' } },
      // hours shared by description: a time past :59 must not share the value of the time it adds up to
      { id: 'h1', name: 'Quarter past', location: at(51.5, -0.2), regularOpeningHours: [{ days: ['Mon'], timeSlots: [{ open: '11:15', close: '23:00', isClosed: false, closeNextDay: false }] }] },
      { id: 'h2', name: 'Seventy-five', location: at(51.5, -0.3), regularOpeningHours: [{ days: ['Mon'], timeSlots: [{ open: '10:75', close: '23:00', isClosed: false, closeNextDay: false }] }] },
    ] as unknown as VenueRecord[];
    const { store } = createEngine(records, { validate: false });
    for (const r of records) {
      const got = store.record(store.indexOf(r.id));
      expect(Object.keys(got)).toEqual(Object.keys(r));
      expect(got).toEqual(r);
      expect(JSON.stringify(got)).toBe(JSON.stringify(r));
      expect(store.name(store.indexOf(r.id))).toBe(r.name);
    }
    expect(Object.is(store.record(store.indexOf('neg0')).location.coordinates[0], -0)).toBe(true);
  });

  it('more than one block: 300,000 records of 300 bytes (90 MB > 64 MiB) all come back', () => {
    const pad = 'p'.repeat(240);
    const records: VenueRecord[] = Array.from({ length: 300_000 }, (_, k) => ({ id: `v${k}`, name: `Venue ${k}`, location: at(50 + (k % 1000) / 1000, -1 + k / 300_000), description: `${pad}${k}` }));
    const { store } = createEngine(records, { validate: false });
    expect((store.source as CompactRecordSource).byteSize).toBeGreaterThan(64 * 1024 * 1024);
    for (let i = 0; i < store.size; i += 997) {
      const r = store.record(i);
      expect(r.description).toBe(`${pad}${r.id.slice(1)}`);
    }
  });

  it('touch reads the start of the record asked for (its id\'s length header) and changes nothing; out of range it reads nothing', () => {
    const originals = [...generateBenchVenues(2_000, 11), ...fixtures()];
    const { store } = createEngine(originals, { validate: false });
    const source = store.source as CompactRecordSource;
    const before = Array.from({ length: store.size }, (_, i) => JSON.stringify(store.record(i)));
    const wrong: string[] = [];
    for (let i = 0; i < store.size; i++) {
      // A record opens with its id as a text: a varint of twice its UTF-8 length (one byte under 64), then the bytes.
      // touch adds that byte and one of the next cache line (0 to 255).
      const header = 2 * Buffer.byteLength(store.id(i));
      const read = source.touch(i);
      if (header < 128 && !(read >= header && read <= header + 255)) wrong.push(`${store.id(i)}: ${read}`);
    }
    expect(wrong).toEqual([]);
    expect([source.touch(-1), source.touch(store.size), source.touch(1.5)]).toEqual([0, 0, 0]);
    expect(Array.from({ length: store.size }, (_, i) => JSON.stringify(store.record(i)))).toEqual(before);
  });

  it('transcoded into a builder whose dictionaries differ (other words, shapes and hours first), every record comes back equal', () => {
    const awkward = [
      { name: 'Key order first', id: 'k1', location: at(51.5, -0.1), primaryGenre: 'pub' },
      { id: 'lone-\uD800', name: 'Bad \uDC00 name', location: at(51.6, -0.1), description: 'd\uD83D', vibes: ['quiet', 'Quiet'] },
      { id: 'u', name: 'Undef', location: at(51.8, -0.1), displayName: undefined, additionalGenres: ['a', 'a', 'Ä'], isChain: false },
      { id: 'neg0', name: 'Zero', location: { type: 'Point', coordinates: [-0, 0] }, timeZone: 'Europe/London' },
      { id: 'odd-location', name: 'Odd', location: { coordinates: [51.9, -0.1], type: 'Point' }, regularOpeningHours: 'not hours' },
    ] as unknown as VenueRecord[];
    const originals = [...fixtures(), ...generateBenchVenues(2000, 7), ...awkward];
    const { store: from } = createEngine(originals, { validate: false });
    const source = from.source as CompactRecordSource;
    // The target's dictionaries are another data set's: other venues' words, key lists and hours get the first codes.
    const first = generateBenchVenues(300, 99).map((r) => ({ ...r, id: `other-${r.id}`, vibes: ['lively', ...(r.vibes ?? [])] }));
    const n = first.length + from.size;
    const lat = new Float64Array(n);
    const lon = new Float64Array(n);
    const builder = new CompactRecordsBuilder(n);
    first.forEach((r, k) => {
      [lat[k], lon[k]] = r.location.coordinates;
      builder.add(r, lat[k]!, lon[k]!, k);
    });
    for (let i = 0; i < from.size; i++) {
      const k = first.length + i;
      lat[k] = from.lat[i]!;
      lon[k] = from.lon[i]!;
      builder.transcode(source, i, k);
    }
    const to = builder.finish(lat, lon);
    expect(to.parts().words.slice(0, 3)).not.toEqual(source.parts().words.slice(0, 3));
    const expected = new Map(originals.map((r) => [r.id, JSON.stringify(r)]));
    const wrong: string[] = [];
    for (let i = 0; i < from.size; i++) {
      const got = to.get(first.length + i);
      if (JSON.stringify(got) !== expected.get(from.id(i)) || to.id(first.length + i) !== from.id(i)) wrong.push(from.id(i));
    }
    expect(wrong).toEqual([]);
    expect(Object.is(to.get(first.length + from.indexOf('neg0')).location.coordinates[0], -0)).toBe(true);
    expect(to.get(first.length + from.indexOf('lone-\uD800')).name).toBe('Bad \uDC00 name');
    first.forEach((r, k) => expect(JSON.stringify(to.get(k))).toBe(JSON.stringify(r)));
  });

  it('duplicate ids are still a duplicate_id error naming the id', () => {
    expect(() => createEngine([{ id: 'a', name: 'A', location: at(1, 1) }, { id: 'a', name: 'B', location: at(1, 2) }])).toThrow(/duplicate venue id "a"/);
  });
});

describe('the engine keeps no caller object', () => {
  it('changing every caller record after createEngine changes no answer', () => {
    const originals = fixtures();
    const copy = structuredClone(originals);
    const engine = createEngine(originals);
    const before = JSON.stringify(engine.search({ locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 2000 } }, { limit: 100, now: 0 }));
    const id = engine.store.id(0);
    const adv = JSON.stringify(engine.advanced(id, { now: 0 }));
    for (const r of originals) {
      r.name = 'CHANGED';
      r.location.coordinates[0] = 0;
      if (r.regularOpeningHours) r.regularOpeningHours.length = 0;
      if (r.images) r.images.length = 0;
    }
    expect(JSON.stringify(engine.search({ locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 2000 } }, { limit: 100, now: 0 }))).toBe(before);
    expect(JSON.stringify(engine.advanced(id, { now: 0 }))).toBe(adv);
    expect(engine.store.record(0)).toEqual(copy.find((r) => r.id === id));
  });

  it('shared weekly hours are frozen: a response cannot change them for other venues', () => {
    const hours = [{ days: ['Mon'], timeSlots: [{ open: '09:00', close: '17:00', isClosed: false, closeNextDay: false }] }] as NonNullable<VenueRecord['regularOpeningHours']>;
    const engine = createEngine([
      { id: 'a', name: 'A', location: at(51.5, -0.1), regularOpeningHours: hours },
      { id: 'b', name: 'B', location: at(51.5, -0.11), regularOpeningHours: structuredClone(hours) },
    ]);
    const h = engine.store.record(0).regularOpeningHours!;
    expect(Object.isFrozen(h) && Object.isFrozen(h[0]!.timeSlots[0])).toBe(true);
    expect(engine.store.record(1).regularOpeningHours).toBe(h);
  });
});

describe('responses are identical to an engine reading the caller\'s objects', () => {
  const cases: Array<[string, () => VenueRecord[]]> = [
    ['fixtures (rich records)', fixtures],
    ['bench venues (lean records, 30k)', () => generateBenchVenues(30_000, 11)],
  ];
  for (const [what, load] of cases) {
    it(`${what}: 300 POINT/PATH searches (pages, preferences), 200 finds, details of 300 venues`, () => {
      const originals = load();
      const compact = createEngine(originals);
      const oracle = objectEngine(compact, originals);
      const vocab = compact.vocabulary() as unknown as { establishmentFilters: string[]; catersFilters: string[]; vibes: string[] };
      const rnd = prng(19);
      const now = Date.UTC(2026, 10, 20, 18);
      for (let k = 0; k < 300; k++) {
        const q = randomQuery(rnd, originals, k % 2 === 0 ? 'POINT' : 'PATH', vocab, now);
        const opts = { limit: 1 + Math.floor(rnd() * 100), offset: rnd() < 0.2 ? Math.floor(rnd() * 50) : 0, now };
        expect(JSON.stringify(compact.search(q, opts))).toBe(JSON.stringify(oracle.search(q, opts)));
      }
      for (let k = 0; k < 200; k++) {
        const r = originals[Math.floor(rnd() * originals.length)]!;
        const word = r.name.split(' ').find((w) => w.length > 2) ?? r.name;
        const params = rnd() < 0.5 ? { q: word.slice(0, 2 + Math.floor(rnd() * (word.length - 1))) } : { q: word, lat: r.location.coordinates[0], lon: r.location.coordinates[1] };
        expect(JSON.stringify(compact.find(params, { now }))).toBe(JSON.stringify(oracle.find(params, { now })));
      }
      for (let k = 0; k < 300; k++) {
        const id = originals[Math.floor(rnd() * originals.length)]!.id;
        expect(JSON.stringify(compact.basic(id, { now }))).toBe(JSON.stringify(oracle.basic(id, { now })));
        expect(JSON.stringify(compact.advanced(id, { now }))).toBe(JSON.stringify(oracle.advanced(id, { now })));
        expect(JSON.stringify(compact.menus(id))).toBe(JSON.stringify(oracle.menus(id)));
      }
    });
  }
});
