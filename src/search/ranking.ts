/**
 * A page of at most this many matches is selected with the heap even when it is a large
 * part of the matches (a few dozen, as each side of a live search leaves): a sort of every
 * match would go through the comparator sort (over {@link SORT_BY_INSERTION_UP_TO}).
 */
const SELECT_BELOW = 64;
/** Slot lists up to this length are sorted by insertion (TypedArray#sort with a comparator copies and calls back, ~10x slower there). */
const SORT_BY_INSERTION_UP_TO = 24;
/**
 * Pages of at most this many best matches are selected into a sorted list by insertion
 * rather than with the heap: no sort of the heap at the end. A POINT page of 20 from the
 * 60 to 80 matches a threshold rank leaves: 0.7 against 1.3 µs; from 5,000 random matches
 * about the same either way (bench/diag of 2026-11-29, plain loops over dumped rankings).
 */
const INSERT_TOP_UP_TO = 32;

/**
 * The matches of one query in parallel typed arrays, and the contract's order over them:
 * `total` descending, then distance ascending, then venue id ascending (JavaScript string
 * order, i.e. UTF-16 code units). The order is total (ids are unique), so `offset` paging
 * never repeats or skips a venue while the data is unchanged.
 *
 * A page [offset, offset + limit) needs only the best K = offset + limit matches: when K is
 * small against the number of matches, or at most {@link SELECT_BELOW}, they are selected
 * (K at most {@link INSERT_TOP_UP_TO}: into a sorted list by insertion; more: with a bounded
 * binary heap, O(n log K)), otherwise an index permutation is sorted. Reused across queries.
 */
export class Ranking {
  venue: Uint32Array;
  total: Float64Array;
  dist: Float64Array;
  along: Float64Array;
  length = 0;
  private heap: Uint32Array;
  private readonly idOf: (venue: number) => string;

  /** `idOf(venue)` breaks ties. */
  constructor(idOf: (venue: number) => string, capacity = 1024) {
    this.idOf = idOf;
    this.venue = new Uint32Array(capacity);
    this.total = new Float64Array(capacity);
    this.dist = new Float64Array(capacity);
    this.along = new Float64Array(capacity);
    this.heap = new Uint32Array(capacity);
  }

  clear(): void {
    this.length = 0;
  }

  push(venue: number, total: number, dist: number, along: number): void {
    if (this.length === this.venue.length) this.grow();
    const k = this.length++;
    this.venue[k] = venue;
    this.total[k] = total;
    this.dist[k] = dist;
    this.along[k] = along;
  }

  /** Grows the arrays to hold at least `n` matches (so a loop can write into them directly). */
  reserve(n: number): void {
    while (this.venue.length < n) this.grow();
  }

  /**
   * Replaces the matches with the first `n` hits, all with total `total` (a query that asked
   * for nothing): bulk copies instead of a push per hit.
   */
  setAll(n: number, venue: Uint32Array, dist: Float64Array, along: Float64Array, total: number): void {
    while (this.venue.length < n) this.grow();
    this.venue.set(venue.subarray(0, n));
    this.dist.set(dist.subarray(0, n));
    this.along.set(along.subarray(0, n));
    this.total.fill(total, 0, n);
    this.length = n;
  }

  /**
   * Drops the matches whose `dist` exceeds `maxDist`, keeping the others in place order;
   * returns how many were dropped. For a caller that knows the page's worst distance: the
   * page is then sorted from the few that can reach it.
   */
  dropFartherThan(maxDist: number): number {
    const { venue, total, dist, along } = this;
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      if (dist[i]! > maxDist) continue;
      venue[kept] = venue[i]!;
      total[kept] = total[i]!;
      dist[kept] = dist[i]!;
      along[kept] = along[i]!;
      kept++;
    }
    const dropped = this.length - kept;
    this.length = kept;
    return dropped;
  }

  /** Whether match a ranks before match b. */
  before(a: number, b: number): boolean {
    const ta = this.total[a]!;
    const tb = this.total[b]!;
    if (ta !== tb) return ta > tb;
    const da = this.dist[a]!;
    const db = this.dist[b]!;
    if (da !== db) return da < db;
    return this.idOf(this.venue[a]!) < this.idOf(this.venue[b]!);
  }

  /**
   * Match slots of ranks [offset, offset + limit), in order: a view of this ranking's
   * scratch, valid until the next page (a copy, `slice`, allocates a fresh buffer: about
   * 1 µs, as much as the rest of a page of 20 from a few dozen matches).
   */
  page(offset: number, limit: number): Uint32Array {
    const n = this.length;
    const k = Math.min(n, offset + limit);
    if (offset >= k) return this.heap.subarray(0, 0);
    const top = k * 4 >= n && (k === n || k > SELECT_BELOW) ? this.sortAll() : this.selectTop(k);
    return top.subarray(offset, k);
  }

  private sortAll(): Uint32Array {
    const order = this.heap.subarray(0, this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    this.sortSlots(order);
    return order;
  }

  /** The best k slots in order: a heap whose root is the worst of the best k seen so far. */
  private selectTop(k: number): Uint32Array {
    if (k <= INSERT_TOP_UP_TO) return this.insertTop(k);
    const heap = this.heap;
    const total = this.total;
    const dist = this.dist;
    const n = this.length;
    let j = 0;
    for (; j < n && j < k; j++) {
      // sift up: parents rank after (are worse than) children
      let c = j;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!this.before(heap[p]!, j)) break;
        heap[c] = heap[p]!;
        c = p;
      }
      heap[c] = j;
    }
    // The heap is full: the root's total and distance, kept in locals, reject most of a
    // large area's candidates with one or two comparisons.
    let root = heap[0]!;
    let rootTotal = total[root]!;
    let rootDist = dist[root]!;
    for (; j < n; j++) {
      const t = total[j]!;
      if (t < rootTotal || (t === rootTotal && dist[j]! > rootDist)) continue;
      if (!this.before(j, root)) continue;
      this.siftDown(j, k);
      root = heap[0]!;
      rootTotal = total[root]!;
      rootDist = dist[root]!;
    }
    const out = heap.subarray(0, Math.min(n, k));
    this.sortSlots(out);
    return out;
  }

  /**
   * The best k slots in order (k >= 1), kept sorted as they are found: a match that ranks
   * before the k-th so far is shifted in from the end. The k-th's total and distance, kept in
   * locals, reject most matches with one or two comparisons, as in {@link selectTop}.
   */
  private insertTop(k: number): Uint32Array {
    const out = this.heap;
    const total = this.total;
    const dist = this.dist;
    const n = this.length;
    let m = 0;
    let worstTotal = Number.NEGATIVE_INFINITY;
    let worstDist = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      const t = total[j]!;
      const d = dist[j]!;
      if (m === k) {
        if (t < worstTotal || (t === worstTotal && d > worstDist) || !this.before(j, out[k - 1]!)) continue;
        m--; // the k-th leaves the list
      }
      // shift in: past every slot j ranks before (its total and distance decide but on a tie of both)
      let i = m;
      while (i > 0) {
        const p = out[i - 1]!;
        const tp = total[p]!;
        if (t < tp || (t === tp && (d > dist[p]! || (d === dist[p]! && !this.before(j, p))))) break;
        out[i] = p;
        i--;
      }
      out[i] = j;
      m++;
      if (m === k) {
        worstTotal = total[out[k - 1]!]!;
        worstDist = dist[out[k - 1]!]!;
      }
    }
    return out.subarray(0, m);
  }

  /** Sorts slots into rank order: insertion sort for a page-sized list. */
  private sortSlots(slots: Uint32Array): void {
    if (slots.length > SORT_BY_INSERTION_UP_TO) {
      slots.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
      return;
    }
    for (let i = 1; i < slots.length; i++) {
      const item = slots[i]!;
      let j = i - 1;
      while (j >= 0 && this.before(item, slots[j]!)) {
        slots[j + 1] = slots[j]!;
        j--;
      }
      slots[j + 1] = item;
    }
  }

  private siftDown(item: number, size: number): void {
    const heap = this.heap;
    let c = 0;
    for (;;) {
      let w = 2 * c + 1;
      if (w >= size) break;
      const r = w + 1;
      if (r < size && this.before(heap[w]!, heap[r]!)) w = r; // the worse child
      if (!this.before(item, heap[w]!)) break;
      heap[c] = heap[w]!;
      c = w;
    }
    heap[c] = item;
  }

  private grow(): void {
    const cap = this.venue.length * 2;
    const grow64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const venue = new Uint32Array(cap);
    venue.set(this.venue);
    this.venue = venue;
    this.total = grow64(this.total);
    this.dist = grow64(this.dist);
    this.along = grow64(this.along);
    this.heap = new Uint32Array(cap);
  }
}
