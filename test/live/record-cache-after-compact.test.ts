// EngineOptions.recordCacheSize holds after compact() (left alone in session 63): the folded
// base keeps as many decoded records as the engine was built to keep. Observed by identity:
// a source that keeps one record decodes the first of two alternating venues anew, one
// that keeps 4,096 hands back the same object. Answers: those of an engine built from the
// same current records (the oracle).
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { loadFixtureVenues } from '../search/support.js';

const NOW = Date.UTC(2026, 0, 7, 19, 30);

/** Whether the store hands back the same object for venue 0 after a read of venue 1 (its record cache holds both). */
function keepsTwo(store: { source: { get(i: number): VenueRecord } }): boolean {
  const first = store.source.get(0);
  store.source.get(1);
  return store.source.get(0) === first;
}

describe('recordCacheSize after compact()', () => {
  it('the folded base keeps the size the engine was built with, and answers as a fresh build', () => {
    const venues = loadFixtureVenues();
    const renamed = { ...venues[5]!, name: 'The Compacted Arms' };
    const added: VenueRecord = { ...venues[9]!, id: 'added-after-build', name: 'Late Addition' };
    const current = venues.map((v, k) => (k === 5 ? renamed : v)).concat([added]);
    for (const [recordCacheSize, kept] of [[1, false], [4096, true]] as const) {
      const engine = createEngine(venues, { recordCacheSize });
      expect(keepsTwo(engine.store)).toBe(kept);
      engine.upsert([renamed, added]);
      engine.compact();
      expect(engine.pendingChanges).toBe(0);
      expect(keepsTwo(engine.store)).toBe(kept);
      const oracle = createEngine(current);
      for (const id of [renamed.id, added.id, venues[0]!.id, venues[1]!.id]) expect(engine.advanced(id, { now: NOW })).toEqual(oracle.advanced(id, { now: NOW }));
    }
  });
});
