/**
 * Hidden venues of one spatial index (live data: replaced or removed since it was built),
 * kept two ways:
 * - `bytes`, one per dense venue index (non-zero: hidden), which every walk tests per venue;
 * - a bit per tree position (kdbush's index order) with the hidden count before each word of
 *   32 bits, so that a walk that counts a whole subtree by its size (a subtree is a
 *   contiguous position range: src/spatial/radius-walk.ts) subtracts its hidden venues in
 *   O(1): a word read and a population count at each end. At 1M venues the bits and the
 *   counts take 125 KB each, where the Fenwick tree kept before took 4 MB (its ~20 reads a
 *   prefix were not measurably slower: bench/diag/live-sides.ts, the base side's POINT rank
 *   19.2 us before, 19.4 us after, with ~28,000 hidden).
 *
 * The counts are brought up to date at the first {@link hiddenIn} after a {@link hide} (one
 * pass over the words: ~30 us at 1M), so a batch of hides costs one pass.
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
  /** Bit `p & 31` of word `p >>> 5`: tree position p is hidden. */
  private readonly bits: Uint32Array;
  /** `before[w]`: hidden venues at tree positions below 32 w (once {@link recount}ed). */
  private readonly before: Int32Array;
  /** Whether a hide came after the last {@link recount}. */
  private stale = false;

  /** `treeIds`: the dense index at each tree position (kdbush's `ids`). */
  constructor(treeIds: ArrayLike<number>) {
    const n = treeIds.length;
    this.bytes = new Uint8Array(n);
    this.position = new Uint32Array(n);
    for (let p = 0; p < n; p++) this.position[treeIds[p]!] = p;
    const words = (n + 31) >>> 5;
    this.bits = new Uint32Array(words + 1); // one more: rank(n) may read the word at n >>> 5
    this.before = new Int32Array(words + 1);
  }

  /** Hides venue `v` (dense index); hiding it again changes nothing. */
  hide(v: number): void {
    if (this.bytes[v] !== 0) return;
    this.bytes[v] = 1;
    this.count++;
    const p = this.position[v]!;
    this.bits[p >>> 5]! |= 1 << (p & 31);
    this.stale = true;
  }

  /** Hidden venues at tree positions `from`..`to` (inclusive; from <= to + 1). */
  hiddenIn(from: number, to: number): number {
    if (this.count === 0) return 0;
    if (this.stale) this.recount();
    return this.rank(to + 1) - this.rank(from);
  }

  /** Hidden venues at tree positions below `end`. */
  private rank(end: number): number {
    const w = end >>> 5;
    return this.before[w]! + popCount(this.bits[w]! & ((1 << (end & 31)) - 1));
  }

  private recount(): void {
    const { bits, before } = this;
    let s = 0;
    for (let w = 0; w < before.length; w++) {
      before[w] = s;
      s += popCount(bits[w]!);
    }
    this.stale = false;
  }
}

/** Set bits of a 32-bit word. */
function popCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
