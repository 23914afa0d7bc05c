// Compaction folds the base and the runs from their columns (src/live/fold-sides.ts): every
// column, table and record of the folded base must equal, venue by venue (matched by id), those
// of an engine built from scratch on the same records (the oracle), and its kd-tree must find
// what a brute-force scan finds.
import KDBush from 'kdbush';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { UNKNOWN_SCHEDULE } from '../../src/hours/index.js';
import type { VenueStore } from '../../src/store/venue-store.js';
import { NO_GENRE } from '../../src/store/venue-store.js';
import { CompactRecordSource } from '../../src/store/compact-records.js';
import { restoreSnapshot } from '../../src/snapshot/read-snapshot.js';
import { snapshotImage } from '../../src/snapshot/write-snapshot.js';
import { loadFixtureVenues } from '../search/support.js';
import { ChangeStream } from './change-stream.js';

/** Everything the folded base holds for venue i, in terms that do not depend on dense indices or codes. */
function venueFacts(engine: Engine, i: number): unknown {
  const s: VenueStore = engine.store;
  const words = (start: Uint32Array, codes: Uint16Array, dict: readonly string[]) => Array.from(codes.subarray(start[i]!, start[i + 1]!), (c) => dict[c]!).sort();
  const { hours, zones } = engine.openingTables();
  return {
    record: JSON.stringify(s.record(i)),
    lat: s.lat[i],
    lon: s.lon[i],
    chain: s.chain[i],
    caters: s.caters[i],
    primaryGenre: s.primaryGenre[i] === NO_GENRE ? null : s.terms.words[s.primaryGenre[i]!],
    terms: words(s.termStart, s.termCodes, s.terms.words),
    vibes: words(s.vibeStart, s.vibeCodes, s.vibes.words),
    hours: hours.scheduleOf[i] === UNKNOWN_SCHEDULE ? null : Array.from(hours.intervalsOf(i)!),
    zone: zones.zoneOf(i),
  };
}

/**
 * Checks that hold for every venue (or tree position) are gathered and compared once: each
 * venue's facts as one list against the scratch engine's, each broken invariant as a line of
 * a list that must be empty. An assertion costs about 7 us, and this file made some 980,000
 * of them a run when each venue had its own.
 */
function expectSameBase(folded: Engine, scratch: Engine): void {
  const s = folded.store;
  expect(s.size).toBe(scratch.store.size);
  const unmatched: string[] = [];
  const unsortedRows: string[] = [];
  const foldedFacts: unknown[] = [];
  const scratchFacts: unknown[] = [];
  for (let i = 0; i < s.size; i++) {
    const j = scratch.store.indexOf(s.id(i));
    if (j < 0) {
      unmatched.push(s.id(i));
      continue;
    }
    foldedFacts.push(venueFacts(folded, i));
    scratchFacts.push(venueFacts(scratch, j));
    // Rows sorted ascending without repeats (the store's invariant).
    for (let k = s.termStart[i]! + 1; k < s.termStart[i + 1]!; k++) if (!(s.termCodes[k]! > s.termCodes[k - 1]!)) unsortedRows.push(`${s.id(i)} terms`);
    for (let k = s.vibeStart[i]! + 1; k < s.vibeStart[i + 1]!; k++) if (!(s.vibeCodes[k]! > s.vibeCodes[k - 1]!)) unsortedRows.push(`${s.id(i)} vibes`);
  }
  expect(unmatched, 'ids the scratch engine does not hold').toEqual([]);
  expect(unsortedRows).toEqual([]);
  expect(foldedFacts).toEqual(scratchFacts);
  // Dictionaries hold exactly the words some venue uses; genres as the scratch engine has them.
  expect([...s.terms.words].sort()).toEqual([...scratch.store.terms.words].sort());
  expect([...s.vibes.words].sort()).toEqual([...scratch.store.vibes.words].sort());
  expect(folded.vocabulary()).toEqual(scratch.vocabulary());
  // Ids in ascending order, and every id found.
  const ids = Array.from(s.idsInOrder(), (i) => s.id(i));
  expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  const misfound: string[] = [];
  for (let i = 0; i < s.size; i += 7) if (s.indexOf(s.id(i)) !== i) misfound.push(`${s.id(i)} at ${i}, found at ${s.indexOf(s.id(i))}`);
  expect(misfound).toEqual([]);
  // Find's name index: the same words per venue, the same postings (venue ids and info) per word.
  const postingsOf = (engine: Engine) => {
    const names = engine.findStructures().names;
    const out = new Map<string, string[]>();
    names.tokens.forEach((t, id) => {
      const list: string[] = [];
      for (let p = names.postStart[id]!; p < names.postStart[id + 1]!; p++) list.push(`${engine.store.id(names.postVenue[p]!)}:${names.postInfo[p]}`);
      out.set(t, list.sort());
    });
    return out;
  };
  expect(postingsOf(folded)).toEqual(postingsOf(scratch));
  const fn = folded.findStructures().names;
  const sn = scratch.findStructures().names;
  const foldedNames: string[][] = [];
  const scratchNames: string[][] = [];
  for (let i = 0; i < s.size; i++) {
    const j = scratch.store.indexOf(s.id(i));
    foldedNames.push(Array.from(fn.venueTok.subarray(fn.venueStart[i]!, fn.venueStart[i + 1]!), (t) => fn.tokens[t]!));
    scratchNames.push(Array.from(sn.venueTok.subarray(sn.venueStart[j]!, sn.venueStart[j + 1]!), (t) => sn.tokens[t]!));
  }
  expect(foldedNames).toEqual(scratchNames);
  // The kd-tree over the folded columns: a box query against a brute-force scan.
  const [minLat, maxLat, minLon, maxLon] = [51.49, 51.53, -0.16, -0.08];
  const hits: number[] = [];
  for (let i = 0; i < s.size; i++) if (s.lat[i]! >= minLat && s.lat[i]! <= maxLat && s.lon[i]! >= minLon && s.lon[i]! <= maxLon) hits.push(i);
  expect(hits.length).toBeGreaterThan(10);
  const tree = KDBush.from(folded.spatial.treeData);
  expect(tree.range(minLon, minLat, maxLon, maxLat).sort((a, b) => a - b)).toEqual(hits);
  // Laid out as a base built from records is: tree position k holds venue k, and each leaf's
  // points rise in latitude (the corridor walk binary-searches a leaf's latitude band).
  // Leaves found by kdbush's own recursion: [l, r] is a leaf when r - l <= nodeSize, else
  // its middle m = (l + r) >> 1 splits it into [l, m - 1] and [m + 1, r].
  const misplaced: string[] = [];
  for (let k = 0; k < s.size; k++) {
    if (tree.ids[k] !== k) misplaced.push(`position ${k} holds venue ${tree.ids[k]}`);
    if (tree.coords[2 * k] !== s.lon[k] || tree.coords[2 * k + 1] !== s.lat[k]) misplaced.push(`position ${k} at ${tree.coords[2 * k]},${tree.coords[2 * k + 1]}, venue at ${s.lon[k]},${s.lat[k]}`);
  }
  expect(misplaced).toEqual([]);
  let leaves = 0;
  const unsortedLeaves: string[] = [];
  const stack: Array<[number, number]> = [[0, s.size - 1]];
  while (stack.length > 0) {
    const [l, r] = stack.pop()!;
    if (l > r) continue;
    if (r - l <= tree.nodeSize) {
      leaves++;
      for (let k = l + 1; k <= r; k++) if (!(s.lat[k]! >= s.lat[k - 1]!)) unsortedLeaves.push(`leaf ${l}..${r} at ${k}`);
      continue;
    }
    const m = (l + r) >> 1;
    stack.push([l, m - 1], [m + 1, r]);
  }
  expect(leaves).toBeGreaterThan(1);
  expect(unsortedLeaves).toEqual([]);
}

describe('compaction folds the base and the runs from their columns', () => {
  it('equals an engine built from scratch, column by column, after changes, twice over', () => {
    const start = loadFixtureVenues();
    const live = createEngine(start);
    const stream = new ChangeStream(start, 5);
    for (let round = 0; round < 2; round++) {
      for (let b = 0; b < 12; b++) {
        const { change } = stream.batch(40 + 30 * b, 0);
        if (change.kind === 'upsert') live.upsert(change.records);
        else live.remove(change.ids);
        stream.apply(change);
      }
      live.compact();
      expect(live.pendingChanges).toBe(0);
      expectSameBase(live, createEngine([...stream.expected.values()]));
    }
  });

  it("keeps the base's record blocks while 3/4 of their records are current, then copies them", () => {
    const start = loadFixtureVenues();
    const live = createEngine(start);
    const stream = new ChangeStream(start, 11);
    const written = () => {
      const source = live.store.source;
      expect(source).toBeInstanceOf(CompactRecordSource);
      return (source as CompactRecordSource).recordsWritten;
    };
    expect(written()).toBe(start.length);
    // Each round changes about 8 % of the venues: the blocks are kept (records of no venue
    // any more counted in them) until fewer than 3/4 of what they hold is current.
    const seen: string[] = [];
    let before = written();
    for (let round = 0; round < 12; round++) {
      let changed = 0;
      while (changed < start.length / 12) {
        const { change } = stream.batch(30, 0);
        if (change.kind === 'upsert') live.upsert(change.records);
        else live.remove(change.ids);
        stream.apply(change);
        changed += change.kind === 'upsert' ? change.records.length : change.ids.length;
      }
      live.compact();
      const after = written();
      const size = live.store.size;
      // hand-computed rule: kept when the venues are at least 3/4 of the records the blocks hold
      seen.push(after > size ? 'kept' : 'copied');
      if (after > size) expect(after).toBeGreaterThan(before);
      expect(size).toBeGreaterThanOrEqual((3 / 4) * after);
      expectSameBase(live, createEngine([...stream.expected.values()]));
      if (after > size) {
        // A snapshot of a base with unread records restores the same records and the count.
        const restored = restoreSnapshot(snapshotImage(live), 'kept-blocks');
        expect((restored.store.source as CompactRecordSource).recordsWritten).toBe(after);
        expectSameBase(restored, createEngine([...stream.expected.values()]));
      }
      before = after;
    }
    expect(seen).toContain('kept');
    expect(seen).toContain('copied');
    // 12 rounds of fold, build from scratch and snapshot: 68 to 78 s measured on two cores
    // busy with other suites, over the suite's default timeout
  }, 240_000);

  it('folds to an empty base when every venue is removed', () => {
    const start = loadFixtureVenues().slice(0, 50);
    const live = createEngine(start);
    live.remove(start.map((r) => r.id));
    live.compact();
    expect(live.size).toBe(0);
    expect(live.search({ locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 5000 } }, { now: 0 }).totalResults).toBe(0);
    live.upsert([start[0]!]);
    expect(live.basic(start[0]!.id).id).toBe(start[0]!.id);
  });
});
