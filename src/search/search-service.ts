import { searchEstablishmentOf } from '../details/establishment-record.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { BulkScorer, type BulkScorerBits } from './bulk-scorer.js';
import { weightedMidpoint } from '../geo/midpoint.js';
import { PreparedRoute } from '../geo/polyline.js';
import type { HoursTable, ZoneTable } from '../hours/index.js';
import type {
  MatchScore,
  SearchHint,
  SearchEstablishment,
  SearchResponse,
  SearchVocabulary as SearchVocabularyJson,
  TravelEstimate,
} from '../schema/search.js';
import { ColumnFilter } from '../spatial/column-filter.js';
import { HitBuffer } from '../spatial/hit-buffer.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import { Tombstones } from '../spatial/tombstones.js';
import { EstablishmentFields } from '../store/establishment-fields.js';
import type { VenueStore } from '../store/venue-store.js';
import {
  compilePreferences,
  evaluateVenue,
  hardColumnFilter,
  hardOnlyByColumns,
  PART_CATERS,
  PART_CHAIN,
  PART_COUNT,
  PART_ESTABLISHMENT,
  PART_GENRE,
  PART_OPENING,
  PART_VIBES,
  relaxedFields,
  venueTotal,
  type CompiledPreferences,
} from './match.js';
import { GroupSearch } from './group-search.js';
import { NearestFirstRank } from './nearest-first-rank.js';
import { ThresholdRank } from './threshold-rank.js';
import { OpeningStates } from './opening-states.js';
import { Ranking } from './ranking.js';
import { travelObject } from './travel-object.js';
import { routeHalfwayPoint } from './route-center.js';
import { SearchVocabulary } from './search-vocabulary.js';
import type { WorstOfBest } from '../spatial/worst-of-best.js';
import { OccupiedCells, swappedCoordinatesHint } from './swapped-hint.js';
import { validatePage, validateSearchBody, type ValidBody } from './validate-request.js';

export interface SearchOptions {
  /** Page size, 1..100 (default 20). */
  readonly limit?: number;
  /** Matches skipped, 0..MAX_OFFSET (default 0). */
  readonly offset?: number;
  /** The current instant, ms since the epoch (UTC): the engine never reads the clock. */
  readonly now: number;
}

export interface SearchServiceOptions {
  /** Opening hours / time zones already built by the engine; built from the store otherwise. */
  readonly hours?: HoursTable;
  readonly zones?: ZoneTable;
  /** Derived columns a search over the same store computed elsewhere ({@link MultiLocationSearch.prepared}). */
  readonly prepared?: PreparedSearchColumns;
}

/**
 * The search's columns derived from a store's columns, that take tens of milliseconds at 1M
 * venues to compute: built where the store was built (a compaction worker) and handed over
 * with its typed arrays (transferred, not copied), so that the thread that swaps the new
 * base in does not compute them between two queries.
 */
export interface PreparedSearchColumns extends BulkScorerBits {
  readonly occupiedCells: Uint8Array;
}

export interface SearchService {
  /** POINT or PATH search (interface 4.1, docs/search.md). Throws VenueSearchError on bad input. */
  search(body: unknown, options: SearchOptions): SearchResponse;
  /** The accepted preference values. */
  vocabulary(): SearchVocabularyJson;
}

export function createSearchService(
  store: VenueStore,
  spatial: SpatialIndex,
  options: SearchServiceOptions = {},
): MultiLocationSearch {
  return new MultiLocationSearch(store, spatial, options);
}

/** A search request checked once, whatever store it is run on. */
export interface SearchRequest {
  readonly valid: ValidBody;
  readonly limit: number;
  readonly offset: number;
  readonly area: SearchArea;
  /** The instant opening states are computed for (atTime, else now), UTC ms. */
  readonly instant: number;
}

/** The outcome of {@link MultiLocationSearch.rank}. */
export interface RankedMatches {
  /** Matches in all (totalResults). */
  readonly count: number;
  /** Ranking slots of the best k, in order. */
  readonly slots: Uint32Array;
  readonly prefs: CompiledPreferences;
  readonly ranking: Ranking;
  /** The venue id of a slot. */
  readonly idOf: (slot: number) => string;
  /** Fair modes: the people's fair centre (MIN_MAX / MIN_TOTAL), else undefined. */
  readonly centre: { readonly lat: number; readonly lon: number } | undefined;
  /** When nothing matched (POINT): the smallest maxDistance at which a venue would (docs/search.md). */
  readonly smallestFeasibleMaxDistance: number | undefined;
  /** When nothing matched: the lat/lon-swapped hint of this store's data, if any. */
  readonly hint: SearchHint | undefined;
}

/** What an answer says beside its page: from one store's {@link RankedMatches}, or several merged (live data). */
export interface SearchAnswerExtras {
  readonly centre: { readonly lat: number; readonly lon: number } | undefined;
  readonly smallestFeasibleMaxDistance: number | undefined;
  readonly hint: SearchHint | undefined;
}

/** Validates a search body and page; throws VenueSearchError naming the field. */
export function checkSearchRequest(body: unknown, options: SearchOptions): SearchRequest {
  const valid = validateSearchBody(body);
  const { limit, offset } = validatePage(options);
  const now = options.now;
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new VenueSearchError('invalid_request', `now must be a finite time in ms since the epoch; got ${describeValue(now)}`, {
      param: 'now',
      value: now,
    });
  }
  return { valid, limit, offset, area: resolveArea(valid), instant: valid.atTimeMs ?? now };
}

/** The response around a page of establishments. */
export function searchResponse(request: SearchRequest, establishments: SearchEstablishment[], totalResults: number, extras: SearchAnswerExtras): SearchResponse {
  const centre = extras.centre ?? { lat: request.area.centerLat, lon: request.area.centerLon };
  const response: SearchResponse = {
    centerPoint: { Lat: centre.lat, Lon: centre.lon },
    radius: request.area.radius,
    establishments,
    totalResults,
    limit: request.limit,
    offset: request.offset,
  };
  if (totalResults === 0 && extras.smallestFeasibleMaxDistance !== undefined) response.smallestFeasibleMaxDistance = extras.smallestFeasibleMaxDistance;
  if (totalResults === 0 && extras.hint !== undefined) response.hint = extras.hint;
  return response;
}

/** Removes the hits whose venue is hidden (order kept). */
function dropHidden(hits: HitBuffer, hidden: Uint8Array): void {
  const { idx, dist, along } = hits;
  const n = hits.length;
  let w = 0;
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    if (hidden[i] !== 0) continue;
    idx[w] = i;
    dist[w] = dist[k]!;
    along[w] = along[k]!;
    w++;
  }
  hits.length = w;
}

/** Where and how far to look, resolved from the body. */
interface SearchArea {
  readonly centerLat: number;
  readonly centerLon: number;
  readonly radius: number;
  /** Set for a PATH of two or more locations. */
  readonly route: PreparedRoute | null;
}

/**
 * The search. Per query: one spatial query into a reused HitBuffer (dropping, before they
 * are measured, the venues that fail a non-compromise caters or chain preference: see
 * hardColumnFilter); one pass over the candidates evaluating preferences into the reused Ranking's typed arrays (non-compromise
 * failures dropped); a top-K selection for `offset + limit`; records built for the page only.
 * Not re-entrant (scratch is reused), which a synchronous engine never needs.
 */
export class MultiLocationSearch implements SearchService {
  private readonly store: VenueStore;
  private readonly spatial: SpatialIndex;
  private words: SearchVocabulary;
  private hidden: Uint8Array | null = null;
  /** The hidden venues counted by tree position (see {@link hide}), or null. */
  private tombstones: Tombstones | null = null;
  private readonly opening: OpeningStates;
  private readonly hits = new HitBuffer();
  private readonly ranking: Ranking;
  private readonly parts = new Float64Array(PART_COUNT);
  /** A record's travel estimates, per location, while its `travel` object is built: [0, count) are the last record's. */
  private readonly estimates: TravelEstimate[] = [];
  /** The page's venue values, one venue at a time (the records are never built). */
  private readonly fields = new EstablishmentFields();
  /**
   * What {@link touchRecord} read, added up: kept only so that its reads are not optimised
   * away. A double from the start (not 0: a field first holding a small integer changes its
   * object's map at its first fraction), and not NaN (NaN + x is NaN whatever x, so a
   * compiler may drop the reads).
   */
  private touched = 0.5;
  private readonly filter: ColumnFilter;
  private readonly scorer: BulkScorer;
  private readonly group: GroupSearch;
  private readonly nearestFirst: NearestFirstRank;
  private readonly byThreshold: ThresholdRank;
  private readonly occupied: OccupiedCells;

  constructor(store: VenueStore, spatial: SpatialIndex, options: SearchServiceOptions) {
    this.store = store;
    this.spatial = spatial;
    this.words = new SearchVocabulary(store);
    this.opening = new OpeningStates(store, options);
    this.ranking = new Ranking((i) => store.id(i));
    this.filter = new ColumnFilter(store.caters, store.chain);
    this.scorer = new BulkScorer(store, options.prepared);
    this.group = new GroupSearch(store, spatial.groupWalker(), this.opening);
    const walker = spatial.radiusWalker();
    this.nearestFirst = new NearestFirstRank(walker, this.scorer);
    this.byThreshold = new ThresholdRank(walker, this.scorer);
    this.occupied = new OccupiedCells(store.lat, store.lon, store.size, options.prepared?.occupiedCells);
  }

  /** The derived columns, for a search over another copy of this store (read, not copied). */
  prepared(): PreparedSearchColumns {
    return { ...this.scorer.bits, occupiedCells: this.occupied.cells };
  }

  vocabulary(): SearchVocabularyJson {
    return this.words.toJSON();
  }

  search(body: unknown, options: SearchOptions): SearchResponse {
    const request = checkSearchRequest(body, options);
    const { offset, limit } = request;
    const ranked = this.rank(request, offset + limit);
    const page = ranked.slots.subarray(Math.min(offset, ranked.slots.length));
    const establishments: SearchEstablishment[] = new Array(page.length);
    for (let p = 0; p < page.length; p++) this.touchRecord(page[p]!);
    for (let p = 0; p < page.length; p++) establishments[p] = this.establishment(page[p]!, ranked.prefs, request);
    return searchResponse(request, establishments, ranked.count, ranked);
  }

  /**
   * Replaces the vocabulary the preferences are compiled against (live data: the words of
   * the current record set, see src/live), keeping this store's codes.
   */
  useVocabulary(words: SearchVocabulary): void {
    this.words = words;
  }

  /**
   * Venues to leave out of every result (live data: the replaced and removed ones), or null:
   * tombstones of this store's spatial index (read, not copied; then the nearest-first POINT
   * walk still counts whole subtrees), or bare bytes, one per dense index (non-zero: hidden;
   * then every venue within the radius is measured and ranked).
   */
  hide(hidden: Tombstones | Uint8Array | null): void {
    this.tombstones = hidden instanceof Tombstones ? hidden : null;
    this.hidden = hidden instanceof Tombstones ? hidden.bytes : hidden;
  }

  /**
   * The matches of a checked request: their count, and the slots of the best `k` in the
   * contract's order (valid until the next rank call or establishment of another request).
   * Exposed for the live-data merge, which ranks several stores with one request
   * (src/live/live-changes.ts). `emptyExtras` false: leave smallestFeasibleMaxDistance and
   * hint undefined even when nothing matched (the merge asks {@link emptyAnswerExtras} only
   * when no store matched: the nearest-venue walk is the costliest part of an empty rank).
   * `shared`: the merge's bound over the stores ranked before (NearestFirstRank.collect),
   * or null.
   */
  rank(request: SearchRequest, k: number, emptyExtras = true, shared: WorstOfBest | null = null): RankedMatches {
    const { valid, area } = request;
    const prefs = compilePreferences(valid.body.preferences, this.words);
    const hits = this.hits;
    const filter = hardColumnFilter(prefs, this.filter);
    const group = this.group;
    group.begin(valid, prefs, request.instant);
    const ranking = this.ranking;
    let counted = 0;
    // One centre, every venue's total from the columns at one instant, nothing hidden: only
    // the matches that can reach the page are ranked, the others counted (-1 when the local
    // frame does not hold). Nothing asked: the nearest, found nearest-first
    // (nearest-first-rank.ts); preferences: the venues whose total can reach the page's,
    // found by bounds of their totals (threshold-rank.ts). With hidden venues (live data),
    // only with tombstones counted by tree position and without preferences: every match
    // then has the best total, so the merged page's bound (`shared`) stops each side's walk
    // within a few nodes; with preferences few matches reach the best total, and one pass
    // over the circle and the bulk scorer measured faster per side (bench/diag/live-sides.ts).
    const nearestFirst =
      !group.isFair &&
      area.route === null &&
      (this.hidden === null || (this.tombstones !== null && prefs.asked === 0)) &&
      (prefs.asked === 0 || (!group.isTimed && this.scorer.covers(prefs) && hardOnlyByColumns(prefs, filter)));
    // A PATH whose every match has the best total: nothing asked, or only non-compromise
    // parts the walk's column filter decides (caters, chain), each then met in full.
    const nearestCorridor = area.route !== null && !group.isFair && (prefs.asked === 0 || (prefs.asked === prefs.hard && hardOnlyByColumns(prefs, filter)));
    if (nearestFirst) {
      // Preferences never reach here with hidden venues (above), so byThreshold needs no tombstones.
      counted =
        prefs.asked === 0
          ? this.nearestFirst.collect(prefs, this.opening, area.centerLat, area.centerLon, area.radius, filter, k, hits, ranking, this.tombstones, shared)
          : this.byThreshold.collect(prefs, this.opening, area.centerLat, area.centerLon, area.radius, filter, k, ranking);
    }
    if (group.isFair) {
      // Fair modes (MIN_MAX, MIN_TOTAL): the group walk, with hidden venues refused inside
      // it; venues it only counted add to the total.
      filter.hidden = this.hidden;
      counted = group.collect(ranking, k, filter);
    } else if (!nearestFirst || counted < 0) {
      counted = 0;
      if (nearestCorridor) {
        // Every match has the best total and ranks by distance, so only the k nearest to the
        // route are written out with exact distances, the others counted (hidden venues
        // refused in the walk; the hard columns filtered in it).
        filter.hidden = this.hidden;
        counted = this.spatial.countCorridorNearest(area.route, area.radius, k, hits, filter) - hits.length;
        filter.hidden = null;
      } else {
        if (area.route) this.spatial.withinCorridor(area.route, area.radius, hits, filter);
        else this.spatial.withinRadius(area.centerLat, area.centerLon, area.radius, hits, filter);
        if (this.hidden !== null) dropHidden(hits, this.hidden);
      }
      ranking.clear();
      const n = hits.length;
      const { idx, dist, along } = hits;
      if (prefs.asked === 0 || nearestCorridor) {
        ranking.setAll(n, idx, dist, along, 1);
      } else if (!group.isTimed && this.scorer.covers(prefs)) {
        // One opening instant for every venue (group.begin set it): the bulk scorer applies.
        this.scorer.scoreInto(prefs, hits, this.opening, ranking);
      } else {
        const opening = this.opening;
        const timed = group.isTimed;
        const lat = this.store.lat;
        const lon = this.store.lon;
        for (let j = 0; j < n; j++) {
          const i = idx[j]!;
          const source = timed ? group.openingFor(lat[i]!, lon[i]!, along[j]!, dist[j]!) : opening;
          const total = venueTotal(this.store, prefs, i, source);
          if (total >= 0) ranking.push(i, total, dist[j]!, along[j]!);
        }
      }
    }
    const count = ranking.length + counted;
    let smallestFeasibleMaxDistance: number | undefined;
    let hint: SearchHint | undefined;
    if (count === 0 && emptyExtras) {
      filter.hidden = this.hidden;
      if (area.route === null) smallestFeasibleMaxDistance = group.smallestFeasible(filter, area.centerLat, area.centerLon);
      hint = swappedCoordinatesHint(this.occupied, area.centerLat, area.centerLon);
    }
    filter.hidden = null;
    return {
      count,
      slots: ranking.page(0, k),
      prefs,
      ranking,
      idOf: (slot) => this.store.id(ranking.venue[slot]!),
      centre: group.isFair ? group.centre() : undefined,
      smallestFeasibleMaxDistance,
      hint,
    };
  }

  /**
   * What an empty answer says, for this store (as {@link rank} gives it when nothing
   * matched): the smallest feasible maxDistance (POINT) and the swapped-coordinates hint.
   */
  emptyAnswerExtras(request: SearchRequest): Pick<RankedMatches, 'smallestFeasibleMaxDistance' | 'hint'> {
    const { valid, area } = request;
    const prefs = compilePreferences(valid.body.preferences, this.words);
    const filter = hardColumnFilter(prefs, this.filter);
    this.group.begin(valid, prefs, request.instant);
    filter.hidden = this.hidden;
    const smallestFeasibleMaxDistance = area.route === null ? this.group.smallestFeasible(filter, area.centerLat, area.centerLon) : undefined;
    filter.hidden = null;
    return { smallestFeasibleMaxDistance, hint: swappedCoordinatesHint(this.occupied, area.centerLat, area.centerLon) };
  }

  /**
   * Reads ahead what building the response record of ranking slot `slot` first waits on:
   * the venue's compact bytes (RecordSource.touch) and its latitude. Called for each slot of
   * a page before any of its records is built, so that the page's cache misses (its records
   * lie at random places in tens of MB) overlap, instead of stalling each record in turn.
   */
  touchRecord(slot: number): void {
    const i = this.ranking.venue[slot]!;
    this.touched += this.store.source.touch(i) + this.store.lat[i]!;
  }

  /** The response record of ranking slot `slot` of the last {@link rank}. */
  establishment(slot: number, prefs: CompiledPreferences, request: SearchRequest): SearchEstablishment {
    const valid = request.valid;
    const isPath = request.area.route !== null;
    const ranking = this.ranking;
    const i = ranking.venue[slot]!;
    const parts = this.parts;
    const view = this.group.describe(i, ranking.along[slot]!, ranking.dist[slot]!, !isPath);
    evaluateVenue(this.store, prefs, i, view.source, parts);
    const matchScore: MatchScore = {
      genreMatch: parts[PART_GENRE]!,
      establishmentFiltersMatch: parts[PART_ESTABLISHMENT]!,
      catersFiltersMatch: parts[PART_CATERS]!,
      openingMatch: parts[PART_OPENING]!,
      vibesMatch: parts[PART_VIBES]!,
      chainMatch: parts[PART_CHAIN]!,
      total: ranking.total[slot]!,
    };
    const estimates = this.estimates;
    for (let k = 0; k < view.count; k++) estimates[k] = { distanceMeters: Math.round(view.dist[k]! * 10) / 10, durationMinutes: view.minutes[k]! };
    const travel = travelObject(valid.travelKeys, valid.travelIndexKeys, estimates, view.count);
    const isOpen = this.group.isOpen(view.source, i);
    this.store.source.fields(i, this.fields);
    return searchEstablishmentOf(
      this.fields,
      view.distanceMeters ?? ranking.dist[slot]!,
      isOpen,
      matchScore,
      isPath ? ranking.along[slot]! : undefined,
      travel,
      relaxedFields(prefs, parts),
      isPath ? undefined : view.group,
    );
  }
}

function resolveArea(valid: ValidBody): SearchArea {
  const { locations, mode } = valid.body;
  const radius = mode.maxDistance;
  if (mode.mode === 'PATH' && locations.length > 1) {
    // typed arrays, as the shape anchor's: the route's constructor sees one kind of argument
    // (arrays from map() are holey or packed, doubles or small integers, by their values)
    const lats = Float64Array.from(locations, (l) => l.lat);
    const lons = Float64Array.from(locations, (l) => l.lon);
    const route = new PreparedRoute(lats, lons);
    const c = routeHalfwayPoint(route);
    return { centerLat: c.lat, centerLon: c.lon, radius, route };
  }
  if (locations.length === 1) {
    const only = locations[0]!;
    return { centerLat: only.lat, centerLon: only.lon, radius, route: null };
  }
  const c = weightedMidpoint(locations);
  return { centerLat: c.lat, centerLon: c.lon, radius, route: null };
}
