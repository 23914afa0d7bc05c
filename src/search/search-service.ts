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
import { OccupiedCells, swappedCoordinatesHint } from './swapped-hint.js';
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
): SearchService {
  return new MultiLocationSearch(store, spatial, options);
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
class MultiLocationSearch implements SearchService {
  private readonly store: VenueStore;
  private readonly spatial: SpatialIndex;
  private readonly words: SearchVocabulary;
  private readonly opening: OpeningStates;
  private readonly hits = new HitBuffer();
  private readonly ranking: Ranking;
  private readonly parts = new Float64Array(PART_COUNT);
  private readonly filter: ColumnFilter;
  private readonly occupied: OccupiedCells;

  constructor(store: VenueStore, spatial: SpatialIndex, options: SearchServiceOptions) {
    this.store = store;
    this.spatial = spatial;
    this.words = new SearchVocabulary(store);
    this.opening = new OpeningStates(store, options);
    this.ranking = new Ranking((i) => store.id(i));
    this.filter = new ColumnFilter(store.caters, store.chain);
    this.occupied = new OccupiedCells(store.lat, store.lon, store.size);
  }

  vocabulary(): SearchVocabularyJson {
    return this.words.toJSON();
  }

  search(body: unknown, options: SearchOptions): SearchResponse {
    const valid = validateSearchBody(body);
    const { limit, offset } = validatePage(options);
    const now = options.now;
    if (typeof now !== 'number' || !Number.isFinite(now)) {
      throw new VenueSearchError('invalid_request', `now must be a finite time in ms since the epoch; got ${describeValue(now)}`, {
        param: 'now',
        value: now,
      });
    }
    const prefs = compilePreferences(valid.body.preferences, this.words);
    const area = resolveArea(valid);
    const instant = valid.atTimeMs ?? now;

    const hits = this.hits;
    const filter = hardColumnFilter(prefs, this.filter);
    if (area.route) this.spatial.withinCorridor(area.route, area.radius, hits, filter);
    else this.spatial.withinRadius(area.centerLat, area.centerLon, area.radius, hits, filter);

    const opening = this.opening.at(instant);
    const ranking = this.ranking;
    ranking.clear();
    const n = hits.length;
    const { idx, dist, along } = hits;
    if (prefs.asked === 0) {
      ranking.setAll(n, idx, dist, along, 1);
    } else {
      for (let k = 0; k < n; k++) {
        const i = idx[k]!;
        const total = venueTotal(this.store, prefs, i, opening);
        if (total >= 0) ranking.push(i, total, dist[k]!, along[k]!);
      }
    }

    const page = ranking.page(offset, limit);
    const establishments: SearchEstablishment[] = new Array(page.length);
    const from = page.length > 0 ? valid.body.locations.map((l) => new LocalFrame(l.lat, l.lon)) : [];
    for (let p = 0; p < page.length; p++) {
      establishments[p] = this.record(page[p]!, prefs, valid, from, area.route !== null);
    }
    const response: SearchResponse = {
      centerPoint: { Lat: area.centerLat, Lon: area.centerLon },
      radius: area.radius,
      establishments,
      totalResults: ranking.length,
      limit,
      offset,
    };
    if (ranking.length === 0) {
      const hint = swappedCoordinatesHint(this.occupied, area.centerLat, area.centerLon);
      if (hint !== undefined) response.hint = hint;
    }
    return response;
  }

  /** The response record of ranking slot `slot`; `from[k]`: the frame of input location k. */
  private record(slot: number, prefs: CompiledPreferences, valid: ValidBody, from: readonly LocalFrame[], isPath: boolean): SearchEstablishment {
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
