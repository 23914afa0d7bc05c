/** Ranges at most this long are finished by insertion sort. */
const SMALL = 16;
/** Code units compared at once: each as `code + 1` (0 past the key's end) in 17 bits of one double. */
const UNITS = 3;
const UNIT = 2 ** 17;

/**
 * Sorts `order` (indices into `keys`) in place into ascending JavaScript string order of
 * their keys: code unit by code unit, as `<` compares strings (ties in any order). Returns
 * `order`.
 *
 * Multikey quicksort (Bentley and Sedgewick, "Fast algorithms for sorting and searching
 * strings", 1997), three code units at a time: the keys' next three units at the depth a
 * range's keys are known to share are packed into one number, kept in a Float64Array beside
 * `order` and moved with it, and the range is split three ways on them; only the equal part
 * goes on to the next three units. So each key's string is read once per three units of the
 * prefix it shares, not once per comparison: ids such as `osm-node-123456789` or `b123456`
 * share long prefixes, and a comparator sort of a million of them (venue-store's
 * idsInOrder) calls back into JavaScript ~20 million times, each comparison reading two
 * strings scattered in memory. A range recursing deeper than `depthBudget` (by default an
 * introsort-style bound, reached by adversarial keys only) falls back to the comparator sort.
 */
export function sortByString(keys: readonly string[], order: Uint32Array, depthBudget = 2 * Math.ceil(Math.log2(order.length + 2)) + 64): Uint32Array {
  const n = order.length;
  const chunks = new Float64Array(n);
  for (let k = 0; k < n; k++) chunks[k] = chunkAt(keys[order[k]!]!, 0);
  sortRange(keys, order, chunks, 0, n, 0, depthBudget);
  return order;
}

/** Code units depth .. depth + UNITS - 1 of `key`, each as code + 1 (0 past its end), as one number that orders as they do. */
function chunkAt(key: string, depth: number): number {
  const n = key.length;
  let chunk = 0;
  for (let u = 0; u < UNITS; u++) chunk = chunk * UNIT + (depth + u < n ? key.charCodeAt(depth + u) + 1 : 0);
  return chunk;
}

/**
 * Sorts order[lo, hi), whose keys share their first `depth` code units; chunks[lo, hi) hold
 * their chunks at `depth` (chunkAt).
 */
function sortRange(keys: readonly string[], order: Uint32Array, chunks: Float64Array, lo: number, hi: number, depth: number, budget: number): void {
  while (hi - lo > SMALL) {
    if (budget-- <= 0) {
      order.subarray(lo, hi).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
      return;
    }
    const pivot = medianOfThree(chunks[lo]!, chunks[(lo + hi) >>> 1]!, chunks[hi - 1]!);
    // Dijkstra's three-way partition: [lo, lt) below the pivot, [lt, gt] equal, (gt, hi) above.
    let lt = lo;
    let gt = hi - 1;
    let i = lo;
    while (i <= gt) {
      const c = chunks[i]!;
      if (c < pivot) {
        swap(order, chunks, lt++, i++);
      } else if (c > pivot) {
        swap(order, chunks, i, gt--);
      } else {
        i++;
      }
    }
    sortRange(keys, order, chunks, lo, lt, depth, budget);
    sortRange(keys, order, chunks, gt + 1, hi, depth, budget);
    // Keys that end within the equal chunk (its last unit past the end) are equal.
    if (pivot % UNIT === 0) return;
    lo = lt;
    hi = gt + 1;
    depth += UNITS;
    for (let k = lo; k < hi; k++) chunks[k] = chunkAt(keys[order[k]!]!, depth);
  }
  // Insertion sort: the keys share their first `depth` code units, so `<` on the whole keys decides.
  for (let i = lo + 1; i < hi; i++) {
    const v = order[i]!;
    const key = keys[v]!;
    let j = i - 1;
    while (j >= lo && keys[order[j]!]! > key) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = v;
  }
}

function swap(order: Uint32Array, chunks: Float64Array, a: number, b: number): void {
  const o = order[a]!;
  order[a] = order[b]!;
  order[b] = o;
  const c = chunks[a]!;
  chunks[a] = chunks[b]!;
  chunks[b] = c;
}

function medianOfThree(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}
