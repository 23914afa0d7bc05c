// A store holds at most 65,535 distinct words in each dictionary (vibes; primaryGenre,
// additionalGenres and establishmentFlags), audit 63c F8: a build past it is a
// VenueSearchError naming the field, and an upsert that would take the current venues past
// it is refused, changing nothing, so compact() and writeSnapshot() keep working.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import type { VenueRecord } from '../../src/schema/venue.js';

const LIMIT = 65_535; // docs/data-model.md
const dir = mkdtempSync(join(tmpdir(), 'vocabulary-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (k: number) => ({ type: 'Point' as const, coordinates: [51 + (k % 1000) / 1000, -0.5 + Math.floor(k / 1000) / 1000] as [number, number] });
/** `n` venues from `from` on, venue k with its own vibe word `vibe<k>` (or genre word `genre<k>`). */
const venues = (n: number, from = 0, field: 'vibes' | 'additionalGenres' = 'vibes'): VenueRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: `v:${from + i}`, name: `V ${from + i}`, location: at(from + i), [field]: [`${field === 'vibes' ? 'vibe' : 'genre'}${from + i}`] }));

const refused = (param: string) => expect.objectContaining({ name: 'VenueSearchError', code: 'limit_exceeded', param, message: expect.stringContaining('more than 65,535 distinct') as unknown });

describe('at most 65,535 distinct words a dictionary', () => {
  it('createEngine: 65,535 vibe words build; 65,536 are refused naming vibes', () => {
    expect(createEngine(venues(LIMIT), { validate: false }).store.vibes.size).toBe(LIMIT);
    let err: unknown;
    try {
      createEngine(venues(LIMIT + 1), { validate: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VenueSearchError);
    expect(err).toEqual(refused('vibes'));
  });

  it('createEngine: genre words past the limit are refused naming the genre fields', () => {
    expect(() => createEngine(venues(LIMIT + 1, 0, 'additionalGenres'), { validate: false })).toThrow(refused('primaryGenre'));
  });

  it('upsert and prepareUpsert refuse a batch taking the current words past the limit, changing nothing; compact and writeSnapshot work', () => {
    const engine = createEngine(venues(LIMIT - 10), { validate: false });
    expect(() => engine.upsert(venues(11, LIMIT - 10))).toThrow(refused('vibes'));
    expect(() => engine.prepareUpsert(venues(11, LIMIT - 10))).toThrow(refused('vibes'));
    expect([engine.size, engine.pendingChanges, engine.has(`v:${LIMIT - 10}`)]).toEqual([LIMIT - 10, 0, false]);
    // Ten new words reach the limit exactly.
    expect(engine.upsert(venues(10, LIMIT - 10))).toEqual({ inserted: 10, replaced: 0 });
    // Replacing a venue drops its word: one new word in its place stays within the limit...
    expect(engine.upsert([{ ...venues(1, 0)[0]!, vibes: ['brand new'] }])).toEqual({ inserted: 0, replaced: 1 });
    // ...a new word kept beside the old ones does not, nor a removed venue's word coming back with another.
    expect(() => engine.upsert([{ ...venues(1, 1)[0]!, vibes: ['vibe1', 'another'] }])).toThrow(refused('vibes'));
    engine.remove(['v:2']);
    expect(() => engine.upsert([{ ...venues(1, 2)[0]!, vibes: ['vibe2', 'one more'] }])).toThrow(refused('vibes'));
    expect(engine.upsert([{ ...venues(1, 2)[0]!, vibes: ['vibe2'] }])).toEqual({ inserted: 1, replaced: 0 });
    expect(engine.size).toBe(LIMIT);
    const path = join(dir, 'limit.vsnap');
    writeSnapshot(engine, path);
    engine.compact();
    expect(engine.store.vibes.size).toBe(LIMIT);
    expect(readSnapshot(path).store.vibes.size).toBe(LIMIT);
  });
});
