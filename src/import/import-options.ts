/**
 * The importers' options, checked when an importer is called, before any file is read, by
 * the rule of the engine's own calls (src/call-options.ts): a plain object or left out; only
 * the keys the importer takes (`skipInstitutionl` is refused, with "did you mean"); each
 * option of its type and range, named `options.X` with the value given. All are
 * `invalid_request`. Without it a misspelt or mistyped option silently changed the import
 * (`skipInstitutional: 'yes'` skipped nothing, `maxKmFromAuthority: 'x'` kept every row:
 * audit 64a F20). `undefined` is an option left out.
 */
import { checkCallOptions } from '../call-options.js';
import { invalidRequest, isVenueSearchError, VenueSearchError } from '../errors.js';
import { countryExtent } from './country-extent.js';
import { ImportReport } from './import-report.js';
import type { FhrsImportOptions } from './fhrs-import.js';
import type { ImportOptions } from './osm-import.js';
import type { OvertureImportOptions } from './overture-import.js';
import type { LonLatBox, OverturePlaceFilter } from './overture-to-venue.js';

const COMMON_KEYS = ['source', 'onProgress', 'hoursCache'] as const;
const FHRS_KEYS = [...COMMON_KEYS, 'maxKmFromAuthority', 'skipInstitutional'] as const;
const OVERTURE_KEYS = [...COMMON_KEYS, 'minConfidence', 'bbox', 'country'] as const;
const BBOX_KEYS = ['west', 'south', 'east', 'north'] as const;
const FILTER_KEYS = ['minConfidence', 'bbox', 'country'] as const;
const CONTEXT_KEYS = ['report', 'hoursCache'] as const;

/** The options every importer takes (ImportOptions), checked; the record for the importer's own. */
function checkCommon(options: unknown, keys: readonly string[]): Record<string, unknown> {
  const o = checkCallOptions(options, keys);
  if (o.source !== undefined && typeof o.source !== 'string') invalidRequest('options.source', o.source, 'a string (the name the report shows)');
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') invalidRequest('options.onProgress', o.onProgress, 'a function (read, total)');
  if (o.hoursCache !== undefined && !(o.hoursCache instanceof Map)) invalidRequest('options.hoursCache', o.hoursCache, 'a Map (opening-hours conversions by value)');
  return o;
}

/** importOsm's and importOsmRows' options. */
export function checkOsmOptions(options: unknown): ImportOptions {
  return checkCommon(options, COMMON_KEYS) as ImportOptions;
}

/** importFhrs' and importFhrsRows' options: `maxKmFromAuthority` km above 0 (Infinity keeps all), `skipInstitutional` a boolean. */
export function checkFhrsOptions(options: unknown): FhrsImportOptions {
  const o = checkCommon(options, FHRS_KEYS);
  const km = o.maxKmFromAuthority;
  if (km !== undefined && !(typeof km === 'number' && km > 0)) invalidRequest('options.maxKmFromAuthority', km, 'a number of kilometres above 0 (Infinity keeps every row)');
  if (o.skipInstitutional !== undefined && typeof o.skipInstitutional !== 'boolean') invalidRequest('options.skipInstitutional', o.skipInstitutional, 'true or false');
  return o as FhrsImportOptions;
}

/** A checked Overture import: the row filter, and the regions a row group must meet to be read. */
export interface OvertureSelection {
  readonly filter: OverturePlaceFilter;
  readonly regions: readonly LonLatBox[];
}

/** importOverture's options, and the selection they make (the country's extent looked up now, so a bad code is refused before any work). */
export function checkOvertureOptions(options: unknown, defaultMinConfidence: number): OvertureSelection {
  const o = checkCommon(options, OVERTURE_KEYS) as OvertureImportOptions;
  const minConfidence = o.minConfidence ?? defaultMinConfidence;
  if (!(typeof minConfidence === 'number' && minConfidence >= 0 && minConfidence <= 1)) invalidRequest('options.minConfidence', minConfidence, 'a number from 0 to 1');
  const bbox = o.bbox === undefined ? undefined : checkBox(o.bbox, 'options.bbox');
  if (o.country !== undefined && typeof o.country !== 'string') invalidRequest('options.country', o.country, 'an ISO 3166-1 alpha-2 code such as GB or FJ');
  const country = o.country?.trim().toUpperCase();
  // A row group is read only when its extent meets every region asked for.
  const regions: LonLatBox[] = [];
  if (bbox !== undefined) regions.push(bbox);
  if (o.country !== undefined) regions.push(optionCountryExtent(o.country));
  const filter: OverturePlaceFilter = { minConfidence, ...(bbox !== undefined ? { bbox } : {}), ...(country !== undefined ? { country } : {}) };
  return { filter, regions };
}

/** A box option (`name`: `options.bbox`): `{west, south, east, north}` in degrees, south <= north (west > east crosses the antimeridian). */
function checkBox(value: unknown, name: string): LonLatBox {
  const box = checkCallOptions(value, BBOX_KEYS, name);
  for (const key of BBOX_KEYS) {
    const limit = key === 'west' || key === 'east' ? 180 : 90;
    const v = box[key];
    if (!(typeof v === 'number' && Math.abs(v) <= limit)) invalidRequest(`${name}.${key}`, v, `a ${limit === 180 ? 'longitude' : 'latitude'} from -${limit} to ${limit} (degrees)`);
  }
  const { west, south, east, north } = box as unknown as LonLatBox;
  if (south > north) invalidRequest(`${name}.south`, south, `at most ${name}.north (${north})`);
  return { west, south, east, north };
}

/** countryExtent's error for `options.country`, named as the option. */
function optionCountryExtent(code: string): LonLatBox {
  try {
    return countryExtent(code);
  } catch (err) {
    if (!isVenueSearchError(err) || err.param !== 'country') throw err;
    throw new VenueSearchError('invalid_request', `options.${err.message}`, { param: 'options.country', value: code });
  }
}

/** overturePlaceToVenue's `filter`: `minConfidence` from 0 to 1, `bbox` as importOverture's, `country` an alpha-2 code in capitals (compared as it is). */
export function checkOverturePlaceFilter(filter: unknown): void {
  if (filter === undefined) invalidRequest('filter', filter, 'a plain object such as { minConfidence: 0.5 }');
  const f = checkCallOptions(filter, FILTER_KEYS, 'filter');
  if (!(typeof f.minConfidence === 'number' && f.minConfidence >= 0 && f.minConfidence <= 1)) invalidRequest('filter.minConfidence', f.minConfidence, 'a number from 0 to 1');
  if (f.bbox !== undefined) checkBox(f.bbox, 'filter.bbox');
  if (f.country !== undefined && !(typeof f.country === 'string' && /^[A-Z]{2}$/.test(f.country))) invalidRequest('filter.country', f.country, 'an ISO 3166-1 alpha-2 code in capitals, such as GB');
}

/** osmElementToVenue's `ctx`: `{ report, hoursCache }`, an ImportReport and a Map. */
export function checkOsmMapContext(ctx: unknown): void {
  if (ctx === undefined) invalidRequest('ctx', ctx, "{ report: new ImportReport('osm'), hoursCache: new Map() }");
  const c = checkCallOptions(ctx, CONTEXT_KEYS, 'ctx');
  if (!(c.report instanceof ImportReport)) invalidRequest('ctx.report', c.report, "an ImportReport (new ImportReport('osm'))");
  if (!(c.hoursCache instanceof Map)) invalidRequest('ctx.hoursCache', c.hoursCache, 'a Map (opening-hours conversions by value)');
}

/** mergeVenues' arguments: `records` an iterable of records (not a string), `report` an ImportReport or left out. */
export function checkMergeArguments(records: unknown, report: unknown): void {
  if (typeof records !== 'object' || records === null || typeof (records as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function') {
    invalidRequest('records', records, 'an iterable of venue records (an array)');
  }
  if (report !== undefined && !(report instanceof ImportReport)) invalidRequest('report', report, "an ImportReport (new ImportReport('merge')) or left out");
}
