import type { VenueRecord } from '../schema/venue.js';

/**
 * A few chosen keys of venue records, read one venue at a time without building the venue's
 * record: a reused scratch, as EstablishmentFields is for response records. After
 * `source.pick(i, picked)`, `picked.values[k]` is venue i's value of `picked.keys[k]`, the
 * value its full record (`source.get(i)`) holds, or undefined where it has none. For passes
 * over every venue that need two or three keys of each (opening-hours tables, places learnt
 * from addresses): a full record per venue builds, and leaves to the collector, a dozen
 * objects and strings.
 */
export class PickedFields {
  readonly values: unknown[];
  /**
   * Per record shape of the source in {@link owner} (compact-records.ts numbers them): for
   * each of the shape's keys in order, 1 + its index in `keys`, or 0 when not picked, up to
   * its last picked key (a reader stops there: the record's other values are not walked).
   */
  private readonly slotsOfShape: Array<Uint8Array | undefined> = [];
  private owner: object | null = null;

  constructor(readonly keys: readonly string[]) {
    if (keys.length > 255) throw new RangeError(`at most 255 picked keys; got ${keys.length}`);
    this.values = new Array<unknown>(keys.length).fill(undefined);
  }

  /** Forgets the previous venue's values. */
  clear(): void {
    const v = this.values;
    for (let k = 0; k < v.length; k++) v[k] = undefined;
  }

  /** The slots of shape `code` (its keys `shapeKeys`) of `source`'s records (see slotsOfShape). */
  slotsFor(source: object, code: number, shapeKeys: readonly string[]): Uint8Array {
    if (this.owner !== source) {
      this.slotsOfShape.length = 0;
      this.owner = source;
    }
    let slots = this.slotsOfShape[code];
    if (slots === undefined) {
      const all = Uint8Array.from(shapeKeys, (key) => this.keys.indexOf(key) + 1);
      let end = all.length;
      while (end > 0 && all[end - 1] === 0) end--;
      slots = all.subarray(0, end);
      this.slotsOfShape[code] = slots;
    }
    return slots;
  }

  /** Fills the values from a record object (a source that holds records as they are). */
  fromRecord(r: VenueRecord): void {
    const rec = r as unknown as Record<string, unknown>;
    for (let k = 0; k < this.keys.length; k++) this.values[k] = rec[this.keys[k]!];
  }
}
