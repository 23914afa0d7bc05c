// The lat/lon-swapped hint of an empty search, with live changes: it reads the current
// records' cells, as an engine built from them does (audit 61d: the base's cells still
// counted removed venues and ignored new ones). Oracle: the fresh engine's answer.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const venue = (id: string, lat: number, lon: number): VenueRecord => ({ id, name: `Venue ${id}`, location: { type: 'Point', coordinates: [lat, lon] } }) as VenueRecord;
const LONDON = [venue('l1', 51.5136, -0.1365), venue('l2', 51.52, -0.12), venue('l3', 51.5, -0.1)];
const DOUGLAS = [venue('d1', 54.15, -4.48), venue('d2', 54.16, -4.47)];
const NOW = Date.UTC(2026, 10, 23, 12);
// Soho with lat and lon exchanged: the GeoJSON order written where the interface wants lat, lon
const SWAPPED = { locations: [{ lat: -0.1365, lon: 51.5136 }], mode: { mode: 'POINT', maxDistance: 1000 } };

function hintOf(engine: ReturnType<typeof createEngine>): unknown {
  const r = engine.search(SWAPPED, { now: NOW });
  expect(r.totalResults).toBe(0);
  return r.hint;
}

describe('the swapped-coordinates hint follows live changes', () => {
  it('no hint once the venues it pointed at are removed; a hint once venues come where it points', () => {
    const engine = createEngine([...LONDON, ...DOUGLAS]);
    expect(hintOf(engine)).toMatchObject({ code: 'lat_lon_swapped' });
    engine.remove(['l1', 'l2']);
    expect(hintOf(engine)).toEqual(hintOf(createEngine([LONDON[2]!, ...DOUGLAS])));
    engine.remove(['l3']);
    expect(hintOf(engine)).toBeUndefined();
    expect(hintOf(createEngine(DOUGLAS))).toBeUndefined();
    engine.upsert([venue('l9', 51.51, -0.13)]);
    expect(hintOf(engine)).toEqual(hintOf(createEngine([...DOUGLAS, venue('l9', 51.51, -0.13)])));
    expect(hintOf(engine)).toMatchObject({ code: 'lat_lon_swapped' });
    // a venue moved away (replaced by id) leaves its cell
    engine.upsert([venue('l9', 54.2, -4.5)]);
    expect(hintOf(engine)).toBeUndefined();
  });

  it('on a base far away, venues upserted where the swapped point lands give the hint', () => {
    const engine = createEngine(DOUGLAS);
    expect(hintOf(engine)).toBeUndefined();
    engine.upsert(LONDON);
    expect(hintOf(engine)).toEqual(hintOf(createEngine([...DOUGLAS, ...LONDON])));
    expect(hintOf(engine)).toMatchObject({ code: 'lat_lon_swapped' });
  });
});
