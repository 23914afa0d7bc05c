/**
 * The K best of a stream of (venue, cost) pairs: smaller cost first, ties by venue id
 * (string order, via `idOf`) or, given `idRank` (each venue's rank in id order), by that
 * rank: the same order in one integer compare, for relevance keys, where ties are the
 * rule, not the exception.
 * Either way the order is total, so paging is stable. A bounded max-heap on typed arrays:
 * O(log K) per accepted entry, one comparison per rejected one.
 */
export class TopK {
  private venue = new Uint32Array(64);
  private cost = new Float64Array(64);
  private k = 0;
  private n = 0;
  private readonly idOf: (venue: number) => string;
  private idRank: Uint32Array | null = null;

  constructor(idOf: (venue: number) => string) {
    this.idOf = idOf;
  }

  /** Starts a new selection of at most `k` entries; `idRank`: see the class comment. */
  reset(k: number, idRank: Uint32Array | null = null): void {
    this.k = k;
    this.idRank = idRank;
    this.n = 0;
    if (this.venue.length < k) {
      this.venue = new Uint32Array(k);
      this.cost = new Float64Array(k);
    }
  }

  get length(): number {
    return this.n;
  }

  /** a worse than b: higher cost, or equal cost and greater id. */
  private worse(va: number, ca: number, vb: number, cb: number): boolean {
    if (ca !== cb) return ca > cb;
    const rank = this.idRank;
    return rank !== null ? rank[va]! > rank[vb]! : this.idOf(va) > this.idOf(vb);
  }

  /** Reads what an offer of venue `v` may compare it by (its idRank entry), ahead of the offer; returns it (0 without idRank). */
  touch(v: number): number {
    const rank = this.idRank;
    return rank !== null ? rank[v]! : 0;
  }

  offer(v: number, c: number): void {
    if (this.k === 0) return;
    const { venue, cost } = this;
    if (this.n < this.k) {
      // sift up
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(v, c, venue[p]!, cost[p]!)) break;
        venue[i] = venue[p]!;
        cost[i] = cost[p]!;
        i = p;
      }
      venue[i] = v;
      cost[i] = c;
      return;
    }
    if (!this.worse(venue[0]!, cost[0]!, v, c)) return; // not better than the worst kept
    // replace the root and sift down
    const n = this.n;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let m = l;
      if (r < n && this.worse(venue[r]!, cost[r]!, venue[l]!, cost[l]!)) m = r;
      if (!this.worse(venue[m]!, cost[m]!, v, c)) break;
      venue[i] = venue[m]!;
      cost[i] = cost[m]!;
      i = m;
    }
    venue[i] = v;
    cost[i] = c;
  }

  /** The kept entries, best first (allocates the small result arrays). */
  sorted(): { venues: number[]; costs: number[] } {
    const order: number[] = [];
    for (let i = 0; i < this.n; i++) order.push(i);
    order.sort((a, b) => {
      const ca = this.cost[a]!;
      const cb = this.cost[b]!;
      if (ca !== cb) return ca - cb;
      const rank = this.idRank;
      if (rank !== null) return rank[this.venue[a]!]! - rank[this.venue[b]!]!;
      const ia = this.idOf(this.venue[a]!);
      const ib = this.idOf(this.venue[b]!);
      return ia < ib ? -1 : ia > ib ? 1 : 0;
    });
    return { venues: order.map((i) => this.venue[i]!), costs: order.map((i) => this.cost[i]!) };
  }
}
