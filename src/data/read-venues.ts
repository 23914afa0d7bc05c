import { statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { VenueSearchError, describeValue, invalidRequest, isVenueSearchError } from '../errors.js';
import { checkCallOptions } from '../call-options.js';
import type { VenueRecord } from '../schema/venue.js';
import { IdIndex } from '../store/id-index.js';
import { encodedVenues, type EncodedVenues } from '../store/venue-encoder.js';
import { encodeLines, type EncodedLines } from './encode-lines.js';
import { fileChunks } from './file-chunks.js';
import { bytesWithoutByteOrderMark, withoutByteOrderMark } from './byte-order-mark.js';
import { binaryFormatProblem, fileProblem, isFileError } from './file-problem.js';
import { geoJsonFeatureToRecord } from './geojson.js';
import { JsonElementSplitter } from './json-elements.js';
import { LineChunker, forEachLine, lineCount } from './ndjson-lines.js';
import { notUtf8FileProblem, Utf8Check } from './utf8-check.js';
import { ValidatePool, type LineVerdict } from './validate-pool.js';
import { validateParsedVenue } from './validate-venue.js';
import { describeLocation } from './record-location.js';

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
  readonly format?: VenueFileFormat | undefined;
  /** `throw` (default): stop at the first bad record. `skip`: keep going, collect rejects. */
  readonly onInvalid?: 'throw' | 'skip' | undefined;
  /** Called about every 10,000 records and at the end. */
  readonly onProgress?: ((progress: ReadProgress) => void) | undefined;
  /** Name used in messages when the source is a stream. */
  readonly name?: string | undefined;
  /**
   * Threads for NDJSON (1 to 64, default 1): with 2 or more, `threads - 1` worker threads
   * validate the records while this thread parses them (a gain only when a core is idle:
   * see docs/data-model.md). JSON arrays and GeoJSON are read on this thread.
   */
  readonly threads?: number | undefined;
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

/** What readVenues reads: a file path, or a stream (or any async iterable) of its text or bytes. */
export type VenueSource = string | AsyncIterable<string | Uint8Array>;
type Source = VenueSource;

/** Bytes read from a file at a time. */
const READ_CHUNK = 1 << 20;
/**
 * A low guess of a record's bytes, to size the id table and the store of a file whose lines
 * were not measured (a JSON array, GeoJSON): they grow if needed.
 */
const BYTES_PER_RECORD_GUESS = 384;
/** An NDJSON file's records are guessed from its first block of lines of at least this many bytes (a small file keeps the low guess)... */
const MEASURED_BLOCK_MIN_BYTES = 64 * 1024;
/** ...from that block's mean line, plus this share. */
const MEASURED_GUESS_MARGIN = 1 / 32;
/** The smallest block of lines sent to a worker to validate (smaller ones: the reader validates them). */
const POOL_BLOCK_MIN_BYTES = 64 * 1024;
/** Blocks of lines parsed ahead of their workers' verdicts, per worker. */
const BLOCKS_AHEAD = 4;
/** Blocks of lines a worker may have waiting to be encoded (more: the reader encodes the block itself). */
const ENCODE_JOBS_PER_WORKER = 4;
/** Blocks encoded and not yet taken in (by a worker or the reader) before the reader waits for the first. */
const ENCODED_BLOCKS_HELD = 32;

/** A line that is not JSON, kept in its place until the lines before it are admitted. */
class MalformedLine {
  constructor(readonly error: VenueSearchError) {}
}

/**
 * A block of lines waiting to be admitted, in line order, parsed by the reader ahead of the
 * verdict (`values`, `lines`): with a worker's verdict on them, or (`verdict` null: the
 * workers were busy) validated by the reader.
 */
interface PendingBlock {
  readonly values: unknown[];
  readonly lines: number[];
  readonly verdict: Promise<LineVerdict> | null;
  /** The verdict is in (or there is none to wait for). */
  ready: boolean;
}

/** A block of lines encoded apart (encode-lines.ts), by a worker or the reader, waiting to be admitted in line order. */
interface EncodedBlock {
  readonly firstLine: number;
  readonly encoded: Promise<EncodedLines> | EncodedLines;
  /** The lines are encoded (or the worker failed). */
  ready: boolean;
}

/** Where the reader puts the records it admits, in line order. */
export interface VenueSink {
  /**
   * Adds `record` unless a record added before has its id: returns that one's number (in
   * the order added; nothing added), or -1 once added.
   */
  addNew(record: VenueRecord): number;
}

/**
 * A sink that also takes records encoded apart (a store builder: VenueStoreBuilder).
 * @internal (createEngineFromFile's: its types are the package's own, out of its declarations)
 */
export interface EncodedVenueSink extends VenueSink {
  /** {@link VenueSink.addNew} for record k of `encoded`. */
  addEncoded(encoded: EncodedVenues, k: number): number;
  /** Called once every record of `encoded` was offered. */
  release(encoded: EncodedVenues): void;
}

/**
 * Reads venue records from NDJSON, a JSON array or a GeoJSON FeatureCollection (GeoJSON
 * `[lon, lat]` becomes the record's `[lat, lon]`), streaming: memory holds the records
 * read, not the file text. Every record is validated; a bad one is an error naming the
 * file, line, record id, field and value. Duplicate ids are an error. Nothing is dropped
 * silently: in `skip` mode every rejected record is returned in `rejects`.
 *
 * NDJSON from bytes is cut into lines before decoding; with `threads` >= 2 worker threads
 * validate the lines while this thread parses them (validate-pool.ts). Records, errors and
 * rejects are the same with any number of threads.
 */
export async function readVenues(source: Source, options: ReadVenuesOptions = {}): Promise<ReadVenuesResult> {
  checkCallOptions(options, READ_VENUES_OPTIONS);
  const venues: VenueRecord[] = [];
  const { rejects, format } = await readVenuesInto(source, options, (expected) => {
    const ids = new IdIndex(expected);
    const idOfVenue = (j: number): string => venues[j]!.id;
    return {
      addNew(record: VenueRecord): number {
        const first = ids.addNew(record.id, venues.length, idOfVenue);
        if (first < 0) venues.push(record);
        return first;
      },
    };
  });
  return { venues, rejects, format };
}

/**
 * {@link readVenues}, handing each record admitted to a sink instead of keeping it (the same
 * records, errors and rejects, in the same order). `sinkFor(expected)` makes the sink, given a
 * guess of the number of records, when the first record is admitted (not at all if none is).
 * With worker threads, the reader parses each block of NDJSON lines while a worker validates
 * it.
 */
export function readVenuesInto(source: Source, options: ReadVenuesOptions, sinkFor: (expected: number) => VenueSink): Promise<Omit<ReadVenuesResult, 'venues'>> {
  return readInto(source, options, sinkFor, false);
}

/**
 * {@link readVenuesInto} for a sink that keeps a compact form (createEngineFromFile): with
 * worker threads, blocks of NDJSON lines are parsed, validated and encoded apart, each by a
 * worker or (while the workers are busy) by the reader, and the sink takes the encoded
 * records in (their bytes copied, codes renumbered). The reader never holds parsed records
 * across blocks (held objects outlive the young generation), and it parses only the blocks
 * it encodes itself.
 * @internal (see EncodedVenueSink)
 */
export function readVenuesEncodedInto(source: Source, options: ReadVenuesOptions, sinkFor: (expected: number) => EncodedVenueSink): Promise<Omit<ReadVenuesResult, 'venues'>> {
  return readInto(source, options, sinkFor, true);
}

async function readInto(
  source: Source,
  options: ReadVenuesOptions,
  sinkFor: (expected: number) => VenueSink | EncodedVenueSink,
  takesEncoded: boolean,
): Promise<Omit<ReadVenuesResult, 'venues'>> {
  checkReadOptions(options);
  if (typeof source !== 'string' && !(typeof source === 'object' && source !== null && Symbol.asyncIterator in source)) {
    throw new VenueSearchError('invalid_request', `the venues to read must be a file path or an async iterable of text or bytes (a stream); got ${describeValue(source)}`, {
      param: 'source',
      value: source,
    });
  }
  const file = typeof source === 'string' ? source : options.name;
  // the path as the caller gave it (two files of one name in different folders stay apart)
  const label = file ?? 'input';
  let totalBytes: number | undefined;
  let stream: AsyncIterable<string | Uint8Array>;
  if (typeof source === 'string') {
    try {
      totalBytes = statSync(source).size;
    } catch (err) {
      throw new VenueSearchError('invalid_data', `cannot read venue file ${source}: ${fileProblem(err)}`, { file: source });
    }
    stream = fileChunks(source, READ_CHUNK);
  } else {
    stream = source;
  }
  // An error the source itself raises (the file's reads, the caller's stream) is about the
  // data: the catch-all below reports it as invalid_data naming the file. Any other error
  // (a bug, a worker that failed) passes as it is, not blamed on the data (audit 66b F1).
  let sourceError: { readonly error: unknown } | null = null;
  const chunks = async function* (): AsyncGenerator<string | Uint8Array> {
    try {
      yield* stream;
    } catch (error) {
      sourceError = { error };
      throw error;
    }
  };
  const threads = threadCount(options.threads);
  const rejects: RejectedRecord[] = [];
  // Bytes per line of the first block of NDJSON lines, once measured.
  let meanLineBytes = 0;
  /**
   * The records a file is expected to hold: its size over the mean line of its first block
   * of NDJSON lines (plus a margin), else over a low guess of a record's bytes. A store
   * sized to a guess too high wastes the end of its block of compact records (copied away
   * at finish when large); one too low grows its arrays.
   */
  const expectedRecords = (): number => {
    if (totalBytes === undefined) return 1024;
    const perRecord = meanLineBytes > 0 ? meanLineBytes / (1 + MEASURED_GUESS_MARGIN) : BYTES_PER_RECORD_GUESS;
    return Math.ceil(Math.min(totalBytes / perRecord, 1 << 24));
  };
  // Made at the first record, when a file's lines have been measured.
  let sink: VenueSink | null = null;
  // Duplicate ids: the sink's record j was first seen at line lineOfVenue[j].
  const lineOfVenue: number[] = [];
  let records = 0;
  let bytes = 0;
  const skip = options.onInvalid === 'skip';
  // An error the caller's onProgress throws is the caller's: it passes the catch-all below as
  // it is, at any thread count (that catch-all wraps only the source's errors).
  const progress = (): void => {
    options.onProgress?.({ records, bytes, totalBytes });
  };

  const parse = (text: string, line: number): unknown => {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw malformed(line, `: ${(err as Error).message}`);
    }
  };
  /**
   * A line that is not JSON. At line 1 nothing says the file holds venues at all (a CSV
   * given to --data): say what a venues file is; further on, the file has a bad line.
   */
  const malformed = (line: number, detail: string): VenueSearchError => {
    const what =
      line === 1
        ? `not a venues file (NDJSON, a JSON array or GeoJSON), line 1 is not JSON; a raw source is imported first (\`venue-search import osm|fhrs|overture\`)`
        : 'malformed JSON';
    return new VenueSearchError('invalid_data', `${describeLocation({ file: label, line })}: ${what}${detail}`, { file: label, line });
  };
  const duplicateId = (id: string, line: number, first: number): VenueSearchError =>
    new VenueSearchError('duplicate_id', `${describeLocation({ file: label, line })}: duplicate venue id ${JSON.stringify(id)} (first at line ${lineOfVenue[first]!})`, {
      file: label,
      line,
      recordId: id,
      param: 'id',
      value: id,
    });
  const admit = (record: VenueRecord, line: number): void => {
    const first = (sink ??= sinkFor(expectedRecords())).addNew(record);
    if (first >= 0) throw duplicateId(record.id, line, first);
    lineOfVenue.push(line);
  };
  /** Admits record k of a block encoded apart (a sink that takes them: readVenuesEncodedInto). */
  const admitEncoded = (venues: EncodedVenues, k: number, line: number): void => {
    const first = ((sink ??= sinkFor(expectedRecords())) as EncodedVenueSink).addEncoded(venues, k);
    if (first >= 0) throw duplicateId(venues.records.id(k), line, first);
    lineOfVenue.push(line);
  };
  const rejected = (err: unknown, line: number): void => {
    if (!skip || !isVenueSearchError(err)) throw err;
    rejects.push({ line, recordId: err.recordId, error: err });
  };

  /** Parses, validates (unless a worker found it `valid`) and admits one record's text. */
  const accept = (text: string, line: number, format: VenueFileFormat, valid = false): void => {
    records++;
    try {
      let value = parse(text, line);
      if (format === 'geojson') value = geoJsonFeatureToRecord(value, { file: label, line });
      admit(valid ? (value as VenueRecord) : validateParsedVenue(value, { file: label, line }), line);
    } catch (err) {
      rejected(err, line);
    }
    if (records % 10_000 === 0) progress();
  };

  // NDJSON bytes: cut into lines, then either accepted here or parsed here and validated by
  // the pool, admitted in line order once a block's verdict is in.
  const chunker = new LineChunker();
  let pool: ValidatePool | null = null;
  const blocks: PendingBlock[] = [];
  const admitBlock = async (block: PendingBlock): Promise<void> => {
    const verdict = block.verdict === null ? null : await block.verdict;
    const bad = verdict === null ? null : verdict.bad;
    const { values, lines } = block;
    for (let k = 0; k < values.length; k++) {
      const line = lines[k]!;
      records++;
      try {
        const value = values[k];
        if (value instanceof MalformedLine) throw value.error;
        admit(bad === null || bad.has(line) ? validateParsedVenue(value, { file: label, line }) : (value as VenueRecord), line);
      } catch (err) {
        rejected(err, line);
      }
      if (records % 10_000 === 0) progress();
    }
  };
  // Blocks encoded apart (readVenuesEncodedInto), admitted in line order.
  const encodedBlocks: EncodedBlock[] = [];
  const admitEncodedBlock = async (block: EncodedBlock): Promise<void> => {
    const { venues: parts, lines, bad, bytes: blockBytes } = await block.encoded;
    const venues = encodedVenues(parts);
    // The bad lines' text, for the reader to report them as it always does (parse, validate).
    const badText = new Map<number, string>();
    if (bad.length > 0) {
      const badLines = new Set(bad);
      forEachLine(Buffer.from(blockBytes!.buffer, blockBytes!.byteOffset, blockBytes!.byteLength), block.firstLine, (text, line) => {
        if (badLines.has(line)) badText.set(line, text);
      });
    }
    let b = 0;
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!;
      for (; b < bad.length && bad[b]! < line; b++) accept(badText.get(bad[b]!)!, bad[b]!, 'ndjson');
      records++;
      try {
        admitEncoded(venues, k, line);
      } catch (err) {
        rejected(err, line);
      }
      if (records % 10_000 === 0) progress();
    }
    for (; b < bad.length; b++) accept(badText.get(bad[b]!)!, bad[b]!, 'ndjson');
    if (sink !== null) (sink as EncodedVenueSink).release(venues);
  };
  /**
   * A block of lines for a sink that takes them encoded: to a worker while it has fewer than
   * ENCODE_JOBS_PER_WORKER waiting, else encoded here (so neither side waits on the other).
   * A block that would stay here with nothing waiting before it (no worker ready yet, or a
   * small block: the line joined across two chunks) is admitted at once, not encoded apart.
   */
  const feedEncodedLineBytes = async (lineBytes: Buffer, firstLine: number): Promise<void> => {
    const p = (pool ??= new ValidatePool(threads - 1));
    p.throwIfFailed();
    const small = lineBytes.length < POOL_BLOCK_MIN_BYTES;
    const toWorker = !small && p.ready && p.outstanding < ENCODE_JOBS_PER_WORKER * (threads - 1);
    if (!toWorker && encodedBlocks.length === 0) {
      lineNo += forEachLine(lineBytes, firstLine, (text, line) => accept(text, line, 'ndjson'));
      return;
    }
    const encoded = toWorker ? p.encode(lineBytes, firstLine) : encodeLines(lineBytes, firstLine, false);
    const block: EncodedBlock = { firstLine, encoded, ready: !toWorker };
    if (toWorker) {
      (encoded as Promise<EncodedLines>).then(
        () => (block.ready = true),
        () => (block.ready = true),
      );
    }
    lineNo += lineCount(lineBytes);
    encodedBlocks.push(block);
    while (encodedBlocks.length > 0 && (encodedBlocks[0]!.ready || encodedBlocks.length > ENCODED_BLOCKS_HELD)) await admitEncodedBlock(encodedBlocks.shift()!);
  };
  const feedLineBytes = async (lineBytes: Buffer): Promise<void> => {
    const firstLine = lineNo + 1;
    if (meanLineBytes === 0 && lineBytes.length >= MEASURED_BLOCK_MIN_BYTES) meanLineBytes = lineBytes.length / Math.max(1, lineCount(lineBytes));
    if (threads < 2) {
      lineNo += forEachLine(lineBytes, firstLine, (text, line) => accept(text, line, 'ndjson'));
      return;
    }
    if (takesEncoded) return feedEncodedLineBytes(lineBytes, firstLine);
    pool ??= new ValidatePool(threads - 1);
    // A worker parses and validates a block more slowly than the reader only parses it: the
    // reader validates the blocks it parses while every worker has two waiting (or none is
    // ready yet), and a small block (the line joined across two chunks) whose round trip
    // would cost more than it.
    pool.throwIfFailed();
    const verdict = pool.ready && pool.outstanding < 2 * (threads - 1) && lineBytes.length >= POOL_BLOCK_MIN_BYTES ? pool.validate(lineBytes, firstLine) : null;
    const block: PendingBlock = { values: [], lines: [], verdict, ready: verdict === null };
    verdict?.then(
      () => (block.ready = true),
      () => (block.ready = true),
    );
    lineNo += forEachLine(lineBytes, firstLine, (text, line) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = new MalformedLine(parseError(text, line));
      }
      block.values.push(value);
      block.lines.push(line);
    });
    blocks.push(block);
    while (blocks.length > 0 && (blocks[0]!.ready || blocks.length > BLOCKS_AHEAD * (threads - 1))) await admitBlock(blocks.shift()!);
  };
  const parseError = (text: string, line: number): VenueSearchError => {
    try {
      parse(text, line);
    } catch (err) {
      if (isVenueSearchError(err)) return err;
    }
    return malformed(line, '');
  };

  // Text (string sources, JSON arrays, GeoJSON): decoded, then cut into lines or elements.
  const decoder = new StringDecoder('utf8');
  let format = options.format ?? formatFromName(file);
  let head = '';
  const headBytes: Buffer[] = [];
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
  const feedText = (text: string, final: boolean): void => {
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
  // Bytes: NDJSON goes to the line chunker undecoded; the format is sniffed on the first bytes.
  let textMode = false;
  const feedBytes = async (chunk: Buffer, final: boolean): Promise<void> => {
    if (format === undefined) {
      // a copy: a file's chunks are valid only until the one after the next (file-chunks.ts)
      headBytes.push(Buffer.from(chunk));
      const raw = Buffer.concat(headBytes);
      const sniffed = sniffFormat(raw.toString('utf8'), final);
      if (sniffed === undefined) return;
      format = sniffed;
      headBytes.length = 0;
      chunk = raw;
    }
    if (format !== 'ndjson') {
      textMode = true;
      feedText(decoder.write(chunk), false);
      return;
    }
    if (chunk.length > 0) for (const lineBytes of chunker.push(chunk)) await feedLineBytes(lineBytes);
  };

  const utf8 = new Utf8Check();
  const checkUtf8 = (at: number, byte: number | undefined): void => {
    if (at >= 0) throw new VenueSearchError('invalid_data', `${label} ${notUtf8FileProblem(typeof source === 'string' ? source : undefined, at, byte)}`, { file: label });
  };
  try {
    let first = true;
    for await (const chunk of chunks()) {
      // A source of strings is read as text; a source of bytes as bytes (strings in it encoded).
      if (first) textMode = typeof chunk === 'string';
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      let buf = typeof chunk === 'string' ? null : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let text = typeof chunk === 'string' ? chunk : null;
      if (first && buf !== null) {
        const problem = binaryFormatProblem(buf);
        if (problem !== undefined) throw new VenueSearchError('invalid_data', `${label} ${problem}`, { file: label });
      }
      // Bytes that are not UTF-8 are refused, never decoded as U+FFFD (audit 68e F1); offsets count from the file's start.
      if (buf !== null) checkUtf8(utf8.push(buf), utf8.badByte);
      // A byte order mark (written by some Windows editors) is not part of the first line.
      if (first && buf !== null) buf = bytesWithoutByteOrderMark(buf);
      if (first && text !== null) text = withoutByteOrderMark(text);
      first = false;
      if (textMode) feedText(buf === null ? text! : decoder.write(buf), false);
      else await feedBytes(buf ?? Buffer.from(text!, 'utf8'), false);
    }
    checkUtf8(utf8.end(), undefined);
    if (!textMode) {
      if (format === undefined) await feedBytes(Buffer.alloc(0), true);
      if (!textMode) {
        const rest = chunker.end();
        if (rest !== null) await feedLineBytes(rest);
        while (blocks.length > 0) await admitBlock(blocks.shift()!);
        while (encodedBlocks.length > 0) await admitEncodedBlock(encodedBlocks.shift()!);
      }
    }
  } catch (err) {
    // Only the source's own errors are wrapped; the rest pass as they are: a bad record's
    // error, the package's own worker module missing (bundled: PackageFileMissingError), the
    // caller's onProgress error, an internal error.
    if (isVenueSearchError(err) || sourceError === null || err !== (sourceError as { readonly error: unknown }).error) throw err;
    const why = isFileError(err) ? `cannot read venue file ${label}: ${fileProblem(err)}` : `cannot read ${label}: ${(err as Error).message}`;
    throw new VenueSearchError('invalid_data', why, { file: label, cause: err });
  } finally {
    if (pool !== null) await (pool as ValidatePool).close();
  }
  if (textMode) feedText(decoder.end(), true);
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
  return { rejects, format };
}

/** The keys of {@link ReadVenuesOptions}. */
export const READ_VENUES_OPTIONS = ['format', 'onInvalid', 'onProgress', 'name', 'threads'] as const;
const FORMATS: readonly VenueFileFormat[] = ['ndjson', 'json', 'geojson'];

/** The values of the read options (the keys are the caller's to check: readVenues, createEngineFromFile). */
function checkReadOptions(options: ReadVenuesOptions): void {
  const { format, onInvalid, onProgress, name } = options;
  if (format !== undefined && !FORMATS.includes(format)) invalidRequest('options.format', format, `one of ${FORMATS.join(', ')} (or left out)`);
  if (onInvalid !== undefined && onInvalid !== 'throw' && onInvalid !== 'skip') invalidRequest('options.onInvalid', onInvalid, '"throw" or "skip"');
  if (onProgress !== undefined && typeof onProgress !== 'function') invalidRequest('options.onProgress', onProgress, 'a function');
  if (name !== undefined && typeof name !== 'string') invalidRequest('options.name', name, 'a string');
}

/** The most threads a read may use (the `threads` option: 1 to this). */
export const MAX_READ_THREADS = 64;

/** The `threads` option checked (default 1). */
function threadCount(threads: number | undefined): number {
  if (threads === undefined) return 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_READ_THREADS) {
    throw new VenueSearchError('invalid_request', `options.threads must be an integer from 1 to ${MAX_READ_THREADS}; got ${describeValue(threads)}`, { param: 'options.threads', value: threads });
  }
  return threads;
}

/** The format a venue file's name gives (`.ndjson`/`.jsonl`, `.geojson`), or undefined: sniffed from the content. */
export function formatFromName(file: string | undefined): VenueFileFormat | undefined {
  if (!file) return undefined;
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  if (/\.geojson$/i.test(file)) return 'geojson';
  return undefined; // .json: an array, a FeatureCollection or NDJSON; sniff it
}

/**
 * Decides the format from the first bytes: `[` is a JSON array; `{` is NDJSON when the first
 * line is a complete JSON object that is not a FeatureCollection. When it is not complete, the
 * object spans lines, which only GeoJSON's one document does: GeoJSON when the first line is
 * `{` alone (a pretty-printed document: ogr2ogr, Python's json.dump(indent=...)), or the
 * object's first member is `"features"` (sorted keys, audit 65a F8: "type" then comes after
 * every feature), or "FeatureCollection" is in the first 4 KiB; else NDJSON (a record cut or
 * broken on line 1, reported as such). Returns undefined when more input is needed.
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
    if (head[start] !== '{') return 'ndjson';
    const spansLines = firstLine.trim() === '{' || /^\{\s*"features"\s*:/.test(head.slice(start, start + 4096));
    return spansLines || /"FeatureCollection"/.test(head.slice(0, 4096)) ? 'geojson' : 'ndjson';
  }
}
