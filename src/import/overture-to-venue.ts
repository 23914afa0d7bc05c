import type { Geometry } from 'geojson';
import { wkbToGeojson } from 'hyparquet/src/wkb.js';
import type { VenueRecord } from '../schema/venue.js';
import { cleanText } from './clean-text.js';
import { checkOverturePlaceFilter } from './import-options.js';
import { isNullIsland, NULL_ISLAND_REASON } from './null-island.js';
import { representativePoint, type LatLon } from './osm-geometry.js';
import type { MapOutcome } from './osm-to-venue.js';
import { ALCOHOL_GENRES, COCKTAIL_WORDS, FOOD_GENRES, FOOD_AND_DRINK_ROOTS, categoryMeaning, type CategoryMeaning } from './overture-vocabulary.js';
import { inLonLatBox, type LonLatBox } from '../geo/bbox.js';

export { inLonLatBox, type LonLatBox };

/**
 * One Overture Maps place row (as a Parquet reader gives it) to a venue record. Pure; every
 * rule is listed in docs/import.md ("Overture mapping"). Fields are read defensively: a
 * release may lack a column (`taxonomy` before mid-2025, `categories` after 2026), and a
 * text column may come as bytes when the file does not annotate it as UTF-8.
 */
export type OverturePlace = Readonly<Record<string, unknown>>;

/** Where a place must lie to be imported (lon/lat degrees; `west > east` crosses 180°). */
export interface OverturePlaceFilter {
  /** Places below this `confidence` are skipped (`low_confidence`); absent confidence passes. */
  readonly minConfidence: number;
  readonly bbox?: LonLatBox;
  /** ISO 3166-1 alpha-2, upper case: the first address's `country` must equal it. */
  readonly country?: string;
}


export const DEFAULT_MIN_CONFIDENCE = 0.5;

/**
 * Overture's `operating_status` values of a place one cannot visit; each is its own skip
 * reason. `open`, null, an absent column (older releases, the bundled sample) and any other
 * value import the place.
 */
const CLOSED_STATUSES: ReadonlySet<string> = new Set(['permanently_closed', 'temporarily_closed']);

const MAX_TEXT = 2000;
const MAX_LIST_ITEM = 200;
const WIKIDATA_ID = /^Q[0-9]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: false });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Text from a string or UTF-8 bytes, trimmed; undefined when empty or not text. */
function text(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v : v instanceof Uint8Array ? utf8.decode(v) : undefined;
  const t = s?.trim();
  return t ? (t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t) : undefined;
}

/** The non-empty texts of a list column (null or absent: none). */
function texts(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    const t = text(item);
    if (t !== undefined) out.push(t);
  }
  return out;
}


/**
 * The place's point: from `geometry` (WKB bytes, or a GeoJSON geometry when the reader
 * decoded GeoParquet), a Point being itself and other shapes a representative point;
 * from the centre of `bbox` when there is no geometry. Undefined when neither is usable.
 */
export function overturePoint(row: OverturePlace): LatLon | undefined {
  const g = row.geometry;
  if (g instanceof Uint8Array) {
    let geometry: Geometry;
    try {
      geometry = wkbToGeojson({ view: new DataView(g.buffer, g.byteOffset, g.byteLength), offset: 0 }) as Geometry;
    } catch {
      return undefined;
    }
    return representativePoint(geometry);
  }
  if (isObject(g)) return representativePoint(g as unknown as Geometry);
  if (g !== undefined && g !== null) return undefined;
  const b = row.bbox;
  if (!isObject(b)) return undefined;
  const { xmin, xmax, ymin, ymax } = b;
  if (typeof xmin !== 'number' || typeof xmax !== 'number' || typeof ymin !== 'number' || typeof ymax !== 'number') return undefined;
  return representativePoint({ type: 'Point', coordinates: [(xmin + xmax) / 2, (ymin + ymax) / 2] });
}

/** The category words of a place, most telling first, and its alternates. */
export function categoryWords(row: OverturePlace): { primary: string[]; alternates: string[] } {
  const primary: string[] = [];
  const alternates: string[] = [];
  const taxonomy = row.taxonomy;
  if (isObject(taxonomy)) {
    const p = text(taxonomy.primary);
    if (p !== undefined) primary.push(p);
    // From the most specific to the most general: `pizza_restaurant`, `restaurant`, `food_and_drink`.
    primary.push(...texts(taxonomy.hierarchy).reverse());
    alternates.push(...texts(taxonomy.alternates));
  }
  const categories = row.categories;
  if (isObject(categories)) {
    const p = text(categories.primary);
    if (p !== undefined) primary.push(p);
    alternates.push(...texts(categories.alternate));
  }
  const basic = text(row.basic_category);
  if (basic !== undefined) primary.push(basic);
  return { primary, alternates };
}

/** The first category word that is food or drink (the words come most specific first). */
function kindOf(words: readonly string[]): (CategoryMeaning & { word: string }) | undefined {
  for (const word of words) {
    const meaning = categoryMeaning(word);
    if (meaning !== undefined) return { word, ...meaning };
  }
  return undefined;
}

/**
 * A place's kind: its first food-or-drink word of its own, else, when its own words include
 * a general food-and-drink word (FOOD_AND_DRINK_ROOTS), its first food-or-drink alternate.
 */
export function placeKind(primary: readonly string[], alternates: readonly string[]): (CategoryMeaning & { word: string }) | undefined {
  return kindOf(primary) ?? (primary.some((w) => FOOD_AND_DRINK_ROOTS.has(w)) ? kindOf(alternates) : undefined);
}

/** `freeform, locality, region postcode, country` of the first address; repeated parts dropped. */
export function formatOvertureAddress(addresses: unknown): string | undefined {
  if (!Array.isArray(addresses)) return undefined;
  const a = addresses.find(isObject);
  if (a === undefined) return undefined;
  const regionLine = [text(a.region), text(a.postcode)].filter(Boolean).join(' ') || undefined;
  const parts = [text(a.freeform), text(a.locality), regionLine, text(a.country)].map(cleanText).filter((p): p is string => !!p);
  const unique = parts.filter((p, i) => parts.indexOf(p) === i);
  return unique.length > 0 ? unique.join(', ').slice(0, MAX_TEXT) : undefined;
}

/** The first address's country code, upper case. */
export function overtureCountry(row: OverturePlace): string | undefined {
  if (!Array.isArray(row.addresses)) return undefined;
  const a = row.addresses.find(isObject);
  return a === undefined ? undefined : text(a.country)?.toUpperCase();
}

/** `facebook` and `instagram` from the socials' URLs (by host); others are not recorded. */
export function overtureSocials(urls: readonly string[]): VenueRecord['socials'] {
  const out: { facebook?: string; instagram?: string } = {};
  for (const url of urls) {
    const host = /^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*?([a-z0-9-]+)\.com(?:[/?#]|$)/i.exec(url)?.[1]?.toLowerCase();
    if (host === 'facebook' && out.facebook === undefined) out.facebook = url;
    else if (host === 'instagram' && out.instagram === undefined) out.instagram = url;
  }
  return out.facebook !== undefined || out.instagram !== undefined ? out : undefined;
}

/** Brand name and wikidata id; a place with either is a chain. */
function brandOf(row: OverturePlace): { name?: string; wikidata?: string } {
  const brand = row.brand;
  if (!isObject(brand)) return {};
  const out: { name?: string; wikidata?: string } = {};
  const name = isObject(brand.names) ? text(brand.names.primary) : undefined;
  if (name !== undefined) out.name = name;
  const wikidata = text(brand.wikidata);
  if (wikidata !== undefined) out.wikidata = wikidata;
  return out;
}

/** Maps one Overture place row to a venue record, or says why it is not one; `filter` checked (import-options.ts). */
export function overturePlaceToVenue(row: OverturePlace, filter: OverturePlaceFilter): MapOutcome {
  checkOverturePlaceFilter(filter);
  return mapOverturePlace(row, filter);
}

/** overturePlaceToVenue for a filter already checked (importOverture checks its options once, not per row). */
export function mapOverturePlace(row: OverturePlace, filter: OverturePlaceFilter): MapOutcome {
  const point = overturePoint(row);
  if (point === undefined) return { ok: false, reason: 'bad_geometry' };
  if (isNullIsland(point.lat, point.lon)) return { ok: false, reason: NULL_ISLAND_REASON, detail: '0,0' };
  if (filter.bbox !== undefined && !inLonLatBox(point.lat, point.lon, filter.bbox)) return { ok: false, reason: 'outside_bbox' };
  if (filter.country !== undefined) {
    const country = overtureCountry(row);
    if (country !== filter.country) return { ok: false, reason: 'other_country', detail: country ?? 'no country' };
  }
  const { primary, alternates } = categoryWords(row);
  const kind = placeKind(primary, alternates);
  if (kind === undefined) return { ok: false, reason: 'not_food_or_drink', detail: primary[0] ?? 'no category' };
  const status = text(row.operating_status);
  if (status !== undefined && CLOSED_STATUSES.has(status)) return { ok: false, reason: status, detail: kind.word };
  const confidence = row.confidence;
  if (typeof confidence === 'number' && confidence < filter.minConfidence) {
    return { ok: false, reason: 'low_confidence', detail: confidence.toFixed(2) };
  }
  const names = row.names;
  const name = isObject(names) ? cleanText(text(names.primary)) : undefined;
  if (name === undefined) return { ok: false, reason: 'missing_name', detail: kind.word };
  const id = text(row.id);
  if (id === undefined) return { ok: false, reason: 'missing_id' };

  const record: VenueRecord = {
    id: `overture:${id}`,
    name: name.slice(0, 500),
    location: { type: 'Point', coordinates: [point.lat, point.lon] },
    primaryGenre: kind.genre,
  };
  const address = formatOvertureAddress(row.addresses);
  if (address !== undefined) record.formattedAddress = address;
  const website = texts(row.websites)[0];
  if (website !== undefined) record.websiteUri = website;
  const email = texts(row.emails)[0];
  if (email !== undefined) record.contactEmail = email;
  const phone = texts(row.phones)[0];
  if (phone !== undefined) record.contactNumber = phone;
  const socials = overtureSocials(texts(row.socials));
  if (socials !== undefined) record.socials = socials;

  // Cuisines and the genres of the alternates, in order, without repeats or the primary genre.
  const genres: string[] = [];
  const flags = new Set<string>();
  const addKind = (m: CategoryMeaning, word: string): void => {
    for (const g of [m.genre, m.cuisine]) {
      if (g !== undefined && g !== kind.genre && g.length <= MAX_LIST_ITEM && !genres.includes(g)) genres.push(g);
    }
    if (FOOD_GENRES.has(m.genre)) flags.add('servesFood');
    if (ALCOHOL_GENRES.has(m.genre)) flags.add('servesAlcohol');
    if (COCKTAIL_WORDS.has(word)) flags.add('servesCocktails');
  };
  addKind(kind, kind.word);
  for (const word of alternates) {
    const m = categoryMeaning(word);
    if (m !== undefined) addKind(m, word);
  }
  if (genres.length > 0) record.additionalGenres = genres.slice(0, 100);
  if (flags.size > 0) record.establishmentFlags = [...flags];

  const brand = brandOf(row);
  if (brand.name !== undefined || brand.wikidata !== undefined) {
    record.isChain = true;
    const business: NonNullable<VenueRecord['business']> = {};
    if (brand.name !== undefined) business.brand = brand.name;
    if (brand.wikidata !== undefined && WIKIDATA_ID.test(brand.wikidata)) business.brandWikidata = brand.wikidata;
    record.business = business;
  }
  if (typeof confidence === 'number' && confidence >= 0 && confidence <= 1) record.confidence = confidence;
  return { ok: true, record };
}
