import KDBush from 'kdbush';
import type { Engine } from '../engine.js';
import { DensityGrid } from '../find/density-grid.js';
import type { FindStructures } from '../find/find.js';
import { NameIndex, sortedTokens } from '../find/name-index.js';
import { nameTokens } from '../find/normalize-name.js';
import { HoursTable, HoursTableBuilder, UNKNOWN_SCHEDULE, ZoneTable } from '../hours/index.js';
import { sortLeavesByLat } from '../spatial/leaf-order.js';
import { CompactRecordsBuilder } from '../store/compact-records-builder.js';
import { CompactRecordSource } from '../store/compact-records.js';
import { IdIndex } from '../store/id-index.js';
import { sortByString } from '../store/sort-by-string.js';
import { NO_GENRE, VenueStore } from '../store/venue-store.js';

/** One part of the current data: an engine and its hidden bytes (1: replaced or removed). */
export interface FoldSide {
  readonly engine: Engine;
  readonly hidden: Uint8Array;
}

/** The parts of a base built by {@link foldSides} (an Engine's RestoredEngineParts without places). */
export interface FoldedBase {
  readonly store: VenueStore;
  readonly tree: KDBush;
  readonly hours: HoursTable;
  readonly zones: ZoneTable;
  /** Find's structures; null when not asked for (built at the engine's first find). */
  readonly find: FindStructures | null;
}

/** What {@link foldSides} builds besides the store, tree and tables. */
export interface FoldOptions {
  /** Fold find's structures too (reads the first side's, building them if it has none yet); else `find` is null. */
  readonly withFind: boolean;
  /**
   * The store finds ids by a hash (IdIndex: about one id read a lookup, against ~log2 n by
   * binary search over the id order; building it reads every id once).
   */
  readonly hashIds: boolean;
  /**
   * The venues using each of `genres` as a genre, when known exactly (LiveWords: a base
   * built or restored with its counts); the folded store keeps them (VenueStore.genreCounts).
   */
  readonly genreCounts?: ReadonlyMap<string, number> | null;
  /** Decoded records the folded store keeps (EngineOptions.recordCacheSize, checked); default 4,096. */
  readonly recordCacheSize?: number | undefined;
}

/** A compaction's fold: find's structures folded, ids found by binary search (as a snapshot's store does). */
export const BASE_FOLD: FoldOptions = { withFind: true, hashIds: false };

/**
 * Compaction without a rebuild from records: the one base holding the venues of `sides` that
 * are not hidden, built from the sides' own columns and tables (runs merge the same way:
 * src/live/live-changes.ts).
 * - the order is that of a kd-tree over the venues' coordinates (as createEngine numbers
 *   venues; the tree is the spatial index);
 * - columns are copied; term and vibe codes are renumbered into dictionaries holding only the
 *   words current venues use (the first side's words keep their relative order, so its rows
 *   stay sorted; the others' rows are sorted again);
 * - records: the first side's stay where they are, in its own blocks, which the new base's
 *   blocks begin with (their replaced and removed records left unread in them, while at
 *   least 3/4 of the records the blocks hold are current: KEEP_BLOCKS_LIVE_SHARE; else they
 *   are copied byte for byte into new blocks); the dictionaries extend the first side's
 *   (CompactRecordsBuilder.extending); the others' records are transcoded (their bytes
 *   copied, their dictionary codes renumbered: CompactRecordsBuilder.transcode);
 * - opening hours: each side's distinct schedules interned once, then a number per venue;
 *   time zones by name;
 * - find's name index from each side's words per venue (token ids renumbered into the sorted
 *   dictionary of the words current venues use; the postings derived), its density grid anew.
 * `genres`: the words current venues use as a primaryGenre or additionalGenre (normal forms:
 * LiveWords), which the columns cannot tell for additional genres.
 * Results over the folded base equal those of an engine built from the same records
 * (test/live/oracle.test.ts): every answer's order is total over ids, and no answer depends
 * on dense indices or dictionary codes.
 */
export function foldSides(sides: readonly FoldSide[], genres: readonly string[], { withFind, hashIds, genreCounts, recordCacheSize }: FoldOptions = BASE_FOLD): FoldedBase {
  // The gathered venues (side by side, index ascending), then their kd-tree order.
  let n = 0;
  for (const side of sides) for (let i = 0; i < side.hidden.length; i++) if (side.hidden[i] === 0) n++;
  const gSide = new Uint16Array(n);
  const gIndex = new Uint32Array(n);
  let g = 0;
  sides.forEach((side, s) => {
    for (let i = 0; i < side.hidden.length; i++) {
      if (side.hidden[i] !== 0) continue;
      gSide[g] = s;
      gIndex[g++] = i;
    }
  });
  const stores = sides.map((side) => side.engine.store);
  const tree = new KDBush(n, 64, Float64Array);
  for (let j = 0; j < n; j++) {
    const st = stores[gSide[j]!]!;
    tree.add(st.lon[gIndex[j]!]!, st.lat[gIndex[j]!]!);
  }
  tree.finish();
  // Each leaf's points by latitude, as buildStore lays out a base built from records (the
  // corridor walk binary-searches a leaf's latitude band: without it a compacted base's PATH
  // searches scan whole leaves), before the positions become the dense indices.
  sortLeavesByLat(tree);
  const order = Uint32Array.from(tree.ids.subarray(0, n));
  for (let k = 0; k < n; k++) tree.ids[k] = k;
  /** Per side, the new index of each of its venues. */
  const newIndex = sides.map((side) => new Uint32Array(side.hidden.length));
  for (let k = 0; k < n; k++) newIndex[gSide[order[k]!]!]![gIndex[order[k]!]!] = k;

  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const chain = new Uint8Array(n);
  const caters = new Uint16Array(n);
  for (let k = 0; k < n; k++) {
    const st = stores[gSide[order[k]!]!]!;
    const i = gIndex[order[k]!]!;
    lat[k] = st.lat[i]!;
    lon[k] = st.lon[i]!;
    chain[k] = st.chain[i]!;
    caters[k] = st.caters[i]!;
  }
  const terms = foldRows(sides, order, gSide, gIndex, (st) => [st.terms.words, st.termStart, st.termCodes]);
  const vibes = foldRows(sides, order, gSide, gIndex, (st) => [st.vibes.words, st.vibeStart, st.vibeCodes]);
  const primaryGenre = new Uint16Array(n);
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const code = stores[s]!.primaryGenre[gIndex[order[k]!]!]!;
    primaryGenre[k] = code === NO_GENRE ? NO_GENRE : terms.codeMaps[s]![code]!;
  }

  // Venue indices in ascending id order: the first side's order (its live venues) merged
  // with the other sides' ids, sorted. An id is in one side only (LiveChanges' invariant).
  const first = stores[0]!;
  const firstLive: number[] = [];
  for (const i of first.idsInOrder()) if (sides[0]!.hidden[i] === 0) firstLive.push(i);
  // The other sides' live venues: their ids and new indices, sorted by id (a multikey
  // quicksort reads each id a few times; a comparator sort called back per comparison and
  // cost about 1 s for 500,000 ids).
  const otherIds: string[] = [];
  const otherNew: number[] = [];
  for (let s = 1; s < sides.length; s++) {
    const hidden = sides[s]!.hidden;
    for (let i = 0; i < hidden.length; i++) {
      if (hidden[i] !== 0) continue;
      otherIds.push(stores[s]!.id(i));
      otherNew.push(newIndex[s]![i]!);
    }
  }
  const otherOrder = new Uint32Array(otherIds.length);
  for (let j = 0; j < otherOrder.length; j++) otherOrder[j] = j;
  sortByString(otherIds, otherOrder);
  // Each of the others finds its place among the first side's by galloping from the last
  // place, then binary search: O(others x log) ids read when the others are few (a
  // compaction's runs), about one per venue when they are many (a full refresh).
  const idOrder = new Uint32Array(n);
  let out = 0;
  let a = 0;
  let copied = 0;
  const firstBefore = (x: number, id: string) => first.id(firstLive[x]!) < id;
  for (let m = 0; m < otherOrder.length; m++) {
    const id = otherIds[otherOrder[m]!]!;
    let step = 1;
    let hi = a;
    while (hi < firstLive.length && firstBefore(hi, id)) {
      a = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, firstLive.length);
    let lo = a;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (firstBefore(mid, id)) lo = mid + 1;
      else hi = mid;
    }
    for (; copied < lo; copied++) idOrder[out++] = newIndex[0]![firstLive[copied]!]!;
    a = lo;
    idOrder[out++] = otherNew[otherOrder[m]!]!;
  }
  for (; copied < firstLive.length; copied++) idOrder[out++] = newIndex[0]![firstLive[copied]!]!;
  let idIndex: IdIndex | undefined;
  if (hashIds) {
    const idOf = (k: number): string => stores[gSide[order[k]!]!]!.id(gIndex[order[k]!]!);
    idIndex = new IdIndex(n);
    for (let k = 0; k < n; k++) idIndex.add(idOf(k), k, idOf);
  }

  // Records: the first side's kept in its blocks (or copied, when too few of the records
  // those hold would still be current), the others' transcoded (encoded from their record
  // objects when a side holds objects, not compact records).
  const source0 = stores[0]!.source;
  const records = source0 instanceof CompactRecordSource ? CompactRecordsBuilder.extending(source0, n, keepsBlocks(source0, n, sides[0]!.hidden)) : new CompactRecordsBuilder(n);
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const i = gIndex[order[k]!]!;
    const source = stores[s]!.source;
    if (s === 0 && source instanceof CompactRecordSource) records.copy(i, k);
    else if (source instanceof CompactRecordSource) records.transcode(source, i, k);
    else records.add(stores[s]!.record(i), lat[k]!, lon[k]!, k);
  }

  // Opening hours and zones: each side's schedules and zone names once, then per venue.
  const hoursBuilder = new HoursTableBuilder(n);
  const zoneNames: string[] = [];
  const zoneCode = new Map<string, number>();
  const tables = sides.map((side) => side.engine.openingTables());
  const scheduleMaps = tables.map(({ hours }) => {
    const map = new Uint32Array(hours.scheduleCount);
    for (let s = 0; s < map.length; s++) map[s] = hoursBuilder.schedule(hours.intervals.subarray(hours.offsets[s]!, hours.offsets[s + 1]!));
    return map;
  });
  const zoneMaps = tables.map(({ zones }) =>
    Uint16Array.from(zones.names, (name) => {
      let c = zoneCode.get(name);
      if (c === undefined) {
        c = zoneNames.length;
        zoneNames.push(name);
        zoneCode.set(name, c);
      }
      return c;
    }),
  );
  const zoneCodes = new Uint16Array(n);
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const i = gIndex[order[k]!]!;
    const sch = tables[s]!.hours.scheduleOf[i]!;
    hoursBuilder.addSchedule(sch === UNKNOWN_SCHEDULE ? UNKNOWN_SCHEDULE : scheduleMaps[s]![sch]!);
    zoneCodes[k] = zoneMaps[s]![tables[s]!.zones.codes[i]!]!;
  }

  const store = new VenueStore(
    {
      lat,
      lon,
      chain,
      caters,
      primaryGenre,
      termWords: terms.words,
      termStart: terms.start,
      termCodes: terms.codes,
      vibeWords: vibes.words,
      vibeStart: vibes.start,
      vibeCodes: vibes.codes,
      genreSpellings: genres,
      ...(genreCounts != null ? { genreCounts } : {}),
      idOrder,
      ...(idIndex !== undefined ? { idIndex } : {}),
    },
    records.finish(lat, lon, undefined, recordCacheSize),
  );
  const find = withFind ? { names: foldNames(sides, order, gSide, gIndex), density: new DensityGrid(lat, lon) } : null;
  return { store, tree, hours: hoursBuilder.finish(), zones: new ZoneTable(zoneCodes, zoneNames), find };
}

/**
 * Least share of current records among those a folded base's blocks would hold, for the base
 * to keep its first side's blocks (its unchanged records are then not copied at all); below
 * it, the records are copied into new blocks and the others' bytes dropped. At 3/4, a
 * snapshot holds at most a third more record bytes than its venues need.
 */
const KEEP_BLOCKS_LIVE_SHARE = 3 / 4;

/** Whether a fold of `n` venues keeps `source`'s blocks (see {@link KEEP_BLOCKS_LIVE_SHARE}); `hidden`: the source side's hidden bytes. */
function keepsBlocks(source: CompactRecordSource, n: number, hidden: Uint8Array): boolean {
  let kept = 0;
  for (let i = 0; i < hidden.length; i++) if (hidden[i] === 0) kept++;
  const written = source.recordsWritten + (n - kept);
  return n >= KEEP_BLOCKS_LIVE_SHARE * written;
}

/** A store's rows of codes (terms or vibes): its dictionary's words, the row starts, the codes. */
type Rows = readonly [readonly string[], Uint32Array, Uint16Array];

/**
 * The rows of the folded venues (venue k is gathered venue `order[k]`) in a dictionary of
 * the words they use: the first side's in its code order, then the others' new ones.
 * `codeMaps[s][c]`: side s's code c in the new dictionary (unused codes: not set).
 */
function foldRows(
  sides: readonly FoldSide[],
  order: Uint32Array,
  gSide: Uint16Array,
  gIndex: Uint32Array,
  pick: (store: VenueStore) => Rows,
): { words: string[]; start: Uint32Array; codes: Uint16Array; codeMaps: Uint32Array[] } {
  const rows = sides.map((side) => pick(side.engine.store));
  const words: string[] = [];
  const codeOf = new Map<string, number>();
  let total = 0;
  const codeMaps = rows.map(([dict, start, codes], s) => {
    const hidden = sides[s]!.hidden;
    const used = new Uint8Array(dict.length);
    for (let i = 0; i < hidden.length; i++) {
      if (hidden[i] !== 0) continue;
      total += start[i + 1]! - start[i]!;
      for (let e = start[i]!; e < start[i + 1]!; e++) used[codes[e]!] = 1;
    }
    const map = new Uint32Array(dict.length);
    for (let c = 0; c < dict.length; c++) {
      if (used[c] === 0) continue;
      let code = codeOf.get(dict[c]!);
      if (code === undefined) {
        code = words.length;
        words.push(dict[c]!);
        codeOf.set(dict[c]!, code);
      }
      map[c] = code;
    }
    return map;
  });
  const n = order.length;
  const start = new Uint32Array(n + 1);
  const out = new Uint16Array(total);
  let at = 0;
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const i = gIndex[order[k]!]!;
    const [, rowStart, codes] = rows[s]!;
    const map = codeMaps[s]!;
    const from = at;
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) {
      // Insertion into the sorted row (rows are a few codes; the first side's stay in order).
      const v = map[codes[e]!]!;
      let j = at++;
      while (j > from && out[j - 1]! > v) {
        out[j] = out[j - 1]!;
        j--;
      }
      out[j] = v;
    }
    start[k + 1] = at;
  }
  return { words, start, codes: out, codeMaps };
}

/**
 * Find's name index over the folded venues: the first side's words per venue from its own
 * index, the others' (the runs: few) from their names; token ids renumbered into the sorted
 * dictionary of the words current venues use (see NameIndex.fromWords).
 */
function foldNames(sides: readonly FoldSide[], order: Uint32Array, gSide: Uint16Array, gIndex: Uint32Array): NameIndex {
  const words: string[] = [];
  const wordOf = new Map<string, number>();
  const idOf = (w: string): number => {
    let id = wordOf.get(w);
    if (id === undefined) {
      id = words.length;
      words.push(w);
      wordOf.set(w, id);
    }
    return id;
  };
  // Per venue of the first side: its index's token ids, mapped to provisional ids.
  const first = sides[0]!.engine.findStructures().names;
  const firstMap = new Int32Array(first.tokens.length).fill(-1);
  const hidden0 = sides[0]!.hidden;
  for (let i = 0; i < hidden0.length; i++) {
    if (hidden0[i] !== 0) continue;
    for (let e = first.venueStart[i]!; e < first.venueStart[i + 1]!; e++) {
      const t = first.venueTok[e]!;
      if (firstMap[t] === -1) firstMap[t] = idOf(first.tokens[t]!);
    }
  }
  // Per venue of the other sides: its name's words, as provisional ids, in one flat list per
  // side (venue i's: `ids[start[i] .. start[i + 1])`; none for a hidden venue), not an array
  // per venue (with an array per venue, GC took a fifth of a full refresh's compaction).
  const otherWords = sides.map((side, s) => {
    const start = new Uint32Array(s === 0 ? 1 : side.hidden.length + 1);
    const ids: number[] = [];
    if (s === 0) return { start, ids };
    for (let i = 0; i < side.hidden.length; i++) {
      if (side.hidden[i] === 0) for (const word of nameTokens(side.engine.store.name(i))) ids.push(idOf(word));
      start[i + 1] = ids.length;
    }
    return { start, ids };
  });
  const { tokens, rank } = sortedTokens(words);
  const n = order.length;
  const venueStart = new Uint32Array(n + 1);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const i = gIndex[order[k]!]!;
    total += s === 0 ? first.venueStart[i + 1]! - first.venueStart[i]! : otherWords[s]!.start[i + 1]! - otherWords[s]!.start[i]!;
    venueStart[k + 1] = total;
  }
  const venueTok = new Uint32Array(total);
  for (let k = 0; k < n; k++) {
    const s = gSide[order[k]!]!;
    const i = gIndex[order[k]!]!;
    let at = venueStart[k]!;
    if (s === 0) for (let e = first.venueStart[i]!; e < first.venueStart[i + 1]!; e++) venueTok[at++] = rank[firstMap[first.venueTok[e]!]!]!;
    else {
      const { start, ids } = otherWords[s]!;
      for (let e = start[i]!; e < start[i + 1]!; e++) venueTok[at++] = rank[ids[e]!]!;
    }
  }
  return NameIndex.fromWords(tokens, venueStart, venueTok);
}
