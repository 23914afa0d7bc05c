/**
 * The worst of the `k` smallest values (costs, distances) added so far (a bounded max-heap):
 * the threshold above which a venue cannot reach the page. +Infinity until k (>= 1) have
 * been added.
 */
export class WorstOfBest {
  private heap = new Float64Array(64);
  private size = 0;
  private k = 0;

  reset(k: number): void {
    this.k = k;
    this.size = 0;
    if (this.heap.length < k) this.heap = new Float64Array(k);
  }

  /** The current threshold (+Infinity while fewer than k were added). */
  get threshold(): number {
    return this.size < this.k ? Number.POSITIVE_INFINITY : this.heap[0]!;
  }

  /** Adds a cost; returns the current threshold. */
  add(cost: number): number {
    const h = this.heap;
    if (this.size < this.k) {
      let c = this.size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (h[p]! >= cost) break;
        h[c] = h[p]!;
        c = p;
      }
      h[c] = cost;
    } else if (cost < h[0]!) {
      // replace the root and sift down
      let c = 0;
      for (;;) {
        let w = 2 * c + 1;
        if (w >= this.size) break;
        if (w + 1 < this.size && h[w + 1]! > h[w]!) w++;
        if (h[w]! <= cost) break;
        h[c] = h[w]!;
        c = w;
      }
      h[c] = cost;
    }
    return this.size < this.k ? Number.POSITIVE_INFINITY : h[0]!;
  }
}
