import { establishmentOf } from '../details/establishment-record.js';
import { isOpenWith } from '../details/open-now.js';
import { LocalFrame, localFrameHolds } from '../geo/distance.js';
import { createDefaultPlaceResolver } from '../places/default-resolver.js';
import { gazetteerCountriesFor } from '../places/gazetteer-countries.js';
import { checkResolvedPlace, checkSuggestions, type PlaceResolver, type ResolvedPlace, type VenueDensity } from '../places/place-resolver.js';
import { UnknownPlaceError } from '../places/unknown-place-error.js';
import type { FindEstablishment, FindHint, FindResponse } from '../schema/find.js';
import { isVenueSearchError } from '../errors.js';
import { placeInQueryHint } from './place-in-query.js';
import { HitBuffer } from '../spatial/hit-buffer.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import { EstablishmentFields, FieldSlot } from '../store/establishment-fields.js';
import { PickedFields } from '../store/picked-fields.js';
import type { VenueStore } from '../store/venue-store.js';
import { DensityGrid } from './density-grid.js';
import { checkFindParams, type CheckedFindParams, type FindParams } from './find-params.js';
import type { WeeklyHours } from '../schema/common.js';
import { NameIndex, type PreparedNameQuery } from './name-index.js';
import { PlaceVenues } from './place-venues.js';
import { MatchCollector } from './match-collector.js';
import { CellWindow, postingCells } from './posting-cells.js';
import { TopK } from './top-k.js';

/** Names offered when a `location` is unknown. */
const MAX_PLACE_SUGGESTIONS = 3;

export interface FindServiceOptions {
  /**
   * Resolves `location` names: a resolver, or a function making one, called lazily (at
   * the first find with a `location`, so the gazetteer is loaded only if used). Default:
   * the DefaultPlaceResolver over the store's venues. `null`: no place names (every
   * `location` is `unknown_place`).
   */
  readonly places?: PlaceResolver | (() => PlaceResolver) | null | undefined;
  /** The name index and density grid already built over this store (a snapshot's); default: built here. */
  readonly prebuilt?: FindStructures | undefined;
}

/** What a FindService builds over its store (saved in a snapshot, so a restart does not build it). */
export interface FindStructures {
  readonly names: NameIndex;
  readonly density: DensityGrid;
  /** The grid cell of each of `names`' postings (postingCells); derived from them when absent. */
  readonly cells?: Uint32Array | undefined;
}

/** Which candidates a find with a centre enumerated (exposed for tests and the bench). */
export type FindPlan = 'none' | 'names' | 'names-then-distance' | 'radius-then-names';

/**
 * Name search over a store (interface 4.2, contract "Find"). Built once per engine; each
 * call is synchronous and allocates little beyond the page it returns.
 *
 * When no name anywhere matches the query as typed, it is tried again widened
 * (NameIndex.prepare): a typed word that happens to start some name word ("lino" for
 * "Lino") may still be a typo of the name meant ("Red Lion"). A query that names venues
 * elsewhere, only not within the radius, is not widened: it was typed as meant.
 *
 * Order: with a centre, distance ascending then id; without, relevance (NameIndex.matchKey:
 * match quality, first-word bonus, shorter names first) descending, then dense index order (the
 * venue's dense index: relevance ties are common and an integer compare keeps them cheap).
 * With a centre, the cheaper of two plans is taken by estimated cardinality: enumerate the
 * rarest query word's postings and measure each distance, or enumerate the venues within
 * the radius (spatial index) and test each name; both give identical results.
 */
export class FindService {
  readonly names: NameIndex;
  /** The plan of the last find (diagnostics). */
  lastPlan: FindPlan = 'none';
  private readonly store: VenueStore;
  private readonly spatial: SpatialIndex;
  /** Venue counts on a coarse grid (plan choice, place disambiguation). */
  readonly density: DensityGrid;
  /** The density grid with exact counts from the spatial index: where this store's venues are, for the place resolver. */
  private readonly placeVenues: PlaceVenues;
  private readonly hits = new HitBuffer();
  private readonly top: TopK;
  /** Offers the name matches to `top` (see MatchCollector). */
  private readonly collector: MatchCollector;
  private placesSource: FindServiceOptions['places'];
  private places: PlaceResolver | null = null;
  private hidden: Uint8Array | null = null;
  private idRanks: Uint32Array | null = null;
  /** The grid cell of each name posting's venue (postingCells), built at the first find with a centre. */
  private cells: Uint32Array | null = null;
  private readonly window = new CellWindow();
  /** A result's values, one venue at a time, read from the stored bytes (no record decoded). */
  private readonly fields = new EstablishmentFields();
  /** A result's `timeZone` (not an establishment value, but its `isOpen` is in that zone). */
  private readonly zonePick = new PickedFields(['timeZone']);

  constructor(store: VenueStore, spatial: SpatialIndex, options: FindServiceOptions = {}) {
    this.store = store;
    this.spatial = spatial;
    if (options.prebuilt !== undefined) {
      if (options.prebuilt.names.size !== store.size) throw new RangeError(`find: a name index of ${options.prebuilt.names.size} venues for a store of ${store.size}`);
      this.names = options.prebuilt.names;
      this.density = options.prebuilt.density;
      const cells = options.prebuilt.cells;
      if (cells !== undefined && cells.length !== this.names.postVenue.length) throw new RangeError(`find: ${cells.length} posting cells for ${this.names.postVenue.length} postings`);
      this.cells = cells ?? null;
    } else {
      const names = new Array<string>(store.size);
      for (let i = 0; i < store.size; i++) names[i] = store.name(i);
      this.names = new NameIndex(names);
      this.density = new DensityGrid(store.lat, store.lon);
    }
    const indexed = [{ spatial, tombstones: null }];
    this.placeVenues = new PlaceVenues(this.density, () => indexed);
    this.top = new TopK((i) => store.id(i));
    this.collector = new MatchCollector(this.top);
    this.placesSource =
      options.places === undefined ? () => createDefaultPlaceResolver([...store.records], { countries: gazetteerCountriesFor(store.lat, store.lon) }) : options.places;
  }

  /** Bytes of the name index (typed arrays and dictionary; the density grid is a small Map of occupied cells). */
  get byteSize(): number {
    return this.names.byteSize;
  }

  /**
   * Resolves a place name with the configured resolver (or `resolver`: a live engine's
   * default resolver of another gazetteer, its current venues' own), telling it where the
   * venues are (`venues`: this store's, PlaceVenues over its grid and spatial index, or a
   * live engine's over its current records). Unknown: throws `unknown_place`
   * (UnknownPlaceError) naming it and offering the resolver's suggestions.
   */
  resolvePlace(name: string, venues: VenueDensity = this.placeVenues, resolver: PlaceResolver | null = this.resolver()): ResolvedPlace {
    const place = resolver?.resolve(name, venues) ?? null;
    if (place === null) {
      const suggested = resolver?.suggest?.(name, MAX_PLACE_SUGGESTIONS, venues);
      throw new UnknownPlaceError(name, suggested === undefined ? [] : checkSuggestions(suggested, name, MAX_PLACE_SUGGESTIONS));
    }
    return checkResolvedPlace(place, name);
  }

  /** The configured place resolver, made at the first call (null: place names disabled). */
  private resolver(): PlaceResolver | null {
    if (this.places === null && this.placesSource !== undefined && this.placesSource !== null) {
      this.places = typeof this.placesSource === 'function' ? this.placesSource() : this.placesSource;
    }
    return this.places;
  }

  /** GET /v1/find. `nowMs` (UTC ms) is the instant `isOpen` is computed for. */
  find(params: FindParams, nowMs: number): FindResponse {
    const p = checkFindParams(params);
    const place = p.location !== null ? this.resolvePlace(p.location) : null;
    const centre = findCentre(p, place);
    let found = this.collect(p.query, centre, p.maxDistanceMeters, p.offset + p.limit);
    if (found.total === 0 && this.names.widens(p.query) && (centre === null || !this.matchesAnywhere(p.query))) {
      found = this.collect(p.query, centre, p.maxDistanceMeters, p.offset + p.limit, undefined, true);
    }
    const establishments: FindEstablishment[] = [];
    for (let j = p.offset; j < found.venues.length; j++) establishments.push(this.establishment(found.venues[j]!, centre, found.costs[j]!, nowMs));
    const hint =
      found.total === 0 && centre === null
        ? placeInQueryHint(
            p.query,
            (name) => resolves(() => this.resolvePlace(name)),
            (q) => this.matchesAnywhere(q),
          )
        : undefined;
    return findResponse(p, centre, place, establishments, found.total, hint);
  }

  /**
   * The result record of venue i (dense index) at `nowMs` (UTC ms, for `isOpen`), read from
   * its stored values without decoding its record: `cost` is its distance (metres) when the
   * find has a centre; without one the record has no `distanceMeters` key.
   */
  establishment(i: number, centre: object | null, cost: number, nowMs: number): FindEstablishment {
    const f = this.fields;
    this.store.source.fields(i, f);
    const hours = f.values[FieldSlot.REGULAR_OPENING_HOURS] as WeeklyHours | undefined;
    let timeZone: string | undefined;
    // Read only for a venue with hours: isOpenWith uses the zone only then.
    if (hours !== undefined && hours.length > 0) {
      this.store.source.pick(i, this.zonePick);
      timeZone = this.zonePick.values[0] as string | undefined;
    }
    const isOpen = isOpenWith(hours, timeZone, f.lat, f.lon, f.values[FieldSlot.ID] as string, nowMs);
    const e = establishmentOf(f, centre === null ? 0 : cost, isOpen);
    if (centre !== null) return e;
    const { distanceMeters: _omitted, ...rest } = e;
    return rest;
  }

  /**
   * Venues to leave out of every result (live data: the replaced and removed ones), one byte
   * per dense index (non-zero: hidden), or null. The array is read, not copied.
   */
  hide(hidden: Uint8Array | null): void {
    this.hidden = hidden;
  }

  /** Whether a venue not hidden, anywhere, matches `query` as typed (no radius; see NameIndex.anyMatch). */
  matchesAnywhere(query: string, prefixKnown?: (word: string) => boolean): boolean {
    return this.names.anyMatch(this.names.prepare(query, prefixKnown), this.hidden);
  }

  /** Whether a venue not hidden has a name word starting with `word` (see NameIndex.prepare). */
  hasNamePrefix(word: string): boolean {
    return this.names.hasPrefix(word, this.hidden);
  }

  /**
   * The matches of `query` (within `radius` metres of `centre`, if given): their count and
   * the best `k` as dense indices with their costs (distance with a centre, minus the
   * relevance key without), in order. Exposed for the live-data merge (src/live), which
   * passes `prefixKnown` (see NameIndex.prepare). `widened`: the query's words of 4+ letters
   * also match within their typo budget (find's second try when nothing matched as typed).
   */
  collect(
    query: string,
    centre: { lat: number; lon: number } | null,
    radius: number,
    k: number,
    prefixKnown?: (word: string) => boolean,
    widened = false,
  ): FoundVenues {
    const q = this.names.prepare(query, prefixKnown, widened);
    this.top.reset(k, centre === null ? this.idRank() : null);
    const total = centre === null ? this.collectByRelevance(q) : this.collectByDistance(q, centre.lat, centre.lon, radius);
    const { venues, costs } = this.top.sorted();
    return { venues, costs, total };
  }

  /** Builds now what a find would build at its first call (the id ranks, the posting cells). */
  warm(): this {
    this.idRank();
    this.postingCells();
    return this;
  }

  /** The grid cell of each name posting (built now if not yet: for a snapshot). */
  postingCells(): Uint32Array {
    return (this.cells ??= postingCells(this.names.postVenue, this.store.lat, this.store.lon));
  }

  /** Each venue's rank in id order (relevance ties are broken by id), built at first use. */
  private idRank(): Uint32Array {
    if (this.idRanks === null) {
      const order = this.store.idsInOrder();
      const rank = new Uint32Array(order.length);
      for (let j = 0; j < order.length; j++) rank[order[j]!] = j;
      this.idRanks = rank;
    }
    return this.idRanks;
  }

  private collectByRelevance(q: PreparedNameQuery): number {
    this.lastPlan = 'names';
    const collector = this.collector.byRelevance(this.hidden);
    this.names.forEachMatch(q, collector);
    return collector.total;
  }

  private collectByDistance(q: PreparedNameQuery, lat: number, lon: number, radius: number): number {
    if (q.rarest < 0) {
      this.lastPlan = 'none';
      return 0;
    }
    const hidden = this.hidden;
    if (this.density.estimateWithin(lat, lon, radius) < q.estimatedCandidates) {
      this.lastPlan = 'radius-then-names';
      const top = this.top;
      let total = 0;
      const hits = this.hits;
      const n = this.spatial.withinRadius(lat, lon, radius, hits);
      for (let h = 0; h < n; h++) {
        const i = hits.idx[h]!;
        if (hidden !== null && hidden[i] !== 0) continue;
        if (this.names.matchKey(i, q) > 0) {
          total++;
          top.offer(i, hits.dist[h]!);
        }
      }
      return total;
    }
    this.lastPlan = 'names-then-distance';
    // Same distance model as SpatialIndex.withinRadius, so both plans agree at the boundary.
    const collector = this.collector.withinRadius(hidden, lat, lon, radius, localFrameHolds(lat, radius), new LocalFrame(lat, lon), this.store.lat, this.store.lon);
    // Postings whose venue's cell lies outside the circle's box are skipped unread.
    this.names.forEachMatch(q, collector, this.postingCells(), this.window.around(lat, lon, radius));
    return collector.total;
  }
}

/** The outcome of {@link FindService.collect}. */
export interface FoundVenues {
  readonly venues: number[];
  readonly costs: number[];
  readonly total: number;
}

/** The centre of a find: lat/lon, else the resolved place, else none. */
export function findCentre(p: CheckedFindParams, place: ResolvedPlace | null): { lat: number; lon: number } | null {
  return p.centre ?? (place !== null ? { lat: place.lat, lon: place.lon } : null);
}

/**
 * The response around a page of results. One object literal with every key, the ones that
 * do not apply `undefined` (omitted from JSON, as the schema's optional keys allow), rather
 * than keys added when present: a literal's hidden class is held by its boilerplate, while
 * classes reached by adding keys are held only weakly by V8, die at a full collection when
 * no response is alive, and leave the optimised find to deoptimise on cleared feedback
 * (walk-through 33, the deopt check; the same as searchEstablishmentOf).
 */
export function findResponse(
  p: CheckedFindParams,
  centre: { lat: number; lon: number } | null,
  place: ResolvedPlace | null,
  establishments: FindEstablishment[],
  total: number,
  hint: FindHint | undefined,
): FindResponse {
  return {
    establishments,
    searchQuery: p.query,
    totalFound: total,
    limit: p.limit,
    offset: p.offset,
    searchLocation: centre !== null ? { Lat: centre.lat, Lon: centre.lon } : undefined,
    maxDistanceMeters: centre !== null ? p.maxDistanceMeters : undefined,
    resolvedPlace: place !== null ? resolvedPlaceOf(place) : undefined,
    hint,
  } as FindResponse;
}

/** Whether `resolve` gives a place: false when it refuses the name (unknown_place, or any other bad-input error). */
export function resolves(resolve: () => unknown): boolean {
  try {
    resolve();
    return true;
  } catch (err) {
    if (isVenueSearchError(err)) return false;
    throw err;
  }
}

/** A resolver's place as find answers it: only `approximate: true`, `area` and a non-empty `otherPlaces` are passed on. */
function resolvedPlaceOf(place: ResolvedPlace): NonNullable<FindResponse['resolvedPlace']> {
  return {
    name: place.name,
    kind: String(place.kind),
    Lat: place.lat,
    Lon: place.lon,
    ...(place.approximate === true && { approximate: true }),
    ...(place.area !== undefined && { area: place.area }),
    ...(place.otherPlaces !== undefined && place.otherPlaces.length > 0 && { otherPlaces: [...place.otherPlaces] }),
  };
}

export function createFindService(store: VenueStore, spatial: SpatialIndex, options: FindServiceOptions = {}): FindService {
  return new FindService(store, spatial, options);
}
