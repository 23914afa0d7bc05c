import type KDBush from 'kdbush';
import { BoxList } from '../geo/bbox.js';
import { wrapLonDelta } from '../geo/ellipsoid.js';
import { SCREEN_STRIDE, pieceFootDistance, type PreparedRoute } from '../geo/polyline.js';
import type { ColumnFilter } from './column-filter.js';
import type { HitBuffer } from './hit-buffer.js';

// Walk stack, one entry per pending node: NODES holds left, right and axis (integers, so
// the hot loop indexes the tree's arrays with small integers, not doubles), REGIONS the
// node's region minLon, minLat, maxLon, maxLat (degrees). A depth-first walk holds at most
// one pending sibling per level, and a kdbush tree is under 40 levels deep even for 2^32
// points.
const NODES = new Int32Array(3 * 64);
const REGIONS = new Float64Array(4 * 64);
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_U8 = new Uint8Array(0);

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
 * Scratch (`stamp`, `slot`, boxes) is owned here and reused: not re-entrant.
 */
export class CorridorWalker {
  private readonly tree: KDBush;
  private readonly boxes = new BoxList(4);
  // Corridor scratch: `stamp[i] === generation` marks point i as already hit in this query,
  // at slot `slot[i]` of the output buffer.
  private readonly stamp: Uint32Array;
  private readonly slot: Uint32Array;
  private generation = 0;
  // minLon, minLat, maxLon, maxLat of the box whose points a stretch walk skips (they were
  // measured against the same piece by the previous stretch); NaN: none.
  private readonly seen = new Float64Array(4);
  // The current walk's column prefilter (null: none).
  private filter: ColumnFilter | null = null;

  constructor(tree: KDBush, size: number) {
    this.tree = tree;
    this.stamp = new Uint32Array(size);
    this.slot = new Uint32Array(size);
  }

  get byteSize(): number {
    return this.stamp.byteLength + this.slot.byteLength;
  }

  /**
   * Writes into `out` every point within `width` metres of the route (inclusive), with its
   * distance and along-route position. A point near several pieces (a route that doubles
   * back) keeps its smallest distance; on a tie (within a micrometre), the earliest piece.
   */
  walk(route: PreparedRoute, width: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    this.filter = filter !== null && !filter.acceptsAll ? filter : null;
    const gen = this.nextGeneration();
    const boxes = this.boxes;
    const screen = route.corridorScreen(width);
    for (let piece = 0; piece < route.pieceCount; piece++) {
      boxes.clear();
      route.pieceBoxes(piece, width, boxes);
      if (boxes.count === 1 && screen[piece * SCREEN_STRIDE + 8] === 0) {
        this.seen.fill(Number.NaN);
        this.walkBox(route, screen, piece, width, true, gen, out);
        continue;
      }
      const parts = route.pieceBoxParts(piece, width);
      this.seen.fill(Number.NaN);
      for (let part = 0; part < parts; part++) {
        boxes.clear();
        route.pieceBoxes(piece, width, boxes, part, parts);
        for (let b = 0; b < boxes.count; b++) this.walkBox(route, screen, piece, width, false, gen, out, b);
        if (boxes.count === 1) this.seen.set(boxes.coords.subarray(0, 4));
        else this.seen.fill(Number.NaN);
      }
    }
    return out.length;
  }

  /**
   * kdbush's range walk over box `b` of `this.boxes`, measuring each point in it against
   * route piece `piece`, and, when `prune`, skipping subtrees whose region fails the
   * separating-axis test against the piece's screen capsule. Reads coordinates from the
   * tree's own (spatially sorted) arrays.
   */
  private walkBox(route: PreparedRoute, screen: Float64Array, piece: number, width: number, prune: boolean, gen: number, out: HitBuffer, b = 0): void {
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
    const s = piece * SCREEN_STRIDE;
    const lat0 = screen[s]!;
    const lon0 = screen[s + 1]!;
    const kx = screen[s + 2]!;
    const ky = screen[s + 3]!;
    const vx = screen[s + 4]!;
    const vy = screen[s + 5]!;
    const invVV = screen[s + 6]!;
    const screenSq = screen[s + 7]!;
    const polar = screen[s + 8] === 1;
    const refine = screen[s + 9] === 1;
    const along0 = screen[s + 17]!;
    const pieceLength = screen[s + 18]!;
    const dLatP = screen[s + 10]!;
    const dLonP = screen[s + 11]!;
    const bLatP = screen[s + 12]!;
    const bLonP = screen[s + 13]!;
    const midLatP = screen[s + 14]!;
    const dkx = screen[s + 15]!;
    const dky = screen[s + 16]!;
    // The capsule in the piece's planar frame (metres): unit vector u along the chord, its
    // length, and the screen radius around it.
    const vLen = Math.sqrt(vx * vx + vy * vy);
    const ux = vLen > 0 ? vx / vLen : 1;
    const uy = vLen > 0 ? vy / vLen : 0;
    const reach = Math.sqrt(screenSq);
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
      const from = leaf ? left : (left + right) >> 1;
      const to = leaf ? right : from;
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
        let d: number;
        let along: number;
        if (polar) {
          d = route.polarDistanceToPiece(piece, y, x);
          along = route.lastAlong;
        } else {
          const dx = x - lon0;
          const px = (dx >= -180 && dx < 180 ? dx : wrapLonDelta(dx)) * kx;
          const py = (y - lat0) * ky;
          let t = (px * vx + py * vy) * invVV;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ex = px - t * vx;
          const ey = py - t * vy;
          if (ex * ex + ey * ey > screenSq) continue;
          if (refine) t = route.refineChordFoot(piece, y, x, t);
          d = pieceFootDistance(y, x, t, lat0, lon0, dLatP, dLonP, bLatP, bLonP, midLatP, kx, ky, dkx, dky);
          along = along0 + t * pieceLength;
        }
        if (!(d <= width)) continue;
        const i = ids[j]!;
        if (stamp[i] !== gen) {
          stamp[i] = gen;
          slot[i] = out.push(i, d, along);
        } else {
          const k = slot[i]!;
          // Strictly nearer by more than float noise: equal passes keep the earliest.
          if (d < out.dist[k]! - 1e-6) {
            out.dist[k] = d;
            out.along[k] = along;
          }
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

  private nextGeneration(): number {
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}
