import { toEstablishment } from '../details/establishment-record.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { BulkScorer } from './bulk-scorer.js';
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
import { GroupSearch } from './group-search.js';
import { OpeningStates } from './opening-states.js';
import { Ranking } from './ranking.js';
import { routeHalfwayPoint } from './route-center.js';
import { SearchVocabulary } from './search-vocabulary.js';
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
  private readonly scorer: BulkScorer;
  private readonly group: GroupSearch;
  private readonly occupied: OccupiedCells;

  constructor(store: VenueStore, spatial: SpatialIndex, options: SearchServiceOptions) {
    this.store = store;
    this.spatial = spatial;
    this.words = new SearchVocabulary(store);
    this.opening = new OpeningStates(store, options);
    this.ranking = new Ranking((i) => store.id(i));
    this.filter = new ColumnFilter(store.caters, store.chain);
    this.scorer = new BulkScorer(store);
    this.group = new GroupSearch(store, spatial.groupWalker(), this.opening);
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
    const group = this.group;
    group.begin(valid, prefs, instant);
    const ranking = this.ranking;
    // Fair modes (MIN_MAX, MIN_TOTAL): the group walk; venues it only counted add to the total.
    let counted = 0;
    if (group.isFair) {
      counted = group.collect(ranking, offset + limit, filter);
    } else {
      if (area.route) this.spatial.withinCorridor(area.route, area.radius, hits, filter);
      else this.spatial.withinRadius(area.centerLat, area.centerLon, area.radius, hits, filter);
      ranking.clear();
      const n = hits.length;
      const { idx, dist, along } = hits;
      if (prefs.asked === 0) {
        ranking.setAll(n, idx, dist, along, 1);
      } else if (!group.isTimed && this.scorer.covers(prefs)) {
        // One opening instant for every venue (group.begin set it): the bulk scorer applies.
        this.scorer.scoreInto(prefs, hits, this.opening, ranking);
      } else {
        const opening = this.opening;
        const timed = group.isTimed;
        const lat = this.store.lat;
        const lon = this.store.lon;
        for (let k = 0; k < n; k++) {
          const i = idx[k]!;
          const source = timed ? group.openingFor(lat[i]!, lon[i]!, along[k]!, dist[k]!) : opening;
          const total = venueTotal(this.store, prefs, i, source);
          if (total >= 0) ranking.push(i, total, dist[k]!, along[k]!);
        }
      }
    }

    const page = ranking.page(offset, limit);
    const establishments: SearchEstablishment[] = new Array(page.length);
    for (let p = 0; p < page.length; p++) {
      establishments[p] = this.record(page[p]!, prefs, valid, area.route !== null);
    }
    const centre = group.isFair ? group.centre() : { lat: area.centerLat, lon: area.centerLon };
    const totalResults = ranking.length + counted;
    const response: SearchResponse = {
      centerPoint: { Lat: centre.lat, Lon: centre.lon },
      radius: area.radius,
      establishments,
      totalResults,
      limit,
      offset,
    };
    if (totalResults === 0 && area.route === null) {
      const need = group.smallestFeasible(filter, area.centerLat, area.centerLon);
      if (need !== undefined) response.smallestFeasibleMaxDistance = need;
    }
    if (totalResults === 0) {
      const hint = swappedCoordinatesHint(this.occupied, area.centerLat, area.centerLon);
      if (hint !== undefined) response.hint = hint;
    }
    return response;
  }

  /** The response record of ranking slot `slot`. */
  private record(slot: number, prefs: CompiledPreferences, valid: ValidBody, isPath: boolean): SearchEstablishment {
    const ranking = this.ranking;
    const i = ranking.venue[slot]!;
    const r = this.store.record(i);
    const parts = this.parts;
    const view = this.group.describe(i, ranking.along[slot]!, ranking.dist[slot]!);
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
    const travel: Record<string, TravelEstimate> = {};
    for (let k = 0; k < view.dist.length; k++) {
      travel[valid.travelKeys[k]!] = { distanceMeters: Math.round(view.dist[k]! * 10) / 10, durationMinutes: view.minutes[k]! };
    }
    const isOpen = this.group.isOpen(view.source, i);
    const out = toEstablishment(r, view.distanceMeters ?? ranking.dist[slot]!, isOpen) as SearchEstablishment;
    out.matchScore = matchScore;
    if (isPath) out.alongRouteMeters = ranking.along[slot]!;
    out.travel = travel;
    out.relaxed = relaxedFields(prefs, parts);
    if (!isPath) out.group = view.group;
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
