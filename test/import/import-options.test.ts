import { describe, expect, it } from 'vitest';
import { ImportReport, importFhrs, importFhrsRows, importOsm, importOsmRows, importOverture, mergeVenues, osmElementToVenue, overturePlaceToVenue } from '../../src/import/index.js';
import { VenueSearchError } from '../../src/errors.js';

/**
 * The importers' options are checked as the engine's call options are (src/call-options.ts):
 * a misspelt option is refused with "did you mean", a mistyped one naming the option and the
 * value, `invalid_request`, when the importer is called, before any file is read (the paths
 * here do not exist). Before, each was silently ignored: `importFhrs(F, { skipInstitutional:
 * 'yes' })` skipped nothing, `maxKmFromAuthority: 'x'` kept the far rows (audit 64a F20).
 * Expected messages written by hand.
 */
const NO_FILE = '/nonexistent/input';

function refusal(call: () => unknown): { code: string; param: string | undefined; message: string } {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(VenueSearchError);
    const e = err as VenueSearchError;
    return { code: e.code, param: e.param, message: e.message };
  }
  throw new Error('not refused');
}

const COMMON = 'source, onProgress, hoursCache';

describe('importer options: misspelt and mistyped options refused (audit 64a F20)', () => {
  it('importFhrs / importFhrsRows: skipInstitutionl, skipInstitutional "yes", maxKmFromAuthority "x", 0 or NaN', () => {
    const its = `(its options: ${COMMON}, maxKmFromAuthority, skipInstitutional)`;
    expect(refusal(() => importFhrs(NO_FILE, { skipInstitutionl: true } as never))).toEqual({
      code: 'invalid_request',
      param: 'options.skipInstitutionl',
      message: `options.skipInstitutionl is not an option of this call; did you mean "skipInstitutional"? ${its}; got true`,
    });
    expect(refusal(() => importFhrs(NO_FILE, { skipInstitutional: 'yes' } as never))).toEqual({
      code: 'invalid_request',
      param: 'options.skipInstitutional',
      message: 'options.skipInstitutional must be true or false; got "yes"',
    });
    expect(refusal(() => importFhrs(NO_FILE, { maxKmFromAuthority: 'x' } as never)).message).toBe(
      'options.maxKmFromAuthority must be a number of kilometres above 0 (Infinity keeps every row); got "x"',
    );
    expect(refusal(() => importFhrsRows([], { maxKmFromAuthority: 0 })).message).toBe('options.maxKmFromAuthority must be a number of kilometres above 0 (Infinity keeps every row); got 0');
    expect(refusal(() => importFhrsRows([], { maxKmFromAuthority: NaN })).param).toBe('options.maxKmFromAuthority');
    expect(refusal(() => importFhrsRows([], { maxKmFromAuthorty: 3 } as never)).message).toBe(
      `options.maxKmFromAuthorty is not an option of this call; did you mean "maxKmFromAuthority"? ${its}; got 3`,
    );
  });

  it('importOsm / importOsmRows: onProgres, source 5, hoursCache {}, options null', () => {
    expect(refusal(() => importOsm(NO_FILE, { sorce: 'pubs' } as never))).toEqual({
      code: 'invalid_request',
      param: 'options.sorce',
      message: `options.sorce is not an option of this call; did you mean "source"? (its options: ${COMMON}); got "pubs"`,
    });
    expect(refusal(() => importOsm(NO_FILE, { source: 5 } as never)).message).toBe('options.source must be a string (the name the report shows); got 5');
    expect(refusal(() => importOsmRows([], { onProgres: 1 } as never)).message).toBe(
      `options.onProgres is not an option of this call; did you mean "onProgress"? (its options: ${COMMON}); got 1`,
    );
    expect(refusal(() => importOsmRows([], { onProgress: 'bar' } as never)).message).toBe('options.onProgress must be a function (read, total); got "bar"');
    expect(refusal(() => importOsmRows([], { hoursCache: {} } as never)).message).toBe('options.hoursCache must be a Map (opening-hours conversions by value); got {}');
    expect(refusal(() => importOsm(NO_FILE, null as never)).message).toBe('options must be a plain object (or left out); got null');
  });

  it('importOverture: minconfidence, minConfidence "0.7" or 1.1, contry, country "GBR" or "ZZ", bbox misspelt, out of range, south above north, an array', () => {
    const its = `(its options: ${COMMON}, minConfidence, bbox, country)`;
    expect(refusal(() => importOverture(NO_FILE, { minconfidence: 0.7 } as never))).toEqual({
      code: 'invalid_request',
      param: 'options.minconfidence',
      message: `options.minconfidence is not an option of this call; did you mean "minConfidence"? ${its}; got 0.7`,
    });
    // "0.7" >= 0 and <= 1 in JavaScript: a string passed the old range check
    expect(refusal(() => importOverture(NO_FILE, { minConfidence: '0.7' } as never)).message).toBe('options.minConfidence must be a number from 0 to 1; got "0.7"');
    expect(refusal(() => importOverture(NO_FILE, { minConfidence: 1.1 })).message).toBe('options.minConfidence must be a number from 0 to 1; got 1.1');
    expect(refusal(() => importOverture(NO_FILE, { contry: 'GB' } as never)).message).toBe(
      `options.contry is not an option of this call; did you mean "country"? ${its}; got "GB"`,
    );
    expect(refusal(() => importOverture(NO_FILE, { country: 'GBR' }))).toEqual({
      code: 'invalid_request',
      param: 'options.country',
      message: 'options.country must be an ISO 3166-1 alpha-2 code such as GB or FJ; got "GBR"',
    });
    expect(refusal(() => importOverture(NO_FILE, { country: 44 } as never)).message).toBe('options.country must be an ISO 3166-1 alpha-2 code such as GB or FJ; got 44');
    expect(refusal(() => importOverture(NO_FILE, { country: 'ZZ' })).message).toBe(
      'options.country "ZZ" has no places in the gazetteer; expected an ISO 3166-1 alpha-2 code such as GB or FJ',
    );
    expect(refusal(() => importOverture(NO_FILE, { bbox: { west: -1, south: 51, east: 0, nort: 52 } } as never))).toEqual({
      code: 'invalid_request',
      param: 'options.bbox.nort',
      message: 'options.bbox.nort is not an option of this call; did you mean "north"? (its options: west, south, east, north); got 52',
    });
    expect(refusal(() => importOverture(NO_FILE, { bbox: { west: -1, south: 51, east: 181, north: 52 } })).message).toBe(
      'options.bbox.east must be a longitude from -180 to 180 (degrees); got 181',
    );
    expect(refusal(() => importOverture(NO_FILE, { bbox: { west: -1, south: '51', east: 0, north: 52 } } as never)).message).toBe(
      'options.bbox.south must be a latitude from -90 to 90 (degrees); got "51"',
    );
    expect(refusal(() => importOverture(NO_FILE, { bbox: { west: -1, south: 53, east: 0, north: 52 } })).message).toBe('options.bbox.south must be at most options.bbox.north (52); got 53');
    expect(refusal(() => importOverture(NO_FILE, { bbox: [-1, 51, 0, 52] } as never)).message).toBe('options.bbox must be a plain object (or left out); got [-1,51,0,52]');
  });

  it('mergeVenues: a report that is not an ImportReport, records that are not a list', () => {
    expect(refusal(() => mergeVenues([], { source: 'merge' } as never))).toEqual({
      code: 'invalid_request',
      param: 'report',
      message: `report must be an ImportReport (new ImportReport('merge')) or left out; got {"source":"merge"}`,
    });
    expect(refusal(() => mergeVenues('venues.ndjson' as never)).message).toBe('records must be an iterable of venue records (an array); got "venues.ndjson"');
    expect(mergeVenues([], new ImportReport('mine')).report.source).toBe('mine');
  });

  it('overturePlaceToVenue filter and osmElementToVenue ctx: misspelt and mistyped keys refused, before the row is mapped', () => {
    const place = { id: 'p', names: { primary: 'Cafe' }, categories: { primary: 'cafe' }, geometry: { type: 'Point', coordinates: [-0.1, 51.5] } };
    expect(refusal(() => overturePlaceToVenue(place, { minConfidense: 0.5 } as never))).toEqual({
      code: 'invalid_request',
      param: 'filter.minConfidense',
      message: 'filter.minConfidense is not an option of this call; did you mean "minConfidence"? (its options: minConfidence, bbox, country); got 0.5',
    });
    expect(refusal(() => overturePlaceToVenue(place, { minConfidence: '0.5' } as never)).message).toBe('filter.minConfidence must be a number from 0 to 1; got "0.5"');
    // the row's country is compared as it is: "gb" would keep no row
    expect(refusal(() => overturePlaceToVenue(place, { minConfidence: 0.5, country: 'gb' })).message).toBe('filter.country must be an ISO 3166-1 alpha-2 code in capitals, such as GB; got "gb"');
    expect(refusal(() => overturePlaceToVenue(place, { minConfidence: 0.5, bbox: { west: -1, south: 51, east: 0 } } as never)).message).toBe(
      'filter.bbox.north must be a latitude from -90 to 90 (degrees); got undefined',
    );
    expect(refusal(() => overturePlaceToVenue(place, undefined as never)).message).toBe('filter must be a plain object such as { minConfidence: 0.5 }; got undefined');
    const node = { type: 'node' as const, id: '1', tags: { amenity: 'pub', name: 'The Anchor' }, point: { lat: 51.5, lon: -0.1 } };
    expect(refusal(() => osmElementToVenue(node, { report: new ImportReport('t'), hoursCach: new Map() } as never))).toEqual({
      code: 'invalid_request',
      param: 'ctx.hoursCach',
      message: 'ctx.hoursCach is not an option of this call; did you mean "hoursCache"? (its options: report, hoursCache); got a Map of 0',
    });
    expect(refusal(() => osmElementToVenue(node, { report: {}, hoursCache: new Map() } as never)).message).toBe("ctx.report must be an ImportReport (new ImportReport('osm')); got {}");
    expect(osmElementToVenue(node, { report: new ImportReport('t'), hoursCache: new Map() })).toMatchObject({ ok: true, record: { name: 'The Anchor' } });
  });

  it('options left out, undefined or of the right types are taken (no file read until iterated)', () => {
    expect(() => importFhrs(NO_FILE, { skipInstitutional: false, maxKmFromAuthority: Infinity, source: undefined })).not.toThrow();
    expect(() => importOsm(NO_FILE, { hoursCache: new Map(), onProgress: () => {} })).not.toThrow();
    expect(() => importOverture(NO_FILE, { minConfidence: 0, bbox: { west: 170, south: -20, east: -170, north: -10 }, country: 'fj' })).not.toThrow();
    expect(() => importOsmRows([])).not.toThrow();
  });
});
