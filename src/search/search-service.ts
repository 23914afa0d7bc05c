import { toEstablishment } from '../details/establishment-record.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { LocalFrame } from '../geo/distance.js';
import { weightedMidpoint } from '../geo/midpoint.js';
import { PreparedRoute } from '../geo/polyline.js';
import type { HoursTable, ZoneTable } from '../hours/index.js';
import type {
  MatchScore,
  SearchEstablishment,
  SearchResponse,
  SearchVocabulary as SearchVocabularyJson,
  TravelEstimate,
} from '../schema/search.js';
import { ColumnFilter } from '../spatial/column-filter.js';
import { HitBuffer } from '../spatial/hit-buffer.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import type { VenueStore } from '../store/venue-store.js';
import {
  compilePreferences,
  evaluateVenue,
  hardColumnFilter,
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
import { OpeningStates } from './opening-states.js';
import { Ranking } from './ranking.js';
import { routeHalfwayPoint } from './route-center.js';
import { SearchVocabulary } from './search-vocabulary.js';
import { travelDistance, travelMinutes } from './travel.js';
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

/** Frames of the request's input locations, for travel estimates (none for an empty page). */
export function travelFrames(request: SearchRequest, pageLength: number): LocalFrame[] {
  return pageLength > 0 ? request.valid.body.locations.map((l) => new LocalFrame(l.lat, l.lon)) : [];
}

/** The response around a page of establishments. */
export function searchResponse(request: SearchRequest, establishments: SearchEstablishment[], totalResults: number): SearchResponse {
  return {
    centerPoint: { Lat: request.area.centerLat, Lon: request.area.centerLon },
    radius: request.area.radius,
    establishments,
    totalResults,
    limit: request.limit,
    offset: request.offset,
  };
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
  private readonly opening: OpeningStates;
  private readonly hits = new HitBuffer();
  private readonly ranking: Ranking;
  private readonly parts = new Float64Array(PART_COUNT);
  private readonly filter: ColumnFilter;

  constructor(store: VenueStore, spatial: SpatialIndex, options: SearchServiceOptions) {
    this.store = store;
    this.spatial = spatial;
    this.words = new SearchVocabulary(store);
    this.opening = new OpeningStates(store, options);
    this.ranking = new Ranking((i) => store.id(i));
    this.filter = new ColumnFilter(store.caters, store.chain);
  }

  vocabulary(): SearchVocabularyJson {
    return this.words.toJSON();
  }

  search(body: unknown, options: SearchOptions): SearchResponse {
    const request = checkSearchRequest(body, options);
    const { offset, limit } = request;
    const ranked = this.rank(request, offset + limit);
    const page = ranked.slots.subarray(Math.min(offset, ranked.slots.length));
    const from = travelFrames(request, page.length);
    const establishments: SearchEstablishment[] = new Array(page.length);
    for (let p = 0; p < page.length; p++) establishments[p] = this.establishment(page[p]!, ranked.prefs, request, from);
    return searchResponse(request, establishments, ranked.count);
  }

  /**
   * Replaces the vocabulary the preferences are compiled against (live data: the words of
   * the current record set, see src/live), keeping this store's codes.
   */
  useVocabulary(words: SearchVocabulary): void {
    this.words = words;
  }

  /**
   * Venues to leave out of every result (live data: the replaced and removed ones), one byte
   * per dense index (non-zero: hidden), or null. The array is read, not copied.
   */
  hide(hidden: Uint8Array | null): void {
    this.hidden = hidden;
  }

  /**
   * The matches of a checked request: their count, and the slots of the best `k` in the
   * contract's order (valid until the next rank call). Exposed for the live-data merge,
   * which ranks two stores with one request (src/live/live-search.ts).
   */
  rank(request: SearchRequest, k: number): RankedMatches {
    const { valid, area } = request;
    const prefs = compilePreferences(valid.body.preferences, this.words);
    const hits = this.hits;
    const filter = hardColumnFilter(prefs, this.filter);
    if (area.route) this.spatial.withinCorridor(area.route, area.radius, hits, filter);
    else this.spatial.withinRadius(area.centerLat, area.centerLon, area.radius, hits, filter);
    if (this.hidden !== null) dropHidden(hits, this.hidden);

    const opening = this.opening.at(request.instant);
    const ranking = this.ranking;
    ranking.clear();
    const n = hits.length;
    const { idx, dist, along } = hits;
    if (prefs.asked === 0) {
      ranking.setAll(n, idx, dist, along, 1);
    } else {
      for (let j = 0; j < n; j++) {
        const i = idx[j]!;
        const total = venueTotal(this.store, prefs, i, opening);
        if (total >= 0) ranking.push(i, total, dist[j]!, along[j]!);
      }
    }
    return { count: ranking.length, slots: ranking.page(0, k), prefs, ranking, idOf: (slot) => this.store.id(ranking.venue[slot]!) };
  }

  /**
   * The response record of ranking slot `slot` of the last {@link rank}; `from[k]`: the
   * frame of input location k.
   */
  establishment(slot: number, prefs: CompiledPreferences, request: SearchRequest, from: readonly LocalFrame[]): SearchEstablishment {
    const valid = request.valid;
    const isPath = request.area.route !== null;
    const ranking = this.ranking;
    const i = ranking.venue[slot]!;
    const r = this.store.record(i);
    const parts = this.parts;
    const state = this.opening.state(i);
    evaluateVenue(this.store, prefs, i, this.opening, parts);
    const matchScore: MatchScore = {
      genreMatch: parts[PART_GENRE]!,
      establishmentFiltersMatch: parts[PART_ESTABLISHMENT]!,
      catersFiltersMatch: parts[PART_CATERS]!,
      openingMatch: parts[PART_OPENING]!,
      vibesMatch: parts[PART_VIBES]!,
      chainMatch: parts[PART_CHAIN]!,
      total: ranking.total[slot]!,
    };
    const lat = this.store.lat[i]!;
    const lon = this.store.lon[i]!;
    const travel: Record<string, TravelEstimate> = {};
    for (let k = 0; k < from.length; k++) {
      const d = travelDistance(from[k]!, lat, lon);
      travel[valid.travelKeys[k]!] = { distanceMeters: Math.round(d * 10) / 10, durationMinutes: travelMinutes(d) };
    }
    const out = toEstablishment(r, ranking.dist[slot]!, state === 1) as SearchEstablishment;
    out.matchScore = matchScore;
    if (isPath) out.alongRouteMeters = ranking.along[slot]!;
    out.travel = travel;
    out.relaxed = relaxedFields(prefs, parts);
    return out;
  }
}

function resolveArea(valid: ValidBody): SearchArea {
  const { locations, mode } = valid.body;
  const radius = mode.maxDistance;
  if (mode.mode === 'PATH' && locations.length > 1) {
    const lats = locations.map((l) => l.lat);
    const lons = locations.map((l) => l.lon);
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
