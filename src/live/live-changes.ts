import { DetailsService } from '../details/details.js';
import type { Engine } from '../engine.js';
import { describeValue, isVenueSearchError, VenueSearchError } from '../errors.js';
import { checkFindParams, type FindParams } from '../find/find-params.js';
import { findCentre, findResponse, resolves, type FindService, type FoundVenues } from '../find/find.js';
import { placeInQueryHint } from '../find/place-in-query.js';
import { createDefaultPlaceResolver } from '../places/default-resolver.js';
import type { PlaceResolver, ResolvedPlace } from '../places/place-resolver.js';
import type { FindEstablishment, FindResponse } from '../schema/find.js';
import type { SearchEstablishment, SearchHint, SearchResponse } from '../schema/search.js';
import type { VenueRecord } from '../schema/venue.js';
import { checkSearchRequest, searchResponse, type RankedMatches, type SearchAnswerExtras, type SearchOptions } from '../search/search-service.js';
import { SearchVocabulary } from '../search/search-vocabulary.js';
import { LiveOccupiedCells, swappedCoordinatesHint } from '../search/swapped-hint.js';
import { WorstOfBest } from '../spatial/worst-of-best.js';
import { validateVenue } from '../data/validate-venue.js';
import { describeLocation, type RecordLocation } from '../data/record-location.js';
import { LearntPlaces } from '../places/learnt-places.js';
import { BASE_FOLD, foldSides, type FoldedBase, type FoldSide } from './fold-sides.js';
import { LivePlaces, type AddressedVenue } from './live-places.js';
import { LiveWords } from './live-words.js';
import { LiveVenueSpread } from './live-venue-spread.js';
import { PlaceVenues } from '../find/place-venues.js';
import type { Tombstones } from '../spatial/tombstones.js';
import { PickedFields } from '../store/picked-fields.js';
import type { VenueStore } from '../store/venue-store.js';

/** What {@link Engine.upsert} did. */
export interface UpsertResult {
  /** Venues whose id was new. */
  readonly inserted: number;
  /** Venues that replaced one with the same id. */
  readonly replaced: number;
}

/** A batch validated and built by {@link LiveChanges.prepareUpsert}, not applied yet. */
export interface PreparedUpsert {
  /** What {@link apply} will do. */
  readonly result: UpsertResult;
  /** Makes the batch current (cannot fail, except when another change came in between: then it throws and changes nothing). */
  apply(): UpsertResult;
}

/** What {@link PreparedUpsert.apply} throws when another change came in between (it then changes nothing). */
export function stalePreparedUpsert(): VenueSearchError {
  return new VenueSearchError('invalid_request', 'a prepared upsert applies only before any other change (or compaction): prepare it again');
}

/** The error of a prepared upsert's apply() called again after it applied (nothing changes). */
export function preparedUpsertApplied(): VenueSearchError {
  return new VenueSearchError('invalid_request', 'this prepared upsert was already applied (apply() makes a batch current once; nothing changed now)');
}

/** What {@link Engine.remove} did. */
export interface RemoveResult {
  /** Ids removed. */
  readonly removed: string[];
  /** Ids given that no current venue has (nothing done for them). */
  readonly unknown: string[];
}

/**
 * One part of the current data: the base, or a run of changed records (an engine built
 * over them), with tombstones of its spatial index: the venues replaced by a later run or
 * removed, a byte per venue (dense index) that is 1 once hidden, and their counts by tree
 * position. The search and find of each side skip hidden venues (MultiLocationSearch.hide,
 * FindService.hide).
 */
interface Side {
  readonly engine: Engine;
  readonly tombstones: Tombstones;
  /** The tombstones' bytes. */
  readonly hidden: Uint8Array;
  /** Venues of the side that are not hidden. */
  live: number;
}

/**
 * Runs merge while the run before the newest holds at most this many times as many live
 * venues as the newest: the larger, the fewer runs a search walks (with 45 batches of 1,000
 * pending: 2 runs at 4, against 4 at 1, the binary counter) and the more a record is rebuilt
 * (O(RUN_GROWTH log n / log RUN_GROWTH) times over its life; building a run costs ~1.5 us a
 * record).
 */
const RUN_GROWTH = 4;

/** How a live engine builds its runs' engines. */
export interface RunBuilders {
  /** An engine over already validated records (a batch's run). */
  readonly fromRecords: (records: VenueRecord[]) => Engine;
  /** An engine over parts folded from runs (runs merged). */
  readonly fromFolded: (folded: FoldedBase) => Engine;
}

/** A venue's place: side (0 = base, then runs, oldest first) and dense index there. */
interface Where {
  readonly side: number;
  readonly index: number;
}

/**
 * The changes applied to a built engine (its "base", never modified) since it was built,
 * kept like a log-structured merge tree:
 * - the base with tombstones (hidden bytes and their counts by tree position) for the
 *   venues replaced or removed since;
 * - runs: engines built with the same builder over the records of recent batches. Each
 *   upsert builds a run of its records; runs are merged whenever the one before the newest
 *   holds at most RUN_GROWTH times as many live venues, so a batch costs a small multiple
 *   of its own size and a venue is merged O(log pending) times; there are O(log pending)
 *   runs. A merge folds the runs' columns and tables (fold-sides.ts, as a compaction does:
 *   the oldest run's records are kept as bytes, the others' transcoded), so no record is
 *   decoded;
 * - `words`: the vocabulary words of the current record set, given to every side's search;
 * - `places`: places learnt from the current addresses, maintained venue by venue (built
 *   at the first use after a change).
 * Queries run on every side and merge: the result order is total (search: total desc,
 * distance asc, id asc; find: cost asc, id asc), so the page at [offset, offset + limit)
 * is the merge of each side's first offset + limit, and the counts add up. The results
 * equal those of an engine built from scratch on the current records
 * (test/live/oracle.test.ts).
 *
 * Invariants: each current id is in exactly one side with hidden 0; a batch either
 * validates and builds completely and is then committed, or throws and changes nothing.
 */
export class LiveChanges {
  readonly base: Engine;
  private sides: Side[];
  private readonly words: LiveWords;
  private livePlaces: LivePlaces | null = null;
  /** The current records' one-degree cells, for the swapped-coordinates hint: counted at the first empty answer, then kept (null: not yet). */
  private occupied: LiveOccupiedCells | null = null;
  /** Where the current records are, for place names (density grid, gazetteer countries): built at the first find naming a place, then kept (null: not yet). */
  private spread: LiveVenueSpread | null = null;
  /** The spread's grid with exact counts over the current sides (made with the spread). */
  private placeVenues: PlaceVenues | null = null;
  /** The default place resolver of the current records' gazetteer countries when they are not the base's (made at the first need). */
  private otherResolver: PlaceResolver | null = null;
  private readonly build: RunBuilders;
  /** The merged page's bound shared by the sides' nearest-first walks (per search; reused). */
  private readonly pageBound = new WorstOfBest();
  /** Changes applied so far (a prepared upsert checks that none came in between). */
  private version = 0;
  /** Details of the current records (the newest side holding an id answers). */
  readonly details = new DetailsService((id) => {
    const w = this.current(id);
    return w === null ? null : this.sides[w.side]!.engine.store.record(w.index);
  });

  /**
   * `build`: how runs' engines are built. `places`: live places kept from before a
   * compaction (they equal the base's records, see {@link fold}).
   */
  constructor(base: Engine, build: RunBuilders, places: LivePlaces | null = null) {
    this.base = base;
    this.build = build;
    this.livePlaces = places;
    const tombstones = base.spatial.tombstones();
    this.sides = [{ engine: base, tombstones, hidden: tombstones.bytes, live: base.store.size }];
    this.words = new LiveWords(base.store, (words) => {
      const counts = new Map<string, number>();
      for (const side of this.sides) countGenres(side, words, counts);
      return counts;
    });
    base.searcher().hide(tombstones);
  }

  /** The base's hidden bytes (1: replaced or removed). */
  get hidden(): Uint8Array {
    return this.sides[0]!.hidden;
  }

  /** Changes not folded into the base: base venues hidden plus venues in runs. */
  get pending(): number {
    let n = this.base.store.size - this.sides[0]!.live;
    for (let s = 1; s < this.sides.length; s++) n += this.sides[s]!.live;
    return n;
  }

  /** Number of current venues. */
  get size(): number {
    let n = 0;
    for (const side of this.sides) n += side.live;
    return n;
  }

  /** Number of runs (diagnostics, benchmarks). */
  get runs(): number {
    return this.sides.length - 1;
  }

  /**
   * Every current record (base ones first, in dense order, then each run's). `fresh`: each
   * built anew, the caller's to change (RecordSource.fresh); else the stores' own (cached)
   * objects, which must not be changed.
   */
  *records(fresh: boolean): Generator<VenueRecord> {
    for (const side of this.sides) yield* liveRecords(side, fresh);
  }

  /** Whether a current venue has this id. */
  has(id: string): boolean {
    return this.current(id) !== null;
  }

  upsert(records: readonly unknown[]): UpsertResult {
    return this.prepareUpsert(records).apply();
  }

  /**
   * Validates and builds a batch without applying it: {@link PreparedUpsert.apply} then makes
   * it current and cannot fail. So a caller can make a batch durable between the two (the
   * service logs it) knowing that the batch applies. Valid only while no other change is
   * applied in between (apply throws otherwise).
   */
  prepareUpsert(records: readonly unknown[]): PreparedUpsert {
    const valid = checkUpsertBatch(records);
    const hide: Where[] = [];
    for (const r of valid) {
      const old = this.current(r.id);
      if (old !== null) hide.push(old);
    }
    // Build the new run, merged with the runs before it while they are no larger; all of
    // it before any state changes (a build that refuses a record, or fails, changes nothing).
    const hiddenBy = indicesBySide(hide);
    let mergedLive = valid.length;
    let keep = this.sides.length;
    while (keep > 1) {
      const liveAfter = this.sides[keep - 1]!.live - (hiddenBy.get(keep - 1)?.length ?? 0);
      if (liveAfter > RUN_GROWTH * mergedLive) break;
      mergedLive += liveAfter;
      keep--;
    }
    const batch = this.build.fromRecords([...valid]);
    this.words.checkLimit([...hiddenBy].map(([s, indices]) => ({ store: this.sides[s]!.engine.store, indices })), batch.store);
    const run = keep === this.sides.length ? this.buildRun(batch) : this.mergeRuns(keep, hiddenBy, batch);
    const result: UpsertResult = { inserted: valid.length - hide.length, replaced: hide.length };
    const version = this.version;
    return {
      result,
      apply: () => {
        if (this.version !== version) throw stalePreparedUpsert();
        this.commit(hide, valid, batch.store, keep, run);
        return result;
      },
    };
  }

  remove(ids: readonly unknown[]): RemoveResult {
    if (!Array.isArray(ids)) throw new VenueSearchError('invalid_request', `remove expects an array of venue ids; got ${describeValue(ids)}`, { param: 'ids', value: ids });
    ids.forEach((id, k) => {
      if (typeof id !== 'string') {
        throw new VenueSearchError('invalid_request', `ids[${k}] must be a venue id (a string); got ${describeValue(id)}`, { param: `ids[${k}]`, value: id });
      }
    });
    const hide: Where[] = [];
    const removed: string[] = [];
    const unknown: string[] = [];
    // An id given twice is reported once, where its first mention puts it.
    const seen = new Set<string>();
    for (const id of ids as readonly string[]) {
      if (seen.has(id)) continue;
      seen.add(id);
      const old = this.current(id);
      if (old === null) {
        unknown.push(id);
        continue;
      }
      removed.push(id);
      hide.push(old);
    }
    if (removed.length > 0) this.commit(hide, [], null, this.sides.length, null);
    return { removed, unknown };
  }

  private current(id: string): Where | null {
    for (let s = this.sides.length - 1; s >= 0; s--) {
      const side = this.sides[s]!;
      const i = side.engine.store.indexOf(id);
      if (i >= 0 && side.hidden[i] === 0) return { side: s, index: i };
    }
    return null;
  }

  /** A run's side over `engine` (every venue live). */
  private buildRun(engine: Engine): Side {
    const tombstones = engine.spatial.tombstones();
    engine.searcher().hide(tombstones);
    return { engine, tombstones, hidden: tombstones.bytes, live: engine.store.size };
  }

  /**
   * One run holding the live venues of the runs from `keep` on, less those the batch
   * replaces (`hiddenBy`: per side, the dense indices it hides; the sides are not changed),
   * and the venues of `batch` (the batch's records, built): folded from their columns.
   * Find's structures are folded only when the oldest run has them; ids are hashed (every
   * upsert looks each of its ids up in every run).
   */
  private mergeRuns(keep: number, hiddenBy: ReadonlyMap<number, readonly number[]>, batch: Engine): Side {
    const folded: FoldSide[] = [];
    const genres = new Set<string>();
    for (let s = keep; s < this.sides.length; s++) {
      const side = this.sides[s]!;
      const also = hiddenBy.get(s);
      let hidden = side.hidden;
      if (also !== undefined) {
        hidden = hidden.slice();
        for (const i of also) hidden[i] = 1;
      }
      folded.push({ engine: side.engine, hidden });
      for (const g of side.engine.store.genreSpellings) genres.add(g);
    }
    if (batch.store.size > 0) {
      folded.push({ engine: batch, hidden: new Uint8Array(batch.store.size) });
      for (const g of batch.store.genreSpellings) genres.add(g);
    }
    return this.buildRun(this.build.fromFolded(foldSides(folded, [...genres], { withFind: folded[0]!.engine.findBuilt, hashIds: true })));
  }

  /**
   * Applies a built batch: hides the replaced and removed venues, replaces the runs from
   * `keep` on by `run` (their live records are in it), then updates words, places and
   * every side's vocabulary. `added`: the batch's records; `addedStore`: the store built
   * over them alone (null when none). The words and places of the venues hidden are read
   * from their sides' columns and bytes: no record is built. Nothing here can fail.
   */
  private commit(hide: readonly Where[], added: readonly VenueRecord[], addedStore: VenueStore | null, keep: number, run: Side | null): void {
    this.version++;
    const before = this.sides;
    // Words first: their lazy genre counts read the state before this batch.
    this.words.removeAll([...indicesBySide(hide)].map(([s, indices]) => ({ store: before[s]!.engine.store, indices })));
    if (addedStore !== null) this.words.add(addedStore, added);
    const places = this.livePlaces;
    if (places !== null) {
      const picked = new PickedFields(['formattedAddress']);
      for (const w of hide) {
        const venue = addressedVenue(before[w.side]!.engine.store, w.index, picked);
        if (venue !== null) places.remove(venue);
      }
    }
    const { occupied, spread } = this;
    for (const w of hide) {
      const side = this.sides[w.side]!;
      if (side.hidden[w.index] === 0) {
        side.live--;
        const { lat, lon } = side.engine.store;
        occupied?.remove(lat[w.index]!, lon[w.index]!);
        spread?.remove(lat[w.index]!, lon[w.index]!);
      }
      side.tombstones.hide(w.index);
    }
    for (const r of added) {
      occupied?.add(r.location.coordinates[0], r.location.coordinates[1]);
      spread?.add(r.location.coordinates[0], r.location.coordinates[1]);
    }
    const sides = this.sides.slice(0, keep);
    if (run !== null) sides.push(run);
    this.sides = sides.filter((side, s) => s === 0 || side.live > 0);
    if (places !== null) {
      for (const r of added) places.add(r);
      places.flush();
    }
    const words = this.words.words();
    for (const side of this.sides) side.engine.searcher().useVocabulary(new SearchVocabulary(side.engine.store, words));
  }

  /**
   * The places learnt from the current records, written into `target` (the engine's
   * LearntPlaces, which its place resolver reads) and kept up to date from then on.
   */
  places(target: LearntPlaces | null): LearntPlaces {
    this.livePlaces ??= new LivePlaces(target ?? new LearntPlaces([]), addressedVenues(this.sides));
    return this.livePlaces.places;
  }

  /** The live places if built already, else null. */
  builtPlaces(): LearntPlaces | null {
    return this.livePlaces?.places ?? null;
  }

  /**
   * Takes over `places`, built for the same current records (by the engine this one's base
   * replaces: Engine.adopt), unless this one built its own.
   */
  adoptPlaces(places: LivePlaces): void {
    this.livePlaces ??= places;
  }

  /** The live places' state if built already (to carry over a compaction), else null. */
  keptPlaces(): LivePlaces | null {
    return this.livePlaces;
  }

  /** The current records' occupied cells (see {@link occupied}), counted now if they are not yet. */
  private occupiedCells(): LiveOccupiedCells {
    if (this.occupied !== null) return this.occupied;
    const occupied = new LiveOccupiedCells();
    for (const side of this.sides) {
      const { lat, lon, size } = side.engine.store;
      for (let i = 0; i < size; i++) if (side.hidden[i] === 0) occupied.add(lat[i]!, lon[i]!);
    }
    this.occupied = occupied;
    return occupied;
  }

  /**
   * A place name resolved as an engine built from the current records would: the places of
   * one name chosen, and the suggestions ordered, by where the current venues are, with the
   * gazetteer of their countries (see {@link spread}). `finder`: the base's.
   */
  private resolvePlace(finder: FindService, name: string): ResolvedPlace {
    const spread = (this.spread ??= new LiveVenueSpread(
      this.sides.map((side) => ({ store: side.engine.store, hidden: side.hidden })),
      finder.density,
    ));
    const venues = (this.placeVenues ??= new PlaceVenues(spread.grid, () => this.sides.map((side) => ({ spatial: side.engine.spatial, tombstones: side.tombstones }))));
    const countries = spread.countries();
    // the base's resolver has the base's countries; a user's resolver keeps its own choice
    if (!this.base.hasDefaultPlaces || sameCountries(countries, spread.baseCountries)) return finder.resolvePlace(name, venues);
    if (this.otherResolver === null) this.otherResolver = createDefaultPlaceResolver(this.base.learntPlaces(), { countries });
    return finder.resolvePlace(name, venues, this.otherResolver);
  }

  /** The current records as one base, built from the sides' columns (fold-sides.ts): compaction; `recordCacheSize` as EngineOptions' (checked). */
  fold(recordCacheSize?: number): FoldedBase {
    return foldSides(this.sides, [...this.words.words().genres], { ...BASE_FOLD, genreCounts: this.words.exactGenreCounts(), recordCacheSize });
  }

  search(body: unknown, options: SearchOptions): SearchResponse {
    const request = checkSearchRequest(body, options);
    const k = request.offset + request.limit;
    const searchers = this.sides.map((side) => side.engine.searcher());
    // The base first: its matches bound the runs' walks most (NearestFirstRank.collect).
    this.pageBound.reset(Math.max(1, k));
    const ranked = searchers.map((searcher) => searcher.rank(request, k, false, this.pageBound));
    const picks = mergeTop(
      ranked.map((r) => r.slots.length),
      k,
      (a, x, b, y) => rankedBefore(ranked[a]!, ranked[a]!.slots[x]!, ranked[b]!, ranked[b]!.slots[y]!),
    );
    const page = picks.slice(Math.min(request.offset, picks.length));
    for (const [s, x] of page) searchers[s]!.touchRecord(ranked[s]!.slots[x]!);
    const establishments: SearchEstablishment[] = page.map(([s, x]) => searchers[s]!.establishment(ranked[s]!.slots[x]!, ranked[s]!.prefs, request));
    let count = 0;
    for (const r of ranked) count += r.count;
    const empty = count === 0 ? searchers.map((searcher) => searcher.emptyAnswerExtras(request)) : null;
    const hint = count === 0 ? swappedCoordinatesHint(this.occupiedCells(), request.area.centerLat, request.area.centerLon) : undefined;
    return searchResponse(request, establishments, count, mergedExtras(ranked, empty, hint));
  }

  find(params: FindParams, nowMs: number): FindResponse {
    const p = checkFindParams(params);
    const finders = this.sides.map((side) => side.engine.finder());
    this.sides.forEach((side, s) => finders[s]!.hide(side.hidden));
    const place = p.location !== null ? this.resolvePlace(finders[0]!, p.location) : null;
    const centre = findCentre(p, place);
    const k = p.offset + p.limit;
    const prefixKnown = (word: string) => finders.some((f) => f.hasNamePrefix(word));
    let found: FoundVenues[] = finders.map((f) => f.collect(p.query, centre, p.maxDistanceMeters, k, prefixKnown));
    // The second try of FindService.find, decided over every side as one engine decides it.
    const nowhere = (): boolean => centre === null || !finders.some((f) => f.matchesAnywhere(p.query, prefixKnown));
    if (found.every((f) => f.total === 0) && finders[0]!.names.widens(p.query, prefixKnown) && nowhere()) {
      found = finders.map((f) => f.collect(p.query, centre, p.maxDistanceMeters, k, prefixKnown, true));
    }
    const idOf = (s: number, x: number) => this.sides[s]!.engine.store.id(found[s]!.venues[x]!);
    const picks = mergeTop(
      found.map((f) => f.venues.length),
      k,
      (a, x, b, y) => {
        const ca = found[a]!.costs[x]!;
        const cb = found[b]!.costs[y]!;
        return ca !== cb ? ca < cb : idOf(a, x) < idOf(b, y);
      },
    );
    const establishments: FindEstablishment[] = [];
    for (let j = p.offset; j < picks.length; j++) {
      const [s, x] = picks[j]!;
      establishments.push(finders[s]!.establishment(found[s]!.venues[x]!, centre, found[s]!.costs[x]!, nowMs));
    }
    let total = 0;
    for (const f of found) total += f.total;
    const hint =
      total === 0 && centre === null
        ? placeInQueryHint(
            p.query,
            (name) => resolves(() => this.resolvePlace(finders[0]!, name)),
            (q) => finders.some((f) => f.matchesAnywhere(q, prefixKnown)),
          )
        : undefined;
    return findResponse(p, centre, place, establishments, total, hint);
  }

  /** The search vocabulary of the current records. */
  vocabulary(): ReturnType<SearchVocabulary['toJSON']> {
    return new SearchVocabulary(this.base.store, this.words.words()).toJSON();
  }
}

/**
 * Adds to `into`, per word of `words` (normal forms), the venues of a side, not hidden, that
 * use it as their primary or an additional genre: one pass over the term column finds the
 * candidates, the primaryGenre column answers most, and only the others' records are read.
 */
function countGenres(side: Side, words: ReadonlySet<string>, into: Map<string, number>): void {
  const store = side.engine.store;
  const wordOf: Array<string | undefined> = new Array(store.terms.words.length);
  let any = false;
  for (const w of words) {
    into.set(w, into.get(w) ?? 0);
    const code = store.terms.lookup(w);
    if (code >= 0) {
      wordOf[code] = w;
      any = true;
    }
  }
  if (!any) return;
  const { termStart, termCodes, primaryGenre } = store;
  // A venue's additional genres, read alone from its bytes (no full record decoded, none
  // cached): only for a venue whose terms hold a word not its primary genre.
  const picked = new PickedFields(['additionalGenres']);
  // Term code of each spelling met (lookup normalises the word: a chain of regexes).
  const codeOf = new Map<string, number>();
  const lookup = (g: string): number => {
    let c = codeOf.get(g);
    if (c === undefined) codeOf.set(g, (c = store.terms.lookup(g)));
    return c;
  };
  for (let i = 0; i < store.size; i++) {
    if (side.hidden[i] !== 0) continue;
    for (let k = termStart[i]!; k < termStart[i + 1]!; k++) {
      const code = termCodes[k]!;
      const w = wordOf[code];
      if (w === undefined) continue;
      if (primaryGenre[i] !== code) {
        store.pick(i, picked);
        const additional = (picked.values[0] as string[] | undefined) ?? [];
        if (!additional.some((g) => lookup(g) === code)) continue;
      }
      into.set(w, into.get(w)! + 1);
    }
  }
}

/**
 * The current venues that have an address, as places are learnt from them (address and
 * point), read without building their records; in the order of {@link LiveChanges.records}.
 */
function* addressedVenues(sides: readonly Side[]): Generator<AddressedVenue> {
  for (const side of sides) yield* addressedVenuesOf(side.engine.store, side.hidden);
}

/** The venues of `store` that have an address, as places are learnt from them, but those `hidden` marks (non-zero), in dense order. */
export function* addressedVenuesOf(store: VenueStore, hidden: Uint8Array | null = null): Generator<AddressedVenue> {
  const picked = new PickedFields(['formattedAddress']);
  for (let i = 0; i < store.size; i++) {
    if (hidden !== null && hidden[i] !== 0) continue;
    const venue = addressedVenue(store, i, picked);
    if (venue !== null) yield venue;
  }
}

/**
 * Venue i of `store` as places are learnt from it, read without building its record, or
 * null when it has no address; `picked`: a PickedFields of ['formattedAddress'].
 */
function addressedVenue(store: VenueStore, i: number, picked: PickedFields): AddressedVenue | null {
  store.pick(i, picked);
  const formattedAddress = picked.values[0] as string | undefined;
  if (formattedAddress === undefined) return null;
  return { formattedAddress, location: { type: 'Point', coordinates: [store.lat[i]!, store.lon[i]!] } };
}

/** The records of a side that are not hidden, in dense order (`fresh`: see LiveChanges.records). */
function* liveRecords(side: Side, fresh: boolean): Generator<VenueRecord> {
  const store = side.engine.store;
  for (let i = 0; i < store.size; i++) if (side.hidden[i] === 0) yield fresh ? store.source.fresh(i) : store.record(i);
}

/**
 * Validates a batch for upsert exactly as createEngine validates records, plus one id once
 * per batch; throws VenueSearchError (`invalid_venue` or `duplicate_id`) naming the record
 * (`line`: its 1-based position, `recordId`) and the field.
 */
export function checkUpsertBatch(records: readonly unknown[]): readonly VenueRecord[] {
  if (!Array.isArray(records)) {
    // The code remove gives a wrong kind of argument: the call is wrong, not a record.
    throw new VenueSearchError('invalid_request', `upsert expects an array of venue records; got ${describeValue(records)}`, { param: 'records', value: records });
  }
  const first = upsertBatchProblems(records).next();
  if (first.done !== true) throw first.value;
  return records as readonly VenueRecord[];
}

/**
 * Every problem of an upsert batch, in order, by checkUpsertBatch's rules: each record
 * checked as createEngine checks records, and a record whose id an earlier valid record of
 * the batch has is a `duplicate_id`. `where(k)` names record k's place in the messages
 * (default `line k+1`, its position in the batch; `venues check` gives the file's line).
 */
export function* upsertBatchProblems(records: readonly unknown[], where: (k: number) => RecordLocation = (k) => ({ line: k + 1 })): Generator<VenueSearchError, void, void> {
  /** Index in the batch of each id's first valid record. */
  const seen = new Map<string, number>();
  for (let k = 0; k < records.length; k++) {
    let r: VenueRecord;
    try {
      r = validateVenue(records[k], where(k));
    } catch (e) {
      if (!isVenueSearchError(e)) throw e;
      yield e;
      continue;
    }
    const first = seen.get(r.id);
    if (first !== undefined) {
      const here = where(k);
      yield new VenueSearchError('duplicate_id', `${describeLocation(here)}: duplicate venue id ${JSON.stringify(r.id)} in one batch (first at line ${where(first).line})`, {
        param: 'id',
        value: r.id,
        recordId: r.id,
        ...(here.line !== undefined ? { line: here.line } : {}),
      });
      continue;
    }
    seen.set(r.id, k);
  }
}

/** The dense indices of `venues` grouped by side. */
function indicesBySide(venues: readonly Where[]): Map<number, number[]> {
  const bySide = new Map<number, number[]>();
  for (const w of venues) {
    let list = bySide.get(w.side);
    if (list === undefined) bySide.set(w.side, (list = []));
    list.push(w.index);
  }
  return bySide;
}

/** Whether slot sa of side a ranks before slot sb of side b (total desc, distance asc, id asc). */
function rankedBefore(a: RankedMatches, sa: number, b: RankedMatches, sb: number): boolean {
  const ta = a.ranking.total[sa]!;
  const tb = b.ranking.total[sb]!;
  if (ta !== tb) return ta > tb;
  const da = a.ranking.dist[sa]!;
  const db = b.ranking.dist[sb]!;
  if (da !== db) return da < db;
  return a.idOf(sa) < b.idOf(sb);
}

/**
 * The first `k` of several ordered lists (of the given lengths), merged: [list, position]
 * pairs. `before(a, x, b, y)`: entry x of list a ranks before entry y of list b (the order
 * being total, never equal). Lists are few (the base and O(log pending) runs).
 */
function mergeTop(lengths: readonly number[], k: number, before: (a: number, x: number, b: number, y: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const at = lengths.map(() => 0);
  while (out.length < k) {
    let best = -1;
    for (let s = 0; s < lengths.length; s++) {
      if (at[s]! >= lengths[s]!) continue;
      if (best < 0 || before(s, at[s]!, best, at[best]!)) best = s;
    }
    if (best < 0) break;
    out.push([best, at[best]!++]);
  }
  return out;
}

/**
 * What the answer says beside its page, over the base and the runs: the fair centre is the
 * people's (the same on every side). When nothing matched on any side (`empty`: each side's
 * empty-answer extras), the smallest feasible maxDistance is the least any side needs, and
 * `hint` is the swapped-coordinates hint of the current records' cells (LiveOccupiedCells).
 */
function mergedExtras(ranked: readonly RankedMatches[], empty: ReadonlyArray<Pick<RankedMatches, 'smallestFeasibleMaxDistance'>> | null, hint: SearchHint | undefined): SearchAnswerExtras {
  const centre = ranked[0]!.centre;
  if (empty === null) return { centre, smallestFeasibleMaxDistance: undefined, hint: undefined };
  let smallest: number | undefined;
  for (const r of empty) {
    const need = r.smallestFeasibleMaxDistance;
    if (need !== undefined && (smallest === undefined || need < smallest)) smallest = need;
  }
  return { centre, smallestFeasibleMaxDistance: smallest, hint };
}

/** Whether two gazetteer country choices are the same (null: the world). */
function sameCountries(a: readonly string[] | null, b: readonly string[] | null): boolean {
  return a === b || (a !== null && b !== null && a.length === b.length && a.every((c, i) => c === b[i]));
}
