import { VenueSearchError } from '../errors.js';

/**
 * Venue id to dense index, in typed arrays: an open-addressing hash table of `index + 1`
 * (0 = empty), linear probing, at most half full. Ids themselves are not kept: a probe
 * compares against `idOf(index)` (the caller's record while building, the store's compact
 * record afterwards). 4 bytes per slot, 8 to 16 per venue, against ~80 for a Map over the
 * id strings (which would also keep the strings alive).
 */
export class IdIndex {
  private readonly slots: Uint32Array;
  private readonly mask: number;

  constructor(size: number) {
    let capacity = 16;
    while (capacity < size * 2) capacity *= 2;
    this.slots = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  get byteSize(): number {
    return this.slots.byteLength;
  }

  /** Adds venue `index` with `id`; a repeated id is a `duplicate_id` error. */
  add(id: string, index: number, idOf: (index: number) => string): void {
    let s = hashId(id) & this.mask;
    for (let entry = this.slots[s]!; entry !== 0; entry = this.slots[s]!) {
      if (idOf(entry - 1) === id) {
        throw new VenueSearchError('duplicate_id', `duplicate venue id ${JSON.stringify(id)}`, { param: 'id', value: id, recordId: id });
      }
      s = (s + 1) & this.mask;
    }
    this.slots[s] = index + 1;
  }

  /** The dense index of `id`, or -1. */
  indexOf(id: string, idOf: (index: number) => string): number {
    let s = hashId(id) & this.mask;
    for (let entry = this.slots[s]!; entry !== 0; entry = this.slots[s]!) {
      if (idOf(entry - 1) === id) return entry - 1;
      s = (s + 1) & this.mask;
    }
    return -1;
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
