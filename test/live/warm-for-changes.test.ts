// warm({ forChanges: true }): the live places (learnt places kept venue by venue) are built
// before the first change, so the first find naming a place after a change reads no
// address; every answer stays the one of an engine built from scratch on the current records
// (compareWithScratch), through changes, a compaction and a snapshot round trip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import type { VenueStore } from '../../src/store/venue-store.js';
import { loadFixtureVenues } from '../search/support.js';
import { ChangeStream } from './change-stream.js';
import { compareWithScratch } from './oracle-compare.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0);

/** Runs `f`, counting the fields picked from `store` meanwhile (how places read addresses). */
function picksDuring(store: VenueStore, f: () => void): number {
  const pick = store.pick.bind(store);
  let picks = 0;
  store.pick = (i, into) => {
    picks++;
    pick(i, into);
  };
  try {
    f();
  } finally {
    store.pick = pick;
  }
  return picks;
}

/** A place the fixtures' addresses name (learnt from them), to find near. */
function placeName(engine: Engine): string {
  const name = engine.learntPlaces().toJSON().areas[0]?.[1].name;
  expect(name).toBeDefined();
  return name!;
}

/** Applies `n` valid batches of the stream to `engine`, checked against a fresh engine after each. */
function applyAndCompare(engine: Engine, stream: ChangeStream, n: number, seed: number): void {
  for (let b = 0; b < n; b++) {
    const { change } = stream.batch(1 + ((b * 37) % 120), 0);
    if (change.kind === 'remove') engine.remove(change.ids);
    else engine.upsert(change.records);
    stream.apply(change);
    compareWithScratch(engine, [...stream.expected.values()], seed + b, { ids: stream.everId, words: [], names: stream.goneNames }, { searches: 4, finds: 20, details: 4 });
  }
}

describe('warm({ forChanges: true })', () => {
  it('the first find naming a place after a change reads no address (plain warm: every venue with one)', () => {
    const start = loadFixtureVenues();
    const withAddress = start.filter((r) => r.formattedAddress !== undefined).length;
    expect(withAddress).toBeGreaterThan(1000);
    for (const forChanges of [true, false]) {
      const engine = createEngine(start).warm({ forChanges });
      const stream = new ChangeStream(start, 61);
      const { change } = stream.batch(40, 0);
      if (change.kind === 'remove') engine.remove(change.ids);
      else engine.upsert(change.records);
      const location = placeName(createEngine(start));
      const picks = picksDuring(engine.store, () => engine.find({ q: 'the', location, maxDistanceMeters: 5000 }, { now: NOW }));
      if (forChanges) expect(picks).toBe(0);
      else expect(picks).toBeGreaterThanOrEqual(start.length - 40);
    }
  });

  it('answers as an engine built from scratch through changes, a compaction, and a snapshot warmed for changes', () => {
    const start = loadFixtureVenues();
    const engine = createEngine(start).warm({ forChanges: true });
    const stream = new ChangeStream(start, 62);
    applyAndCompare(engine, stream, 6, 100);
    engine.compact();
    applyAndCompare(engine, stream, 3, 200);
    const dir = mkdtempSync(join(tmpdir(), 'vs-warm-changes-'));
    try {
      const path = join(dir, 'venues.vsnap');
      writeSnapshot(engine, path);
      const restored = readSnapshot(path).warm({ forChanges: true });
      applyAndCompare(restored, stream, 4, 300);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warming twice, or for changes after changes, keeps the answers', () => {
    const start = loadFixtureVenues();
    const engine = createEngine(start);
    const stream = new ChangeStream(start, 63);
    applyAndCompare(engine, stream, 2, 400);
    engine.warm({ forChanges: true }).warm({ forChanges: true }).warm();
    applyAndCompare(engine, stream, 2, 500);
  });

  it('refuses an option it does not take, or forChanges or gazetteer that is not a boolean, naming it', () => {
    const engine = createEngine(loadFixtureVenues().slice(0, 10));
    expect(() => engine.warm({ forChange: true } as never)).toThrow('options.forChange is not an option of this call; did you mean "forChanges"? (its options: forChanges, gazetteer); got true');
    expect(() => engine.warm({ forChanges: 'yes' } as never)).toThrow('options.forChanges must be true or false; got "yes"');
    expect(() => engine.warm({ gazetteer: 0 } as never)).toThrow('options.gazetteer must be true or false; got 0');
  });
});
