// Response records built from the compact bytes (RecordSource.fields + establishmentOf /
// searchEstablishmentOf) and from a record object (toEstablishment) against an independent
// reading: each venue's NDJSON line parsed with JSON.parse and mapped by the rules of
// interface 2.4 as docs/data-model.md states them, restated here in the most naive way.
// Issue 16: one object shape for every venue, the same JSON text as before.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { establishmentOf, searchEstablishmentOf, toEstablishment } from '../../src/details/establishment-record.js';
import { createEngine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { EstablishmentFields } from '../../src/store/establishment-fields.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url));
const LONDON_PUBS = fileURLToPath(new URL('../../../shared/data/osm-london-pubs/london_pubs_overpass_2024-11-25.geojson', import.meta.url));
const HAVE_PUBS = existsSync(LONDON_PUBS);
if (!HAVE_PUBS) console.warn(`[skip] ${LONDON_PUBS} not found: records of real OSM pubs not checked`);

type Json = Record<string, unknown>;

/** Interface 2.4 from a parsed NDJSON line: the table's order, absent optionals left out. */
function oracle(v: Json, distanceMeters: number, isOpen: boolean): Json {
  const out: Json = {};
  const copy = (key: string) => {
    if (v[key] !== undefined) out[key] = v[key];
  };
  out.id = v.id;
  out.name = v.name;
  out.displayName = v.displayName ?? v.name;
  copy('formattedAddress');
  const c = (v.location as { coordinates: unknown[] }).coordinates;
  out.location = { type: 'Point', coordinates: [c[0], c[1]] };
  for (const key of ['websiteUri', 'contactEmail', 'contactNumber', 'description', 'primaryGenre']) copy(key);
  out.additionalGenres = v.additionalGenres ?? [];
  copy('wordOnTheStreet');
  out.isOpen = isOpen;
  out.isChain = v.isChain ?? false;
  out.regularOpeningHours = v.regularOpeningHours ?? [];
  copy('mainImageUrl');
  copy('logo');
  out.establishmentFlags = v.establishmentFlags ?? [];
  out.catersFlags = v.catersFlags ?? [];
  out.distanceMeters = distanceMeters;
  return out;
}

/** Every venue of `lines` (NDJSON) through an engine, compared with the oracle. */
function checkAll(lines: string[], validate = true): number {
  const records = lines.map((l) => JSON.parse(l) as VenueRecord);
  const engine = createEngine(records, { validate });
  const store = engine.store;
  const f = new EstablishmentFields();
  let shape: string | null = null;
  let searchShape: string | null = null;
  lines.forEach((line, k) => {
    const v = JSON.parse(line) as Json;
    const i = store.indexOf(String(v.id));
    expect(i, `venue ${String(v.id)}`).toBeGreaterThanOrEqual(0);
    const d = k * 1.5;
    const isOpen = k % 3 === 0;
    const want = JSON.stringify(oracle(v, d, isOpen));
    store.source.fields(i, f);
    const fromBytes = establishmentOf(f, d, isOpen);
    expect(JSON.stringify(fromBytes), `venue ${String(v.id)} from the compact bytes`).toBe(want);
    expect(JSON.stringify(toEstablishment(records[k]!, d, isOpen)), `venue ${String(v.id)} from its record`).toBe(want);
    expect(JSON.stringify(toEstablishment(store.record(i), d, isOpen)), `venue ${String(v.id)} from the decoded record`).toBe(want);
    // One shape: every key always set, in one order.
    const keys = Object.keys(fromBytes).join(',');
    shape ??= keys;
    expect(keys).toBe(shape);
    // The search record: the same fields, then the search's own, `undefined` ones omitted.
    const matchScore = { genreMatch: 1, establishmentFiltersMatch: 1, catersFiltersMatch: 1, openingMatch: 1, vibesMatch: 1, chainMatch: 1, total: 1 };
    const travel = { '0': { distanceMeters: d, durationMinutes: 2 } };
    const along = k % 2 === 0 ? 12.5 : undefined;
    const group = along === undefined ? { maxMinutes: 2, totalMinutes: 2, spreadMinutes: 0, counted: ['0'] } : undefined;
    const search = searchEstablishmentOf(f, d, isOpen, matchScore, along, travel, [], group);
    const wantSearch: Json = { ...oracle(v, d, isOpen), matchScore };
    if (along !== undefined) wantSearch.alongRouteMeters = along;
    wantSearch.travel = travel;
    wantSearch.relaxed = [];
    if (group !== undefined) wantSearch.group = group;
    expect(JSON.stringify(search)).toBe(JSON.stringify(wantSearch));
    const searchKeys = Object.keys(search).join(',');
    searchShape ??= searchKeys;
    expect(searchKeys).toBe(searchShape);
  });
  return lines.length;
}

describe('response records: compact bytes and records against JSON.parse of the NDJSON', () => {
  it('every fixture venue', () => {
    const lines = readFileSync(FIXTURES, 'utf8').split('\n').filter((l) => l.trim() !== '');
    expect(checkAll(lines)).toBeGreaterThan(100);
  });

  it.skipIf(!HAVE_PUBS)('every OSM London pub (the OSM importer: addresses, websites, phones, hours, many key sets)', async () => {
    const { records } = await collectRun(importOsm(LONDON_PUBS));
    const lines = records.map((r) => JSON.stringify(r));
    const keySets = new Set(records.map((r) => Object.keys(r).join(',')));
    expect(keySets.size).toBeGreaterThan(20);
    expect(checkAll(lines)).toBeGreaterThan(3000);
  });

  it('unvalidated records: null, odd types and key orders, a non-canonical location, unicode and escaped texts', () => {
    const lines = [
      { id: 'a', name: 'Café Ñandú', location: { type: 'Point', coordinates: [51.5, -0.1] }, displayName: null, isChain: null, additionalGenres: null },
      { name: 'Back to front', id: 'b', catersFlags: ['vegan'], location: { coordinates: [51.6, -0.2], type: 'Point' }, formattedAddress: '1 High St' },
      { id: 'c', name: 'Lone \ud800 surrogate', location: { type: 'Point', coordinates: [51.7, -0.3] }, description: 'tab\tand "quotes"', websiteUri: 42 },
      { id: 'd', name: 'Listy', location: { type: 'Point', coordinates: [51.8, -0.4] }, regularOpeningHours: [{ days: ['Mon'], timeSlots: [{ open: '9', close: '17:00', isClosed: false, closeNextDay: false }] }] },
      { id: 'e', name: 'Emoji 🍺', location: { type: 'Point', coordinates: [51.9, -0.5] }, primaryGenre: 'pub', wordOnTheStreet: '', logo: 'x', mainImageUrl: 'y', isChain: true },
    ].map((r) => JSON.stringify(r));
    expect(checkAll(lines, false)).toBe(5);
  });
});
