import type { VenueRecord } from '../schema/venue.js';
import { buildArray } from './build-memory.js';
import { CompactRecordsBuilder } from './compact-records-builder.js';
import { CompactRecordSource, type CompactRecordParts } from './compact-records.js';
import { chainCode } from './venue-store-builder.js';

/**
 * Records encoded apart from a store, in dictionaries of their own, for a store builder to
 * take in later ({@link VenueStoreBuilder.addEncoded}: their bytes copied with the codes
 * renumbered, nothing parsed or decoded). createEngineFromFile's worker threads encode blocks
 * of lines this way while the reader builds the store. Record k: `records` record k, its
 * coordinates `lat[k]`, `lon[k]`, its `chain` column value `chain[k]`.
 */
export interface EncodedVenues {
  readonly records: CompactRecordSource;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly chain: Uint8Array;
}

/**
 * {@link EncodedVenues} as a message between threads carries them: plain data (the records'
 * parts). The arrays and the records' blocks lie in SharedArrayBuffers (build-memory.ts), so a
 * message shares them rather than copying them.
 */
export interface EncodedVenueParts {
  readonly records: CompactRecordParts;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly chain: Uint8Array;
}

/** Encodes records one at a time (each read once, not kept), then {@link finish}. */
export class VenueEncoder {
  private readonly compact: CompactRecordsBuilder;
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  private readonly chain: Uint8Array;
  private count = 0;

  /** `capacity`: the most records that will be added; `expectedBytes`: about their encoded bytes. */
  constructor(
    private readonly capacity: number,
    expectedBytes: number,
  ) {
    this.compact = new CompactRecordsBuilder(capacity, expectedBytes);
    this.lat = buildArray(Float64Array, capacity);
    this.lon = buildArray(Float64Array, capacity);
    this.chain = buildArray(Uint8Array, capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds a valid record (validated by the caller). */
  add(r: VenueRecord): void {
    const k = this.count;
    if (k === this.capacity) throw new RangeError(`VenueEncoder: more than the ${this.capacity} records it was made for`);
    const [lat, lon] = r.location.coordinates;
    this.lat[k] = lat;
    this.lon[k] = lon;
    this.chain[k] = chainCode(r);
    this.compact.add(r, lat, lon, k);
    this.count = k + 1;
  }

  /** The records added, as a message carries them. The encoder is spent. */
  finish(): EncodedVenueParts {
    const n = this.count;
    const lat = this.lat.subarray(0, n);
    const lon = this.lon.subarray(0, n);
    return { records: this.compact.finish(lat, lon).parts(), lat, lon, chain: this.chain.subarray(0, n) };
  }
}

/** The venues of `parts` (as {@link VenueEncoder.finish} gave them, possibly through a message). */
export function encodedVenues(parts: EncodedVenueParts): EncodedVenues {
  // Each is read once, record by record, when taken in: a record cache of one.
  const records = CompactRecordSource.fromParts(parts.records, parts.lat, parts.lon, false, 1);
  return { records, lat: parts.lat, lon: parts.lon, chain: parts.chain };
}
