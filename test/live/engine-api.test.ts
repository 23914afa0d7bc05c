// The live-data API's edges: results, refusals that change nothing, an empty base.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const venue = (id: string, lat: number, lon: number, name = `Venue ${id}`): VenueRecord => ({
  id,
  name,
  location: { type: 'Point', coordinates: [lat, lon] },
  primaryGenre: 'pub',
});

/** A find for "venue" naming `location`: its answer, or its error's code and message. */
function outcome(engine: ReturnType<typeof createEngine>, location: string): unknown {
  try {
    return engine.find({ q: 'venue', location }, { now });
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
}

const near = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 5000 } };
const now = Date.UTC(2026, 0, 5, 12);

describe('engine.upsert / engine.remove', () => {
  it('reports inserted, replaced, removed and unknown ids', () => {
    const e = createEngine([venue('a', 51.5, -0.1), venue('b', 51.501, -0.1)]);
    expect(e.upsert([venue('b', 51.502, -0.1, 'Moved'), venue('c', 51.503, -0.1)])).toEqual({ inserted: 1, replaced: 1 });
    expect(e.size).toBe(3);
    expect(e.basic('b', { now }).name).toBe('Moved');
    expect(e.remove(['a', 'zz', 'a', 'c', 'zz'])).toEqual({ removed: ['a', 'c'], unknown: ['zz'] }); // an id given twice is reported once
    expect(e.search(near, { now }).establishments.map((x) => x.id)).toEqual(['b']);
    expect(() => e.basic('a', { now })).toThrow(expect.objectContaining({ code: 'venue_not_found', param: 'id' }));
  });

  it('prepareUpsert builds without applying; apply makes the batch current, only if nothing changed in between', () => {
    const ids = (e: ReturnType<typeof createEngine>) => e.search(near, { now }).establishments.map((x) => x.id).sort();
    const e = createEngine([venue('a', 51.5, -0.1), venue('b', 51.501, -0.1)]);
    const prepared = e.prepareUpsert([venue('b', 51.502, -0.1, 'Moved'), venue('c', 51.503, -0.1)]);
    expect(prepared.result).toEqual({ inserted: 1, replaced: 1 });
    // nothing visible before apply
    expect(e.size).toBe(2);
    expect(e.has('c')).toBe(false);
    expect(e.basic('b', { now }).name).toBe('Venue b');
    expect(prepared.apply()).toEqual({ inserted: 1, replaced: 1 });
    expect(ids(e)).toEqual(['a', 'b', 'c']);
    expect(e.basic('b', { now }).name).toBe('Moved');
    // the oracle: an engine built from scratch on the same records answers the same
    const fresh = createEngine([venue('a', 51.5, -0.1), venue('b', 51.502, -0.1, 'Moved'), venue('c', 51.503, -0.1)]);
    expect(e.search(near, { now })).toEqual(fresh.search(near, { now }));

    // a refused batch throws at prepare and changes nothing
    expect(() => e.prepareUpsert([venue('d', 51.5, -0.1), { ...venue('x', 51.5, -0.1), timeZone: 'Nowhere/Land' }])).toThrow(expect.objectContaining({ code: 'invalid_venue', line: 2 }));
    expect(e.has('d')).toBe(false);

    // another change in between (an upsert, a removal, a compaction): apply throws, changing nothing
    for (const between of [() => e.upsert([venue('e', 51.5, -0.1)]), () => e.remove(['e']), () => e.compact()]) {
      if (e.pendingChanges === 0) e.upsert([venue('p', 51.5, -0.1)]); // so that compact() has work to do
      const stale = e.prepareUpsert([venue('late', 51.5, -0.1)]);
      between();
      const before = ids(e);
      expect(() => stale.apply()).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/applies only before any other change/) }));
      expect(ids(e)).toEqual(before);
      expect(e.has('late')).toBe(false);
    }
  });

  it('refuses a batch with a bad record or a repeated id, changing nothing', () => {
    const e = createEngine([venue('a', 51.5, -0.1)]);
    const bad = { ...venue('x', 51.5, -0.1), location: { type: 'Point', coordinates: [95, 0] } } as VenueRecord;
    expect(() => e.upsert([venue('b', 51.5, -0.1), bad])).toThrow(
      expect.objectContaining({ code: 'invalid_venue', recordId: 'x', line: 2, param: expect.stringContaining('location') }),
    );
    expect(() => e.upsert([venue('b', 51.5, -0.1), venue('b', 51.6, -0.1)])).toThrow(expect.objectContaining({ code: 'duplicate_id', recordId: 'b', line: 2 }));
    // what only a build would have refused before: checkUpsert and upsert refuse it alike, naming the record
    const martian = { ...venue('m', 51.5, -0.1), timeZone: 'Mars/Olympus_Mons' };
    const overnight = { ...venue('n', 51.5, -0.1), holidayOpeningHours: [{ days: ['Sun'], timeSlots: [{ open: '10:00', close: '11:00', isClosed: false, closeNextDay: true }] }] } as VenueRecord;
    // an unpaired surrogate (JSON "\ud83d") in an id or a name: a snapshot (UTF-8) could not keep it
    const loneName = venue('s', 51.5, -0.1, 'Caf\uD83D bar');
    const loneId = venue('t\uDC00', 51.5, -0.1);
    for (const [record, param] of [[martian, 'timeZone'], [overnight, 'holidayOpeningHours[0].timeSlots[0].close'], [loneName, 'name'], [loneId, 'id']] as const) {
      const expected = expect.objectContaining({ code: 'invalid_venue', recordId: record.id, line: 2, param });
      expect(() => e.checkUpsert([venue('b', 51.5, -0.1), record])).toThrow(expected);
      expect(() => e.upsert([venue('b', 51.5, -0.1), record])).toThrow(expected);
    }
    // the schema's rule is quoted as written (the literal's case, the pattern's character classes)
    expect(() => e.upsert([{ ...venue('p', 51.5, -0.1), location: { type: 'point', coordinates: [51.5, -0.1] } } as unknown as VenueRecord])).toThrow(
      `venue "p", field location.type: expected 'Point'; got "point"`,
    );
    expect(() => e.upsert([venue('-p', 51.5, -0.1)])).toThrow(`expected string to match '^[A-Za-z0-9][A-Za-z0-9._:/-]*$'`);
    expect(() => e.remove(['a', 7 as unknown as string])).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'ids[1]' }));
    expect(e.size).toBe(1);
    expect(e.pendingChanges).toBe(0);
    expect(e.search(near, { now }).establishments.map((x) => x.id)).toEqual(['a']);
  });

  it('an empty answer with changes pending says what a fresh build says (smallest feasible maxDistance, swapped hint)', () => {
    const base = [venue('a', 51.5, -0.1), venue('b', 51.52, -0.1), venue('c', 53.48, -2.24)];
    const live = createEngine(base);
    // The nearest venue to the query is in a run (d), one base venue is hidden (a), another run holds only Manchester.
    live.upsert([venue('d', 51.51, -0.1)]);
    live.remove(['a']);
    live.upsert([venue('e', 53.49, -2.24)]);
    const fresh = createEngine([...live.currentRecords()]);
    const far = { locations: [{ lat: 51.505, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 100 } };
    const swapped = { locations: [{ lat: -0.1, lon: 51.5 }], mode: { mode: 'POINT', maxDistance: 100 } };
    for (const body of [far, swapped]) {
      const got = live.search(body, { now });
      expect(got.totalResults).toBe(0);
      expect(got).toEqual(fresh.search(body, { now }));
    }
    // Hand-computed: d at 51.51 is ~556 m from 51.505 (0.005 degrees of latitude), nearer than b (~1.67 km); a is gone.
    expect(live.search(far, { now }).smallestFeasibleMaxDistance).toBeGreaterThan(540);
    expect(live.search(far, { now }).smallestFeasibleMaxDistance).toBeLessThan(580);
    expect(live.search(swapped, { now }).hint).toBeDefined();
  });

  it('grows an empty engine and compacts it', () => {
    const e = createEngine([]);
    e.upsert([venue('a', 51.5, -0.1), venue('b', 51.5005, -0.1)]);
    expect(e.search(near, { now }).totalResults).toBe(2);
    expect(e.find({ q: 'venue' }, { now }).totalFound).toBe(2);
    e.compact();
    expect(e.pendingChanges).toBe(0);
    expect(e.search(near, { now }).establishments.map((x) => x.id)).toEqual(['a', 'b']);
    e.remove(['a', 'b']);
    expect(e.search(near, { now }).totalResults).toBe(0);
    expect(e.size).toBe(0);
  });

  it('with changes pending, the places learnt from addresses are built at the first find naming a place, not at the first find', () => {
    const withAddress = (id: string, lat: number, area: string, postcode: string): VenueRecord => ({
      ...venue(id, lat, -0.1),
      formattedAddress: `${id} High Street, ${area}, London ${postcode}, UK`,
    });
    const records = [withAddress('a', 51.5, 'Quillbury', 'NW1 8AB'), withAddress('b', 51.501, 'Quillbury', 'NW1 8AC'), withAddress('c', 51.6, 'Fernhollow', 'EN5 4AA')];
    const e = createEngine(records);
    const moved = withAddress('c', 51.502, 'Quillbury', 'NW1 8AD');
    e.upsert([moved]);
    const live = (e as unknown as { live: { builtPlaces(): unknown } }).live;
    expect(e.find({ q: 'venue' }, { now }).totalFound).toBe(3);
    expect(live.builtPlaces()).toBeNull();
    // then, at the first find naming one, the same answers as an engine built on the records
    const scratch = createEngine([records[0]!, records[1]!, moved]);
    // learnt from the addresses alone (no gazetteer knows them): c moved from Fernhollow to Quillbury
    expect(outcome(e, 'Quillbury')).toMatchObject({ totalFound: 3 });
    expect(outcome(e, 'Fernhollow')).toMatchObject({ code: 'unknown_place' });
    for (const location of ['Quillbury', 'Fernhollow', 'NW1 8AD']) expect(outcome(e, location)).toEqual(outcome(scratch, location));
    expect(live.builtPlaces()).not.toBeNull();
  });

  it("a compaction's swap (adopt) keeps the live places: answers as a fresh build, and the next find naming a place reads no record", () => {
    const at = (id: string, lat: number, area: string): VenueRecord => ({
      ...venue(id, lat, -0.1),
      formattedAddress: `${id} High Street, ${area}, London NW1 8A${id.toUpperCase()}, UK`,
    });
    // six venues in each area (a place is learnt from several), some moving between them
    let current = new Map([...'abcdefghijkl'].map((id, k) => [id, at(id, 51.5 + k * 0.001, k < 6 ? 'Quillbury' : 'Fernhollow')]));
    const e = createEngine([...current.values()]);
    const change = (records: VenueRecord[], engines: Array<ReturnType<typeof createEngine>>) => {
      for (const engine of engines) engine.upsert(records);
      current = new Map([...current, ...records.map((r) => [r.id, r] as const)]);
    };
    const sameAsScratch = () => {
      const scratch = createEngine([...current.values()]);
      for (const location of ['Quillbury', 'Fernhollow']) {
        expect(outcome(scratch, location)).toHaveProperty('establishments'); // a place learnt, not unknown_place
        expect(outcome(e, location)).toEqual(outcome(scratch, location));
      }
    };
    const livePlaces = () => (e as unknown as { live: { builtPlaces(): unknown } | null }).live?.builtPlaces() ?? null;
    change([at('g', 51.51, 'Quillbury')], [e]);
    sameAsScratch(); // builds the live places
    expect(livePlaces()).not.toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'adopt-places-'));
    try {
      // as the service swaps: an engine restored from the current records, a batch that came
      // meanwhile applied to both, then adopted
      writeSnapshot(e, join(dir, 'one.snapshot'));
      const fresh = readSnapshot(join(dir, 'one.snapshot'));
      change([at('a', 51.52, 'Fernhollow')], [e, fresh]);
      e.adopt(fresh);
      expect(livePlaces()).not.toBeNull();
      sameAsScratch();
      // and without a batch in between: the places wait for the next change
      writeSnapshot(e, join(dir, 'two.snapshot'));
      e.adopt(readSnapshot(join(dir, 'two.snapshot')));
      sameAsScratch(); // its place resolver is made now, before the change
      change([at('b', 51.53, 'Fernhollow'), at('h', 51.54, 'Quillbury')], [e]);
      expect(livePlaces()).not.toBeNull();
      sameAsScratch();
      // an adopted engine whose own place resolver exists already (it answered a find naming a place)
      writeSnapshot(e, join(dir, 'three.snapshot'));
      const three = readSnapshot(join(dir, 'three.snapshot'));
      expect(outcome(three, 'Quillbury')).toHaveProperty('establishments');
      e.adopt(three);
      change([at('c', 51.55, 'Fernhollow'), at('i', 51.56, 'Quillbury')], [e]);
      sameAsScratch();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adopt refuses an engine holding another number of venues (a change not applied to it), changing nothing', () => {
    const base = [venue('a', 51.5, -0.1), venue('b', 51.501, -0.1)];
    const e = createEngine(base);
    e.upsert([venue('z', 51.502, -0.1)]); // came in after `built`'s records were read
    const built = createEngine(base);
    expect(() => e.adopt(built)).toThrow(
      expect.objectContaining({ name: 'VenueSearchError', code: 'invalid_request', param: 'built.size', value: 2, message: expect.stringContaining('holds 2 venues, this engine 3') as unknown }),
    );
    expect([e.size, e.has('z'), e.pendingChanges]).toEqual([3, true, 1]);
    expect(e.search(near, { now }).establishments.map((x) => x.id).sort()).toEqual(['a', 'b', 'z']);
    expect(() => createEngine(base).adopt(createEngine([venue('q', 40, 3)]))).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'built.size' }));
    expect(() => e.adopt({} as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'built' }));
    // with the change applied to it, it is adopted
    built.upsert([venue('z', 51.502, -0.1)]);
    expect(e.adopt(built.compact())).toBe(e);
    expect([e.size, e.has('z'), e.pendingChanges]).toEqual([3, true, 0]);
  });
});
