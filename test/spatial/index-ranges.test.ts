// IndexRanges.orderByNear: the ranges nearer first, by equal buckets of the radius, the given
// order kept within a bucket. Oracle: Array.prototype.sort (stable) on each range's bucket,
// computed here from its `near` as the bucket's definition says.
import { describe, expect, it } from 'vitest';
import { IndexRanges } from '../../src/spatial/index-ranges.js';
import { prng } from '../support/oracle.js';

interface Range {
  lo: number;
  hi: number;
  near: number;
  whole: number;
}

function rows(r: IndexRanges): Range[] {
  return Array.from({ length: r.length }, (_, k) => ({ lo: r.lo[k]!, hi: r.hi[k]!, near: r.near[k]!, whole: r.whole[k]! }));
}

describe('IndexRanges.orderByNear', () => {
  it('orders by bucket of near over the radius, stable within a bucket, beyond the radius last', () => {
    const rnd = prng(11);
    const out = new IndexRanges(4); // grows to fit
    const counts = new Int32Array(9);
    for (const [n, radius, buckets] of [
      [0, 1000, 8],
      [1, 1000, 8],
      [300, 1000, 8],
      [57, 250, 3],
      [40, 5e-324, 8], // the smallest radius a request can give: every near > 0 beyond it
    ] as const) {
      const from = new IndexRanges(8);
      for (let k = 0; k < n; k++) {
        // distances from 0 to 1.2 radius, some exactly on a bucket's edge
        const near = k % 7 === 0 ? (Math.floor(rnd() * buckets) * radius) / buckets : rnd() * radius * 1.2;
        from.push(k * 10, k * 10 + Math.floor(rnd() * 9), near, rnd() < 0.5);
      }
      const given = rows(from);
      const bucketOf = (near: number) => Math.min(buckets - 1, Math.floor((near / radius) * buckets));
      const expected = [...given].sort((a, b) => bucketOf(a.near) - bucketOf(b.near));
      expect(rows(out.orderByNear(from, radius, buckets, counts))).toEqual(expected);
      // the source is left as it was
      expect(rows(from)).toEqual(given);
    }
  });
});
