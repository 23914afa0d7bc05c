import { LocalFrame } from '../geo/distance.js';
import { enclosingCircleCentre } from '../geo/enclosing-circle.js';
import { frameDistance } from '../geo/frame-distance.js';
import { geometricMedian } from '../geo/geometric-median.js';
import { MAX_POINT_DISTANCE_METERS, type GroupSummary, type TravelMode } from '../schema/search.js';
import type { ColumnFilter } from '../spatial/column-filter.js';
import { AGGREGATE_MAX, AGGREGATE_SUM, type GroupQuery, type GroupSink, type GroupWalker } from '../spatial/group-walk.js';
import type { VenueStore } from '../store/venue-store.js';
import { ArrivalStates } from './arrival-states.js';
import { venueTotal, type CompiledPreferences, type OpenStateSource } from './match.js';
import type { OpeningStates } from './opening-states.js';
import type { Ranking } from './ranking.js';
import { modeDurationMinutes, modeMinutes, travelCosts } from './travel-modes.js';
import type { ValidBody } from './validate-request.js';
import { WorstOfBest } from '../spatial/worst-of-best.js';

/**
 * The group side of a search (issue 15, docs/search.md "Fair meeting points" and "Open on
 * arrival"): the MIN_MAX / MIN_TOTAL ranking over the GroupWalker of src/spatial, the
 * opening state read at each venue's own arrival, the per-result group summary, and
 * smallestFeasibleMaxDistance. Per query: `begin`, then `collect` (fair modes) or
 * `openingFor` per candidate (CENTRE, PATH), `describe` per record of the page.
 * Not re-entrant (scratch is reused), like the search itself.
 */
export class GroupSearch implements GroupSink {
  private readonly store: VenueStore;
  private readonly walker: GroupWalker;
  private readonly opening: OpeningStates;
  private readonly arrivals: ArrivalStates;
  private readonly best = new WorstOfBest();
  private readonly view = new DescribedVenue();
  // ---- per query
  private valid!: ValidBody;
  private prefs!: CompiledPreferences;
  private query!: GroupQuery;
  private frames: LocalFrame[] = [];
  private modes: Array<TravelMode | undefined> = [];
  private weights: number[] = [];
  private instant = 0;
  private fair = false;
  private onArrival = false;
  /** Arrival or stay asked: opening states are read per venue, not at one instant. */
  private timed = false;
  private ranking: Ranking | null = null;
  /** Offered venues are only ranked by cost (nothing asked): the threshold may prune. */
  private costOnly = false;
  threshold = Number.POSITIVE_INFINITY;

  constructor(store: VenueStore, walker: GroupWalker, opening: OpeningStates) {
    this.store = store;
    this.walker = walker;
    this.opening = opening;
    this.arrivals = new ArrivalStates(opening);
  }

  /** Starts a query; `instant` is `atTime` or now (UTC ms): the departure with onArrival. */
  begin(valid: ValidBody, prefs: CompiledPreferences, instant: number): void {
    const { locations, mode } = valid.body;
    this.valid = valid;
    this.prefs = prefs;
    this.instant = instant;
    this.fair = mode.mode === 'POINT' && valid.fairness !== 'CENTRE';
    const oc = valid.body.preferences?.openingConditions;
    this.onArrival = oc?.onArrival === true;
    this.timed = this.onArrival || (oc?.stayMinutes ?? 0) > 0;
    if (this.timed) this.arrivals.begin(instant, oc?.stayMinutes ?? 0);
    else this.opening.at(instant);
    this.frames = locations.map((l) => new LocalFrame(l.lat, l.lon));
    this.modes = locations.map((l) => l.travelMode);
    this.weights = locations.map((l) => l.weight ?? 1);
    if (this.fair) {
      const costs = travelCosts(locations);
      this.query = {
        frames: this.frames,
        weight: costs.weight,
        start: costs.start,
        perMeter: costs.perMeter,
        quorum: valid.quorum,
        aggregate: valid.fairness === 'MIN_TOTAL' ? AGGREGATE_SUM : AGGREGATE_MAX,
        maxDistance: mode.maxDistance,
      };
    }
  }

  /** Whether opening states are read per venue (onArrival or stayMinutes): then ask openingFor. */
  get isTimed(): boolean {
    return this.timed;
  }

  /** Whether the query is MIN_MAX / MIN_TOTAL (POINT). */
  get isFair(): boolean {
    return this.fair;
  }

  /** The fair point of the people: smallest enclosing circle's centre (MIN_MAX) or weighted geometric median (MIN_TOTAL). */
  centre(): { lat: number; lon: number } {
    const locations = this.valid.body.locations;
    return this.valid.fairness === 'MIN_TOTAL' ? geometricMedian(locations) : enclosingCircleCentre(locations);
  }

  /**
   * Fair modes: fills `ranking` (cleared first) with the qualifying venues that can reach
   * ranks [0, best) (total, group cost); returns how many more qualify but were only
   * counted. totalResults = ranking.length + the return value.
   */
  collect(ranking: Ranking, best: number, filter: ColumnFilter | null): number {
    ranking.clear();
    this.ranking = ranking;
    this.costOnly = this.prefs.asked === 0;
    this.best.reset(this.costOnly ? best : 0);
    this.threshold = Number.POSITIVE_INFINITY;
    this.walker.walk(this.query, this, filter);
    this.ranking = null;
    // Ranked by cost alone: the venues offered before the threshold settled that cost more
    // than the final threshold (the best-th cost) cannot reach the page: counted, not sorted.
    const late = this.costOnly && this.threshold < Number.POSITIVE_INFINITY ? ranking.dropFartherThan(this.threshold) : 0;
    return this.walker.skipped + late;
  }

  /** GroupSink: a qualifying venue; the walker's scratch holds its group cost and describes its counted people. */
  offer(venue: number): void {
    const cost = this.walker.groupCost[0]!;
    if (this.costOnly) {
      this.ranking!.push(venue, 1, cost, 0);
      this.threshold = this.best.add(cost);
      return;
    }
    const total = venueTotal(this.store, this.prefs, venue, this.openingForFair());
    if (total >= 0) this.ranking!.push(venue, total, cost, 0);
  }

  /** GroupSink: whether the venue passes the hard preferences (for smallestFeasible). */
  passes(venue: number): boolean {
    const source = this.fair ? this.openingForFair() : this.openingFor(this.store.lat[venue]!, this.store.lon[venue]!, 0, 0);
    return venueTotal(this.store, this.prefs, venue, source) >= 0;
  }

  /**
   * smallestFeasibleMaxDistance of an empty POINT answer: the smallest maxDistance (metres,
   * rounded up) at which a venue passing the hard filters would qualify; undefined when
   * none would at a maxDistance a request may ask (50 km): the walk then stays within
   * 50 km of the people instead of reading every venue. CENTRE: the nearest such venue to
   * the centre.
   */
  smallestFeasible(filter: ColumnFilter | null, centreLat: number, centreLon: number): number | undefined {
    let q = this.query;
    if (!this.fair) {
      // one disc around the centre; cost = distance
      q = {
        frames: [new LocalFrame(centreLat, centreLon)],
        weight: Float64Array.of(1),
        start: Float64Array.of(0, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY),
        perMeter: Float64Array.of(1, 0, 0),
        quorum: 1,
        aggregate: AGGREGATE_MAX,
        maxDistance: Number.POSITIVE_INFINITY,
      };
    }
    const need = this.walker.smallestFeasible(q, this, filter, MAX_POINT_DISTANCE_METERS);
    return Number.isFinite(need) ? Math.ceil(need) : undefined;
  }

  /** Fair modes: the opening source of the venue the walker just measured. */
  private openingForFair(): OpenStateSource {
    if (!this.timed) return this.opening;
    if (!this.onArrival) return this.arrivals.arriving(this.instant);
    const w = this.walker;
    let last = 0;
    for (let p = 0; p < w.counted.length; p++) if (w.counted[p] === 1 && w.minutes[p]! > last) last = w.minutes[p]!;
    return this.arrivals.arriving(this.arrivals.after(last));
  }

  /**
   * CENTRE and PATH: the opening source of the venue at (lat, lon); `along` and `off` (metres)
   * are its PATH position (arrival at the first location's mode over along + off).
   * CENTRE arrival: when the last of all the people gets there.
   */
  openingFor(lat: number, lon: number, along: number, off: number): OpenStateSource {
    if (!this.timed) return this.opening;
    if (!this.onArrival) return this.arrivals.arriving(this.instant);
    return this.arrivals.arriving(this.arrivals.after(this.travelMinutesTo(lat, lon, along, off)));
  }

  /** Minutes until the venue is reached: PATH by the first location's mode along the route; POINT the last person's trip. */
  private travelMinutesTo(lat: number, lon: number, along: number, off: number): number {
    if (this.valid.body.mode.mode === 'PATH' && this.frames.length > 1) return modeMinutes(this.modes[0], along + off);
    let last = 0;
    for (let p = 0; p < this.frames.length; p++) last = Math.max(last, modeMinutes(this.modes[p], frameDistance(this.frames[p]!, lat, lon)));
    return last;
  }

  /** Whether venue i is open at its arrival (the result's `isOpen`); the opening source must be the venue's. */
  isOpen(source: OpenStateSource, i: number): boolean {
    return source === this.opening ? this.opening.isOpen(i) : this.arrivals.isOpen(i);
  }

  /**
   * A record's group view, in the reused {@link DescribedVenue} (valid until the next call):
   * per person distance and reported minutes, the counted people, the group summary (when
   * `withGroup`: POINT results), and the result's `distanceMeters` (fair: largest counted
   * distance, MIN_MAX, or weight-averaged counted distance, MIN_TOTAL; CENTRE: undefined,
   * the distance from the centre stands). Also the venue's opening source (for isOpen and
   * the opening part). Page only: allocates the group summary.
   */
  describe(i: number, along: number, off: number, withGroup: boolean): DescribedVenue {
    const lat = this.store.lat[i]!;
    const lon = this.store.lon[i]!;
    const n = this.frames.length;
    const view = this.view.reset(n);
    const { dist, minutes, counted } = view;
    let cost: number | undefined;
    if (this.fair) {
      const w = this.walker;
      cost = w.measureVenue(this.query, lat, lon);
      for (let p = 0; p < n; p++) {
        dist[p] = w.dist[p]!;
        counted[p] = w.counted[p] === 1 ? 1 : 0;
      }
      view.source = this.openingForFair();
    } else {
      for (let p = 0; p < n; p++) {
        dist[p] = frameDistance(this.frames[p]!, lat, lon);
        counted[p] = 1;
      }
      view.source = this.openingFor(lat, lon, along, off);
    }
    for (let p = 0; p < n; p++) minutes[p] = modeDurationMinutes(this.modes[p], dist[p]!);
    view.group = undefined;
    view.distanceMeters = undefined;
    if (!withGroup && !this.fair) return view;
    const keys = this.valid.travelKeys;
    let max = 0;
    let min = Number.POSITIVE_INFINITY;
    let total = 0;
    let far = 0;
    let wd = 0;
    let ws = 0;
    let sumD = 0;
    let c = 0;
    const countedKeys: string[] = [];
    for (let p = 0; p < n; p++) {
      if (counted[p] === 0) continue;
      countedKeys.push(keys[p]!);
      max = Math.max(max, minutes[p]!);
      min = Math.min(min, minutes[p]!);
      total += minutes[p]!;
      far = Math.max(far, dist[p]!);
      const weight = this.weights[p]!;
      wd += weight * dist[p]!;
      ws += weight;
      sumD += dist[p]!;
      c++;
    }
    if (withGroup) {
      const group: GroupSummary = {
        maxMinutes: max,
        totalMinutes: Math.round(total * 10) / 10,
        spreadMinutes: Math.round((max - min) * 10) / 10,
        counted: countedKeys,
      };
      if (cost !== undefined) group.cost = Math.round(cost * 1000) / 1000;
      view.group = group;
    }
    if (this.fair) view.distanceMeters = this.valid.fairness === 'MIN_MAX' ? far : ws > 0 ? wd / ws : sumD / c;
    return view;
  }
}

/** What {@link GroupSearch.describe} says of one venue (one object, reused). */
export class DescribedVenue {
  /** People described (the first `count` entries of the arrays below are theirs). */
  count = 0;
  /** Per input location: straight-line metres and reported minutes (its own mode). */
  dist = new Float64Array(8);
  minutes = new Float64Array(8);
  /** Per input location: 1 when counted in the group. */
  counted = new Uint8Array(8);
  group: GroupSummary | undefined = undefined;
  distanceMeters: number | undefined = undefined;
  source!: OpenStateSource;

  reset(n: number): this {
    if (this.dist.length < n) {
      this.dist = new Float64Array(n);
      this.minutes = new Float64Array(n);
      this.counted = new Uint8Array(n);
    }
    this.count = n;
    return this;
  }
}
