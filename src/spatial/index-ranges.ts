/**
 * Ranges [lo, hi] (inclusive) of dense venue indices, in parallel typed arrays: the kd-tree
 * nodes a walk handed over whole (a subtree of the engine's kd-tree is a contiguous index
 * range, src/engine.ts buildStore). Grows by doubling, reused across queries. Valid entries:
 * [0, length).
 */
export class IndexRanges {
  lo: Int32Array;
  hi: Int32Array;
  /** A lower bound (metres) of the distance of the range's venues from the walk's centre. */
  near: Float64Array;
  /** 1 when every venue of the range lies in the walk's circle. */
  whole: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.lo = new Int32Array(capacity);
    this.hi = new Int32Array(capacity);
    this.near = new Float64Array(capacity);
    this.whole = new Uint8Array(capacity);
  }

  clear(): this {
    this.length = 0;
    return this;
  }

  /**
   * Fills this with the ranges of `from`, nearer ones first: by `near` in `buckets` equal
   * buckets of [0, radius] (a counting sort: O(n); the given order kept within a bucket, a
   * `near` beyond `radius` in the last bucket). `radius` > 0, every `near` >= 0. `counts` is
   * scratch of at least buckets + 1.
   */
  orderByNear(from: IndexRanges, radius: number, buckets: number, counts: Int32Array): this {
    const n = from.length;
    while (this.lo.length < n) this.grow();
    counts.fill(0, 0, buckets + 1);
    const { near } = from;
    for (let r = 0; r < n; r++) counts[nearBucket(near[r]!, radius, buckets) + 1]!++;
    for (let b = 1; b <= buckets; b++) counts[b]! += counts[b - 1]!;
    for (let r = 0; r < n; r++) {
      const to = counts[nearBucket(near[r]!, radius, buckets)]!++;
      this.lo[to] = from.lo[r]!;
      this.hi[to] = from.hi[r]!;
      this.near[to] = near[r]!;
      this.whole[to] = from.whole[r]!;
    }
    this.length = n;
    return this;
  }

  push(lo: number, hi: number, near: number, whole: boolean): void {
    if (this.length === this.lo.length) this.grow();
    this.lo[this.length] = lo;
    this.hi[this.length] = hi;
    this.near[this.length] = near;
    this.whole[this.length] = whole ? 1 : 0;
    this.length++;
  }

  private grow(): void {
    const lo = new Int32Array(this.lo.length * 2);
    lo.set(this.lo);
    this.lo = lo;
    const hi = new Int32Array(this.hi.length * 2);
    hi.set(this.hi);
    this.hi = hi;
    const near = new Float64Array(this.near.length * 2);
    near.set(this.near);
    this.near = near;
    const whole = new Uint8Array(this.whole.length * 2);
    whole.set(this.whole);
    this.whole = whole;
  }
}

/**
 * The bucket (0 to buckets - 1) of a lower distance bound `near` among `buckets` equal
 * buckets of [0, radius]; beyond `radius`, the last. near / radius, not near * (buckets /
 * radius): a radius of a few ulps (>= 5e-324) makes that factor Infinity, and 0 * Infinity
 * is NaN.
 */
function nearBucket(near: number, radius: number, buckets: number): number {
  return Math.min(buckets - 1, Math.floor((near / radius) * buckets));
}
