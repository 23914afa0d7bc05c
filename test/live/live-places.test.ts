/**
 * LivePlaces (src/live/live-places.ts) kept up to date batch by batch, against its oracle:
 * the places learnt afresh from the current records (new LearntPlaces). Batches as an engine
 * makes them: the venues leaving (removed, or replaced) first, then the new records; the
 * replacements move their venues and change their addresses, several in one place per batch.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../scripts/fixtures/random.js';
import { LivePlaces } from '../../src/live/live-places.js';
import { LearntPlaces } from '../../src/places/learnt-places.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const fixtures = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as VenueRecord);

/** Places as sorted entries, to compare two LearntPlaces whatever their insertion order. */
function entries(places: LearntPlaces): unknown {
  const saved = places.toJSON();
  const byKey = (a: readonly [string, unknown], b: readonly [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return { areas: [...saved.areas].sort(byKey), postcodes: [...saved.postcodes].sort(byKey) };
}

describe('LivePlaces', () => {
  it('equals the places learnt afresh after every batch of removals, replacements and additions', () => {
    const rng = new Rng(2911);
    const current = new Map(fixtures.map((r) => [r.id, r]));
    const live = new LivePlaces(new LearntPlaces([]), current.values());
    expect(entries(live.places)).toEqual(entries(new LearntPlaces([...current.values()])));
    expect(live.places.areaCount).toBeGreaterThan(10);
    let added = 0;
    for (let batch = 0; batch < 40; batch++) {
      const ids = [...current.keys()];
      const leaving = new Set<string>();
      while (leaving.size < rng.int(1, 60)) leaving.add(rng.pick(ids));
      const incoming: VenueRecord[] = [];
      for (const id of leaving) {
        const old = current.get(id)!;
        const roll = rng.next();
        if (roll < 0.3) continue; // removed
        // replaced: moved up to ~2 km, and often given another venue's address
        const [lat, lon] = old.location.coordinates;
        const other = rng.pick(fixtures);
        incoming.push({
          ...old,
          location: { type: 'Point', coordinates: [lat + (rng.next() - 0.5) * 0.03, lon + (rng.next() - 0.5) * 0.03] },
          ...(roll < 0.7 && other.formattedAddress !== undefined ? { formattedAddress: other.formattedAddress } : {}),
        });
      }
      for (let k = rng.int(0, 20); k > 0; k--) {
        const model = rng.pick(fixtures);
        incoming.push({ ...model, id: `new-${added++}`, location: { type: 'Point', coordinates: [model.location.coordinates[0] + 0.001, model.location.coordinates[1]] } });
      }
      // as a batch is applied: the leaving venues out, then the new records in
      for (const id of leaving) live.remove(current.get(id)!);
      for (const id of leaving) current.delete(id);
      for (const r of incoming) {
        live.add(r);
        current.set(r.id, r);
      }
      live.flush();
      expect(entries(live.places), `batch ${batch}`).toEqual(entries(new LearntPlaces([...current.values()])));
    }
  });

  it('takes out one of several venues that share a point and an address (and -0 apart from 0)', () => {
    // Groups of 1 to 6 venues with the same point and address (one of them, in a group, at
    // longitude -0 where the others are at 0); every batch removes or replaces some, adds copies.
    const rng = new Rng(2912);
    const models = fixtures.filter((r) => r.formattedAddress !== undefined).slice(0, 120);
    const current = new Map<string, VenueRecord>();
    let n = 0;
    const copy = (model: VenueRecord, lon = model.location.coordinates[1]): VenueRecord => ({
      ...model,
      id: `copy-${n++}`,
      location: { type: 'Point', coordinates: [model.location.coordinates[0], lon] },
    });
    for (const [m, model] of models.entries()) {
      for (let k = rng.int(1, 6); k > 0; k--) {
        const r = m % 10 === 0 ? copy(model, k % 2 === 0 ? -0 : 0) : copy(model);
        current.set(r.id, r);
      }
    }
    const live = new LivePlaces(new LearntPlaces([]), current.values());
    expect(entries(live.places)).toEqual(entries(new LearntPlaces([...current.values()])));
    for (let batch = 0; batch < 30; batch++) {
      const ids = [...current.keys()];
      const leaving = new Set<string>();
      while (leaving.size < Math.min(ids.length, rng.int(1, 25))) leaving.add(rng.pick(ids));
      const incoming: VenueRecord[] = [];
      for (const id of leaving) if (rng.next() < 0.4) incoming.push({ ...current.get(id)!, formattedAddress: rng.pick(models).formattedAddress! });
      for (let k = rng.int(0, 8); k > 0; k--) incoming.push(copy(rng.pick(models)));
      // replacements keep their ids; the adds come before the flush, in any order with the removals
      for (const r of incoming) if (!leaving.has(r.id)) live.add(r);
      for (const id of leaving) live.remove(current.get(id)!);
      for (const id of leaving) current.delete(id);
      for (const r of incoming) {
        if (leaving.has(r.id)) live.add(r);
        current.set(r.id, r);
      }
      live.flush();
      expect(entries(live.places), `batch ${batch}`).toEqual(entries(new LearntPlaces([...current.values()])));
    }
  });
});
