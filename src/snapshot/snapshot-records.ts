import type { VenueRecord } from '../schema/venue.js';
import type { RecordSource } from '../store/record-source.js';

/** One UTF-8 blob of n strings: string i is bytes `offsets[i] .. offsets[i + 1]` of `bytes`. */
export interface TextBlob {
  readonly bytes: Buffer;
  readonly offsets: Float64Array;
}

/**
 * Records of a snapshot: each record is parsed from its JSON the first time it is asked
 * for (a page of results, a details call) and kept, so a venue is parsed at most once;
 * ids and names come from their own blobs without parsing a record. The parsed objects
 * are never handed out to be changed: every response copies what it returns.
 */
export class SnapshotRecordSource implements RecordSource {
  readonly length: number;
  private readonly records: TextBlob;
  private readonly ids: TextBlob;
  private readonly names: TextBlob;
  // A map, not an array of n slots: a service parses the few records its pages show, and an
  // array of a million holes costs ~4 ms to allocate when a compaction restores a new base.
  private readonly parsed = new Map<number, VenueRecord>();

  constructor(records: TextBlob, ids: TextBlob, names: TextBlob) {
    this.length = records.offsets.length - 1;
    this.records = records;
    this.ids = ids;
    this.names = names;
  }

  get(i: number): VenueRecord {
    const known = this.parsed.get(i);
    if (known !== undefined) return known;
    const r = JSON.parse(text(this.records, this.check(i))) as VenueRecord;
    this.parsed.set(i, r);
    return r;
  }

  id(i: number): string {
    return text(this.ids, this.check(i));
  }

  name(i: number): string {
    return text(this.names, this.check(i));
  }

  private check(i: number): number {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`venue index ${i} out of range 0..${this.length - 1}`);
    return i;
  }
}

function text(blob: TextBlob, i: number): string {
  return blob.bytes.toString('utf8', blob.offsets[i]!, blob.offsets[i + 1]!);
}
