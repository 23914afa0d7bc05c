/**
 * The shared GeoNames GB files read as the place tests' oracle, with no engine code:
 * - gb_places_geonames.csv: a header line, RFC 4180 fields (a quoted field may hold commas and
 *   doubled quotes; no line breaks in this file);
 * - gb_postal_outcode_places.tsv: no header, tab-separated; outward code (column 2), place name
 *   (3), admin2 (6), point (10, 11).
 */
import { readFileSync } from 'node:fs';
import { sharedFile } from '../../support/real-data.js';

export const GEONAMES_PLACES = 'geonames-gb/gb_places_geonames.csv';
export const GEONAMES_POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';

export interface GeoNamesPlace {
  name: string;
  lat: number;
  lon: number;
  admin1: string;
  admin2: string;
  population: number;
}

/** One CSV line's fields. */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') [field, i] = [field + '"', i + 1];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/** Every row of the places file, by its header's column names. */
export function readGeoNamesPlaces(): GeoNamesPlace[] {
  const [header, ...lines] = readFileSync(sharedFile(GEONAMES_PLACES), 'utf8').split(/\r?\n/).filter((l) => l !== '');
  const col = csvFields(header!);
  const at = (name: string) => col.indexOf(name);
  return lines.map((l) => {
    const f = csvFields(l);
    return { name: f[at('name')]!, lat: Number(f[at('lat')]), lon: Number(f[at('lon')]), admin1: f[at('admin1_name')]!, admin2: f[at('admin2_name')]!, population: Number(f[at('population')] || 0) };
  });
}

/** Every row of the postal file: its place name, outward code, admin2 and point. */
export function readGeoNamesPostal(): Array<{ name: string; outcode: string; admin2: string; lat: number; lon: number }> {
  return readFileSync(sharedFile(GEONAMES_POSTAL), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 11)
    .map((f) => ({ name: f[2]!, outcode: f[1]!, admin2: f[5]!, lat: Number(f[9]), lon: Number(f[10]) }));
}

/** The postal file's points by "<place name>|<outward code>". */
export function postalPointsByNameAndCode(): Map<string, { lat: number; lon: number }> {
  return new Map(readGeoNamesPostal().map((r) => [`${r.name}|${r.outcode}`, { lat: r.lat, lon: r.lon }]));
}
