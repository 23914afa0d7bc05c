import { VenueSearchError } from '../errors.js';
import { buildArray } from './build-memory.js';

/**
 * Venue id to dense index, in typed arrays: an open-addressing hash table, linear probing,
 * at most half full. A slot holds `index + 1` (0 = empty) in its low `bits` bits (the
 * table has 2^bits slots, so the index fits) and the id hash's high bits above them, so a
 * probe compares ids (`idOf(index)`: the caller's record while building, the store's
 * compact record afterwards) only when those bits match. Ids themselves are not kept.
 * 4 bytes per slot, 8 to 16 per venue, against ~80 for a Map over the id strings (which
 * would also keep the strings alive).
 */
export class IdIndex {
  private slots: Uint32Array;
  private bits: number;
  private mask: number;
  private count = 0;

  /** `size`: the number of ids expected (more may be added: the table grows). */
  constructor(size: number) {
    let bits = 4;
    while (2 ** bits < size * 2) bits++;
    this.bits = bits;
    this.slots = buildArray(Uint32Array, 2 ** bits);
    this.mask = 2 ** bits - 1;
  }

  get byteSize(): number {
    return this.slots.byteLength;
  }

  /** Adds venue `index` with `id`; a repeated id is a `duplicate_id` error. */
  add(id: string, index: number, idOf: (index: number) => string): void {
    if (this.addNew(id, index, idOf) >= 0) {
      throw new VenueSearchError('duplicate_id', `duplicate venue id ${JSON.stringify(id)}`, { param: 'id', value: id, recordId: id });
    }
  }

  /**
   * Adds venue `index` with `id` unless an index already has that id: returns that index
   * (nothing added), or -1 once added.
   */
  addNew(id: string, index: number, idOf: (index: number) => string): number {
    if ((this.count + 1) * 2 > this.slots.length) this.grow(idOf);
    const h = hashId(id);
    const tag = h >>> this.bits;
    let s = h & this.mask;
    for (let entry = this.slots[s]!; entry !== 0; entry = this.slots[s]!) {
      if (entry >>> this.bits === tag && idOf((entry & this.mask) - 1) === id) return (entry & this.mask) - 1;
      s = (s + 1) & this.mask;
    }
    this.slots[s] = (tag * (this.mask + 1) + index + 1) >>> 0;
    this.count++;
    return -1;
  }

  /** The dense index of `id`, or -1. */
  indexOf(id: string, idOf: (index: number) => string): number {
    const h = hashId(id);
    const tag = h >>> this.bits;
    let s = h & this.mask;
    for (let entry = this.slots[s]!; entry !== 0; entry = this.slots[s]!) {
      if (entry >>> this.bits === tag && idOf((entry & this.mask) - 1) === id) return (entry & this.mask) - 1;
      s = (s + 1) & this.mask;
    }
    return -1;
  }

  /** Renumbers every index i held as `map[i]` (ids keep their slots: only the low bits change). */
  renumber(map: Uint32Array): void {
    const { slots, mask } = this;
    for (let s = 0; s < slots.length; s++) {
      const entry = slots[s]!;
      if (entry === 0) continue;
      slots[s] = ((entry - (entry & mask)) + map[(entry & mask) - 1]! + 1) >>> 0;
    }
  }

  private grow(idOf: (index: number) => string): void {
    const old = this.slots;
    const oldMask = this.mask;
    if (this.bits >= 31) throw new RangeError('more than 2^30 venue ids');
    this.bits++;
    this.slots = buildArray(Uint32Array, 2 ** this.bits);
    this.mask = 2 ** this.bits - 1;
    for (const entry of old) {
      if (entry === 0) continue;
      const index = (entry & oldMask) - 1;
      const h = hashId(idOf(index));
      let s = h & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = ((h >>> this.bits) * (this.mask + 1) + index + 1) >>> 0;
    }
  }
}

/** FNV-1a over the UTF-16 code units, then a final avalanche (ids often differ only at the end). */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < id.length; k++) h = Math.imul(h ^ id.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
