import type { VenueRecord } from '../schema/venue.js';
import { fieldsOfRecord, type EstablishmentFields } from './establishment-fields.js';
import type { PickedFields } from './picked-fields.js';

/**
 * Where the store's full venue records come from, by dense index. The search path never
 * reads records (it reads the store's columns); responses read the records of the page
 * returned, find reads ids and names.
 */
export interface RecordSource {
  readonly length: number;
  /** The full record of venue i (it may be a cached object other calls get too: do not change it). */
  get(i: number): VenueRecord;
  /**
   * Venue i's record built anew, bypassing any cache: no object in it is held by the source
   * or by another record, so the caller may change it without changing any answer.
   */
  fresh(i: number): VenueRecord;
  /** The id of venue i (no full record needed). */
  id(i: number): string;
  /** The name of venue i (no full record needed). */
  name(i: number): string;
  /** Fills `into` with venue i's establishment values (see EstablishmentFields): a response record's data. */
  fields(i: number, into: EstablishmentFields): void;
  /** Fills `into` with venue i's values of a few keys (see PickedFields), without its full record. */
  pick(i: number, into: PickedFields): void;
  /**
   * Reads what {@link fields} of venue i reads first, and nothing else, so that a read of it
   * soon after finds it in the CPU's caches; returns a number computed from what it read
   * (add it up somewhere: a read whose value is never used may be optimised away).
   */
  touch(i: number): number;
}

/** Records held as the caller's objects (an engine built from records). */
export class ArrayRecordSource implements RecordSource {
  readonly records: readonly VenueRecord[];

  constructor(records: readonly VenueRecord[]) {
    this.records = records;
  }

  get length(): number {
    return this.records.length;
  }

  get(i: number): VenueRecord {
    const r = this.records[i];
    if (r === undefined) throw new RangeError(`venue index ${i} out of range 0..${this.records.length - 1}`);
    return r;
  }

  fresh(i: number): VenueRecord {
    return structuredClone(this.get(i));
  }

  id(i: number): string {
    return this.get(i).id;
  }

  name(i: number): string {
    return this.get(i).name;
  }

  fields(i: number, into: EstablishmentFields): void {
    fieldsOfRecord(this.get(i), into);
  }

  pick(i: number, into: PickedFields): void {
    into.fromRecord(this.get(i));
  }

  /** Reads the record object's latitude (the caller's object: its fields are read from it). */
  touch(i: number): number {
    return this.records[i]?.location.coordinates[0] ?? 0;
  }
}
