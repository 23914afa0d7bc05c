/**
 * The ids of the records an `import osm` run has written, for its duplicate check, in ~16-32
 * bytes an id instead of a Set of id strings (~100 bytes: audit 68e F7). Exact: an id
 * `osm:<type>/<digits>` whose digits are a whole number written canonically (no leading zero)
 * and at most 2^53 - 1 is held as that number (exact as a double) in an open-addressing hash
 * table of its type; any other id (a leading zero, more digits) is held as its string.
 */
const CANONICAL = /^osm:(node|way|relation)\/(0|[1-9][0-9]{0,15})$/;

/** A set of whole numbers 0 to 2^53 - 1 in a Float64Array, linear probing, at most half full; -1 marks an empty slot. */
class WholeNumberSet {
  private slots = new Float64Array(1024).fill(-1);
  private size = 0;

  has(n: number): boolean {
    return this.slots[this.slotOf(n)] === n;
  }

  add(n: number): void {
    const i = this.slotOf(n);
    if (this.slots[i] === n) return;
    this.slots[i] = n;
    if (++this.size * 2 > this.slots.length) this.grow();
  }

  /** The slot holding `n`, or the empty slot where it goes. */
  private slotOf(n: number): number {
    const mask = this.slots.length - 1;
    let i = hash(n) & mask;
    while (this.slots[i] !== n && this.slots[i] !== -1) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2).fill(-1);
    this.size = 0;
    for (const n of old) if (n !== -1) this.add(n);
  }
}

/** Mixes both 32-bit halves of a whole number below 2^53. */
function hash(n: number): number {
  let h = Math.imul((n >>> 0) ^ Math.imul(Math.floor(n / 0x100000000), 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}

export class WrittenOsmIds {
  private readonly numbers = new Map<string, WholeNumberSet>();
  private readonly others = new Set<string>();

  has(id: string): boolean {
    const n = canonicalNumber(id);
    return n === undefined ? this.others.has(id) : (this.numbers.get(n.type)?.has(n.value) ?? false);
  }

  add(id: string): void {
    const n = canonicalNumber(id);
    if (n === undefined) {
      this.others.add(id);
      return;
    }
    let set = this.numbers.get(n.type);
    if (set === undefined) this.numbers.set(n.type, (set = new WholeNumberSet()));
    set.add(n.value);
  }
}

/** The type and number of an id held as a number (see the module comment), or undefined. */
function canonicalNumber(id: string): { type: string; value: number } | undefined {
  const m = CANONICAL.exec(id);
  const value = m === null ? NaN : Number(m[2]);
  return m !== null && Number.isSafeInteger(value) ? { type: m[1] as string, value } : undefined;
}
