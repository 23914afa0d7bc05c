// The live-data oracle: 10,000 random upserts and removes over the fixtures, in batches of
// 1..500 (some with one bad record, which must change nothing); after every batch the live
// engine must answer exactly as an engine built from scratch on the expected records.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { loadFixtureVenues } from '../search/support.js';
import { ChangeStream, seeded, type Change } from './change-stream.js';
import { compareWithScratch } from './oracle-compare.js';
import { genreWordsOf, scanGenreCounts, sortedCounts } from '../support/genre-counts.js';

function thrown(f: () => unknown): { code?: string; line?: number; recordId?: string; param?: string } {
  try {
    f();
  } catch (e) {
    return e as { code?: string };
  }
  throw new Error('expected an error');
}

const STALE_WORDS = ['tapas', 'ramen', 'gastropub', 'taproom', 'creperie', 'buzzing', 'hidden_gem', 'industrial', 'serves_brunch'];

/** A snapshot file as written before genre counts were kept: its header without `genreCounts` (padded with spaces, same length). */
function withoutGenreCounts(path: string): void {
  const bytes = readFileSync(path);
  const start = bytes.readDoubleLE(8);
  const length = bytes.readDoubleLE(16);
  const header = JSON.parse(bytes.toString('utf8', start, start + length)) as { genreCounts?: unknown; headerDigest?: string };
  expect(header.genreCounts).toBeDefined();
  delete header.genreCounts;
  delete header.headerDigest; // nor the header's seal (src/snapshot/header-digest.ts), newer still
  bytes.write(JSON.stringify(header).padEnd(length, ' '), start, 'utf8');
  writeFileSync(path, bytes);
}

describe('live data: upsert and remove against an engine built from scratch', () => {
  it('10,000 changes in batches of 1..500 with a compaction every 16 batches, compared after every batch, then after compaction and a snapshot', () => {
    const start = loadFixtureVenues();
    const live = createEngine(start);
    const stream = new ChangeStream(start, 17);
    const rnd = seeded(4242);
    let changes = 0;
    let batches = 0;
    let refused = 0;
    while (changes < 10_000) {
      const size = 1 + Math.floor(rnd() ** 2 * 500);
      const { change, bad } = stream.batch(size, 0.15);
      if (change.kind === 'remove') {
        const before = new Set(stream.expected.keys());
        const result = live.remove(change.ids);
        const seen = new Set<string>();
        const removed = change.ids.filter((id) => before.has(id) && !seen.has(id) && seen.add(id));
        expect(result.removed).toEqual(removed);
        // each id reported once, at its first mention: removed if held, else unknown
        expect(result.unknown).toEqual([...new Set(change.ids)].filter((id) => !before.has(id)));
        stream.apply(change);
      } else if (bad >= 0) {
        const error = thrown(() => live.upsert(change.records));
        expect(error.code).toBe('invalid_venue');
        expect(error.line).toBe(bad + 1);
        expect(error.recordId).toBe(change.records[bad]!.id);
        expect(error.param).toBeTruthy();
        refused++;
      } else {
        const known = change.records.filter((r) => stream.expected.has(r.id)).length;
        expect(live.upsert(change.records)).toEqual({ inserted: change.records.length - known, replaced: known });
        stream.apply(change);
      }
      changes += size;
      batches++;
      // Now and then a compaction (folded from the base's and runs' columns), so that later
      // batches change a folded base and are compacted again.
      if (batches % 16 === 0) {
        live.compact();
        expect(live.pendingChanges).toBe(0);
      }
      const counts = { searches: 20, finds: 10, details: 10 };
      compareWithScratch(live, [...stream.expected.values()], batches, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames }, counts);
    }
    expect(refused).toBeGreaterThan(0);
    expect(live.pendingChanges).toBeGreaterThan(0);

    live.compact();
    expect(live.pendingChanges).toBe(0);
    const expected = [...stream.expected.values()];
    // The folded base knows its genre counts (kept exact through every change since the build).
    expect(sortedCounts(live.store.genreCounts)).toEqual(scanGenreCounts(expected));
    compareWithScratch(live, expected, 9001, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames }, { searches: 60, finds: 30, details: 30 });

    // Words of the new base leaving: every venue using two of the stream's new genres goes
    // (as primary or additional genre), so those words must leave the vocabulary.
    const leaving = [...stream.expected.values()].filter((r) => [r.primaryGenre, ...(r.additionalGenres ?? [])].some((g) => g === 'tapas' || g === 'ramen'));
    expect(leaving.some((r) => r.primaryGenre === 'tapas')).toBe(true);
    live.remove(leaving.map((r) => r.id));
    stream.apply({ kind: 'remove', ids: leaving.map((r) => r.id) });
    expect(live.vocabulary().establishmentFilters).not.toContain('tapas');
    compareWithScratch(live, [...stream.expected.values()], 9004, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });

    // A vibe and an establishment flag leaving: every venue with the vibe 'buzzing' is
    // replaced by itself without vibes (its words counted out of its side, in by its batch),
    // then every venue with the flag 'servesBrunch' is removed.
    const buzzing = [...stream.expected.values()].filter((r) => r.vibes?.includes('buzzing') === true);
    expect(buzzing.length).toBeGreaterThan(0);
    expect(live.vocabulary().vibes).toContain('buzzing');
    expect(live.vocabulary().establishmentFilters).toContain('serves_brunch');
    const quieter: Change = { kind: 'upsert', records: buzzing.map(({ vibes: _vibes, ...r }) => r) };
    live.upsert(quieter.records);
    stream.apply(quieter);
    const brunch = [...stream.expected.values()].filter((r) => r.establishmentFlags?.includes('servesBrunch') === true).map((r) => r.id);
    expect(brunch.length).toBeGreaterThan(0);
    live.remove(brunch);
    stream.apply({ kind: 'remove', ids: brunch });
    expect(live.vocabulary().vibes).not.toContain('buzzing');
    expect(live.vocabulary().establishmentFilters).not.toContain('serves_brunch');
    compareWithScratch(live, [...stream.expected.values()], 9006, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });

    // Changes after a compaction, then a snapshot of the live state and back.
    const more = stream.batch(300, 0);
    if (more.change.kind === 'upsert') live.upsert(more.change.records);
    else live.remove(more.change.ids);
    stream.apply(more.change);
    live.compact();
    compareWithScratch(live, [...stream.expected.values()], 9005, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    const more2 = stream.batch(300, 0);
    if (more2.change.kind === 'upsert') live.upsert(more2.change.records);
    else live.remove(more2.change.ids);
    stream.apply(more2.change);
    const dir = mkdtempSync(join(tmpdir(), 'live-oracle-'));
    try {
      const path = join(dir, 'live.snapshot');
      writeSnapshot(live, path);
      const restored = readSnapshot(path);
      expect(sortedCounts(restored.store.genreCounts)).toEqual(scanGenreCounts(stream.expected.values()));
      compareWithScratch(restored, [...stream.expected.values()], 9002, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames }, { searches: 60, finds: 30, details: 30 });
      // A restored engine takes changes too.
      const again = stream.batch(200, 0);
      if (again.change.kind === 'upsert') restored.upsert(again.change.records);
      else restored.remove(again.change.ids);
      stream.apply(again.change);
      compareWithScratch(restored, [...stream.expected.values()], 9003, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('venues upserted in the Isle of Man, far from the base, choose among places of one name as a fresh engine does: Colby, and the order of "Pele"\'s suggestions (audit 62a 8)', () => {
    // The base: London and Leeds (there Colby is another's than the Isle of Man's); the
    // upserts: venues around Colby and Peel, Isle of Man, without addresses (so no place is
    // learnt from them: the gazetteer's candidates are chosen by where the venues are).
    const start = loadFixtureVenues();
    const at = (r: VenueRecord, k: number, lat: number, lon: number): VenueRecord => {
      const { formattedAddress: _address, ...rest } = r;
      return { ...rest, id: `iom-${k}`, location: { type: 'Point', coordinates: [lat + (k % 5) * 0.002, lon + (k % 3) * 0.002] } };
    };
    const colby = start.slice(0, 6).map((r, k) => at(r, k, 54.0967, -4.7059));
    const peel = start.slice(6, 12).map((r, k) => at(r, 6 + k, 54.2221, -4.691));
    for (const warm of [false, true]) {
      const live = createEngine(start);
      if (warm) live.warm({ forChanges: true });
      const stream = new ChangeStream(start, 62);
      const counts = { searches: 2, finds: 2, details: 2 };
      const stale = () => ({ ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
      compareWithScratch(live, [...stream.expected.values()], 62_000, stale(), counts);
      expect(live.find({ q: 'the', location: 'Colby' }).resolvedPlace).not.toMatchObject({ Lat: 54.0967, Lon: -4.7059 });
      const steps: Change[] = [
        { kind: 'upsert', records: colby },
        { kind: 'remove', ids: colby.map((r) => r.id) },
        { kind: 'upsert', records: peel },
        { kind: 'upsert', records: colby.slice(0, 2) },
      ];
      for (const [n, change] of steps.entries()) {
        if (change.kind === 'upsert') live.upsert(change.records);
        else live.remove(change.ids);
        stream.apply(change);
        compareWithScratch(live, [...stream.expected.values()], 62_001 + n, stale(), counts);
        const colbyNow = live.find({ q: 'the', location: 'Colby' }).resolvedPlace;
        if (n === 0) expect(colbyNow).toMatchObject({ Lat: 54.0967, Lon: -4.7059 });
        if (n === 1) expect(colbyNow).not.toMatchObject({ Lat: 54.0967, Lon: -4.7059 });
      }
      live.compact();
      compareWithScratch(live, [...stream.expected.values()], 62_009, stale(), counts);
    }
  });

  it('venues upserted outside the British Isles (over 1 % of them) make place names read the world\'s gazetteer, as a fresh engine\'s do; removed, the British one again (audit 62a 8)', () => {
    const start = loadFixtureVenues().slice(0, 100);
    // Colby, Wisconsin (GeoNames 44.90997, -90.31569): outside the box, 1 venue of 101 is allowed (floor(1.01)), 2 of 102 are not
    const wisconsin = start.slice(0, 2).map(({ formattedAddress: _address, ...r }, k): VenueRecord => ({ ...r, id: `wi-${k}`, location: { type: 'Point', coordinates: [44.91 + k * 0.001, -90.316] } }));
    const live = createEngine(start);
    const stream = new ChangeStream(start, 63);
    const stale = () => ({ ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    const counts = { searches: 2, finds: 2, details: 2 };
    const inWisconsin = () => live.find({ q: 'the', location: 'Colby' }).resolvedPlace?.Lat === 44.90997;
    expect(inWisconsin()).toBe(false); // a British Colby
    const steps: Change[] = [
      { kind: 'upsert', records: wisconsin.slice(0, 1) },
      { kind: 'upsert', records: wisconsin.slice(1) },
      { kind: 'remove', ids: ['wi-0'] },
    ];
    const wisconsinAfter = [false, true, false];
    for (const [n, change] of steps.entries()) {
      if (change.kind === 'upsert') live.upsert(change.records);
      else live.remove(change.ids);
      stream.apply(change);
      compareWithScratch(live, [...stream.expected.values()], 63_001 + n, stale(), counts);
      expect(inWisconsin(), `after step ${n}`).toBe(wisconsinAfter[n]);
    }
  });

  it('a base without genre counts (a snapshot written before they were kept) counts each genre word when one of its venues goes', () => {
    const start = loadFixtureVenues();
    const dir = mkdtempSync(join(tmpdir(), 'live-oracle-'));
    try {
      const path = join(dir, 'old.snapshot');
      writeSnapshot(createEngine(start), path);
      withoutGenreCounts(path);
      const live = readSnapshot(path);
      expect(live.store.genreCounts).toBeNull();
      const stream = new ChangeStream(start, 23);
      const rnd = seeded(99);
      let changes = 0;
      let batches = 0;
      while (changes < 2_500) {
        const size = 1 + Math.floor(rnd() ** 2 * 300);
        const { change } = stream.batch(size, 0);
        if (change.kind === 'remove') live.remove(change.ids);
        else live.upsert(change.records);
        stream.apply(change);
        changes += size;
        batches++;
        compareWithScratch(live, [...stream.expected.values()], 20_000 + batches, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames }, { searches: 6, finds: 4, details: 4 });
      }
      // Every venue using a common genre of the fixtures goes: its count must reach 0 exactly.
      const pubs = [...stream.expected.values()].filter((r) => genreWordsOf(r).has('pub'));
      expect(pubs.length).toBeGreaterThan(10);
      expect(live.vocabulary().establishmentFilters).toContain('pub');
      live.remove(pubs.map((r) => r.id));
      stream.apply({ kind: 'remove', ids: pubs.map((r) => r.id) });
      compareWithScratch(live, [...stream.expected.values()], 29_999, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
      // A compaction keeps the counts once each of the old base's genre words was counted
      // (here, with this seed, each had one of its venues replaced or removed).
      live.compact();
      expect(sortedCounts(live.store.genreCounts)).toEqual(scanGenreCounts(stream.expected.values()));
      compareWithScratch(live, [...stream.expected.values()], 30_000, { ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
