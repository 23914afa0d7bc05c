// engine.currentRecords() (and store.records) hand out records the caller owns (audit 63c F1):
// changing every value in them changes no later answer. The oracle is an engine built from
// the original records, which the caller's changes never reached.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { loadFixtureVenues } from '../search/support.js';

const now = Date.UTC(2026, 0, 7, 19, 30); // a Wednesday evening: opening states matter
const originals = loadFixtureVenues();
const dir = mkdtempSync(join(tmpdir(), 'current-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Changes every value `value` holds, in place, at every depth (arrays grow, objects gain a key). */
function scribble(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (typeof value[i] === 'object' && value[i] !== null) scribble(value[i]);
      else value[i] = typeof value[i] === 'number' ? 0 : 'scribbled';
    }
    value.push('scribbled');
    return;
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (typeof v === 'object' && v !== null) scribble(v);
    else if (key !== 'id') o[key] = typeof v === 'number' ? 0 : typeof v === 'boolean' ? !v : 'scribbled';
  }
  o.menus = [{ name: 'ghost menu', sections: [] }];
}

const ids = originals.filter((_, k) => k % 15 === 0).map((r) => r.id);
const searches = [
  { locations: [{ lat: 51.5136, lon: -0.1319 }], mode: { mode: 'POINT', maxDistance: 1500 } },
  { locations: [{ lat: 51.5136, lon: -0.1319 }, { lat: 51.5246, lon: -0.0784 }], mode: { mode: 'POINT', maxDistance: 3000 }, preferences: { establishmentFilters: ['pub'] } },
  { locations: [{ lat: 53.4794, lon: -2.2453 }], mode: { mode: 'POINT', maxDistance: 5000 } },
];
const finds = [{ q: 'coffee' }, { q: 'crown', lat: 51.5136, lon: -0.1319 }, { name: 'nando' }];

/** Every answer the audit saw change: details, menus, find and search, for a sample of venues. */
function answers(engine: Engine): unknown {
  return {
    details: ids.filter((id) => engine.has(id)).map((id) => [engine.basic(id, { now }), engine.advanced(id, { now }), engine.menus(id)]),
    finds: finds.map((p) => engine.find(p, { now })),
    searches: searches.map((b) => engine.search(b, { now, limit: 50 })),
  };
}

/** Reads every current record (each asked for details first, so a cache would hold it) and scribbles on it. */
function scribbleOnCurrentRecords(engine: Engine): void {
  for (const id of ids) if (engine.has(id)) engine.advanced(id, { now });
  let n = 0;
  for (const r of engine.currentRecords()) {
    scribble(r);
    n++;
  }
  expect(n).toBe(engine.size);
}

describe('currentRecords() yields the caller\'s own records', () => {
  it('an engine built from records: scribbling on them changes no answer', () => {
    const engine = createEngine(structuredClone(originals));
    const expected = answers(createEngine(originals));
    scribbleOnCurrentRecords(engine);
    expect(answers(engine)).toEqual(expected);
    for (const r of engine.store.records) scribble(r);
    expect(answers(engine)).toEqual(expected);
  });

  it('an engine read from a snapshot', () => {
    const path = join(dir, 'fixtures.vsnap');
    writeSnapshot(createEngine(originals), path);
    const engine = readSnapshot(path);
    const expected = answers(createEngine(originals));
    scribbleOnCurrentRecords(engine);
    expect(answers(engine)).toEqual(expected);
  });

  it('an engine with changes pending, and after compacting them', () => {
    const moved: VenueRecord = { ...originals[30]!, name: 'The Moved Crown', location: { type: 'Point', coordinates: [51.514, -0.132] } };
    const current = originals.filter((r) => r.id !== originals[45]!.id).map((r) => (r.id === moved.id ? moved : r));
    const expected = answers(createEngine(current));
    const engine = createEngine(originals);
    engine.upsert([structuredClone(moved)]);
    engine.remove([originals[45]!.id]);
    scribbleOnCurrentRecords(engine);
    expect(answers(engine)).toEqual(expected);
    engine.compact();
    scribbleOnCurrentRecords(engine);
    expect(answers(engine)).toEqual(expected);
  });

  it('is lazy: taking one record decodes one', () => {
    const engine = readSnapshot(join(dir, 'fixtures.vsnap'));
    const fresh = vi.spyOn(engine.store.source, 'fresh');
    for (const r of engine.currentRecords()) {
      expect(typeof r.id).toBe('string');
      break;
    }
    expect(fresh).toHaveBeenCalledTimes(1);
  });
});
