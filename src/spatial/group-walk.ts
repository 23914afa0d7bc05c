import type KDBush from 'kdbush';
import { BoxList } from '../geo/bbox.js';
import { BOX_BOUNDS_STRIDE, BoxLayout, prepareBoxBounds, writeBoxLowerBound, writeBoxUpperBound } from '../geo/box-distance.js';
import { frameDistance } from '../geo/frame-distance.js';
import { FRAME_STRIDE, frameDistanceSq, localFrameHolds, storeFrame, writeFrameDistanceSq, writeRuledDistance, type LocalFrame } from '../geo/distance.js';
import type { ColumnFilter } from './column-filter.js';
import { writeChildBox, writeWorldBox } from './node-box.js';

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
  /**
   * A qualifying venue with group cost <= threshold; the walker's `groupCost[0]` is that
   * cost, and its `dist`, `minutes`, `cost` and `counted` describe the venue's people.
   */
  offer(venue: number): void;
  /** smallestFeasible: whether the venue passes the hard filters (scratch filled as for offer). */
  passes(venue: number): boolean;
}

const STACK = 128;
/** Largest cap (metres) whose disc tests may use squared frame distances (see prepare). */
const SQUARED_TEST_MAX_METERS = 9000;
/** The two children of a node in {@link GroupWalker}'s `child` boxes: offsets. */
const LEFT = 0;
const RIGHT = BoxLayout.STRIDE;
/** Slots of the walker's `num` scratch: single numbers passed between calls in a typed array. */
const Num = { LOW: 0, HIGH: 1, MINUTES: 2, DIST: 3, DIST_SQ: 4, SIZE: 5 } as const;

/**
 * Allocation-free per venue and per node: the walk's numbers cross calls in typed arrays
 * (boxes, bounds, distances, minutes, the group cost), not as double arguments or return
 * values, which V8 boxes on the heap when it does not inline the call (see
 * src/geo/box-distance.ts writeBoxLowerBound; a MIN_TOTAL search at 300k venues allocated
 * ~30 KB of such numbers before). The exceptions are the leaf loop's two most frequent
 * calls, the first disc test (frameDistanceSq on locals) and each person's distance in the
 * costing (frameDistance): small calls V8 inlines, kept so because the typed-array forms
 * measured 3-10 % slower there; bench/diag/alloc-per-call.ts shows no allocation in the walk.
 */
export class GroupWalker {
  private readonly tree: KDBush;
  /** The tree's coordinates (lon, lat per point in tree order; every index of this package builds them in a Float64Array). */
  private readonly coords: Float64Array;
  /** Per person, for the venue last measured: distance (m), unweighted minutes, weighted cost, counted (1/0). */
  dist = new Float64Array(0);
  minutes = new Float64Array(0);
  cost = new Float64Array(0);
  counted = new Uint8Array(0);
  /** The group cost of the venue last measured or offered. */
  readonly groupCost = new Float64Array(1);
  /** Qualifying venues counted but not offered (their cost was above the threshold). */
  skipped = 0;
  /** Qualifying venues offered to the sink in the last walk. */
  offered = 0;
  // per person scratch
  /** The people's local frames (src/geo/distance.ts storeFrame layout). */
  private frames = new Float64Array(0);
  private bounds = new Float64Array(0);
  private order = new Int32Array(0);
  private lbCost = new Float64Array(0);
  private ubCost = new Float64Array(0);
  private sel = new Float64Array(0);
  /** People a leaf's box is not wholly inside the disc of (the only ones its venues are tested against first). */
  private partial = new Int32Array(0);
  // stack: left, right, axis | region (BoxLayout) | key (lower bound of the group cost)
  private readonly nodes = new Int32Array(3 * STACK);
  private readonly regions = new Float64Array(BoxLayout.STRIDE * STACK);
  private readonly keys = new Float64Array(STACK);
  /** The boxes (at LEFT and RIGHT) and keys (0, 1) of the children of the node being split. */
  private readonly child = new Float64Array(2 * BoxLayout.STRIDE);
  private readonly childKey = new Float64Array(2);
  private readonly num = new Float64Array(Num.SIZE);
  /** measureVenue's point: lon, lat (a kdbush coordinate pair). */
  private readonly point = new Float64Array(2);
  private filter: ColumnFilter | null = null;
  private prepared: GroupQuery | null = null;
  // With quorum = everyone: the intersection of the people's padded boxes (BoxLayout),
  // which holds every qualifying venue: a 4-comparison screen of subtrees and points
  // before any distance. `clipped` false: no screen (a quorum, no cap, or a box split at
  // the antimeridian).
  private readonly clip = new Float64Array(BoxLayout.STRIDE);
  private clipped = false;
  private readonly boxes = new BoxList(2);
  /**
   * Leaves may test discs on squared frame distances (see walkLeaf), against the cap's band:
   * (cap + 0.5)^2 and (cap - 0.5)^2 (-1 for a cap under 0.5 m), m^2.
   */
  private squaredTest = false;
  private bandHighSq = 0;
  private bandLowSq = 0;

  constructor(tree: KDBush) {
    if (!(tree.coords instanceof Float64Array)) throw new Error('GroupWalker: the tree must hold Float64Array coordinates');
    this.tree = tree;
    this.coords = tree.coords;
  }

  private prepare(q: GroupQuery, reach: number, filter: ColumnFilter | null): number {
    const n = q.weight.length;
    if (this.dist.length !== n) {
      this.dist = new Float64Array(n);
      this.minutes = new Float64Array(n);
      this.cost = new Float64Array(n);
      this.counted = new Uint8Array(n);
      this.frames = new Float64Array(n * FRAME_STRIDE);
      this.bounds = new Float64Array(n * BOX_BOUNDS_STRIDE);
      this.order = new Int32Array(n);
      this.lbCost = new Float64Array(n);
      this.ubCost = new Float64Array(n);
      this.sel = new Float64Array(n);
      this.partial = new Int32Array(n);
    }
    for (let p = 0; p < n; p++) storeFrame(this.frames, p, q.frames[p]!.lat, q.frames[p]!.lon);
    // squared frame distances decide a disc test outside the +-0.5 m band when the distance
    // rule takes every person's frame out to the band's far edge (see walkLeaf)
    this.squaredTest = reach <= SQUARED_TEST_MAX_METERS;
    for (let p = 0; p < n && this.squaredTest; p++) this.squaredTest = localFrameHolds(q.frames[p]!.lat, reach + 0.5);
    this.bandHighSq = (reach + 0.5) * (reach + 0.5);
    this.bandLowSq = reach > 0.5 ? (reach - 0.5) * (reach - 0.5) : -1;
    for (let p = 0; p < n; p++) prepareBoxBounds(q.frames[p]!.lat, q.frames[p]!.lon, reach, this.bounds, p * BOX_BOUNDS_STRIDE);
    this.filter = filter !== null && !filter.acceptsAll ? filter : null;
    this.skipped = 0;
    this.clipped = q.quorum === n && Number.isFinite(reach);
    const clip = this.clip;
    clip[BoxLayout.MIN_X] = -Infinity;
    clip[BoxLayout.MIN_Y] = -Infinity;
    clip[BoxLayout.MAX_X] = Infinity;
    clip[BoxLayout.MAX_Y] = Infinity;
    for (let p = 0; p < n && this.clipped; p++) {
      const boxes = this.boxes.clear();
      const f = q.frames[p]!;
      boxes.addPadded(f.lat, f.lon, f.lat, f.lon, reach);
      if (boxes.count !== 1) {
        this.clipped = false;
        break;
      }
      const c = boxes.coords;
      clip[BoxLayout.MIN_X] = Math.max(clip[BoxLayout.MIN_X]!, c[0]!);
      clip[BoxLayout.MIN_Y] = Math.max(clip[BoxLayout.MIN_Y]!, c[1]!);
      clip[BoxLayout.MAX_X] = Math.min(clip[BoxLayout.MAX_X]!, c[2]!);
      clip[BoxLayout.MAX_Y] = Math.min(clip[BoxLayout.MAX_Y]!, c[3]!);
    }
    this.prepared = q;
    return n;
  }

  /** Whether the clip screen (quorum = everyone) rules out the box at `boxes[j ..]`. */
  private clippedOut(boxes: Float64Array, j: number): boolean {
    const clip = this.clip;
    return (
      this.clipped &&
      (boxes[j + BoxLayout.MAX_X]! < clip[BoxLayout.MIN_X]! ||
        boxes[j + BoxLayout.MIN_X]! > clip[BoxLayout.MAX_X]! ||
        boxes[j + BoxLayout.MAX_Y]! < clip[BoxLayout.MIN_Y]! ||
        boxes[j + BoxLayout.MIN_Y]! > clip[BoxLayout.MAX_Y]!)
    );
  }

  /** Whether the clip screen rules out point `i` of the tree. */
  private pointClippedOut(i: number): boolean {
    if (!this.clipped) return false;
    const clip = this.clip;
    const x = this.coords[2 * i]!;
    const y = this.coords[2 * i + 1]!;
    return x < clip[BoxLayout.MIN_X]! || x > clip[BoxLayout.MAX_X]! || y < clip[BoxLayout.MIN_Y]! || y > clip[BoxLayout.MAX_Y]!;
  }

  private rejectedByFilter(v: number): boolean {
    const f = this.filter!;
    return (f.caters[v]! & f.catersRequired) !== f.catersRequired || (f.chainRequired >= 0 && f.chain[v] !== f.chainRequired) || (f.hidden !== null && f.hidden[v] !== 0);
  }

  /**
   * Measures point `i` of `lonLat` (a kdbush coordinate array) for every person and settles
   * the counted ones; `capped`: within q.maxDistance (else no cap). Returns whether it
   * qualifies; then `groupCost[0]` is its group cost. Fills dist, minutes, cost and counted.
   */
  private measure(q: GroupQuery, n: number, lonLat: Float64Array, i: number, capped: boolean): boolean {
    const k = q.quorum;
    const cap = capped ? q.maxDistance : Number.POSITIVE_INFINITY;
    const dist = this.dist;
    const frames = this.frames;
    let within = 0;
    for (let p = 0; p < n; p++) {
      writeRuledDistance(frames, p, lonLat, i, dist, p);
      if (dist[p]! <= cap) within++;
      else if (n - 1 - p + within < k) return false;
    }
    if (k === n) {
      this.fill(q, n);
      return true;
    }
    const minutes = this.minutes;
    const cost = this.cost;
    const w = q.weight;
    for (let p = 0; p < n; p++) {
      writeMinutes(q, p, dist, p, minutes, p);
      cost[p] = w[p]! * minutes[p]!;
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
      if (dist[p]! > cap) return false;
      counted[p] = 1;
      const c = cost[p]!;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    this.groupCost[0] = agg;
    return true;
  }

  /** Quorum = everyone, `cost` filled: all counted; the group cost (summed in input order, as {@link fill}) to `groupCost[0]`. */
  private settle(n: number, sum: boolean): void {
    const { cost, counted } = this;
    let agg = 0;
    for (let p = 0; p < n; p++) {
      const c = cost[p]!;
      counted[p] = 1;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    this.groupCost[0] = agg;
  }

  /** Quorum = everyone, `dist` filled: minutes, costs, all counted; the group cost to `groupCost[0]`. */
  private fill(q: GroupQuery, n: number): void {
    const { dist, minutes, cost, counted } = this;
    const w = q.weight;
    const sum = q.aggregate === AGGREGATE_SUM;
    let agg = 0;
    for (let p = 0; p < n; p++) {
      writeMinutes(q, p, dist, p, minutes, p);
      const c = w[p]! * minutes[p]!;
      cost[p] = c;
      counted[p] = 1;
      agg = sum ? agg + c : c > agg ? c : agg;
    }
    this.groupCost[0] = agg;
  }

  /**
   * Writes to `out[k]` a lower bound of the group cost of any qualifying venue in the box at
   * `boxes[j ..]`, or -1 when fewer than `quorum` people reach it within q.maxDistance.
   * `reachOnly`: only the reach test; writes 0 when it passes.
   */
  private writeBound(q: GroupQuery, n: number, boxes: Float64Array, j: number, reachOnly: boolean, out: Float64Array, k: number): void {
    const quorum = q.quorum;
    const cap = q.maxDistance;
    const b = this.bounds;
    const lb = this.lbCost;
    const w = q.weight;
    const num = this.num;
    out[k] = -1;
    if (this.clippedOut(boxes, j)) return;
    let reach = 0;
    for (let p = 0; p < n; p++) {
      writeBoxLowerBound(b, p * BOX_BOUNDS_STRIDE, boxes, j, num, Num.LOW);
      if (num[Num.LOW]! <= cap) {
        if (!reachOnly) {
          writeMinutes(q, p, num, Num.LOW, num, Num.MINUTES);
          lb[reach] = w[p]! * num[Num.MINUTES]!;
        }
        reach++;
      } else if (n - 1 - p + reach < quorum) return;
    }
    if (reach < quorum) return;
    if (reachOnly) out[k] = 0;
    else writeAggregateSmallest(lb, reach, quorum, q.aggregate === AGGREGATE_SUM, out, k);
  }

  /** Whether every venue in the box at `boxes[j ..]` qualifies: the counted people are settled by the cost bounds and all within the cap. */
  private contains(q: GroupQuery, n: number, boxes: Float64Array, j: number): boolean {
    const k = q.quorum;
    const cap = q.maxDistance;
    const b = this.bounds;
    const w = q.weight;
    const ub = this.ubCost;
    const num = this.num;
    let sure = 0;
    for (let p = 0; p < n; p++) {
      writeBoxUpperBound(b, p * BOX_BOUNDS_STRIDE, boxes, j, num, Num.HIGH);
      if (num[Num.HIGH]! <= cap) {
        writeMinutes(q, p, num, Num.HIGH, num, Num.MINUTES);
        ub[sure++] = w[p]! * num[Num.MINUTES]!;
      } else if (k === n) return false;
    }
    if (sure < k) return false;
    if (sure === n) return true;
    // The k cheapest of any venue cost at most the k-th smallest upper bound among the sure
    // people; everyone else must cost strictly more, even at their lower bound.
    writeKthSmallest(ub, sure, k, this.sel, num, Num.HIGH);
    const kth = num[Num.HIGH]!;
    for (let p = 0; p < n; p++) {
      const o = p * BOX_BOUNDS_STRIDE;
      writeBoxUpperBound(b, o, boxes, j, num, Num.DIST);
      if (num[Num.DIST]! <= cap) continue;
      writeBoxLowerBound(b, o, boxes, j, num, Num.LOW);
      writeMinutes(q, p, num, Num.LOW, num, Num.MINUTES);
      const low = w[p]! * num[Num.MINUTES]!;
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
    const { ids, nodeSize } = this.tree;
    this.offered = 0;
    if (ids.length === 0 || n === 0) return 0;
    const { nodes, regions, keys, child, childKey } = this;
    const filtered = this.filter !== null;
    const everyone = q.quorum === n;
    writeWorldBox(child, LEFT);
    this.writeBound(q, n, child, LEFT, false, childKey, 0);
    if (childKey[0]! < 0) return 0;
    let sp = this.push(0, 0, ids.length - 1, 0, child, LEFT, childKey, 0);
    while (sp > 0) {
      sp--;
      const left = nodes[3 * sp]!;
      const right = nodes[3 * sp + 1]!;
      const axis = nodes[3 * sp + 2]!;
      const key = keys[sp]!;
      const box = BoxLayout.STRIDE * sp;
      // Every venue of this subtree costs more than the sink still takes: count, not offer.
      // Its descendants' bounds are at least its own, so they need the reach test only.
      const countOnly = key > sink.threshold;
      if (countOnly && !filtered && this.contains(q, n, regions, box)) {
        this.skipped += right - left + 1;
        continue;
      }
      if (right - left <= nodeSize) {
        if (everyone) this.walkLeaf(q, n, sink, left, right, box, countOnly);
        else for (let i = left; i <= right; i++) this.visit(q, n, sink, ids[i]!, i);
        continue;
      }
      const m = (left + right) >> 1;
      if (countOnly && everyone) this.count(q, n, ids[m]!, m);
      else this.visit(q, n, sink, ids[m]!, m);
      // children: [left, m-1] below the median on this axis, [m+1, right] above it
      this.splitBox(box, axis, m);
      if (m - 1 >= left) this.writeBound(q, n, child, LEFT, countOnly, childKey, 0);
      else childKey[0] = -1;
      if (right >= m + 1) this.writeBound(q, n, child, RIGHT, countOnly, childKey, 1);
      else childKey[1] = -1;
      if (countOnly) {
        if (childKey[0]! >= 0) childKey[0] = key;
        if (childKey[1]! >= 0) childKey[1] = key;
      }
      const lKey = childKey[0]!;
      const rKey = childKey[1]!;
      // push the farther first, so the nearer pops first
      if (lKey >= 0 && rKey >= 0 && lKey < rKey) {
        sp = this.push(sp, m + 1, right, 1 - axis, child, RIGHT, childKey, 1);
        sp = this.push(sp, left, m - 1, 1 - axis, child, LEFT, childKey, 0);
      } else {
        if (lKey >= 0) sp = this.push(sp, left, m - 1, 1 - axis, child, LEFT, childKey, 0);
        if (rKey >= 0) sp = this.push(sp, m + 1, right, 1 - axis, child, RIGHT, childKey, 1);
      }
    }
    return this.offered + this.skipped;
  }

  /** Quorum = everyone, below the threshold: venue v (tree point i) counted when every person is within the cap. */
  private count(q: GroupQuery, n: number, v: number, i: number): void {
    if (this.pointClippedOut(i)) return;
    if (this.filter !== null && this.rejectedByFilter(v)) return;
    const num = this.num;
    for (let p = 0; p < n; p++) {
      writeRuledDistance(this.frames, p, this.coords, i, num, Num.DIST);
      if (num[Num.DIST]! > q.maxDistance) return;
    }
    this.skipped++;
  }

  /** Venue v (tree point i): offered, counted, or dropped (filter, clip, not qualifying). */
  private visit(q: GroupQuery, n: number, sink: GroupSink, v: number, i: number): void {
    if (this.pointClippedOut(i)) return;
    if (this.filter !== null && this.rejectedByFilter(v)) return;
    if (!this.measure(q, n, this.coords, i, true)) return;
    if (this.groupCost[0]! > sink.threshold) this.skipped++;
    else {
      sink.offer(v);
      this.offered++;
    }
  }

  /**
   * Whether tree point i lies outside person p's disc (the cap): on squared frame distances
   * outside the +-0.5 m band when `squaredTest` (exact there: within the band's far edge the
   * distance rule is the frame's own distance, and beyond 9 km the frame stays within 0.1 m
   * of the exact formula), by the distance rule otherwise.
   */
  private outsideDisc(q: GroupQuery, p: number, i: number): boolean {
    if (this.squaredTest) {
      const num = this.num;
      writeFrameDistanceSq(this.frames, p, this.coords, i, num, Num.DIST_SQ);
      const d2 = num[Num.DIST_SQ]!;
      if (d2 > this.bandHighSq) return true;
      if (d2 < this.bandLowSq) return false;
    }
    return this.ruledOutside(q, p, i);
  }

  /** Whether tree point i lies outside person p's disc by the distance rule. */
  private ruledOutside(q: GroupQuery, p: number, i: number): boolean {
    writeRuledDistance(this.frames, p, this.coords, i, this.num, Num.DIST);
    return this.num[Num.DIST]! > q.maxDistance;
  }

  /**
   * A leaf, quorum = everyone, its box at `regions[box ..]`: each venue is first tested
   * against the people whose disc does not wholly hold the leaf's box (usually one or two
   * near the edge of the intersection); a venue passing them qualifies. When every venue of
   * the leaf costs more than the threshold (`countOnly`: the leaf's lower bound exceeds it)
   * a qualifying venue is only counted, without its costs.
   */
  private walkLeaf(q: GroupQuery, n: number, sink: GroupSink, left: number, right: number, box: number, countOnly: boolean): void {
    const ids = this.tree.ids;
    const coords = this.coords;
    const cap = q.maxDistance;
    const b = this.bounds;
    const w = q.weight;
    const regions = this.regions;
    const partial = this.partial;
    const order = this.order;
    const num = this.num;
    const { dist, minutes, cost } = this;
    // `partial`: the people whose disc does not hold the box, the one it reaches least into
    // first (it rejects most of the venues that fail, with one distance each). `order`: every
    // person, the dearest at the box's lower bound first, for the costs (so that a venue
    // dearer than the threshold is seen to be after a person or two).
    const reachIn = this.sel;
    const dearest = this.lbCost;
    let np = 0;
    for (let p = 0; p < n; p++) {
      const o = p * BOX_BOUNDS_STRIDE;
      writeBoxLowerBound(b, o, regions, box, num, Num.LOW);
      const low = num[Num.LOW]!;
      if (!countOnly) {
        // a count-only leaf costs no venue: no order needed
        writeMinutes(q, p, num, Num.LOW, num, Num.MINUTES);
        const lowCost = w[p]! * num[Num.MINUTES]!;
        let j = p;
        while (j > 0 && dearest[j - 1]! < lowCost) {
          order[j] = order[j - 1]!;
          dearest[j] = dearest[j - 1]!;
          j--;
        }
        order[j] = p;
        dearest[j] = lowCost;
      }
      writeBoxUpperBound(b, o, regions, box, num, Num.HIGH);
      if (num[Num.HIGH]! <= cap) continue;
      let j = np++;
      while (j > 0 && reachIn[j - 1]! < low) {
        partial[j] = partial[j - 1]!;
        reachIn[j] = reachIn[j - 1]!;
        j--;
      }
      partial[j] = p;
      reachIn[j] = low;
    }
    const sum = q.aggregate === AGGREGATE_SUM;
    // MIN_TOTAL: rest[j], the lower bounds of the people after the j-th in `order`, so a
    // partial sum plus them that passes the threshold (by more than rounding: the cost
    // itself is summed in input order) settles the venue early.
    const rest = this.ubCost;
    if (!countOnly) {
      rest[n - 1] = 0;
      for (let j = n - 2; j >= 0; j--) rest[j] = rest[j + 1]! + dearest[j + 1]!;
    }
    const filtered = this.filter !== null;
    // the clip screen, per venue only when the leaf's box is not inside it
    const clip = this.clip;
    const cMinX = clip[BoxLayout.MIN_X]!;
    const cMinY = clip[BoxLayout.MIN_Y]!;
    const cMaxX = clip[BoxLayout.MAX_X]!;
    const cMaxY = clip[BoxLayout.MAX_Y]!;
    const clipped =
      this.clipped &&
      !(regions[box + BoxLayout.MIN_X]! >= cMinX && regions[box + BoxLayout.MAX_X]! <= cMaxX && regions[box + BoxLayout.MIN_Y]! >= cMinY && regions[box + BoxLayout.MAX_Y]! <= cMaxY);
    // The first (most rejecting) partial person's frame in locals: the loop's most frequent
    // test reads no object and passes no number across a call (any person when np = 0).
    const firstPerson = partial[0]!;
    const { lat: fLat, lon: fLon, kx0, kx1, kx2, ky0, ky1, ky2 } = q.frames[firstPerson]!;
    const fast = this.squaredTest;
    const highSq = this.bandHighSq;
    const lowSq = this.bandLowSq;
    let skipped = 0;
    points: for (let i = left; i <= right; i++) {
      const x = coords[2 * i]!;
      const y = coords[2 * i + 1]!;
      if (clipped && (x < cMinX || x > cMaxX || y < cMinY || y > cMaxY)) continue;
      const v = ids[i]!;
      if (filtered && this.rejectedByFilter(v)) continue;
      // the partial people, the most rejecting first; a venue inside every disc qualifies
      // (the other discs hold the whole box)
      if (np > 0) {
        if (fast) {
          const d2 = frameDistanceSq(y, x, fLat, fLon, kx0, kx1, kx2, ky0, ky1, ky2);
          if (d2 > highSq || (d2 >= lowSq && this.ruledOutside(q, firstPerson, i))) continue;
        } else if (this.ruledOutside(q, firstPerson, i)) continue;
        for (let j = 1; j < np; j++) if (this.outsideDisc(q, partial[j]!, i)) continue points;
      }
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
        dist[p] = frameDistance(q.frames[p]!, y, x);
        writeMinutes(q, p, dist, p, minutes, p);
        const c = w[p]! * minutes[p]!;
        cost[p] = c;
        agg = sum ? agg + c : c > agg ? c : agg;
        if ((sum ? agg + rest[j]! : agg) > early) {
          skipped++;
          continue points;
        }
      }
      this.settle(n, sum);
      if (this.groupCost[0]! > threshold) {
        skipped++;
        continue;
      }
      sink.offer(v);
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
    this.point[0] = lon;
    this.point[1] = lat;
    return this.measure(q, q.weight.length, this.point, 0, false) ? this.groupCost[0]! : -1;
  }

  /**
   * The smallest need (metres) of a venue passing `filter` and the sink's `passes`: the
   * largest distance of its counted people. Infinity when no venue with a need up to
   * `limit` passes.
   */
  smallestFeasible(q: GroupQuery, sink: GroupSink, filter: ColumnFilter | null = null, limit = Number.POSITIVE_INFINITY): number {
    const n = this.prepare(q, limit, filter);
    const { ids, nodeSize } = this.tree;
    const coords = this.coords;
    if (ids.length === 0 || n === 0) return Number.POSITIVE_INFINITY;
    const { nodes, keys, child, childKey } = this;
    const filtered = this.filter !== null;
    // needs above `limit` are not sought: the walk stays within it of `quorum` people
    let best = limit < Number.POSITIVE_INFINITY ? limit * (1 + 1e-12) + 1e-9 : limit;
    writeWorldBox(child, LEFT);
    childKey[0] = 0;
    let sp = this.push(0, 0, ids.length - 1, 0, child, LEFT, childKey, 0);
    while (sp > 0) {
      sp--;
      if (keys[sp]! >= best) continue;
      const left = nodes[3 * sp]!;
      const right = nodes[3 * sp + 1]!;
      const axis = nodes[3 * sp + 2]!;
      const box = BoxLayout.STRIDE * sp;
      const lo = right - left <= nodeSize ? left : (left + right) >> 1;
      const hi = right - left <= nodeSize ? right : lo;
      for (let i = lo; i <= hi; i++) {
        const v = ids[i]!;
        if (filtered && this.rejectedByFilter(v)) continue;
        if (!this.measure(q, n, coords, i, false)) continue;
        let need = 0;
        for (let p = 0; p < n; p++) if (this.counted[p] === 1 && this.dist[p]! > need) need = this.dist[p]!;
        if (need < best && sink.passes(v)) best = need;
      }
      if (right - left <= nodeSize) continue;
      const m = lo;
      this.splitBox(box, axis, m);
      if (m - 1 >= left) this.writeNeedBound(q, n, child, LEFT, childKey, 0);
      else childKey[0] = Number.POSITIVE_INFINITY;
      if (right >= m + 1) this.writeNeedBound(q, n, child, RIGHT, childKey, 1);
      else childKey[1] = Number.POSITIVE_INFINITY;
      const lKey = childKey[0]!;
      const rKey = childKey[1]!;
      if (lKey < rKey) {
        if (rKey < best) sp = this.push(sp, m + 1, right, 1 - axis, child, RIGHT, childKey, 1);
        if (lKey < best) sp = this.push(sp, left, m - 1, 1 - axis, child, LEFT, childKey, 0);
      } else {
        if (lKey < best) sp = this.push(sp, left, m - 1, 1 - axis, child, LEFT, childKey, 0);
        if (rKey < best) sp = this.push(sp, m + 1, right, 1 - axis, child, RIGHT, childKey, 1);
      }
    }
    return best <= limit ? best : Number.POSITIVE_INFINITY;
  }

  /** Writes to `out[k]` a lower bound of the need of any venue in the box at `boxes[j ..]`: the quorum-th smallest distance bound. */
  private writeNeedBound(q: GroupQuery, n: number, boxes: Float64Array, j: number, out: Float64Array, k: number): void {
    const lb = this.lbCost;
    for (let p = 0; p < n; p++) writeBoxLowerBound(this.bounds, p * BOX_BOUNDS_STRIDE, boxes, j, lb, p);
    writeKthSmallest(lb, n, q.quorum, this.sel, out, k);
  }

  /**
   * Writes the children's boxes (`child` at LEFT and RIGHT): the box at `regions[box ..]`
   * cut on `axis` (0: lon, 1: lat) at tree point m, the node's median. The node's stack slot
   * may then be reused by the pushes.
   */
  private splitBox(box: number, axis: number, m: number): void {
    writeChildBox(this.regions, box, this.child, LEFT, axis, this.coords, m, false);
    writeChildBox(this.regions, box, this.child, RIGHT, axis, this.coords, m, true);
  }

  /** Pushes node [left, right] split on `axis` next, its box at `boxes[j ..]` and key at `keyOf[k]`; returns the new stack size. */
  private push(sp: number, left: number, right: number, axis: number, boxes: Float64Array, j: number, keyOf: Float64Array, k: number): number {
    if (sp >= STACK) throw new Error('group walk stack overflow');
    this.nodes[3 * sp] = left;
    this.nodes[3 * sp + 1] = right;
    this.nodes[3 * sp + 2] = axis;
    for (let c = 0; c < BoxLayout.STRIDE; c++) this.regions[BoxLayout.STRIDE * sp + c] = boxes[j + c]!;
    this.keys[sp] = keyOf[k]!;
    return sp + 1;
  }
}

/**
 * Writes to `out[k]` person p's unweighted minutes for a straight line of `from[j]` metres:
 * the least of their PIECES affine pieces (start + perMeter * d; unused pieces start at
 * +Infinity).
 */
function writeMinutes(q: GroupQuery, p: number, from: Float64Array, j: number, out: Float64Array, k: number): void {
  const { start, perMeter } = q;
  const d = from[j]!;
  const o = p * PIECES;
  let m = start[o]! + perMeter[o]! * d;
  for (let s = 1; s < PIECES; s++) {
    const first = start[o + s]!;
    if (first === Number.POSITIVE_INFINITY) break;
    const v = first + perMeter[o + s]! * d;
    if (v < m) m = v;
  }
  out[k] = m;
}

/** Writes to `out[j]` the k-th smallest (k >= 1) of values[0 .. count), using `scratch` (count entries). */
function writeKthSmallest(values: Float64Array, count: number, k: number, scratch: Float64Array, out: Float64Array, j: number): void {
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    let s = i - 1;
    while (s >= 0 && scratch[s]! > v) {
      scratch[s + 1] = scratch[s]!;
      s--;
    }
    scratch[s + 1] = v;
  }
  out[j] = scratch[k - 1]!;
}

/** Writes to `out[j]` the largest (sum = false) or the sum of the k smallest of values[0 .. count), count >= k; sorts values in place. */
function writeAggregateSmallest(values: Float64Array, count: number, k: number, sum: boolean, out: Float64Array, j: number): void {
  if (k === count) {
    let agg = 0;
    for (let i = 0; i < count; i++) agg = sum ? agg + values[i]! : Math.max(agg, values[i]!);
    out[j] = agg;
    return;
  }
  for (let i = 1; i < count; i++) {
    const v = values[i]!;
    let s = i - 1;
    while (s >= 0 && values[s]! > v) {
      values[s + 1] = values[s]!;
      s--;
    }
    values[s + 1] = v;
  }
  if (!sum) {
    out[j] = values[k - 1]!;
    return;
  }
  let agg = 0;
  for (let i = 0; i < k; i++) agg += values[i]!;
  out[j] = agg;
}
