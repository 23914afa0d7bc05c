import type KDBush from 'kdbush';
import { distanceMeters } from '../geo/distance.js';
import { sphericalBoxLowerBound } from '../geo/box-distance.js';
import type { HitBuffer } from './hit-buffer.js';

/**
 * k-nearest neighbours on a kdbush tree of (lon, lat) degrees, best-first (as geokdbush),
 * with WGS84 distances. The queue holds tree nodes keyed by a lower bound of the distance to
 * their box and points keyed by their exact distance; popping a point therefore yields the
 * next nearest. The bound (src/geo/box-distance.ts) is the great-circle distance on a sphere
 * of the smallest radius of curvature of the ellipsoid, shrunk by a safety factor, so it
 * never exceeds the truth.
 */

export function nearestInto(tree: KDBush, lat: number, lon: number, k: number, maxDistance: number, out: HitBuffer): number {
  const { ids, coords, nodeSize } = tree;
  const queue = new Queue();
  // A node: [left, right] of the sorted arrays, its split axis and its box.
  queue.pushNode(0, 0, ids.length - 1, 0, -180, -90, 180, 90);
  while (queue.size > 0) {
    const item = queue.pop();
    const key = queue.poppedKey;
    if (key > maxDistance) break;
    // Once k are found, keep only what ties with the k-th, so ties resolve by index.
    if (out.length >= k && key > out.dist[out.length - 1]!) break;
    if (item < 0) {
      out.push(-item - 1, key);
      continue;
    }
    const { left, right, axis, minX, minY, maxX, maxY } = queue.node(item);
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) {
        const id = ids[i]!;
        queue.pushPoint(distanceMeters(lat, lon, coords[2 * i + 1]!, coords[2 * i]!), id);
      }
      continue;
    }
    const m = (left + right) >> 1;
    const mx = coords[2 * m]!;
    const my = coords[2 * m + 1]!;
    queue.pushPoint(distanceMeters(lat, lon, my, mx), ids[m]!);
    // left child: [left, m-1], box cut at the median on this axis
    if (m - 1 >= left) {
      const bx = axis === 0 ? mx : maxX;
      const by = axis === 1 ? my : maxY;
      queue.pushNode(sphericalBoxLowerBound(lon, lat, minX, minY, bx, by), left, m - 1, 1 - axis, minX, minY, bx, by);
    }
    if (right >= m + 1) {
      const ax = axis === 0 ? mx : minX;
      const ay = axis === 1 ? my : minY;
      queue.pushNode(sphericalBoxLowerBound(lon, lat, ax, ay, maxX, maxY), m + 1, right, 1 - axis, ax, ay, maxX, maxY);
    }
  }
  // Equal distances pop in heap order; make ties deterministic by venue index.
  sortTies(out);
  if (out.length > k) out.length = k;
  return out.length;
}

function sortTies(out: HitBuffer): void {
  for (let i = 1; i < out.length; i++) {
    const d = out.dist[i]!;
    const id = out.idx[i]!;
    let j = i - 1;
    while (j >= 0 && out.dist[j] === d && out.idx[j]! > id) {
      out.idx[j + 1] = out.idx[j]!;
      out.dist[j + 1] = out.dist[j]!;
      j--;
    }
    out.idx[j + 1] = id;
    out.dist[j + 1] = d;
  }
}

/**
 * A binary min-heap of items keyed by distance. Items >= 0 are node slots; items < 0 are
 * points, encoded as -(id + 1). Node data lives in a growable Float64Array pool.
 */
class Queue {
  private keys: number[] = [];
  private items: number[] = [];
  private nodes = new Float64Array(7 * 64);
  private nodeCount = 0;
  poppedKey = 0;

  get size(): number {
    return this.items.length;
  }

  pushPoint(dist: number, id: number): void {
    this.push(dist, -id - 1);
  }

  pushNode(bound: number, left: number, right: number, axis: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if ((this.nodeCount + 1) * 7 > this.nodes.length) {
      const grown = new Float64Array(this.nodes.length * 2);
      grown.set(this.nodes);
      this.nodes = grown;
    }
    const o = this.nodeCount * 7;
    this.nodes[o] = left;
    this.nodes[o + 1] = right;
    this.nodes[o + 2] = axis;
    this.nodes[o + 3] = minX;
    this.nodes[o + 4] = minY;
    this.nodes[o + 5] = maxX;
    this.nodes[o + 6] = maxY;
    this.push(bound, this.nodeCount++);
  }

  node(slot: number) {
    const o = slot * 7;
    const n = this.nodes;
    return { left: n[o]!, right: n[o + 1]!, axis: n[o + 2]!, minX: n[o + 3]!, minY: n[o + 4]!, maxX: n[o + 5]!, maxY: n[o + 6]! };
  }

  private push(key: number, item: number): void {
    const keys = this.keys;
    const items = this.items;
    let pos = items.length;
    keys.push(key);
    items.push(item);
    while (pos > 0) {
      const parent = (pos - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[pos] = keys[parent]!;
      items[pos] = items[parent]!;
      pos = parent;
    }
    keys[pos] = key;
    items[pos] = item;
  }

  /** Removes the smallest item; its key is left in `poppedKey`. */
  pop(): number {
    const keys = this.keys;
    const items = this.items;
    const top = items[0]!;
    this.poppedKey = keys[0]!;
    const lastKey = keys.pop()!;
    const lastItem = items.pop()!;
    const n = items.length;
    if (n > 0) {
      let pos = 0;
      const half = n >> 1;
      while (pos < half) {
        let child = 2 * pos + 1;
        if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
        if (keys[child]! >= lastKey) break;
        keys[pos] = keys[child]!;
        items[pos] = items[child]!;
        pos = child;
      }
      keys[pos] = lastKey;
      items[pos] = lastItem;
    }
    return top;
  }
}
