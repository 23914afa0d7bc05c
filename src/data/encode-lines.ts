/**
 * A block of NDJSON lines parsed, validated and encoded apart (store/venue-encoder.ts), by a
 * worker thread of the reader's pool or by the reader itself, for createEngineFromFile to
 * take into its store in line order without parsing them again.
 */
import type { VenueRecord } from '../schema/venue.js';
import { VenueEncoder, type EncodedVenueParts } from '../store/venue-encoder.js';
import { forEachLine, lineCount } from './ndjson-lines.js';
import { isValidParsedVenue } from './validate-venue.js';

/** What {@link encodeLines} gives (plain data: a message can carry it). */
export interface EncodedLines {
  /** The valid records, in line order. */
  readonly venues: EncodedVenueParts;
  /** The line number of each valid record (`lines[k]`: record k's). */
  readonly lines: Float64Array;
  /**
   * The lines that are not JSON or fail validation, ascending: the reader parses and
   * validates them again to report them as it always does (they are rare).
   */
  readonly bad: readonly number[];
  /** The block's bytes when `bad` is not empty (the bad lines' text is in them), else null. */
  readonly bytes: Uint8Array | null;
}

/**
 * Parses and validates each line of `bytes` (whole lines, the first numbered `firstLine`;
 * blank lines skipped but numbered, as forEachLine numbers them) and encodes the valid
 * records. `keepBytes`: whether the result may hold `bytes` itself (else, when a line is bad,
 * a copy: the caller reuses them).
 */
export function encodeLines(bytes: Buffer, firstLine: number, keepBytes: boolean): EncodedLines {
  const capacity = lineCount(bytes);
  // Compact records take about half their JSON's bytes (bench venues: ~200 of ~450).
  const encoder = new VenueEncoder(capacity, bytes.length >>> 1);
  const lines = new Float64Array(capacity);
  const bad: number[] = [];
  forEachValidVenue(
    bytes,
    firstLine,
    (record, line) => {
      lines[encoder.size] = line;
      encoder.add(record);
    },
    (line) => bad.push(line),
  );
  const n = encoder.size;
  return {
    venues: encoder.finish(),
    lines: n === capacity ? lines : lines.slice(0, n),
    bad,
    bytes: bad.length === 0 ? null : keepBytes ? bytes : Uint8Array.from(bytes),
  };
}

/**
 * Parses and validates each line of `bytes` as {@link encodeLines} does: `valid` gets each
 * valid record, `invalid` each line that fails validation, `malformed` each line that is not
 * JSON (by default `invalid`). What a worker of the reader's pool does with a block
 * (validate-worker.ts, encodeLines).
 */
export function forEachValidVenue(
  bytes: Buffer,
  firstLine: number,
  valid: (record: VenueRecord, line: number) => void,
  invalid: (line: number) => void,
  malformed: (line: number) => void = invalid,
): void {
  forEachLine(bytes, firstLine, (text, line) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      malformed(line);
      return;
    }
    if (isValidParsedVenue(value)) valid(value as VenueRecord, line);
    else invalid(line);
  });
}
