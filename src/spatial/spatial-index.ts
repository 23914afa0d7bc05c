import KDBush from 'kdbush';
import { VenueSearchError } from '../errors.js';
import { BoxList } from '../geo/bbox.js';
import { LocalFrame, frameDistanceSq, localFrameHolds, ruledFromFrame, squaredRadius } from '../geo/distance.js';
import type { PreparedRoute } from '../geo/polyline.js';
import type { ColumnFilter } from './column-filter.js';
import { CorridorWalker } from './corridor.js';
import { GroupWalker } from './group-walk.js';
import { HitBuffer } from './hit-buffer.js';
import { nearestInto } from './kd-nearest.js';
import { leavesSortedByLat, sortLeavesByLat } from './leaf-order.js';
import { isIdentity, RadiusWalker } from './radius-walk.js';
import { Tombstones } from './tombstones.js';

const RANGE_STACK = new Uint32Array(3 * 64);
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_U8 = new Uint8Array(0);

/**
 * The spatial index over venue coordinates: a kdbush tree of (lon, lat) in degrees, built
 * once. Ids in the tree are the store's dense venue indices. Every query writes into a
 * caller-owned {@link HitBuffer} and returns the number of hits; hits come unsorted.
 * Distances are WGS84 metres from src/geo.
 */
export class SpatialIndex {
  readonly size: number;
  private readonly tree: KDBush;
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  private readonly boxes = new BoxList(4);
  private readonly corridor: CorridorWalker;
  /** Whether every leaf's points rise in latitude (leaf-order.ts): the corridor walk then binary-searches a leaf's latitude band. A snapshot records it. */
  readonly leavesSortedByLat: boolean;
  /** See {@link positionsAreVenues} (undefined until asked). */
  private identityOrder: boolean | undefined;
  /** {@link countWithinRadius}'s own walker and, for a circle the local frame does not hold for, hits (made at its first call). */
  private counter: RadiusWalker | null = null;
  private counted: HitBuffer | null = null;

  /**
   * Builds the tree over (lon[i], lat[i]) with `nodeSize` points per leaf, each leaf's points
   * sorted by latitude (leaf-order.ts), or takes `tree`, one built before over the same
   * coordinates (a snapshot's). `leavesSorted`: whether that tree's leaves are known sorted
   * (its snapshot's header says so); unknown, they are checked, a pass over every point
   * (about 4 ms at 1M venues, memory-bound). `positionsAreVenues`: whether that tree's
   * position k is known to hold venue k (its snapshot's header; undefined: found at the first
   * call of {@link positionsAreVenues}).
   */
  constructor(lat: Float64Array, lon: Float64Array, nodeSizeOrTree: number | KDBush = 64, leavesSorted?: boolean, positionsAreVenues?: boolean) {
    if (lat.length !== lon.length) throw new Error('lat and lon must have the same length');
    this.size = lat.length;
    this.lat = lat;
    this.lon = lon;
    if (typeof nodeSizeOrTree === 'number') {
      this.tree = new KDBush(this.size, nodeSizeOrTree, Float64Array);
      for (let i = 0; i < this.size; i++) this.tree.add(lon[i]!, lat[i]!);
      this.tree.finish();
      sortLeavesByLat(this.tree);
    } else {
      if (nodeSizeOrTree.numItems !== this.size) throw new Error(`the tree holds ${nodeSizeOrTree.numItems} points, the store ${this.size}`);
      this.tree = nodeSizeOrTree;
    }
    // A tree built here has its leaves sorted by latitude (and so has a snapshot written from
    // it); one from an older snapshot may not: the corridor walk then scans whole leaves.
    this.leavesSortedByLat = typeof nodeSizeOrTree === 'number' || (leavesSorted ?? leavesSortedByLat(this.tree));
    this.corridor = new CorridorWalker(this.tree, this.size, this.leavesSortedByLat);
    this.identityOrder = positionsAreVenues;
  }

  /** The tree's serialised form (kdbush's own format: `KDBush.from` restores it). */
  get treeData(): ArrayBuffer {
    return this.tree.data as ArrayBuffer;
  }

  /** Bytes held by the tree and the scratch arrays (not the coordinate columns). */
  get byteSize(): number {
    return this.tree.data.byteLength + this.corridor.byteSize;
  }

  /**
   * Every venue within `radius` metres of (lat, lon), inclusive; with `filter`, only the
   * venues it accepts (tested before the distance).
   */
  withinRadius(lat: number, lon: number, radius: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    out.clear();
    if (this.size === 0 || !(radius >= 0)) return 0;
    const filtered = filter !== null && !filter.acceptsAll;
    const caters = filter?.caters ?? EMPTY_U16;
    const chain = filter?.chain ?? EMPTY_U8;
    const catersRequired = filter?.catersRequired ?? 0;
    const chainRequired = filter?.chainRequired ?? -1;
    const boxes = this.boxes.clear();
    boxes.addPadded(lat, lon, lat, lon, radius);
    // The frame's coefficients in locals: the loops below read no object's properties.
    const local = localFrameHolds(lat, radius);
    const { kx0, kx1, kx2, ky0, ky1, ky2 } = new LocalFrame(lat, lon);
    const r2 = squaredRadius(radius);
    const { ids, coords, nodeSize } = this.tree;
    let oIdx = out.idx;
    let oDist = out.dist;
    let oAlong = out.along;
    let len = 0;
    for (let b = 0; b < boxes.count; b++) {
      const minX = boxes.coords[4 * b]!;
      const minY = boxes.coords[4 * b + 1]!;
      const maxX = boxes.coords[4 * b + 2]!;
      const maxY = boxes.coords[4 * b + 3]!;
      // kdbush's range walk, inlined with the exact distance test (no intermediate arrays).
      RANGE_STACK[0] = 0;
      RANGE_STACK[1] = ids.length - 1;
      RANGE_STACK[2] = 0;
      let sp = 3;
      while (sp > 0) {
        const axis = RANGE_STACK[--sp]!;
        const right = RANGE_STACK[--sp]!;
        const left = RANGE_STACK[--sp]!;
        // Room for every point a node can add (a leaf's points, or an inner node's middle
        // one) before it is scanned, so hits are written straight into the buffer's arrays
        // (held in locals) without a capacity check per hit.
        const room = right - left <= nodeSize ? right - left + 1 : 1;
        if (len + room > oIdx.length) {
          out.length = len;
          out.reserve(len + room);
          oIdx = out.idx;
          oDist = out.dist;
          oAlong = out.along;
        }
        if (right - left <= nodeSize) {
          for (let i = left; i <= right; i++) {
            const x = coords[2 * i]!;
            const y = coords[2 * i + 1]!;
            if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
              const v = ids[i]!;
              if (filtered && ((caters[v]! & catersRequired) !== catersRequired || (chainRequired >= 0 && chain[v] !== chainRequired))) continue;
              let d2 = frameDistanceSq(y, x, lat, lon, kx0, kx1, kx2, ky0, ky1, ky2);
              if (!local) d2 = sq(ruledFromFrame(Math.sqrt(d2), lat, lon, y, x));
              if (d2 <= r2) {
                oIdx[len] = v;
                oDist[len] = Math.sqrt(d2);
                oAlong[len] = 0;
                len++;
              }
            }
          }
          continue;
        }
        const m = (left + right) >> 1;
        const x = coords[2 * m]!;
        const y = coords[2 * m + 1]!;
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
          const v = ids[m]!;
          if (!filtered || ((caters[v]! & catersRequired) === catersRequired && (chainRequired < 0 || chain[v] === chainRequired))) {
            let d2 = frameDistanceSq(y, x, lat, lon, kx0, kx1, kx2, ky0, ky1, ky2);
            if (!local) d2 = sq(ruledFromFrame(Math.sqrt(d2), lat, lon, y, x));
            if (d2 <= r2) {
              oIdx[len] = v;
              oDist[len] = Math.sqrt(d2);
              oAlong[len] = 0;
              len++;
            }
          }
        }
        if (axis === 0 ? minX <= x : minY <= y) {
          RANGE_STACK[sp++] = left;
          RANGE_STACK[sp++] = m - 1;
          RANGE_STACK[sp++] = 1 - axis;
        }
        if (axis === 0 ? maxX >= x : maxY >= y) {
          RANGE_STACK[sp++] = m + 1;
          RANGE_STACK[sp++] = right;
          RANGE_STACK[sp++] = 1 - axis;
        }
      }
    }
    out.length = len;
    return out.length;
  }

  /**
   * How many venues lie within `radius` metres of (lat, lon), inclusive: the venues
   * {@link withinRadius} gives, less those hidden in `tombstones` (live data; null: none).
   * A subtree inside the circle counts as its size (RadiusWalker.countRest), so a 10 km
   * circle around a city centre measures only the venues of the leaves on its edge. Not
   * for a query path: the place resolver's choice among places of one name.
   */
  countWithinRadius(lat: number, lon: number, radius: number, tombstones: Tombstones | null = null): number {
    const walker = (this.counter ??= this.radiusWalker());
    if (walker.begin(lat, lon, radius, null, tombstones)) return walker.countRest();
    // the exact distance (a circle the local frame does not hold for): measured venue by venue
    const hits = (this.counted ??= new HitBuffer(64));
    const n = this.withinRadius(lat, lon, radius, hits);
    if (tombstones === null || tombstones.count === 0) return n;
    let live = 0;
    for (let h = 0; h < n; h++) if (tombstones.bytes[hits.idx[h]!] === 0) live++;
    return live;
  }

  /**
   * Every venue within `width` metres of the route (inclusive), with its distance from the
   * route and the along-route position of its nearest point. A venue near several pieces
   * (a route that doubles back) keeps its smallest distance; on a tie (within a micrometre),
   * the earliest piece. With `filter`, only the venues it accepts (tested before measuring).
   */
  withinCorridor(route: PreparedRoute, width: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    out.clear();
    if (this.size === 0 || !(width >= 0)) return 0;
    return this.corridor.walk(route, width, out, filter);
  }

  /**
   * The number of venues within `width` metres of the route (as {@link withinCorridor} finds
   * them), writing into `out` (cleared first) at least the `k` nearest to the route (k >= 1;
   * all those tied with the k-th) with their distances and along-route positions, and
   * perhaps others: the venues that cannot be among the k nearest are only counted, most of
   * them without an exact distance (CorridorWalker.countNearest).
   */
  countCorridorNearest(route: PreparedRoute, width: number, k: number, out: HitBuffer, filter: ColumnFilter | null = null): number {
    out.clear();
    if (this.size === 0 || !(width >= 0)) return 0;
    return this.corridor.countNearest(route, width, Math.max(1, k), out, filter);
  }

  /**
   * Whether tree position k holds venue k (the engine's trees: src/engine.ts buildStore puts
   * the venues in tree order; RadiusWalker.positionsAreVenues). Given to the constructor when
   * known (a built engine's tree, a snapshot's header); otherwise found at the first call, a
   * pass over every id (1 ms at 1M venues optimised, up to 16 ms when it runs unoptimised),
   * then kept.
   */
  get positionsAreVenues(): boolean {
    this.identityOrder ??= isIdentity(this.tree.ids);
    return this.identityOrder;
  }

  /** A nearest-first radius walker of this tree (counts whole subtrees): src/spatial/radius-walk.ts. */
  radiusWalker(): RadiusWalker {
    return new RadiusWalker(this.tree, this.positionsAreVenues);
  }

  /** Empty tombstones of this tree's venues (live data: hidden venues counted by tree position). */
  tombstones(): Tombstones {
    return new Tombstones(this.tree.ids);
  }

  /** A walker of this tree for group (fair meeting point) queries: src/spatial/group-walk.ts. */
  groupWalker(): GroupWalker {
    return new GroupWalker(this.tree);
  }

  /**
   * The `k` nearest venues to (lat, lon) within `maxDistance` metres (Infinity for no
   * limit), nearest first; ties broken by venue index.
   */
  nearest(lat: number, lon: number, k: number, maxDistance: number, out: HitBuffer): number {
    out.clear();
    if (!Number.isInteger(k) || k < 0) {
      throw new VenueSearchError('invalid_request', `k must be a non-negative integer; got ${k}`, { param: 'k', value: k });
    }
    if (this.size === 0 || k === 0) return 0;
    return nearestInto(this.tree, lat, lon, k, maxDistance, out);
  }
}

function sq(x: number): number {
  return x * x;
}
