// Whole-store passes read a few keys of every venue through PickedFields instead of building
// full records (opening-hours tables, places learnt from addresses). Each picked value must
// be the value the original record object holds (the parsed NDJSON line, by id), and what
// those passes build from picked values must equal what they build from the records.
import { describe, expect, it } from 'vitest';
import { generateBenchVenues } from '../../scripts/fixtures/bench-venues.js';
import { createEngine } from '../../src/engine.js';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { LearntPlaces } from '../../src/places/learnt-places.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { isVenueSearchError } from '../../src/errors.js';
import { PickedFields } from '../../src/store/picked-fields.js';
import { ArrayRecordSource } from '../../src/store/record-source.js';
import { loadFixtureVenues } from '../search/support.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/** Keys of every kind the compact form stores (id, name, point, words, shared hours, text, JSON, flags) and one no record has. */
const KEYS = ['regularOpeningHours', 'id', 'formattedAddress', 'location', 'name', 'timeZone', 'catersFlags', 'primaryGenre', 'isChain', 'menus', 'photos', 'noSuchKey'];
const FHRS = 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';

function expectPicksEqualRecords(records: readonly VenueRecord[], picked: PickedFields, pick: (i: number, into: PickedFields) => void, idOf: (i: number) => string): void {
  const byId = new Map(records.map((r) => [r.id, r as unknown as Record<string, unknown>]));
  for (let i = 0; i < records.length; i++) {
    pick(i, picked);
    const original = byId.get(idOf(i))!;
    expect(picked.values).toEqual(picked.keys.map((key) => original[key]));
  }
}

describe('PickedFields: a few keys of every venue without its record', () => {
  const fixtures = loadFixtureVenues();
  const bench = generateBenchVenues(3000, 11);

  it('an engine\'s compact records give each picked key the original record\'s value, in two key orders, one scratch over two engines', () => {
    const forward = new PickedFields(KEYS);
    const backward = new PickedFields([...KEYS].reverse());
    for (const records of [fixtures, bench, fixtures]) {
      const store = createEngine(records).store;
      for (const picked of [forward, backward]) expectPicksEqualRecords(records, picked, (i, p) => store.pick(i, p), (i) => store.id(i));
    }
  });

  it('one key picked alone (the reader stops at it, or reads nothing past the name when the shape lacks it) gives the same', () => {
    for (const records of [fixtures, bench]) {
      const store = createEngine(records).store;
      for (const key of KEYS) expectPicksEqualRecords(records, new PickedFields([key]), (i, p) => store.pick(i, p), (i) => store.id(i));
    }
  });

  it('records held as objects give the same', () => {
    const source = new ArrayRecordSource(fixtures);
    expectPicksEqualRecords(fixtures, new PickedFields(KEYS), (i, p) => source.pick(i, p), (i) => fixtures[i]!.id);
  });

  it.skipIf(!hasShared(FHRS))('places learnt from a store equal those learnt from its records (fixtures, and FHRS London: 31,825 real addresses)', async () => {
    const { records: fhrs } = await collectRun(importFhrs(sharedFile(FHRS)));
    for (const records of [fixtures, fhrs]) {
      const learnt = createEngine(records).learntPlaces().toJSON();
      const oracle = new LearntPlaces(records).toJSON();
      expect(learnt.postcodes.length).toBeGreaterThan(records === fhrs ? 1000 : 0);
      expect(new Map(learnt.areas)).toEqual(new Map(oracle.areas));
      expect(new Map(learnt.postcodes)).toEqual(new Map(oracle.postcodes));
    }
  }, 60_000);

  it('a record the opening tables cannot read (unvalidated) is named by id and field', () => {
    const bad = [...bench.slice(0, 50), { ...bench[50]!, id: 'bad-zone', timeZone: 'Mars/Olympus' }];
    const engine = createEngine(bad, { validate: false });
    let error: unknown;
    try {
      engine.search({ locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 1000 } });
    } catch (err) {
      error = err;
    }
    expect(isVenueSearchError(error) && { code: error.code, param: error.param, value: error.value, recordId: error.recordId }).toEqual({
      code: 'invalid_venue',
      param: 'timeZone',
      value: 'Mars/Olympus',
      recordId: 'bad-zone',
    });
  });
});
