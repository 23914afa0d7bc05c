import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { GB_GAZETTEER_FILE, gazetteerDataDir } from '../../src/places/gazetteer.js';
import type { FindResponse } from '../../src/schema/find.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { createHarness, type Harness } from '../http/support/harness.js';
import { geodesic } from '../support/oracle.js';

/**
 * Audit 77a F5: "red lion near Islington" as q matched no name (q is names only) and the
 * answer said nothing. An empty find without a centre whose q holds a place after near, in,
 * around or at now carries a hint: the words before as q, the place as location. Oracles:
 * the GB file's Islington row, GeographicLib distances and a brute-force scan of the fixture
 * names (every query word a prefix of a name word).
 */
const records = readFileSync(fileURLToPath(new URL('../../fixtures/venues.ndjson', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as VenueRecord);

function gbPlace(name: string): { lat: number; lon: number } {
  const rows = readFileSync(gazetteerDataDir() + GB_GAZETTEER_FILE, 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f[0] === 'P' && f[1] === name);
  expect(rows).toHaveLength(1);
  return { lat: Number(rows[0]![2]), lon: Number(rows[0]![3]) };
}

/** Venues whose name has, for every word of `q`, a word starting with it, within `meters` of `at`. */
function scan(q: string, at: { lat: number; lon: number }, meters: number): number {
  const words = q.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return records.filter((r) => {
    const name = r.name.toLowerCase().split(/[^a-z0-9]+/);
    return words.every((w) => name.some((n) => n.startsWith(w))) && geodesic(at.lat, at.lon, r.location.coordinates[0], r.location.coordinates[1]) <= meters;
  }).length;
}

describe('a place in q (audit 77a F5)', () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine(records);
  });

  it('"red lion near Islington": empty, with the hint q "red lion", location "Islington", whose find is the scan\'s', () => {
    const r = engine.find({ q: 'red lion near Islington' });
    expect(r.totalFound).toBe(0);
    expect(r.hint).toEqual({
      code: 'place_in_query',
      message: 'no venue is named "red lion near Islington"; "Islington" is a place: give it as location (q "red lion", location "Islington")',
      q: 'red lion',
      location: 'Islington',
    });
    const expected = scan('red lion', gbPlace('Islington'), 5000);
    expect(expected).toBeGreaterThan(0);
    expect(engine.find({ q: r.hint!.q, location: r.hint!.location }).totalFound).toBe(expected);
  });

  it('"coffee in Soho" and "pizza around Camden Town": the last such word splits, the place may be two words', () => {
    expect(engine.find({ q: 'coffee in Soho' }).hint).toMatchObject({ q: 'coffee', location: 'Soho' });
    expect(engine.find({ q: 'pizza around Camden Town' }).hint).toMatchObject({ q: 'pizza', location: 'Camden Town' });
    expect(engine.find({ q: 'pizza next to Camden Town' }).hint).toMatchObject({ q: 'pizza', location: 'Camden Town' });
    expect(engine.find({ q: 'coffee near Soho' }).totalFound).toBe(0);
  });

  it('no hint when the rest is no place, when the words before name no venue, with a centre, or when something matched', () => {
    expect(engine.find({ q: 'red lion near Nowhereville' }).hint).toBeUndefined();
    expect(engine.find({ q: 'zzqx near Islington' }).hint).toBeUndefined();
    const centred = engine.find({ q: 'red lion near Islington', location: 'Islington' });
    expect(centred.totalFound).toBe(0);
    expect(centred.hint).toBeUndefined();
    expect(engine.find({ q: 'red lion' }).hint).toBeUndefined();
    expect(JSON.stringify(engine.find({ q: 'red lion' }))).not.toContain('"hint"');
  });

  it('a live engine (changes pending) gives the same hint', () => {
    const live = createEngine(records);
    live.upsert([{ ...records[0]!, id: 'hint-new-1', name: 'Hint Test Tap' }]);
    expect(live.find({ q: 'red lion near Islington' }).hint).toEqual(engine.find({ q: 'red lion near Islington' }).hint);
  });
});

describe('over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('GET /v1/find?q=red lion near Islington answers 200 with the hint', async () => {
    const acct = await h.open();
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=red%20lion%20near%20Islington', headers: { 'api-key': acct.secretKey } });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as FindResponse;
    expect(body.totalFound).toBe(0);
    expect(body.hint).toMatchObject({ code: 'place_in_query', q: 'red lion', location: 'Islington' });
  });
});
