import KDBush from 'kdbush';
import { validateVenue } from './data/validate-venue.js';
import { createDetailsService, type DetailsService } from './details/details.js';
import { checkCallOptions } from './call-options.js';
import type { NamePlace } from './schema/unknown-name.js';
import { describeValue, invalidRequest, VenueSearchError } from './errors.js';
import { createFindService, type FindService, type FindStructures } from './find/find.js';
import type { FindParams } from './find/find-params.js';
import { checkPlaceResolver, type PlaceResolver } from './places/place-resolver.js';
import type { AdvancedDetails, BasicDetails, MenuList } from './schema/details.js';
import type { FindResponse } from './schema/find.js';
import type { SearchResponse } from './schema/search.js';
import type { VenueRecord } from './schema/venue.js';
import type { HoursTable, ZoneTable } from './hours/index.js';
import { createDefaultPlaceResolver } from './places/default-resolver.js';
import { gazetteerCountriesFor } from './places/gazetteer-countries.js';
import { Gazetteer } from './places/gazetteer.js';
import { LearntPlaces } from './places/learnt-places.js';
import { addressedVenuesOf, checkUpsertBatch, LiveChanges, preparedUpsertApplied, stalePreparedUpsert, type PreparedUpsert, type RemoveResult, type UpsertResult } from './live/live-changes.js';
import { LivePlaces } from './live/live-places.js';
import type { FoldedBase } from './live/fold-sides.js';
import { createSearchService, type SearchService } from './search/index.js';
import type { MultiLocationSearch, PreparedSearchColumns } from './search/search-service.js';
import { buildOpeningTables } from './search/opening-states.js';
import { SpatialIndex } from './spatial/spatial-index.js';
import { venueExtent, type VenueExtent } from './spatial/venue-extent.js';
import { sortLeavesByLat } from './spatial/leaf-order.js';
import { buildArray } from './store/build-memory.js';
import { PickedFields } from './store/picked-fields.js';
import { checkRecordCacheSize } from './store/compact-records.js';
import { VenueStore } from './store/venue-store.js';
import { VenueStoreBuilder } from './store/venue-store-builder.js';

export interface EngineOptions {
  /**
   * Validate every record against the schema while building (default true). Records that
   * came from `readVenues` are already validated; pass false to skip the second pass.
   */
  readonly validate?: boolean | undefined;
  /**
   * Resolves find's `location` names. Default: the built-in resolver (places learnt from the
   * venues' addresses, then the GeoNames gazetteer). A function is called once, lazily.
   * `null`: no place names (every `location` is `unknown_place`).
   */
  readonly places?: PlaceResolver | (() => PlaceResolver) | null | undefined;
  /**
   * How many decoded records the engine keeps for details, find and opening states, a power
   * of two from 1 to 65,536 (createEngine, createEngineFromFile, readSnapshot,
   * restoreShared). Default 4,096. serve's engine threads keep 1,024
   * (src/service/engine-pool.ts). {@link Engine.compact}'s new base keeps the same size; the
   * small runs of pending changes keep the default.
   */
  readonly recordCacheSize?: number | undefined;
}

/** A built tree's leaves are sorted by latitude, and its position k holds venue k (buildStore does both). */
const BUILT_LEAVES_SORTED = true;
const BUILT_POSITIONS_ARE_VENUES = true;

/** A folded base's kd-tree leaves are sorted by latitude (foldSides sorts them, as a build does). */
const FOLDED_LEAVES_SORTED = true;
/** A folded base's tree position k holds venue k (foldSides renumbers the tree's ids, as a build does). */
const FOLDED_POSITIONS_ARE_VENUES = true;

/** The options of a run's engine (src/live: records validated already; places are the live engine's). */
const RUN_OPTIONS: EngineOptions = { validate: false, places: null };

/** An engine over parts folded from engines' columns (src/live/fold-sides.ts): a compaction's base, or merged runs. */
function engineFromFolded({ store, tree, hours, zones, find }: FoldedBase, options: EngineOptions): Engine {
  return new Engine(new RestoredEngineParts(store, tree, hours, zones, null, find, undefined, FOLDED_LEAVES_SORTED, FOLDED_POSITIONS_ARE_VENUES), options);
}

/**
 * An engine's prebuilt parts, as a snapshot restores them (src/snapshot/read-snapshot.ts):
 * the store over its record source, the kd-tree, the opening-hours and time-zone tables,
 * the places learnt from the venues' addresses (null: learn them at first use), and find's
 * name index and density grid (null: build them at first use).
 */
export class RestoredEngineParts {
  constructor(
    readonly store: VenueStore,
    readonly tree: KDBush,
    readonly hours: HoursTable,
    readonly zones: ZoneTable,
    readonly learnt: LearntPlaces | null,
    readonly find: FindStructures | null = null,
    /** The search's derived columns, computed where the snapshot was written (undefined: computed at first search). */
    readonly search?: PreparedSearchColumns,
    /** Whether the tree's leaves are known sorted by latitude (the snapshot's header; undefined: checked, see SpatialIndex). */
    readonly leavesSortedByLat?: boolean,
    /** Whether tree position k holds venue k (the snapshot's header; undefined: found at the first search, see SpatialIndex.positionsAreVenues). */
    readonly positionsAreVenues?: boolean,
  ) {}
}

/** The instant a call is evaluated at, ms since the epoch (UTC). Default: now. */
export interface AtInstant {
  readonly now?: number | undefined;
}

/** Options of {@link Engine.warm}. */
export interface WarmOptions {
  /** Also build what the first find naming a place after a change would: the live places (default false). */
  readonly forChanges?: boolean | undefined;
  /**
   * Read the embedded gazetteer now (default true), so that no query reads a file. False
   * leaves it to the first find naming a place: each thread holds its own copy (15 to 20 MiB),
   * so `serve --engine-threads` loads it in a thread only when a find there names a place.
   */
  readonly gazetteer?: boolean | undefined;
}

export interface SearchCallOptions extends AtInstant {
  /** Page size, 1..100 (default 20). */
  readonly limit?: number | undefined;
  /** Results skipped (default 0). */
  readonly offset?: number | undefined;
}

/**
 * The engine: venues in a columnar store, a spatial index over them, and the queries.
 * Pure and synchronous; it does no I/O, and the clock is read only as the default of `now`
 * at this public boundary. The search and find structures (opening-hours table, name
 * index) are built at their first use, or all at once by {@link Engine.warm}.
 * Not re-entrant across threads (scratch buffers are reused), which Node never needs.
 */
export class Engine {
  /**
   * The base's store and spatial index: the venues as built, or as last compacted. They do
   * not follow {@link upsert} and {@link remove} (a removed venue is still in them, an
   * inserted one is not) until {@link compact} folds the changes in, and then they are new
   * objects: positions from the old ones (a HitBuffer's indices) mean nothing in them.
   * search, find and details always answer over the current records.
   */
  store: VenueStore;
  spatial: SpatialIndex;
  private readonly options: EngineOptions;
  private searchService: MultiLocationSearch | null = null;
  private findService: FindService | null = null;
  private details: DetailsService;
  private hoursTables: { hours: HoursTable; zones: ZoneTable } | null = null;
  private learnt: LearntPlaces | null = null;
  /** Find's structures restored from a snapshot, until find is first used. */
  private restoredFind: FindStructures | null = null;
  private preparedSearch: PreparedSearchColumns | undefined;
  /** venueExtent's answer and the store it was computed for. */
  private extentOf: { readonly store: VenueStore; readonly extent: VenueExtent | null } | undefined;
  /** Changes since the base was built (null: none yet). */
  private live: LiveChanges | null = null;
  /** Places learnt venue by venue before the last {@link compact}, for the next changes (null: none). */
  private keptPlaces: LivePlaces | null = null;

  /**
   * Builds the engine over `venues` (or, from readSnapshot, over restored parts; or over the
   * records added to a store builder, as createEngineFromFile does: they are not validated
   * again).
   */
  constructor(venues: readonly VenueRecord[] | RestoredEngineParts | VenueStoreBuilder, options: EngineOptions = {}) {
    if (venues instanceof RestoredEngineParts) {
      this.options = options;
      this.store = venues.store;
      this.spatial = new SpatialIndex(this.store.lat, this.store.lon, venues.tree, venues.leavesSortedByLat, venues.positionsAreVenues);
      this.details = createDetailsService(this.store);
      this.hoursTables = { hours: venues.hours, zones: venues.zones };
      this.learnt = venues.learnt;
      this.restoredFind = venues.find;
      this.preparedSearch = venues.search;
      return;
    }
    let builder: VenueStoreBuilder;
    if (venues instanceof VenueStoreBuilder) {
      builder = venues;
    } else {
      if (!Array.isArray(venues)) {
        const iterable = typeof (venues as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function';
        // readVenues' answer itself, a natural first try (audit 77 final check): say to take its `venues`
        const readAnswer = Array.isArray((venues as { venues?: unknown } | null)?.venues) && Array.isArray((venues as { rejects?: unknown }).rejects);
        const advice = iterable ? ' (spread it into one: [...records])' : readAnswer ? " (readVenues answers { venues, rejects, format }: pass its venues, createEngine((await readVenues(path)).venues))" : '';
        throw new VenueSearchError('invalid_data', `createEngine expects an array of venue records; got ${describeValue(venues)}${advice}`, { param: 'venues', value: venues });
      }
      if (options.validate !== false) {
        for (let i = 0; i < venues.length; i++) validateVenue(venues[i], { line: i + 1 });
      }
      builder = new VenueStoreBuilder(venues.length);
      for (let i = 0; i < venues.length; i++) builder.add(venues[i]!);
    }
    this.options = options;
    const { store, tree } = buildStore(builder, options.recordCacheSize);
    this.store = store;
    this.spatial = tree === null ? new SpatialIndex(this.store.lat, this.store.lon) : new SpatialIndex(this.store.lat, this.store.lon, tree, BUILT_LEAVES_SORTED, BUILT_POSITIONS_ARE_VENUES);
    this.details = createDetailsService(this.store);
  }

  /** Number of venues. */
  get size(): number {
    return this.live?.size ?? this.store.size;
  }

  /**
   * Inserts venues, or replaces those with the same id (docs/updates.md). Validates every
   * record as createEngine does; atomic: a bad record (or an id twice in one batch) throws
   * VenueSearchError naming the record and field, and nothing changes. Takes effect for
   * the next search, find and details call. The engine keeps the record objects: do not
   * change them afterwards.
   */
  upsert(records: readonly VenueRecord[]): UpsertResult {
    return this.changes().upsert(records);
  }

  /** Validates a batch as {@link upsert} would, changing nothing (throws the same errors). */
  checkUpsert(records: readonly unknown[]): void {
    checkUpsertBatch(records);
  }

  /**
   * {@link upsert} in two steps: validates and builds the batch (throwing as upsert does, and
   * changing nothing), then `apply()` makes it current and cannot fail. A service makes the
   * batch durable between the two (src/changelog/live-venues.ts logs it), so a logged batch
   * always applies. `apply` throws if another change (an upsert, a removal, a compaction)
   * came in between, and then changes nothing.
   */
  prepareUpsert(records: readonly unknown[]): PreparedUpsert {
    const live = this.changes();
    const prepared = live.prepareUpsert(records);
    let applied = false; // a batch applies once: a second apply() says so (before any staleness)
    return {
      result: prepared.result,
      apply: () => {
        if (applied) throw preparedUpsertApplied();
        if (this.live !== live) throw stalePreparedUpsert(); // a compaction replaced the changes
        const result = prepared.apply();
        applied = true;
        return result;
      },
    };
  }

  /** Whether a current venue has this id. */
  has(id: string): boolean {
    return this.live !== null ? this.live.has(id) : this.store.indexOf(id) >= 0;
  }

  /** Removes venues by id; ids no current venue has are listed in `unknown`, not thrown. */
  remove(ids: readonly string[]): RemoveResult {
    return this.changes().remove(ids);
  }

  /** Changes applied since the base index was built (0 after {@link compact}). */
  get pendingChanges(): number {
    return this.live?.pending ?? 0;
  }

  /**
   * Every current record (for compaction and snapshots; builds no index). Lazy: each record
   * is decoded when the iteration reaches it, anew (not the engine's cached object), so the
   * caller may change it without changing any answer.
   */
  currentRecords(): Iterable<VenueRecord> {
    const live = this.live;
    return live !== null ? { [Symbol.iterator]: () => live.records(true) } : this.store.records;
  }

  /**
   * @internal Every current record as the engine holds it (cached objects other calls get
   * too: never changed, never handed to a caller): writeSnapshot's copy of a changed engine.
   */
  heldRecords(): Iterable<VenueRecord> {
    const live = this.live;
    if (live !== null) return { [Symbol.iterator]: () => live.records(false) };
    const store = this.store;
    return Array.from({ length: store.size }, (_, i) => store.record(i));
  }

  /**
   * Folds the pending changes into a new base index built here, synchronously, from the
   * base's and the runs' columns (src/live/fold-sides.ts: unchanged records are copied, not
   * decoded). The HTTP service does this in a worker (src/changelog/compactor.ts), then
   * {@link adopt}s the result.
   */
  compact(): this {
    if (this.live === null || this.live.pending === 0) return this;
    this.adopt(engineFromFolded(this.live.fold(this.options.recordCacheSize), { ...this.options, validate: false }));
    return this;
  }

  /**
   * Takes over `built`'s state (its base indexes and its own pending changes) in place of
   * this engine's: for an engine that holds exactly this one's current records (built or
   * restored from them, changes applied since). Synchronous: a query sees the old state or
   * the new one. Places learnt so far are kept when `built` has no changes of its own; the
   * live places (learnt places kept up to date venue by venue, built from every current
   * record at the first find naming a place after a change) are kept unless `built` has its
   * own, as they hold for the same current records (so a service's compaction does not make
   * the next such find read every record again).
   *
   * Changes made here after `built`'s records were read must be applied to `built` first (as
   * src/changelog/compactor.ts does). Checked cheaply (O(1): adopt runs on the query path):
   * a `built` whose size differs from this engine's is refused with VenueSearchError
   * `invalid_request`, and nothing changes.
   */
  adopt(built: Engine): this {
    checkAdoptable(this, built);
    const carried = this.live !== null ? this.live.keptPlaces() : this.keptPlaces;
    const learnt = built.live !== null ? null : this.live !== null ? this.live.builtPlaces() : this.learnt;
    this.store = built.store;
    this.spatial = built.spatial;
    this.details = built.details;
    this.searchService = built.searchService;
    this.findService = built.findService;
    // Prebuilt parts not used yet are the built engine's (this one's would not fit its store).
    this.restoredFind = built.restoredFind;
    this.preparedSearch = built.preparedSearch;
    this.hoursTables = built.hoursTables;
    this.learnt = built.learnt ?? learnt;
    this.live = built.live;
    this.keptPlaces = built.keptPlaces;
    if (carried !== null && this.hasDefaultPlaces && built.keptPlaces === null && (built.live === null || built.live.builtPlaces() === null)) {
      // One LearntPlaces for the place resolver and the live places that write into it:
      // `built`'s, which its find service (now this one's) may hold already.
      if (built.learnt !== null) carried.retarget(built.learnt);
      if (built.live !== null) built.live.adoptPlaces(carried);
      else this.keptPlaces = carried;
      this.learnt = carried.places;
    }
    return this;
  }

  private changes(): LiveChanges {
    this.live ??= new LiveChanges(this, { fromRecords: (records) => new Engine(records, RUN_OPTIONS), fromFolded: (folded) => engineFromFolded(folded, RUN_OPTIONS) }, this.keptPlaces);
    this.keptPlaces = null;
    return this.live;
  }

  /** Bytes of the store's search-path columns and the spatial index. */
  get searchPathBytes(): number {
    return this.store.columnBytes + this.spatial.byteSize;
  }

  /**
   * Builds the search and find structures now rather than at their first use: the search
   * service (opening-hours tables), find's name index, density grid, id ranks and posting
   * cells, and, with the default place resolver, the embedded gazetteer (the one file read)
   * and the places learnt from the addresses. A snapshot saves the indexes, so warming an
   * engine read from one only runs two linear passes over arrays it holds (the id ranks from
   * the id order, the posting cells from the postings and the coordinates) and reads the
   * gazetteer.
   *
   * `forChanges: true`, for an engine that will take changes (upsert, remove): the learnt
   * places are built as live places, which keep the venues naming each place so that a
   * change re-learns only the places its venues name. Without it the first find naming a
   * place after a change reads every current record's address to build them (seconds at 1M
   * addressed venues, on the thread that serves queries); with it that read is done here,
   * and the places hold those venues' points and spellings from then on (docs/updates.md).
   */
  warm(options: WarmOptions = {}): this {
    const { forChanges = false, gazetteer = true } = checkCallOptions(options, WARM_OPTIONS) as WarmOptions;
    if (typeof forChanges !== 'boolean') invalidRequest('options.forChanges', forChanges, 'true or false');
    if (typeof gazetteer !== 'boolean') invalidRequest('options.gazetteer', gazetteer, 'true or false');
    this.searcher();
    this.finder().warm();
    if (!this.hasDefaultPlaces) return this;
    // the embedded gazetteer (read from the package's data files and parsed once per thread):
    // without this, the first find naming a place read 1.3 MB from disk (audit 72c F1: 125 to
    // 140 ms, on the thread that serves queries, against the promise of no I/O after warm)
    if (gazetteer) Gazetteer.embedded(gazetteerCountriesFor(this.store.lat, this.store.lon));
    if (forChanges) this.buildLivePlaces();
    else if (this.live === null) this.learntPlaces();
    return this;
  }

  /**
   * The live places (see warm's `forChanges`), built now if they are not yet: with changes,
   * those of the current records; without, kept for the first change (as a compaction
   * keeps them), written into the learnt places the place resolver reads.
   */
  private buildLivePlaces(): void {
    if (this.live !== null) {
      this.learntPlaces();
      return;
    }
    this.keptPlaces ??= new LivePlaces(this.learnt ?? new LearntPlaces([]), addressedVenuesOf(this.store));
    this.learnt = this.keptPlaces.places;
  }

  /**
   * The words of find's name dictionary when its index exists (built or restored), else
   * none; never builds it. A compaction's swap reuses them (PrebuiltParts.nameTokens).
   */
  nameTokensIfBuilt(): readonly string[] {
    return (this.findService?.names ?? this.restoredFind?.names)?.tokens ?? [];
  }

  /** Whether find's name index exists (built, or restored from a snapshot or a fold). */
  get findBuilt(): boolean {
    return this.findService !== null || this.restoredFind !== null;
  }

  /** Find's name index, density grid and posting cells, built now if they are not yet (for a snapshot). */
  findStructures(): FindStructures {
    const f = this.finder();
    return { names: f.names, density: f.density, cells: f.postingCells() };
  }

  /** POINT or PATH search (interface 4.1; docs/search.md). Throws VenueSearchError on bad input. */
  search(body: unknown, options: SearchCallOptions = {}): SearchResponse {
    const { now = Date.now(), limit, offset } = checkCallOptions(options, SEARCH_CALL_OPTIONS) as SearchCallOptions;
    return (this.live ?? this.searcher()).search(body, {
      now,
      ...(limit !== undefined ? { limit } : {}),
      ...(offset !== undefined ? { offset } : {}),
    });
  }

  /** The accepted preference values (establishmentFilters, catersFilters, vibes, ...). */
  vocabulary(): ReturnType<SearchService['vocabulary']> {
    return this.live?.vocabulary() ?? this.searcher().vocabulary();
  }

  /**
   * Where most venues are (src/spatial/venue-extent.ts), for the widget's first view: of the
   * base's venues, so changes since it was built count once they are compacted or folded in.
   */
  venueExtent(): VenueExtent | null {
    if (this.extentOf?.store !== this.store) this.extentOf = { store: this.store, extent: venueExtent(this.store.lat, this.store.lon, this.store.size) };
    return this.extentOf.extent;
  }

  /** Name search (interface 4.2; docs/find.md). */
  find(params: FindParams, options: AtInstant = {}): FindResponse {
    const now = nowOf(options, 'engine.find options');
    if (this.live !== null) {
      // The learnt places serve `location` alone. With changes pending they are built from
      // every current record (then kept up to date venue by venue) at the first find that
      // names a place, not at the first find (at 1M, a third of a second without addresses).
      if (this.hasDefaultPlaces && namesPlace(params)) this.learntPlaces();
      return this.live.find(params, now);
    }
    return this.finder().find(params, now);
  }

  /** Basic details (2.8): at most 5 images. Unknown id: `venue_not_found`. */
  basic(id: string, options: AtInstant = {}): BasicDetails {
    return (this.live?.details ?? this.details).basic(id, nowOf(options));
  }

  /** Advanced details (2.9): everything, all photos. */
  advanced(id: string, options: AtInstant = {}): AdvancedDetails {
    return (this.live?.details ?? this.details).advanced(id, nowOf(options));
  }

  /** Active menus (2.10); `[]` when the venue has none. */
  menus(id: string): MenuList {
    return (this.live?.details ?? this.details).menus(id);
  }

  /**
   * The opening-hours and time-zone tables (built at first use from the records, or
   * restored from a snapshot).
   */
  openingTables(): { readonly hours: HoursTable; readonly zones: ZoneTable } {
    this.hoursTables ??= buildOpeningTables(this.store);
    return this.hoursTables;
  }

  /** Whether find resolves place names with the default resolver (learnt places + GeoNames). */
  get hasDefaultPlaces(): boolean {
    return this.options.places === undefined;
  }

  /** The places learnt from the venues' addresses with the default options (or restored). */
  learntPlaces(): LearntPlaces {
    if (this.live !== null) {
      this.learnt = this.live.places(this.learnt);
      return this.learnt;
    }
    this.learnt ??= learntFromStore(this.store);
    return this.learnt;
  }

  /** The base's search (internal: the live-data merge ranks on it). */
  searcher(): MultiLocationSearch {
    this.searchService ??= createSearchService(this.store, this.spatial, { ...this.openingTables(), ...(this.preparedSearch !== undefined ? { prepared: this.preparedSearch } : {}) });
    this.preparedSearch = undefined;
    return this.searchService;
  }

  /** The base's find (internal: the live-data merge collects on it). */
  finder(): FindService {
    const places =
      this.options.places === undefined
        ? () => createDefaultPlaceResolver(this.learntPlaces(), { countries: gazetteerCountriesFor(this.store.lat, this.store.lon) })
        : this.options.places;
    if (this.findService === null) {
      const prebuilt = this.restoredFind;
      this.restoredFind = null;
      this.findService = createFindService(this.store, this.spatial, { places, ...(prebuilt !== null ? { prebuilt } : {}) });
    }
    return this.findService;
  }
}

/**
 * The store of the records added to `builder`, in the order of a kd-tree over their
 * coordinates (venue k is the record added `order[k]`-th), so that venues near each other get
 * nearby dense indices: a query's reads of the store's columns (caters, chain, hours, ...)
 * then fall on a few cache lines instead of one per candidate. Ids, not positions,
 * identify venues everywhere.
 *
 * The tree itself (each leaf sorted by latitude, src/spatial/leaf-order.ts) is returned for the spatial index: renumbered so that tree position k
 * holds venue k (ids become the identity), it is a kd-tree over the store's coordinates
 * as they are laid out, and building a second one would sort a million points again.
 * `recordCacheSize`: EngineOptions.recordCacheSize (checked).
 */
export function buildStore(builder: VenueStoreBuilder, recordCacheSize?: number): { store: VenueStore; tree: KDBush | null } {
  const n = builder.size;
  if (n === 0) return { store: new VenueStore(builder.finish(undefined, recordCacheSize)), tree: null };
  const tree = new KDBush(n, 64, Float64Array);
  const points = builder.points;
  for (let i = 0; i < n; i++) tree.add(points[2 * i + 1]!, points[2 * i]!);
  tree.finish();
  // Each leaf's points by latitude (the corridor walk searches a leaf's latitude band), before
  // the positions become the venues' dense indices.
  sortLeavesByLat(tree);
  const order = buildArray(Uint32Array, n);
  order.set(tree.ids);
  for (let k = 0; k < n; k++) tree.ids[k] = k;
  return { store: new VenueStore(builder.finish(order, recordCacheSize)), tree };
}

/**
 * Throws unless `built` may be adopted by `engine`: it must hold the same current records,
 * checked by their number only (O(1); see Engine.adopt).
 */
function checkAdoptable(engine: Engine, built: unknown): void {
  if (!(built instanceof Engine)) invalidRequest('built', built, 'an engine (createEngine, readSnapshot, createEngineFromFile)');
  if (built.size !== engine.size) {
    throw new VenueSearchError(
      'invalid_request',
      `adopt: the engine to adopt holds ${built.size} venues, this engine ${engine.size}; it must hold exactly this engine's current records (apply the changes made since its records were read to it first)`,
      { param: 'built.size', value: built.size },
    );
  }
}

/** The places learnt from a store's addresses, read without building its records (LearntPlaces.fromAddresses). */
function learntFromStore(store: VenueStore): LearntPlaces {
  const picked = new PickedFields(['formattedAddress']);
  const addressOf = (i: number): string | undefined => {
    store.pick(i, picked);
    return picked.values[0] as string | undefined;
  };
  return LearntPlaces.fromAddresses(store.size, (i) => store.lat[i]!, (i) => store.lon[i]!, addressOf);
}

export function createEngine(venues: readonly VenueRecord[], options: EngineOptions = {}): Engine {
  return new Engine(venues, checkEngineOptions(options));
}

const SEARCH_CALL_OPTIONS = ['now', 'limit', 'offset'] as const;
const AT_INSTANT_OPTIONS = ['now'] as const;
const ENGINE_OPTIONS = ['validate', 'places', 'recordCacheSize'] as const;
const WARM_OPTIONS = ['forChanges', 'gazetteer'] as const;

/** Whether find's params (unchecked) name a place (`location`). */
function namesPlace(params: FindParams): boolean {
  return typeof params === 'object' && params !== null && params.location !== undefined;
}

/** A call's `now` (checked: see src/call-options.ts), else the clock. */
function nowOf(options: AtInstant | undefined, place?: NamePlace): number {
  return (checkCallOptions(options, AT_INSTANT_OPTIONS, 'options', place) as AtInstant).now ?? Date.now();
}

/** createEngine's options, checked at the boundary (the keys; `validate` and `places` by type; `recordCacheSize`'s range). */
export function checkEngineOptions(options: EngineOptions | undefined): EngineOptions {
  const checked = checkCallOptions(options, ENGINE_OPTIONS) as EngineOptions;
  checkRecordCacheSize(checked.recordCacheSize);
  if (checked.validate !== undefined && typeof checked.validate !== 'boolean') invalidRequest('options.validate', checked.validate, 'true or false');
  const { places } = checked;
  if (places !== undefined && places !== null && typeof places !== 'function') {
    checkPlaceResolver(places, 'options.places', 'a PlaceResolver, a function returning one, or null');
  }
  return checked;
}
