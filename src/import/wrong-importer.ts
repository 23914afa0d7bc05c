/**
 * A raw file given to the wrong importer, told from its first line: an FHRS CSV (its header
 * names FHRSID) or other text given to `import osm`, JSON or GeoJSON given to `import fhrs`.
 * Said as the end of a sentence after "<kind> file <path>", naming the importer to use, as
 * the Parquet case does (binaryFormatProblem in src/data/file-problem.ts).
 */
import { bytesWithoutByteOrderMark } from '../data/byte-order-mark.js';
import { fileHead } from '../data/file-problem.js';

const FHRS_HINT = 'this looks like an FHRS CSV: use `venue-search import fhrs`';
const OSM_HINT = 'this looks like JSON or GeoJSON (an OpenStreetMap export?): use `venue-search import osm`';
/** Said of a file of venue records by every importer (`import osm`, `import fhrs`, `import overture`): no importer takes them. */
export const VENUES_HINT = 'it holds venue records (already imported?); give them to readVenues or serve --data as they are';

/** True for a value shaped like a venue record (`id` and `location`): a file already imported. */
export function looksLikeVenues(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value && 'location' in value;
}

/** The file's first line (at most 4 KiB, without a byte order mark), or '' when it cannot be read (the readers say why). */
function firstLine(path: string): string {
  let head: Buffer;
  try {
    head = bytesWithoutByteOrderMark(fileHead(path, 4096));
  } catch {
    return '';
  }
  const text = head.toString('utf8');
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
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
 * undefined. A first line that is a venue record (an imported file) is told so, as `import osm`
 * tells it, rather than sent to `import osm` (audit 64a F14).
 */
export function jsonGivenToFhrs(path: string): string | undefined {
  const line = firstLine(path).trimStart();
  if (!line.startsWith('{') && !line.startsWith('[')) return undefined;
  return `is not a CSV: ${looksLikeVenues(parsedOrUndefined(line)) ? VENUES_HINT : OSM_HINT}`;
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
  return looksLikeVenues(parsedOrUndefined(trimmed)) ? VENUES_HINT : OSM_HINT;
}

/** The JSON value of `text`, or undefined when it does not parse (a GeoJSON file's first line is rarely whole). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
