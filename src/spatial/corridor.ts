import type KDBush from 'kdbush';
import { BoxList } from '../geo/bbox.js';
import type { PreparedRoute } from '../geo/polyline.js';
import {
  PieceScreen,
  chordFoot,
  chordOffsetSq,
  pieceFootDistance,
  planarSurelyBeyond,
  planarSurelyWithin,
  polarFoot,
  polarFootDistance,
  curveFoot,
  refineFoot,
} from '../geo/route-piece.js';
import type { ColumnFilter } from './column-filter.js';
import type { HitBuffer } from './hit-buffer.js';
import { WorstOfBest } from './worst-of-best.js';

// Walk stack, one entry per pending node: NODES holds left, right and axis (integers, so
// the hot loop indexes the tree's arrays with small integers, not doubles), REGIONS the
// node's region minLon, minLat, maxLon, maxLat (degrees). A depth-first walk holds at most
// one pending sibling per level, and a kdbush tree is under 40 levels deep even for 2^32
// points.
const NODES = new Int32Array(3 * 64);
const REGIONS = new Float64Array(4 * 64);
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_U8 = new Uint8Array(0);
/** `slot[j]` of a point counted in the corridor but not written to the output (it cannot be among the k nearest). */
const COUNTED_ONLY = 0xffffffff;

/**
 * The corridor query over a kdbush tree of (lon, lat): every point within `width` metres
 * of a {@link PreparedRoute}. One walk per route piece over the piece's padded box, which
 * also prunes every subtree whose region lies outside the piece's planar screen (a
 * separating-axis test of the region's rectangle against the capsule around the piece's
 * chord): a diagonal 200 m corridor visits the leaves along it, not its whole box. Points in
 * the visited leaves pass the planar screen (a dozen flops) before the exact distance.
 *
 * Near a pole, or where a piece's box is split at the antimeridian, the planar frame does
 * not hold across the box: those pieces are walked stretch by stretch (boxes hugging the
 * corridor, see PreparedRoute.pieceBoxParts) without the region test.
 *
 * With `nearest` k (>= 1, {@link countNearest}), every point within the corridor is
 * counted, but only those that can be among the k nearest to the route are measured exactly
 * and written out: a point whose planar distance from the chord surely puts it further than
 * the k-th smallest distance written so far (route-piece.ts, planarSurelyBeyond) is only
 * counted, and measured exactly only when it is near the corridor's edge (so that the count
 * is exact).
 *
 * Scratch (`stamp`, `slot`, boxes) is owned here and reused: not re-entrant.
 */
export class CorridorWalker {
  private readonly tree: KDBush;
  private readonly boxes = new BoxList(4);
  // Corridor scratch, indexed by the point's position j in the tree's (spatially sorted)
  // arrays, not by its venue id, so that a leaf's points read and write neighbouring
  // entries: `stamp[j] === generation` marks the point at j as already hit in this query, at
  // slot `slot[j]` of the output buffer.
  private readonly stamp: Uint32Array;
  private readonly slot: Uint32Array;
  private generation = 0;
  // minLon, minLat, maxLon, maxLat of the box whose points a stretch walk skips (they were
  // measured against the same piece by the previous stretch); NaN: none.
  private readonly seen = new Float64Array(4);
  // The current walk's column prefilter (null: none).
  private filter: ColumnFilter | null = null;
  // The piece being walked (filled per piece by the route).
  private readonly piece = new PieceScreen();
  // A nearest walk's k smallest of the distances written out (each venue's first), and the
  // points it counted in the corridor so far.
  private readonly nearestDist = new WorstOfBest();
  private counted = 0;

  // Whether the tree's leaves are sorted by latitude (leaf-order.ts).
  private readonly sortedLeaves: boolean;

  constructor(tree: KDBush, size: number, sortedLeaves: boolean) {
    this.tree = tree;
    this.sortedLeaves = sortedLeaves;
    this.stamp = new Uint32Array(size);
    this.slot = new Uint32Array(size);
  }

  get byteSize(): number {
    return this.stamp.byteLength + this.slot.byteLength;
  }

  /**
   * Writes into `out` every point within `width` metres of the route (inclusive), with its
   * distance and along-route position. A point near several pieces (a route that doubles
   * back) keeps its smallest distance; on a tie (within SAME_PASS_METERS, a millimetre), the earliest piece.
   */
  walk(route: PreparedRoute, width: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    this.walkPieces(route, width, out, filter, 0);
    return out.length;
  }

  /**
   * Counts every point within `width` metres of the route (inclusive) and writes into `out`,
   * as {@link walk} does, those among the k nearest to it (k >= 1; on a tie of distance, all
   * of them), and perhaps a few others; returns the count. A point written has its
   * smallest distance and its along-route position, as walk gives them.
   */
  countNearest(route: PreparedRoute, width: number, k: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    this.nearestDist.reset(k);
    this.walkPieces(route, width, out, filter, k);
    // At least k venues lie within the k-th smallest distance written (each venue's first,
    // not below its last): the points written beyond it cannot be among the k nearest. (They
    // came mostly nearer and nearer as the walk went, the order a top-k heap sorts slowest.)
    const kth = this.nearestDist.threshold;
    if (kth < Number.POSITIVE_INFINITY) out.dropFartherThan(kth);
    return this.counted;
  }

  /** The walk of every piece; `nearest`: k, or 0 to write out every point. */
  private walkPieces(route: PreparedRoute, width: number, out: HitBuffer, filter: ColumnFilter | null, nearest: number): void {
    this.filter = filter !== null && !filter.acceptsAll ? filter : null;
    this.counted = 0;
    const gen = this.nextGeneration();
    const boxes = this.boxes;
    const ps = this.piece;
    for (let piece = 0; piece < route.pieceCount; piece++) {
      route.screenPiece(piece, width, ps);
      boxes.clear();
      route.pieceBoxes(piece, width, boxes);
      if (boxes.count === 1 && ps.polar === 0) {
        this.seen.fill(Number.NaN);
        this.walkBoxOf(nearest, width, true, gen, out, 0);
        continue;
      }
      const parts = route.pieceBoxParts(piece, width);
      this.seen.fill(Number.NaN);
      for (let part = 0; part < parts; part++) {
        boxes.clear();
        route.pieceBoxes(piece, width, boxes, part, parts);
        for (let b = 0; b < boxes.count; b++) this.walkBoxOf(nearest, width, false, gen, out, b);
        if (boxes.count === 1) this.seen.set(boxes.coords.subarray(0, 4));
        else this.seen.fill(Number.NaN);
      }
    }
  }

  /** {@link walkBox}, or {@link walkBoxNearest} in nearest mode. */
  private walkBoxOf(nearest: number, width: number, prune: boolean, gen: number, out: HitBuffer, b: number): void {
    if (nearest > 0) this.walkBoxNearest(width, prune, gen, out, b);
    else this.walkBox(width, prune, gen, out, b);
  }

  /**
   * kdbush's range walk over box `b` of `this.boxes`, measuring each point in it against
   * the piece in `this.piece`, and, when `prune`, skipping subtrees whose region fails the
   * separating-axis test against the piece's screen capsule. Reads coordinates from the
   * tree's own (spatially sorted) arrays. Every field it needs is read once, before the
   * walk: the loop touches only locals, typed arrays and pure functions of numbers, so no
   * property access in it can lack type feedback when it is optimised.
   */
  private walkBox(width: number, prune: boolean, gen: number, out: HitBuffer, b: number): void {
    const { ids, coords, nodeSize } = this.tree;
    const { stamp, slot, seen } = this;
    const filter = this.filter;
    const filtered = filter !== null;
    const caters = filter?.caters ?? EMPTY_U16;
    const chain = filter?.chain ?? EMPTY_U8;
    const catersRequired = filter?.catersRequired ?? 0;
    const chainRequired = filter?.chainRequired ?? -1;
    const bc = this.boxes.coords;
    const minX = bc[4 * b]!;
    const minY = bc[4 * b + 1]!;
    const maxX = bc[4 * b + 2]!;
    const maxY = bc[4 * b + 3]!;
    const ps = this.piece;
    const lat0 = ps.lat0;
    const lon0 = ps.lon0;
    const lat1 = ps.lat1;
    const lon1 = ps.lon1;
    const kx = ps.kx;
    const ky = ps.ky;
    const vx = ps.vx;
    const vy = ps.vy;
    const bx = ps.bx;
    const by = ps.by;
    const invVV = ps.invVV;
    const screenSq = ps.screenSq;
    const polar = ps.polar === 1;
    const refine = ps.refine === 1;
    const alongBulge = ps.alongBulge;
    const along0 = ps.along0;
    const pieceLength = ps.length;
    const dLatP = ps.dLat;
    const dLonP = ps.dLon;
    const bLatP = ps.bLat;
    const bLonP = ps.bLon;
    const midLatP = ps.midLat;
    const dkx = ps.dkx;
    const dky = ps.dky;
    // The capsule in the piece's planar frame (metres): unit vector u along the chord, its
    // length, and the screen radius around it.
    const vLen = Math.sqrt(vx * vx + vy * vy);
    const ux = vLen > 0 ? vx / vLen : 1;
    const uy = vLen > 0 ? vy / vLen : 0;
    const reach = Math.sqrt(screenSq);
    // With leaves sorted by latitude and a piece not running north-south, a leaf's points
    // are searched for the latitude band the capsule covers over the leaf's longitudes (see
    // the leaf scan below): |ux| below this, the band is most of the leaf.
    const band = prune && this.sortedLeaves && Math.abs(ux) > 0.05;
    const slope = band ? uy / ux : 0;
    const halfBand = band ? reach / Math.abs(ux) : 0;
    const capsuleMinY = (vy < 0 ? vy : 0) - reach;
    const capsuleMaxY = (vy > 0 ? vy : 0) + reach;
    const seenMinX = seen[0]!;
    const seenMinY = seen[1]!;
    const seenMaxX = seen[2]!;
    const seenMaxY = seen[3]!;
    NODES[0] = 0;
    NODES[1] = ids.length - 1;
    NODES[2] = 0;
    REGIONS[0] = minX;
    REGIONS[1] = minY;
    REGIONS[2] = maxX;
    REGIONS[3] = maxY;
    let sp = 1;
    while (sp > 0) {
      sp--;
      const left = NODES[3 * sp]!;
      const right = NODES[3 * sp + 1]!;
      const axis = NODES[3 * sp + 2]!;
      const rMinX = REGIONS[4 * sp]!;
      const rMinY = REGIONS[4 * sp + 1]!;
      const rMaxX = REGIONS[4 * sp + 2]!;
      const rMaxY = REGIONS[4 * sp + 3]!;
      if (prune) {
        // Separating axes of the region's rectangle and the capsule: across the chord
        // (offset s = X uy' with u' = (-uy, ux)) and along it (a = X . u). Each is linear in
        // (X, Y), so its range over the rectangle comes from the rectangle's own ranges.
        const x0 = (rMinX - lon0) * kx;
        const x1 = (rMaxX - lon0) * kx;
        const y0 = (rMinY - lat0) * ky;
        const y1 = (rMaxY - lat0) * ky;
        const sxa = -uy * x0;
        const sxb = -uy * x1;
        const sya = ux * y0;
        const syb = ux * y1;
        const sMin = (sxa < sxb ? sxa : sxb) + (sya < syb ? sya : syb);
        const sMax = (sxa > sxb ? sxa : sxb) + (sya > syb ? sya : syb);
        if (sMin > reach || sMax < -reach) continue;
        const axa = ux * x0;
        const axb = ux * x1;
        const aya = uy * y0;
        const ayb = uy * y1;
        const aMin = (axa < axb ? axa : axb) + (aya < ayb ? aya : ayb);
        const aMax = (axa > axb ? axa : axb) + (aya > ayb ? aya : ayb);
        if (aMin > vLen + reach || aMax < -reach) continue;
      }
      const leaf = right - left <= nodeSize;
      let from = leaf ? left : (left + right) >> 1;
      let to = leaf ? right : from;
      if (leaf && band) {
        // The capsule's points over the leaf's longitudes [x0, x1] (metres) have a
        // perpendicular offset |Y - slope X| <= reach / |ux|, and Y within the capsule's own
        // extent: outside that latitude band chordFoot would reject them (same frame, same
        // reach; padded by a metre against rounding). The leaf is sorted by latitude.
        const x0 = (rMinX - lon0) * kx;
        const x1 = (rMaxX - lon0) * kx;
        const ya = slope * x0;
        const yb = slope * x1;
        let yLo = (ya < yb ? ya : yb) - halfBand;
        let yHi = (ya > yb ? ya : yb) + halfBand;
        if (yLo < capsuleMinY) yLo = capsuleMinY;
        if (yHi > capsuleMaxY) yHi = capsuleMaxY;
        const latLo = lat0 + (yLo - 1) / ky;
        const latHi = lat0 + (yHi + 1) / ky;
        from = firstAtLeast(coords, left, right + 1, latLo);
        to = firstAtLeast(coords, from, right + 1, latHi) - 1;
      }
      for (let j = from; j <= to; j++) {
        const x = coords[2 * j]!;
        const y = coords[2 * j + 1]!;
        // With pruning, the screen below rejects what the box would (the box is padded less
        // than the screen reaches), so the box tests are skipped. (Comparisons with NaN are
        // false: no box seen, nothing skipped.)
        if (!prune && (x < minX || x > maxX || y < minY || y > maxY || (x >= seenMinX && x <= seenMaxX && y >= seenMinY && y <= seenMaxY))) continue;
        if (filtered) {
          const v = ids[j]!;
          if ((caters[v]! & catersRequired) !== catersRequired || (chainRequired >= 0 && chain[v] !== chainRequired)) continue;
        }
        let t: number;
        let d: number;
        if (polar) {
          t = polarFoot(y, x, lat0, lon0, lat1, lon1);
          d = polarFootDistance(y, x, t, lat0, lon0, lat1, lon1);
        } else {
          t = chordFoot(y, x, lat0, lon0, kx, ky, vx, vy, invVV, screenSq);
          if (t < 0) continue;
          t = curveFoot(t, alongBulge);
          if (refine) t = refineFoot(y, x, t, lat0, lon0, kx, ky, vx, vy, bx, by);
          d = pieceFootDistance(y, x, t, lat0, lon0, dLatP, dLonP, bLatP, bLonP, midLatP, kx, ky, dkx, dky);
        }
        const along = along0 + t * pieceLength;
        if (!(d <= width)) continue;
        if (stamp[j] !== gen) {
          stamp[j] = gen;
          slot[j] = out.push(ids[j]!, d, along);
        } else {
          const k = slot[j]!;
          // Nearer by more than a millimetre (SAME_PASS_METERS): equal passes keep the earliest.
          out.improve(k, d, along);
        }
      }
      if (leaf) continue;
      const m = from;
      const split = axis === 0 ? coords[2 * m]! : coords[2 * m + 1]!;
      // Children: [left, m - 1] has coordinate <= split on `axis`, [m + 1, right] >= split.
      if (axis === 0 ? minX <= split : minY <= split) {
        NODES[3 * sp] = left;
        NODES[3 * sp + 1] = m - 1;
        NODES[3 * sp + 2] = 1 - axis;
        REGIONS[4 * sp] = rMinX;
        REGIONS[4 * sp + 1] = rMinY;
        REGIONS[4 * sp + 2] = axis === 0 ? Math.min(rMaxX, split) : rMaxX;
        REGIONS[4 * sp + 3] = axis === 0 ? rMaxY : Math.min(rMaxY, split);
        sp++;
      }
      if (axis === 0 ? maxX >= split : maxY >= split) {
        NODES[3 * sp] = m + 1;
        NODES[3 * sp + 1] = right;
        NODES[3 * sp + 2] = 1 - axis;
        REGIONS[4 * sp] = axis === 0 ? Math.max(rMinX, split) : rMinX;
        REGIONS[4 * sp + 1] = axis === 0 ? rMinY : Math.max(rMinY, split);
        REGIONS[4 * sp + 2] = rMaxX;
        REGIONS[4 * sp + 3] = rMaxY;
        sp++;
      }
    }
  }

  /**
   * {@link walkBox} in nearest mode: the same walk over the tree (its pruning, leaf band and
   * children are walkBox's, line for line: change both together), measuring as
   * {@link countNearest} says. A copy, not a mode of walkBox, measured at 1M venues (CPU
   * time of the bench's 200 PATH 10 km walks): the nearest logic inside walkBox's loop made every
   * corridor walk about 10 % slower (38 to 42 µs), and so did a walk in batches of leaves
   * with two measuring loops; the node tests as functions shared by both, 25 %.
   */
  private walkBoxNearest(width: number, prune: boolean, gen: number, out: HitBuffer, b: number): void {
    const { ids, coords, nodeSize } = this.tree;
    const { stamp, slot, seen } = this;
    const filter = this.filter;
    // The column part of the filter (the hidden venues are tested after the screen: most
    // points a walk visits fail the screen).
    const filtered = filter !== null && (filter.catersRequired !== 0 || filter.chainRequired >= 0);
    const caters = filter?.caters ?? EMPTY_U16;
    const chain = filter?.chain ?? EMPTY_U8;
    const catersRequired = filter?.catersRequired ?? 0;
    const chainRequired = filter?.chainRequired ?? -1;
    // Live data's hidden venues (replaced, removed): never counted nor written.
    const hides = filter !== null && filter.hidden !== null;
    const hidden = filter?.hidden ?? EMPTY_U8;
    const bc = this.boxes.coords;
    const minX = bc[4 * b]!;
    const minY = bc[4 * b + 1]!;
    const maxX = bc[4 * b + 2]!;
    const maxY = bc[4 * b + 3]!;
    const ps = this.piece;
    const lat0 = ps.lat0;
    const lon0 = ps.lon0;
    const lat1 = ps.lat1;
    const lon1 = ps.lon1;
    const kx = ps.kx;
    const ky = ps.ky;
    const vx = ps.vx;
    const vy = ps.vy;
    const bx = ps.bx;
    const by = ps.by;
    const invVV = ps.invVV;
    const screenSq = ps.screenSq;
    const polar = ps.polar === 1;
    const refine = ps.refine === 1;
    const alongBulge = ps.alongBulge;
    const along0 = ps.along0;
    const pieceLength = ps.length;
    const bulge = ps.bulge;
    const best = this.nearestDist;
    let counted = this.counted;
    // Planar distance (squared) from the chord over which a point is surely further than the
    // k-th smallest distance written; at or under which it is surely in the corridor (near a
    // pole every point is measured: keepSq is not read there).
    let keepSq = keepSqOf(best.threshold, bulge);
    const inner = planarSurelyWithin(width, bulge);
    const innerSq = inner > 0 ? inner * inner : -1;
    const dLatP = ps.dLat;
    const dLonP = ps.dLon;
    const bLatP = ps.bLat;
    const bLonP = ps.bLon;
    const midLatP = ps.midLat;
    const dkx = ps.dkx;
    const dky = ps.dky;
    // The capsule in the piece's planar frame (metres): unit vector u along the chord, its
    // length, and the screen radius around it.
    const vLen = Math.sqrt(vx * vx + vy * vy);
    const ux = vLen > 0 ? vx / vLen : 1;
    const uy = vLen > 0 ? vy / vLen : 0;
    const reach = Math.sqrt(screenSq);
    // With leaves sorted by latitude and a piece not running north-south, a leaf's points
    // are searched for the latitude band the capsule covers over the leaf's longitudes (see
    // the leaf scan below): |ux| below this, the band is most of the leaf.
    const band = prune && this.sortedLeaves && Math.abs(ux) > 0.05;
    const slope = band ? uy / ux : 0;
    const halfBand = band ? reach / Math.abs(ux) : 0;
    const capsuleMinY = (vy < 0 ? vy : 0) - reach;
    const capsuleMaxY = (vy > 0 ? vy : 0) + reach;
    const seenMinX = seen[0]!;
    const seenMinY = seen[1]!;
    const seenMaxX = seen[2]!;
    const seenMaxY = seen[3]!;
    NODES[0] = 0;
    NODES[1] = ids.length - 1;
    NODES[2] = 0;
    REGIONS[0] = minX;
    REGIONS[1] = minY;
    REGIONS[2] = maxX;
    REGIONS[3] = maxY;
    let sp = 1;
    while (sp > 0) {
      sp--;
      const left = NODES[3 * sp]!;
      const right = NODES[3 * sp + 1]!;
      const axis = NODES[3 * sp + 2]!;
      const rMinX = REGIONS[4 * sp]!;
      const rMinY = REGIONS[4 * sp + 1]!;
      const rMaxX = REGIONS[4 * sp + 2]!;
      const rMaxY = REGIONS[4 * sp + 3]!;
      if (prune) {
        // Separating axes of the region's rectangle and the capsule: across the chord
        // (offset s = X uy' with u' = (-uy, ux)) and along it (a = X . u). Each is linear in
        // (X, Y), so its range over the rectangle comes from the rectangle's own ranges.
        const x0 = (rMinX - lon0) * kx;
        const x1 = (rMaxX - lon0) * kx;
        const y0 = (rMinY - lat0) * ky;
        const y1 = (rMaxY - lat0) * ky;
        const sxa = -uy * x0;
        const sxb = -uy * x1;
        const sya = ux * y0;
        const syb = ux * y1;
        const sMin = (sxa < sxb ? sxa : sxb) + (sya < syb ? sya : syb);
        const sMax = (sxa > sxb ? sxa : sxb) + (sya > syb ? sya : syb);
        if (sMin > reach || sMax < -reach) continue;
        const axa = ux * x0;
        const axb = ux * x1;
        const aya = uy * y0;
        const ayb = uy * y1;
        const aMin = (axa < axb ? axa : axb) + (aya < ayb ? aya : ayb);
        const aMax = (axa > axb ? axa : axb) + (aya > ayb ? aya : ayb);
        if (aMin > vLen + reach || aMax < -reach) continue;
      }
      const leaf = right - left <= nodeSize;
      let from = leaf ? left : (left + right) >> 1;
      let to = leaf ? right : from;
      if (leaf && band) {
        // The capsule's points over the leaf's longitudes [x0, x1] (metres) have a
        // perpendicular offset |Y - slope X| <= reach / |ux|, and Y within the capsule's own
        // extent: outside that latitude band chordFoot would reject them (same frame, same
        // reach; padded by a metre against rounding). The leaf is sorted by latitude.
        const x0 = (rMinX - lon0) * kx;
        const x1 = (rMaxX - lon0) * kx;
        const ya = slope * x0;
        const yb = slope * x1;
        let yLo = (ya < yb ? ya : yb) - halfBand;
        let yHi = (ya > yb ? ya : yb) + halfBand;
        if (yLo < capsuleMinY) yLo = capsuleMinY;
        if (yHi > capsuleMaxY) yHi = capsuleMaxY;
        const latLo = lat0 + (yLo - 1) / ky;
        const latHi = lat0 + (yHi + 1) / ky;
        from = firstAtLeast(coords, left, right + 1, latLo);
        to = firstAtLeast(coords, from, right + 1, latHi) - 1;
      }
      for (let j = from; j <= to; j++) {
        const x = coords[2 * j]!;
        const y = coords[2 * j + 1]!;
        // With pruning, the screen below rejects what the box would (the box is padded less
        // than the screen reaches), so the box tests are skipped. (Comparisons with NaN are
        // false: no box seen, nothing skipped.)
        if (!prune && (x < minX || x > maxX || y < minY || y > maxY || (x >= seenMinX && x <= seenMaxX && y >= seenMinY && y <= seenMaxY))) continue;
        if (filtered) {
          const v = ids[j]!;
          if ((caters[v]! & catersRequired) !== catersRequired || (chainRequired >= 0 && chain[v] !== chainRequired)) continue;
        }
        let t: number;
        let d: number;
        // Not among the k nearest from this piece: measured only to be counted, near the edge.
        let countOnly = false;
        if (polar) {
          if (hides && hidden[ids[j]!] !== 0) continue;
          t = polarFoot(y, x, lat0, lon0, lat1, lon1);
          d = polarFootDistance(y, x, t, lat0, lon0, lat1, lon1);
        } else {
          t = chordFoot(y, x, lat0, lon0, kx, ky, vx, vy, invVV, screenSq);
          if (t < 0) continue;
          if (hides && hidden[ids[j]!] !== 0) continue;
          const eSq = chordOffsetSq(y, x, t, lat0, lon0, kx, ky, vx, vy);
          if (eSq > keepSq) {
            if (stamp[j] === gen) continue; // counted already
            if (eSq <= innerSq) {
              stamp[j] = gen;
              slot[j] = COUNTED_ONLY;
              counted++;
              continue;
            }
            countOnly = true;
          }
          t = curveFoot(t, alongBulge);
          if (refine) t = refineFoot(y, x, t, lat0, lon0, kx, ky, vx, vy, bx, by);
          d = pieceFootDistance(y, x, t, lat0, lon0, dLatP, dLonP, bLatP, bLonP, midLatP, kx, ky, dkx, dky);
        }
        if (!(d <= width)) continue;
        if (countOnly) {
          stamp[j] = gen;
          slot[j] = COUNTED_ONLY;
          counted++;
          continue;
        }
        const along = along0 + t * pieceLength;
        if (stamp[j] !== gen || slot[j] === COUNTED_ONLY) {
          if (stamp[j] !== gen) counted++;
          stamp[j] = gen;
          slot[j] = out.push(ids[j]!, d, along);
          // One distance per venue written (its first: not below its smallest), so the k-th
          // smallest of them is never below the k-th smallest distance in the corridor.
          keepSq = keepSqOf(best.add(d), bulge);
        } else {
          // Nearer by more than a millimetre (SAME_PASS_METERS): equal passes keep the earliest.
          out.improve(slot[j]!, d, along);
        }
      }
      if (leaf) continue;
      const m = from;
      const split = axis === 0 ? coords[2 * m]! : coords[2 * m + 1]!;
      // Children: [left, m - 1] has coordinate <= split on `axis`, [m + 1, right] >= split.
      if (axis === 0 ? minX <= split : minY <= split) {
        NODES[3 * sp] = left;
        NODES[3 * sp + 1] = m - 1;
        NODES[3 * sp + 2] = 1 - axis;
        REGIONS[4 * sp] = rMinX;
        REGIONS[4 * sp + 1] = rMinY;
        REGIONS[4 * sp + 2] = axis === 0 ? Math.min(rMaxX, split) : rMaxX;
        REGIONS[4 * sp + 3] = axis === 0 ? rMaxY : Math.min(rMaxY, split);
        sp++;
      }
      if (axis === 0 ? maxX >= split : maxY >= split) {
        NODES[3 * sp] = m + 1;
        NODES[3 * sp + 1] = right;
        NODES[3 * sp + 2] = 1 - axis;
        REGIONS[4 * sp] = axis === 0 ? Math.max(rMinX, split) : rMinX;
        REGIONS[4 * sp + 1] = axis === 0 ? rMinY : Math.max(rMinY, split);
        REGIONS[4 * sp + 2] = rMaxX;
        REGIONS[4 * sp + 3] = rMaxY;
        sp++;
      }
    }
    this.counted = counted;
  }

  private nextGeneration(): number {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}

/** The first j in [lo, hi) whose latitude coords[2 j + 1] is >= lat (hi when none): [lo, hi) sorted by latitude. */
function firstAtLeast(coords: ArrayLike<number>, lo: number, hi: number, lat: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (coords[2 * mid + 1]! < lat) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Squared planar distance from a piece's chord over which a point is surely further from the
 * piece than `kth` metres (the k-th smallest distance written; +Infinity: fewer than k were).
 */
function keepSqOf(kth: number, bulge: number): number {
  if (kth === Number.POSITIVE_INFINITY) return kth;
  const reach = planarSurelyBeyond(kth, bulge);
  return reach * reach;
}
