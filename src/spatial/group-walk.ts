import type KDBush from 'kdbush';
import { BoxList } from '../geo/bbox.js';
import { BOX_BOUNDS_STRIDE, boxLowerBound, boxUpperBound, prepareBoxBounds } from '../geo/box-distance.js';
import { frameDistanceSq, localFrameHolds, type LocalFrame } from '../geo/distance.js';
import { frameDistance } from '../geo/frame-distance.js';
import type { ColumnFilter } from './column-filter.js';

/**
 * The group ("aggregate nearest neighbour") walk of a kdbush tree of (lon, lat), after the
 * MBM idea of Papadias et al. (ICDE 2004): each subtree gets a lower bound of the group cost
 * of any venue in it, from a lower bound of each person's distance to the subtree's box.
 *
 * Costs. Person p's cost of a venue at straight-line distance d (metres, src/geo's
 * frameDistance) is weight[p] * minutes_p(d), minutes_p the least of at most
 * PIECES affine pieces (start + perMeter * d; search/travel-modes.ts builds them).
 * The COUNTED people of a venue are the `quorum` people of lowest cost (ties: input order).
 * A venue QUALIFIES when every counted person is within `maxDistance`; its group cost is
 * the largest (AGGREGATE_MAX) or the sum (AGGREGATE_SUM) of the counted costs.
 *
 * {@link GroupWalker.walk}: every qualifying venue, as a depth-first branch and bound:
 * - a subtree is pruned when fewer than `quorum` people can reach its box within
 *   maxDistance (the walk stays inside the union over quorums of the intersections of
 *   the people's discs: with quorum = all, the intersection);
 * - children are visited nearer-first by their lower bound: the aggregate of the quorum
 *   smallest per-person cost bounds (over the people who can reach the box);
 * - the sink publishes a `threshold` (the worst cost still in its answer; +Infinity when
 *   it must see every venue, e.g. to apply preferences). A venue costing more is counted,
 *   not offered. A subtree whose lower bound exceeds the threshold is COUNT-ONLY: counted
 *   whole when every venue in it surely qualifies (upper bounds of the distances, the
 *   counted people settled by the cost bounds), otherwise its venues are only tested,
 *   never costed, and its children need the reach test only;
 * - with quorum = everyone, the walk is screened by the intersection of the people's padded
 *   boxes, and a leaf tests each venue against the people whose disc does not hold the
 *   leaf's box (the least reached first, on squared frame distances outside a 0.5 m band),
 *   then costs it person by person, dearest first, stopping as soon as it passes the
 *   threshold.
 * {@link GroupWalker.smallestFeasible}: the same tree without the cap, as a branch and
 * bound on each venue's "need" (the largest counted distance, the smallest maxDistance at
 * which it would qualify), the cap shrinking to the best need found.
 *
 * Allocation-free per query after the first with a given group size: typed scratch and a
 * fixed stack (a depth-first walk holds at most two pending nodes per level, and a kdbush
 * tree is under 40 levels deep). With a quorum below everyone, selecting the counted people
 * is an insertion sort per venue: meant for groups, not for 100 locations. Not re-entrant.
 */
export const AGGREGATE_MAX = 0;
export const AGGREGATE_SUM = 1;
/** Affine pieces per person in the cost arrays (search/travel-modes.ts MAX_TRAVEL_PIECES). */
export const PIECES = 3;

export interface GroupQuery {
  /** Each person's local frame (their coordinates, degrees, and the distance rule's frame). */
  readonly frames: readonly LocalFrame[];
  /** Per person weight (>= 0), and PIECES pieces each (unused: start = Infinity). */
  readonly weight: Float64Array;
  readonly start: Float64Array;
  readonly perMeter: Float64Array;
  readonly quorum: number;
  readonly aggregate: number;
  /** Metres (for smallestFeasible: ignored). */
  readonly maxDistance: number;
}

/** What the walk reports to: the search's collector. */
export interface GroupSink {
  /** Group cost above which a qualifying venue is only counted; +Infinity offers every one. */
  readonly threshold: number;
  /** A qualifying venue with cost <= threshold; the walker's `dist`, `minutes`, `cost` and `counted` describe it. */
  offer(venue: number, cost: number): void;
  /** smallestFeasible: whether the venue passes the hard filters (scratch filled as for offer). */
  passes(venue: number): boolean;
}

const STACK = 128;
/** Largest cap (metres) whose disc tests may use squared frame distances (see prepare). */
const SQUARED_TEST_MAX_METERS = 9000;

export class GroupWalker {
  private readonly tree: KDBush;
  /** Per person, for the venue last measured: distance (m), unweighted minutes, weighted cost, counted (1/0). */
  dist = new Float64Array(0);
  minutes = new Float64Array(0);
  cost = new Float64Array(0);
  counted = new Uint8Array(0);
  /** Qualifying venues counted but not offered (their cost was above the threshold). */
  skipped = 0;
  /** Qualifying venues offered to the sink in the last walk. */
  offered = 0;
  // per person scratch
  private frames: readonly LocalFrame[] = [];
  private bounds = new Float64Array(0);
  private order = new Int32Array(0);
  private lbCost = new Float64Array(0);
  private ubCost = new Float64Array(0);
  private sel = new Float64Array(0);
  /** People a leaf's box is not wholly inside the disc of (the only ones its venues are tested against first). */
  private partial = new Int32Array(0);
  // stack: left, right, axis | region | key (lower bound of the group cost)
  private readonly nodes = new Int32Array(3 * STACK);
  private readonly regions = new Float64Array(4 * STACK);
  private readonly keys = new Float64Array(STACK);
  private filter: ColumnFilter | null = null;
  private prepared: GroupQuery | null = null;
  // With quorum = everyone: the intersection of the people's padded boxes (minLon, minLat,
  // maxLon, maxLat), which holds every qualifying venue: a 4-comparison screen of subtrees
  // and points before any distance. `clipped` false: no screen (a quorum, no cap, or a box
  // split at the antimeridian).
  private readonly clip = new Float64Array(4);
  private clipped = false;
  private readonly boxes = new BoxList(2);
  /** Leaves may test discs on squared frame distances (see walkLeaf). */
  private squaredTest = false;

  constructor(tree: KDBush) {
    this.tree = tree;
  }

  private prepare(q: GroupQuery, reach: number, filter: ColumnFilter | null): number {
    const n = q.weight.length;
    if (this.dist.length !== n) {
      this.dist = new Float64Array(n);
      this.minutes = new Float64Array(n);
      this.cost = new Float64Array(n);
      this.counted = new Uint8Array(n);
      this.bounds = new Float64Array(n * BOX_BOUNDS_STRIDE);
      this.order = new Int32Array(n);
      this.lbCost = new Float64Array(n);
      this.ubCost = new Float64Array(n);
      this.sel = new Float64Array(n);
      this.partial = new Int32Array(n);
    }
    this.frames = q.frames;
    // squared frame distances decide a disc test outside the +-0.5 m band when the distance
    // rule takes every person's frame out to the band's far edge (see walkLeaf)
    this.squaredTest = reach <= SQUARED_TEST_MAX_METERS;
    for (let p = 0; p < n && this.squaredTest; p++) this.squaredTest = localFrameHolds(q.frames[p]!.lat, reach + 0.5);
    for (let p = 0; p < n; p++) prepareBoxBounds(q.frames[p]!.lat, q.frames[p]!.lon, reach, this.bounds, p * BOX_BOUNDS_STRIDE);
    this.filter = filter !== null && !filter.acceptsAll ? filter : null;
    this.skipped = 0;
    this.clipped = q.quorum === n && Number.isFinite(reach);
    const clip = this.clip;
    clip[0] = -Infinity;
    clip[1] = -Infinity;
    clip[2] = Infinity;
    clip[3] = Infinity;
    for (let p = 0; p < n && this.clipped; p++) {
      const boxes = this.boxes.clear();
      const f = q.frames[p]!;
      boxes.addPadded(f.lat, f.lon, f.lat, f.lon, reach);
      if (boxes.count !== 1) {
        this.clipped = false;
        break;
      }
      const c = boxes.coords;
      clip[0] = Math.max(clip[0]!, c[0]!);
      clip[1] = Math.max(clip[1]!, c[1]!);
      clip[2] = Math.min(clip[2]!, c[2]!);
      clip[3] = Math.min(clip[3]!, c[3]!);
    }
    this.prepared = q;
    return n;
  }

  /** Person p's unweighted minutes for a straight line of d metres. */
  private minutesOf(q: GroupQuery, p: number, d: number): number {
    const o = p * PIECES;
    let m = q.start[o]! + q.perMeter[o]! * d;
    for (let j = 1; j < PIECES; j++) {
      const s = q.start[o + j]!;
      if (s === Number.POSITIVE_INFINITY) break;
      const v = s + q.perMeter[o + j]! * d;
      if (v < m) m = v;
    }
    return m;
  }

  private rejectedByFilter(v: number): boolean {
    const f = this.filter!;
    return (f.caters[v]! & f.catersRequired) !== f.catersRequired || (f.chainRequired >= 0 && f.chain[v] !== f.chainRequired) || (f.hidden !== null && f.hidden[v] !== 0);
  }

  /**
   * Measures venue v at (x = lon, y = lat) for every person and settles the counted ones.
   * Returns the group cost when it qualifies within `cap` (cap = Infinity: always), else -1.
   * Fills dist, minutes, cost and counted.
   */
  private measure(q: GroupQuery, n: number, x: number, y: number, cap: number): number {
    const k = q.quorum;
    const dist = this.dist;
    let within = 0;
    for (let p = 0; p < n; p++) {
      const d = frameDistance(this.frames[p]!, y, x);
      dist[p] = d;
      if (d <= cap) within++;
      else if (n - 1 - p + within < k) return -1;
    }
    if (k === n) return this.fill(q, n);
    const minutes = this.minutes;
    const cost = this.cost;
    const w = q.weight;
    for (let p = 0; p < n; p++) {
      const m = this.minutesOf(q, p, dist[p]!);
      minutes[p] = m;
      cost[p] = w[p]! * m;
    }
    const counted = this.counted;
    const sum = q.aggregate === AGGREGATE_SUM;
    let agg = 0;
    // the k cheapest, ties by index: insertion sort of the indices by (cost, index)
    const order = this.order;
    for (let p = 0; p < n; p++) {
      counted[p] = 0;
      let j = p - 1;
      const c = cost[p]!;
      while (j >= 0 && cost[order[j]!]! > c) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = p;
    }
    for (let j = 0; j < k; j++) {
      const p = order[j]!;
      if (dist[p]! > cap) return -1;
      counted[p] = 1;
      const c = cost[p]!;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    return agg;
  }

  /** Quorum = everyone, `cost` filled: all counted; returns the group cost (summed in input order, as {@link fill}). */
  private settle(n: number, sum: boolean): number {
    const { cost, counted } = this;
    let agg = 0;
    for (let p = 0; p < n; p++) {
      const c = cost[p]!;
      counted[p] = 1;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    return agg;
  }

  /** Quorum = everyone, `dist` filled: minutes, costs, all counted; returns the group cost. */
  private fill(q: GroupQuery, n: number): number {
    const { dist, minutes, cost, counted } = this;
    const w = q.weight;
    const sum = q.aggregate === AGGREGATE_SUM;
    let agg = 0;
    for (let p = 0; p < n; p++) {
      const m = this.minutesOf(q, p, dist[p]!);
      minutes[p] = m;
      const c = w[p]! * m;
      cost[p] = c;
      counted[p] = 1;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    return agg;
  }

  /**
   * Lower bound of the group cost of any qualifying venue in the box, or -1 when fewer than
   * `quorum` people reach it within `cap`. `reachOnly`: only the reach test; returns 0.
   */
  private bound(q: GroupQuery, n: number, minX: number, minY: number, maxX: number, maxY: number, cap: number, reachOnly: boolean): number {
    const k = q.quorum;
    const b = this.bounds;
    const lb = this.lbCost;
    const w = q.weight;
    if (this.clipped) {
      const clip = this.clip;
      if (maxX < clip[0]! || minX > clip[2]! || maxY < clip[1]! || minY > clip[3]!) return -1;
    }
    let reach = 0;
    for (let p = 0; p < n; p++) {
      const d = boxLowerBound(b, p * BOX_BOUNDS_STRIDE, minX, minY, maxX, maxY);
      if (d <= cap) {
        if (!reachOnly) lb[reach] = w[p]! * this.minutesOf(q, p, d);
        reach++;
      } else if (n - 1 - p + reach < k) return -1;
    }
    if (reach < k) return -1;
    return reachOnly ? 0 : aggregateSmallest(lb, reach, k, q.aggregate === AGGREGATE_SUM);
  }

  /** Whether every venue in the box qualifies: the counted people are settled by the cost bounds and all within the cap. */
  private contains(q: GroupQuery, n: number, minX: number, minY: number, maxX: number, maxY: number, cap: number): boolean {
    const k = q.quorum;
    const b = this.bounds;
    const w = q.weight;
    const ub = this.ubCost;
    let sure = 0;
    for (let p = 0; p < n; p++) {
      const d = boxUpperBound(b, p * BOX_BOUNDS_STRIDE, minX, minY, maxX, maxY);
      if (d <= cap) ub[sure++] = w[p]! * this.minutesOf(q, p, d);
      else if (k === n) return false;
    }
    if (sure < k) return false;
    if (sure === n) return true;
    // The k cheapest of any venue cost at most the k-th smallest upper bound among the sure
    // people; everyone else must cost strictly more, even at their lower bound.
    const kth = kthSmallest(ub, sure, k, this.sel);
    for (let p = 0; p < n; p++) {
      const o = p * BOX_BOUNDS_STRIDE;
      if (boxUpperBound(b, o, minX, minY, maxX, maxY) <= cap) continue;
      const low = w[p]! * this.minutesOf(q, p, boxLowerBound(b, o, minX, minY, maxX, maxY));
      if (!(low > kth)) return false;
    }
    return true;
  }

  /**
   * Every qualifying venue (passing `filter`), offered to the sink or counted in `skipped`.
   * Returns the number of qualifying venues (offered + skipped).
   */
  walk(q: GroupQuery, sink: GroupSink, filter: ColumnFilter | null = null): number {
    const n = this.prepare(q, q.maxDistance, filter);
    const cap = q.maxDistance;
    const { ids, coords, nodeSize } = this.tree;
    this.offered = 0;
    if (ids.length === 0 || n === 0) return 0;
    const { nodes, regions, keys } = this;
    const filtered = this.filter !== null;
    const everyone = q.quorum === n;
    const rootKey = this.bound(q, n, -180, -90, 180, 90, cap, false);
    if (rootKey < 0) return 0;
    let sp = this.push(0, 0, ids.length - 1, 0, -180, -90, 180, 90, rootKey);
    while (sp > 0) {
      sp--;
      const left = nodes[3 * sp]!;
      const right = nodes[3 * sp + 1]!;
      const axis = nodes[3 * sp + 2]!;
      const key = keys[sp]!;
      const minX = regions[4 * sp]!;
      const minY = regions[4 * sp + 1]!;
      const maxX = regions[4 * sp + 2]!;
      const maxY = regions[4 * sp + 3]!;
      // Every venue of this subtree costs more than the sink still takes: count, not offer.
      // Its descendants' bounds are at least its own, so they need the reach test only.
      const countOnly = key > sink.threshold;
      if (countOnly && !filtered && this.contains(q, n, minX, minY, maxX, maxY, cap)) {
        this.skipped += right - left + 1;
        continue;
      }
      if (right - left <= nodeSize) {
        if (everyone) this.walkLeaf(q, n, sink, left, right, minX, minY, maxX, maxY, countOnly);
        else for (let i = left; i <= right; i++) this.visit(q, n, sink, ids[i]!, coords[2 * i]!, coords[2 * i + 1]!, cap);
        continue;
      }
      const m = (left + right) >> 1;
      const mx = coords[2 * m]!;
      const my = coords[2 * m + 1]!;
      if (countOnly && everyone) this.count(n, ids[m]!, mx, my, cap);
      else this.visit(q, n, sink, ids[m]!, mx, my, cap);
      // children: [left, m-1] below the median on this axis, [m+1, right] above it
      const lMaxX = axis === 0 ? mx : maxX;
      const lMaxY = axis === 1 ? my : maxY;
      const rMinX = axis === 0 ? mx : minX;
      const rMinY = axis === 1 ? my : minY;
      let lKey = m - 1 >= left ? this.bound(q, n, minX, minY, lMaxX, lMaxY, cap, countOnly) : -1;
      let rKey = right >= m + 1 ? this.bound(q, n, rMinX, rMinY, maxX, maxY, cap, countOnly) : -1;
      if (countOnly) {
        if (lKey >= 0) lKey = key;
        if (rKey >= 0) rKey = key;
      }
      // push the farther first, so the nearer pops first
      if (lKey >= 0 && rKey >= 0 && lKey < rKey) {
        sp = this.push(sp, m + 1, right, 1 - axis, rMinX, rMinY, maxX, maxY, rKey);
        sp = this.push(sp, left, m - 1, 1 - axis, minX, minY, lMaxX, lMaxY, lKey);
      } else {
        if (lKey >= 0) sp = this.push(sp, left, m - 1, 1 - axis, minX, minY, lMaxX, lMaxY, lKey);
        if (rKey >= 0) sp = this.push(sp, m + 1, right, 1 - axis, rMinX, rMinY, maxX, maxY, rKey);
      }
    }
    return this.offered + this.skipped;
  }

  /** Quorum = everyone, below the threshold: one venue counted when every person is within the cap. */
  private count(n: number, v: number, x: number, y: number, cap: number): void {
    if (this.clipped) {
      const clip = this.clip;
      if (x < clip[0]! || x > clip[2]! || y < clip[1]! || y > clip[3]!) return;
    }
    if (this.filter !== null && this.rejectedByFilter(v)) return;
    for (let p = 0; p < n; p++) if (frameDistance(this.frames[p]!, y, x) > cap) return;
    this.skipped++;
  }

  /** One venue: offered, counted, or dropped (filter, clip, not qualifying). */
  private visit(q: GroupQuery, n: number, sink: GroupSink, v: number, x: number, y: number, cap: number): void {
    if (this.clipped) {
      const clip = this.clip;
      if (x < clip[0]! || x > clip[2]! || y < clip[1]! || y > clip[3]!) return;
    }
    if (this.filter !== null && this.rejectedByFilter(v)) return;
    const c = this.measure(q, n, x, y, cap);
    if (c < 0) return;
    if (c > sink.threshold) this.skipped++;
    else {
      sink.offer(v, c);
      this.offered++;
    }
  }

  /**
   * A leaf, quorum = everyone: each venue is first tested against the people whose disc
   * does not wholly hold the leaf's box (usually one or two near the edge of the
   * intersection); a venue passing them qualifies. When every venue of the leaf costs more
   * than the threshold (`countOnly`: the leaf's lower bound exceeds it) a qualifying venue
   * is only counted, without its costs.
   */
  private walkLeaf(q: GroupQuery, n: number, sink: GroupSink, left: number, right: number, minX: number, minY: number, maxX: number, maxY: number, countOnly: boolean): void {
    const { ids, coords } = this.tree;
    const cap = q.maxDistance;
    const b = this.bounds;
    const w = q.weight;
    const partial = this.partial;
    const order = this.order;
    const frames = this.frames;
    const dist = this.dist;
    // `partial`: the people whose disc does not hold the box, the one it reaches least into
    // first (it rejects most of the venues that fail, with one distance each). `order`: every
    // person, the dearest at the box's lower bound first, for the costs (so that a venue
    // dearer than the threshold is seen to be after a person or two).
    const reachIn = this.sel;
    const dearest = this.lbCost;
    let np = 0;
    for (let p = 0; p < n; p++) {
      const o = p * BOX_BOUNDS_STRIDE;
      const low = boxLowerBound(b, o, minX, minY, maxX, maxY);
      if (!countOnly) {
        // a count-only leaf costs no venue: no order needed
        const lowCost = w[p]! * this.minutesOf(q, p, low);
        let j = p;
        while (j > 0 && dearest[j - 1]! < lowCost) {
          order[j] = order[j - 1]!;
          dearest[j] = dearest[j - 1]!;
          j--;
        }
        order[j] = p;
        dearest[j] = lowCost;
      }
      if (boxUpperBound(b, o, minX, minY, maxX, maxY) <= cap) continue;
      let j = np++;
      while (j > 0 && reachIn[j - 1]! < low) {
        partial[j] = partial[j - 1]!;
        reachIn[j] = reachIn[j - 1]!;
        j--;
      }
      partial[j] = p;
      reachIn[j] = low;
    }
    // The disc test on squared frame distances: exact outside a band of +-0.5 m around the
    // cap, where frameDistance is the frame's own distance (localFrameHolds out to the band's
    // far edge for every person, and beyond 9 km the frame stays within 0.1 m of the exact
    // formula), and settled by frameDistance inside the band.
    const fast = this.squaredTest;
    const first = frames[partial[0]!]!;
    const hiSq = (cap + 0.5) * (cap + 0.5);
    const loSq = cap > 0.5 ? (cap - 0.5) * (cap - 0.5) : -1;
    const sum = q.aggregate === AGGREGATE_SUM;
    // MIN_TOTAL: rest[j], the lower bounds of the people after the j-th in `order`, so a
    // partial sum plus them that passes the threshold (by more than rounding: the cost
    // itself is summed in input order) settles the venue early.
    const rest = this.ubCost;
    if (!countOnly) {
      rest[n - 1] = 0;
      for (let j = n - 2; j >= 0; j--) rest[j] = rest[j + 1]! + dearest[j + 1]!;
    }
    const { minutes, cost } = this;
    const filtered = this.filter !== null;
    const clip = this.clip;
    const cMinX = clip[0]!;
    const cMinY = clip[1]!;
    const cMaxX = clip[2]!;
    const cMaxY = clip[3]!;
    // the clip screen, per venue only when the leaf's box is not inside it
    const clipped = this.clipped && !(minX >= cMinX && maxX <= cMaxX && minY >= cMinY && maxY <= cMaxY);
    // the first partial person's frame in locals (the loop reads no object for it)
    const { lat: fLat, lon: fLon, kx0, kx1, kx2, ky0, ky1, ky2 } = first;
    let skipped = 0;
    points: for (let i = left; i <= right; i++) {
      const x = coords[2 * i]!;
      const y = coords[2 * i + 1]!;
      if (clipped && (x < cMinX || x > cMaxX || y < cMinY || y > cMaxY)) continue;
      const v = ids[i]!;
      if (filtered && this.rejectedByFilter(v)) continue;
      if (np > 0) {
        // the first (most rejecting) partial person, then the others
        const d2 = frameDistanceSq(y, x, fLat, fLon, kx0, kx1, kx2, ky0, ky1, ky2);
        if (fast ? d2 > hiSq || (d2 >= loSq && frameDistance(first, y, x) > cap) : frameDistance(first, y, x) > cap) continue;
        for (let j = 1; j < np; j++) {
          const f = frames[partial[j]!]!;
          if (fast) {
            const e2 = f.distanceSq(y, x);
            if (e2 > hiSq || (e2 >= loSq && frameDistance(f, y, x) > cap)) continue points;
          } else if (frameDistance(f, y, x) > cap) continue points;
        }
      }
      // it qualifies (the other discs hold the whole box)
      if (countOnly) {
        skipped++;
        continue;
      }
      // its cost, person by person, the dearest first, until it passes the threshold; the
      // distances, minutes and costs stay in the scratch for the offer
      const threshold = sink.threshold;
      const early = sum ? threshold + threshold * 1e-9 : threshold;
      let agg = 0;
      for (let j = 0; j < n; j++) {
        const p = order[j]!;
        const d = frameDistance(frames[p]!, y, x);
        const m = this.minutesOf(q, p, d);
        const c = w[p]! * m;
        dist[p] = d;
        minutes[p] = m;
        cost[p] = c;
        agg = sum ? agg + c : c > agg ? c : agg;
        if ((sum ? agg + rest[j]! : agg) > early) {
          skipped++;
          continue points;
        }
      }
      const c = this.settle(n, sum);
      if (c > threshold) {
        skipped++;
        continue;
      }
      sink.offer(v, c);
      this.offered++;
    }
    this.skipped += skipped;
  }


  /**
   * Measures one venue at (lat, lon) for the query last walked (no cap), for the records of
   * a page: fills dist, minutes, cost and counted; returns its group cost.
   */
  measureVenue(q: GroupQuery, lat: number, lon: number): number {
    if (this.prepared !== q) this.prepare(q, q.maxDistance, null);
    return this.measure(q, q.weight.length, lon, lat, Number.POSITIVE_INFINITY);
  }

  /**
   * The smallest need (metres) of a venue passing `filter` and the sink's `passes`: the
   * largest distance of its counted people. Infinity when no venue with a need up to
   * `limit` passes.
   */
  smallestFeasible(q: GroupQuery, sink: GroupSink, filter: ColumnFilter | null = null, limit = Number.POSITIVE_INFINITY): number {
    const n = this.prepare(q, limit, filter);
    const { ids, coords, nodeSize } = this.tree;
    if (ids.length === 0 || n === 0) return Number.POSITIVE_INFINITY;
    const { nodes, regions, keys } = this;
    const filtered = this.filter !== null;
    // needs above `limit` are not sought: the walk stays within it of `quorum` people
    let best = limit < Number.POSITIVE_INFINITY ? limit * (1 + 1e-12) + 1e-9 : limit;
    let sp = this.push(0, 0, ids.length - 1, 0, -180, -90, 180, 90, 0);
    while (sp > 0) {
      sp--;
      if (keys[sp]! >= best) continue;
      const left = nodes[3 * sp]!;
      const right = nodes[3 * sp + 1]!;
      const axis = nodes[3 * sp + 2]!;
      const minX = regions[4 * sp]!;
      const minY = regions[4 * sp + 1]!;
      const maxX = regions[4 * sp + 2]!;
      const maxY = regions[4 * sp + 3]!;
      const lo = right - left <= nodeSize ? left : (left + right) >> 1;
      const hi = right - left <= nodeSize ? right : lo;
      for (let i = lo; i <= hi; i++) {
        const v = ids[i]!;
        if (filtered && this.rejectedByFilter(v)) continue;
        if (this.measure(q, n, coords[2 * i]!, coords[2 * i + 1]!, Number.POSITIVE_INFINITY) < 0) continue;
        let need = 0;
        for (let p = 0; p < n; p++) if (this.counted[p] === 1 && this.dist[p]! > need) need = this.dist[p]!;
        if (need < best && sink.passes(v)) best = need;
      }
      if (right - left <= nodeSize) continue;
      const m = lo;
      const mx = coords[2 * m]!;
      const my = coords[2 * m + 1]!;
      const lMaxX = axis === 0 ? mx : maxX;
      const lMaxY = axis === 1 ? my : maxY;
      const rMinX = axis === 0 ? mx : minX;
      const rMinY = axis === 1 ? my : minY;
      const lKey = m - 1 >= left ? this.needBound(q, n, minX, minY, lMaxX, lMaxY) : Number.POSITIVE_INFINITY;
      const rKey = right >= m + 1 ? this.needBound(q, n, rMinX, rMinY, maxX, maxY) : Number.POSITIVE_INFINITY;
      if (lKey < rKey) {
        if (rKey < best) sp = this.push(sp, m + 1, right, 1 - axis, rMinX, rMinY, maxX, maxY, rKey);
        if (lKey < best) sp = this.push(sp, left, m - 1, 1 - axis, minX, minY, lMaxX, lMaxY, lKey);
      } else {
        if (lKey < best) sp = this.push(sp, left, m - 1, 1 - axis, minX, minY, lMaxX, lMaxY, lKey);
        if (rKey < best) sp = this.push(sp, m + 1, right, 1 - axis, rMinX, rMinY, maxX, maxY, rKey);
      }
    }
    return best <= limit ? best : Number.POSITIVE_INFINITY;
  }

  /** Lower bound of the need of any venue in the box: the quorum-th smallest distance bound. */
  private needBound(q: GroupQuery, n: number, minX: number, minY: number, maxX: number, maxY: number): number {
    const lb = this.lbCost;
    for (let p = 0; p < n; p++) lb[p] = boxLowerBound(this.bounds, p * BOX_BOUNDS_STRIDE, minX, minY, maxX, maxY);
    return kthSmallest(lb, n, q.quorum, this.sel);
  }

  private push(sp: number, left: number, right: number, axis: number, minX: number, minY: number, maxX: number, maxY: number, key: number): number {
    if (sp >= STACK) throw new Error('group walk stack overflow');
    this.nodes[3 * sp] = left;
    this.nodes[3 * sp + 1] = right;
    this.nodes[3 * sp + 2] = axis;
    this.regions[4 * sp] = minX;
    this.regions[4 * sp + 1] = minY;
    this.regions[4 * sp + 2] = maxX;
    this.regions[4 * sp + 3] = maxY;
    this.keys[sp] = key;
    return sp + 1;
  }
}

/** The k-th smallest (k >= 1) of values[0 .. count), using `scratch` (count entries). */
function kthSmallest(values: Float64Array, count: number, k: number, scratch: Float64Array): number {
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && scratch[j]! > v) {
      scratch[j + 1] = scratch[j]!;
      j--;
    }
    scratch[j + 1] = v;
  }
  return scratch[k - 1]!;
}

/** Largest (sum = false) or sum of the k smallest of values[0 .. count), count >= k; sorts values in place. */
function aggregateSmallest(values: Float64Array, count: number, k: number, sum: boolean): number {
  if (k === count) {
    let agg = 0;
    for (let i = 0; i < count; i++) agg = sum ? agg + values[i]! : Math.max(agg, values[i]!);
    return agg;
  }
  for (let i = 1; i < count; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
  if (!sum) return values[k - 1]!;
  let agg = 0;
  for (let i = 0; i < k; i++) agg += values[i]!;
  return agg;
}
