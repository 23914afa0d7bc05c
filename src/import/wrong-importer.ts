/**
 * A raw file given to the wrong importer, told from its start: an FHRS CSV (its header names
 * FHRSID) or other text given to `import osm`, JSON or GeoJSON given to `import fhrs` or
 * `import overture`, a venue-search snapshot given to any importer. Said as the end of a
 * sentence after "<kind> file <path>", naming the importer to use, as the Parquet case does
 * (binaryFormatProblem in src/data/file-problem.ts). An importer is named only when its own
 * test of the file's kind accepts the file (audit 66a F6): `import osm` for a FeatureCollection
 * or lines naming an osm_id (src/import/osm-sources.ts), `import fhrs` for an FHRSID header.
 * A snapshot given to `import merge` is told the same (audit 66g F5).
 */
import { bytesWithoutByteOrderMark } from '../data/byte-order-mark.js';
import { fileHead } from '../data/file-problem.js';
import { MAGIC } from '../snapshot/snapshot-format.js';
import { holdsFeatures, isPointsLineFile, namesOsmElement } from './osm-sources.js';

const FHRS_HINT = 'this looks like an FHRS CSV: use `venue-search import fhrs`';
const OSM_HINT = 'this looks like JSON or GeoJSON (an OpenStreetMap export?): use `venue-search import osm`';
/** Said of JSON that `import osm` would refuse too: what it does read, and no importer named for this file. */
const OTHER_JSON_HINT =
  'it is JSON that no importer here reads (`import osm` takes an Overpass or Veggiekarte GeoJSON FeatureCollection or {osm_id, lat, lon, tags} lines)';
/** Said of a file of venue records by every importer (`import osm`, `import fhrs`, `import overture`): no importer takes them. */
export const VENUES_HINT = 'it holds venue records (already imported?); give them to readVenues or serve --data as they are';
/** Said by every importer of a snapshot (src/snapshot/snapshot-format.ts, MAGIC "VSNAPSHT"): it is already built. */
const SNAPSHOT_HINT = 'is a venue-search snapshot (venue records already imported and built), not a source to import: serve it with `venue-search serve --data`';

/** Bytes of a file's start read to tell its kind: a GeoJSON header ("features": [) lies within them. */
const HEAD_BYTES = 64 * 1024;

/** True for a value shaped like a venue record (`id` and `location`): a file already imported. */
export function looksLikeVenues(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value && 'location' in value;
}

/** The file's first `bytes` bytes as text, without a byte order mark, or '' when it cannot be read (the readers say why). */
function headText(path: string, bytes: number): string {
  try {
    return bytesWithoutByteOrderMark(fileHead(path, bytes)).toString('utf8');
  } catch {
    return '';
  }
}

/** The file's first line (at most 4 KiB, without a byte order mark), or '' when it cannot be read (the readers say why). */
function firstLine(path: string): string {
  const text = headText(path, 4096);
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/**
 * For any importer, checked before reading: a venue-search snapshot's hint (its first bytes are
 * the snapshot magic), else undefined. Without it `import fhrs` printed the binary as
 * replacement characters and `import osm` called it "not JSON" (audit 66a F6).
 */
export function snapshotGivenToImporter(path: string): string | undefined {
  let head: Buffer;
  try {
    head = fileHead(path, MAGIC.length);
  } catch {
    return undefined;
  }
  // the format's magic compared here, not through read-snapshot.ts: an importer need not load the engine
  return head.toString('latin1') === MAGIC ? SNAPSHOT_HINT : undefined;
}

/**
 * For `import merge`, checked for each input before reading it: the importers' snapshot hint
 * ({@link snapshotGivenToImporter}, the one test of the magic), and what merge takes instead;
 * else undefined. Without it merge split the binary into "lines" and called them all invalid,
 * not JSON (audit 66g F5).
 */
export function snapshotGivenToMerge(path: string): string | undefined {
  const hint = snapshotGivenToImporter(path);
  return hint === undefined ? undefined : `${hint}, or merge the venue files it was built from`;
}

/**
 * What a file that starts as JSON holds, for an importer that does not read JSON: venue records,
 * something `import osm` reads (judged as it judges: a points line naming an osm_id, or a
 * FeatureCollection; a GeoJSON file longer than {@link HEAD_BYTES} by a `"features": [` in its
 * start), or other JSON, which no importer is named for.
 */
function jsonHint(path: string): string {
  if (isPointsLineFile(path)) {
    const value = parsedOrUndefined(firstLine(path));
    if (looksLikeVenues(value)) return VENUES_HINT;
    return namesOsmElement(value) ? OSM_HINT : OTHER_JSON_HINT;
  }
  const head = headText(path, HEAD_BYTES);
  const value = parsedOrUndefined(head);
  // a JSON array of venue records is told as an NDJSON file of them is
  if (value !== undefined) return looksLikeVenues(Array.isArray(value) ? value[0] : value) ? VENUES_HINT : holdsFeatures(value) ? OSM_HINT : OTHER_JSON_HINT;
  // a file cut at HEAD_BYTES: its first line may be a whole record of an NDJSON file of venues
  if (looksLikeVenues(parsedOrUndefined(head.slice(0, head.search(/\r?\n|$/))))) return VENUES_HINT;
  return /^\s*\{[\s\S]*"features"\s*:\s*\[/.test(head) ? OSM_HINT : OTHER_JSON_HINT;
}

/** True for a CSV header naming the FHRSID column (quoted or not). */
function isFhrsHeader(line: string): boolean {
  return line.split(',').some((field) => field.trim().replace(/^"(.*)"$/, '$1') === 'FHRSID');
}

/** For `import osm`, checked before reading: an FHRS CSV's hint, else undefined. */
export function fhrsGivenToOsm(path: string): string | undefined {
  return isFhrsHeader(firstLine(path)) ? `is not JSON: ${FHRS_HINT}` : undefined;
}

/**
 * For `import osm` when the file did not parse as JSON: text that does not even start as JSON
 * (not "{" or "["), said with its first characters and the importers of the other sources;
 * undefined for a JSON file that is broken (cut, or a stray character), which the parser's message describes.
 */
export function notJsonForOsm(path: string): string | undefined {
  const line = firstLine(path).trimStart();
  if (line === '' || line.startsWith('{') || line.startsWith('[')) return undefined;
  return `is not JSON (it starts ${JSON.stringify(line.slice(0, 24))}): \`import osm\` reads Overpass or Veggiekarte GeoJSON or {osm_id, lat, lon, tags} lines; an FHRS CSV is imported with \`venue-search import fhrs\`, Overture GeoParquet with \`venue-search import overture\``;
}

/**
 * For `import fhrs`, checked before reading: JSON or GeoJSON (it starts with "{" or "["), else
 * undefined; said with what it holds (venue records: audit 64a F14) and `import osm` only for
 * a file that importer reads.
 */
export function jsonGivenToFhrs(path: string): string | undefined {
  const line = firstLine(path).trimStart();
  if (!line.startsWith('{') && !line.startsWith('[')) return undefined;
  return `is not a CSV: ${jsonHint(path)}`;
}

/**
 * For `import overture` when the file is not Parquet: what it looks like instead, as the end of
 * a sentence ("...: it holds venue records ...", an FHRS CSV's or JSON's importer), or
 * undefined when its first line says nothing (audit 65a F15).
 */
export function textGivenToOverture(path: string): string | undefined {
  const line = firstLine(path);
  if (isFhrsHeader(line)) return FHRS_HINT;
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  return jsonHint(path);
}

/** The JSON value of `text`, or undefined when it does not parse (a GeoJSON file's first line is rarely whole). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
