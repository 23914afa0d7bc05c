import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { VenueSearchError, isVenueSearchError } from '../errors.js';
import type { VenueRecord } from '../schema/venue.js';
import { geoJsonFeatureToRecord } from './geojson.js';
import { JsonElementSplitter } from './json-elements.js';
import { validateVenue } from './validate-venue.js';

export type VenueFileFormat = 'ndjson' | 'json' | 'geojson';

export interface ReadProgress {
  /** Records read so far (valid and rejected). */
  readonly records: number;
  /** Bytes read so far. */
  readonly bytes: number;
  /** File size when reading a file, else undefined. */
  readonly totalBytes: number | undefined;
}

export interface ReadVenuesOptions {
  /** Input format; by default from the file extension, else sniffed from the content. */
  readonly format?: VenueFileFormat;
  /** `throw` (default): stop at the first bad record. `skip`: keep going, collect rejects. */
  readonly onInvalid?: 'throw' | 'skip';
  /** Called about every 10,000 records and at the end. */
  readonly onProgress?: (progress: ReadProgress) => void;
  /** Name used in messages when the source is a stream. */
  readonly name?: string;
}

export interface RejectedRecord {
  readonly line: number;
  readonly recordId: string | undefined;
  readonly error: VenueSearchError;
}

export interface ReadVenuesResult {
  readonly venues: VenueRecord[];
  /** Bad records (only in `skip` mode; in `throw` mode the first one is thrown). */
  readonly rejects: RejectedRecord[];
  readonly format: VenueFileFormat;
}

type Source = string | AsyncIterable<string | Uint8Array>;

/**
 * Reads venue records from NDJSON, a JSON array or a GeoJSON FeatureCollection (GeoJSON
 * `[lon, lat]` becomes the record's `[lat, lon]`), streaming: memory holds the records
 * read, not the file text. Every record is validated; a bad one is an error naming the
 * file, line, record id, field and value. Duplicate ids are an error. Nothing is dropped
 * silently: in `skip` mode every rejected record is returned in `rejects`.
 */
export async function readVenues(source: Source, options: ReadVenuesOptions = {}): Promise<ReadVenuesResult> {
  const file = typeof source === 'string' ? source : options.name;
  const label = file !== undefined ? basename(file) : 'input';
  let totalBytes: number | undefined;
  let stream: AsyncIterable<string | Uint8Array>;
  if (typeof source === 'string') {
    try {
      totalBytes = statSync(source).size;
    } catch (err) {
      throw new VenueSearchError('invalid_data', `cannot read venue file ${source}: ${(err as Error).message}`, { file: source });
    }
    stream = createReadStream(source);
  } else {
    stream = source;
  }
  const venues: VenueRecord[] = [];
  const rejects: RejectedRecord[] = [];
  const lineOfId = new Map<string, number>();
  let records = 0;
  let bytes = 0;
  const skip = options.onInvalid === 'skip';
  const progress = () => options.onProgress?.({ records, bytes, totalBytes });

  const accept = (text: string, line: number, format: VenueFileFormat): void => {
    records++;
    try {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new VenueSearchError('invalid_data', `${label}:line ${line}: malformed JSON: ${(err as Error).message}`, {
          file: label,
          line,
        });
      }
      if (format === 'geojson') value = geoJsonFeatureToRecord(value, { file: label, line });
      const record = validateVenue(value, { file: label, line });
      const firstLine = lineOfId.get(record.id);
      if (firstLine !== undefined) {
        throw new VenueSearchError('duplicate_id', `${label}:line ${line}: duplicate venue id ${JSON.stringify(record.id)} (first at line ${firstLine})`, {
          file: label,
          line,
          recordId: record.id,
          param: 'id',
          value: record.id,
        });
      }
      lineOfId.set(record.id, line);
      venues.push(record);
    } catch (err) {
      if (!skip || !isVenueSearchError(err)) throw err;
      rejects.push({ line, recordId: err.recordId, error: err });
    }
    if (records % 10_000 === 0) progress();
  };

  const decoder = new StringDecoder('utf8');
  let format = options.format ?? formatFromName(file);
  let head = '';
  let splitter: JsonElementSplitter | null = null;
  let pending = '';
  let lineNo = 0;

  const feedLines = (text: string, final: boolean): void => {
    pending += text;
    let start = 0;
    for (;;) {
      const nl = pending.indexOf('\n', start);
      if (nl < 0) break;
      lineNo++;
      const line = pending.slice(start, nl);
      if (line.trim() !== '') accept(line, lineNo, 'ndjson');
      start = nl + 1;
    }
    pending = pending.slice(start);
    if (final && pending.trim() !== '') {
      lineNo++;
      accept(pending, lineNo, 'ndjson');
      pending = '';
    }
  };
  const feedJson = (text: string): void => {
    let elements;
    try {
      elements = splitter!.push(text);
    } catch (err) {
      throw new VenueSearchError('invalid_data', `${label}: malformed JSON: ${(err as Error).message}`, { file: label });
    }
    for (const el of elements) accept(el.text, el.line, format!);
  };
  const feed = (text: string, final: boolean): void => {
    if (format === undefined) {
      head += text;
      const sniffed = sniffFormat(head, final);
      if (sniffed === undefined) return;
      format = sniffed;
      text = head;
      head = '';
    }
    if (format === 'ndjson') feedLines(text, final);
    else {
      splitter ??= new JsonElementSplitter();
      if (text) feedJson(text);
    }
  };

  try {
    for await (const chunk of stream) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      feed(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer), false);
    }
  } catch (err) {
    if (isVenueSearchError(err)) throw err;
    throw new VenueSearchError('invalid_data', `cannot read ${label}: ${(err as Error).message}`, { file: label });
  }
  feed(decoder.end(), true);
  if (format === undefined) format = 'ndjson'; // empty input: no records
  if (splitter) {
    let rest;
    try {
      rest = (splitter as JsonElementSplitter).end();
    } catch (err) {
      throw new VenueSearchError('invalid_data', `${label}: ${(err as Error).message}`, { file: label });
    }
    for (const el of rest) accept(el.text, el.line, format);
    if (format === 'geojson' && !(splitter as JsonElementSplitter).sawFeatures) {
      throw new VenueSearchError('invalid_data', `${label}: a GeoJSON FeatureCollection needs a "features" array`, { file: label });
    }
  }
  progress();
  return { venues, rejects, format };
}

function formatFromName(file: string | undefined): VenueFileFormat | undefined {
  if (!file) return undefined;
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  if (/\.geojson$/i.test(file)) return 'geojson';
  return undefined; // .json: an array, a FeatureCollection or NDJSON; sniff it
}

/**
 * Decides the format from the first bytes: `[` is a JSON array; `{` is NDJSON when the first
 * line is a complete JSON object that is not a FeatureCollection, otherwise GeoJSON.
 * Returns undefined when more input is needed.
 */
function sniffFormat(head: string, final: boolean): VenueFileFormat | undefined {
  const start = head.search(/\S/);
  if (start < 0) return final ? 'ndjson' : undefined;
  if (head[start] === '[') return 'json';
  const nl = head.indexOf('\n', start);
  if (nl < 0 && !final) return head.length > 1 << 20 ? 'geojson' : undefined;
  const firstLine = nl < 0 ? head.slice(start) : head.slice(start, nl);
  try {
    const value = JSON.parse(firstLine) as { type?: unknown };
    return value && value.type === 'FeatureCollection' ? 'geojson' : 'ndjson';
  } catch {
    return head[start] === '{' && /"FeatureCollection"/.test(head.slice(0, 4096)) ? 'geojson' : 'ndjson';
  }
}
