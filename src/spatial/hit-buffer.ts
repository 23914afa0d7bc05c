/**
 * Two passes of a route nearer to a venue than this to each other (metres) are a tie, won by
 * the earliest. A millimetre: well above the distance's rounding (a piece's distance is
 * exact to about 1e-6 m, so the same ground measured from two pieces differs by that much),
 * well below what any data can tell apart.
 */
export const SAME_PASS_METERS = 1e-3;

/**
 * Query results as parallel typed arrays: venue index, distance (metres) and, for corridor
 * queries, position along the route (metres). Grows by doubling and is reused across
 * queries, so a steady stream of queries allocates nothing. Valid entries: [0, length).
 */
export class HitBuffer {
  idx: Uint32Array;
  dist: Float64Array;
  along: Float64Array;
  length = 0;

  constructor(capacity = 1024) {
    this.idx = new Uint32Array(capacity);
    this.dist = new Float64Array(capacity);
    this.along = new Float64Array(capacity);
  }

  clear(): this {
    this.length = 0;
    return this;
  }

  push(index: number, distance: number, along = 0): number {
    if (this.length === this.idx.length) this.grow();
    const k = this.length++;
    this.idx[k] = index;
    this.dist[k] = distance;
    this.along[k] = along;
    return k;
  }

  /** Grows the arrays (keeping hits [0, length)) to hold at least `n` hits. */
  reserve(n: number): void {
    while (this.idx.length < n) this.grow();
  }

  /**
   * Hit `k` takes (distance, along) when nearer by more than SAME_PASS_METERS: equal passes
   * (a route that doubles back over the same ground) keep the earliest.
   */
  improve(k: number, distance: number, along: number): void {
    if (distance < this.dist[k]! - SAME_PASS_METERS) {
      this.dist[k] = distance;
      this.along[k] = along;
    }
  }

  /** Removes the hits farther than `maxDist` metres (order kept); returns how many were removed. */
  dropFartherThan(maxDist: number): number {
    const { idx, dist, along } = this;
    const n = this.length;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      if (dist[k]! > maxDist) continue;
      idx[kept] = idx[k]!;
      dist[kept] = dist[k]!;
      along[kept] = along[k]!;
      kept++;
    }
    this.length = kept;
    return n - kept;
  }

  private grow(): void {
    const cap = this.idx.length * 2 || 16;
    const idx = new Uint32Array(cap);
    const dist = new Float64Array(cap);
    const along = new Float64Array(cap);
    idx.set(this.idx);
    dist.set(this.dist);
    along.set(this.along);
    this.idx = idx;
    this.dist = dist;
    this.along = along;
  }
}
