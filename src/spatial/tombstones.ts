/**
 * Hidden venues of one spatial index (live data: replaced or removed since it was built),
 * kept two ways:
 * - `bytes`, one per dense venue index (non-zero: hidden), which every walk tests per venue;
 * - counts by tree position (a Fenwick tree over the kdbush tree's index order), so that a
 *   walk that counts a whole subtree by its size (a subtree is a contiguous index range:
 *   src/spatial/radius-walk.ts) subtracts its hidden venues in O(log n) instead of visiting
 *   them.
 *
 * Invariant: `bytes[v] !== 0` exactly for the venues given to {@link hide}, and
 * {@link hiddenIn}(a, b) is the number of them at tree positions a..b. A venue once hidden
 * stays hidden (a compaction builds a new index with new tombstones).
 */
export class Tombstones {
  /** Non-zero for the hidden venues (dense index); read, never written, by the walks. */
  readonly bytes: Uint8Array;
  /** Number of hidden venues. */
  count = 0;
  /** Tree position of each dense index. */
  private readonly position: Uint32Array;
  /** Fenwick tree (1-based) over tree positions: hidden counts. */
  private readonly fenwick: Int32Array;

  /** `treeIds`: the dense index at each tree position (kdbush's `ids`). */
  constructor(treeIds: ArrayLike<number>) {
    const n = treeIds.length;
    this.bytes = new Uint8Array(n);
    this.position = new Uint32Array(n);
    for (let p = 0; p < n; p++) this.position[treeIds[p]!] = p;
    this.fenwick = new Int32Array(n + 1);
  }

  /** Hides venue `v` (dense index); hiding it again changes nothing. */
  hide(v: number): void {
    if (this.bytes[v] !== 0) return;
    this.bytes[v] = 1;
    this.count++;
    const f = this.fenwick;
    for (let k = this.position[v]! + 1; k < f.length; k += k & -k) f[k]!++;
  }

  /** Hidden venues at tree positions `from`..`to` (inclusive; from <= to + 1). */
  hiddenIn(from: number, to: number): number {
    if (this.count === 0) return 0;
    return this.prefix(to + 1) - this.prefix(from);
  }

  /** Hidden venues at tree positions below `end`. */
  private prefix(end: number): number {
    const f = this.fenwick;
    let s = 0;
    for (let k = end; k > 0; k -= k & -k) s += f[k]!;
    return s;
  }
}
