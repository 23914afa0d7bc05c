import type { VenueRecord } from '../schema/venue.js';
import { cleanText } from './clean-text.js';
import { checkOsmMapContext } from './import-options.js';
import type { ImportReport } from './import-report.js';
import { isNullIsland, NULL_ISLAND_REASON } from './null-island.js';
import type { LatLon } from './osm-geometry.js';
import { convertOsmOpeningHours, type OpeningHoursConversion } from './osm-opening-hours.js';
import {
  ALCOHOL_AMENITIES,
  AMENITY_GENRE,
  DIET_CATERS_FLAG,
  FOOD_AMENITIES,
  SHOP_GENRE,
} from './osm-vocabulary.js';

/**
 * One OSM element (node, way or relation) as the importers see it: its tags and one
 * representative point. Pure mapping to a venue record; every rule is listed in
 * docs/import.md.
 */
export type OsmType = 'node' | 'way' | 'relation';

export interface OsmElement {
  readonly type: OsmType;
  /** Numeric OSM id, as decimal text. */
  readonly id: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly point: LatLon;
}

export type MapOutcome =
  | { readonly ok: true; readonly record: VenueRecord }
  | { readonly ok: false; readonly reason: string; readonly detail?: string };

export interface MapContext {
  readonly report: ImportReport;
  /** Conversions by `opening_hours` value (real data repeats values a lot). */
  readonly hoursCache: Map<string, OpeningHoursConversion>;
}

const MAX_TEXT = 2000;
const MAX_LIST_ITEM = 200;
const WIKIDATA_ID = /^Q[0-9]+$/;

function text(tags: Readonly<Record<string, string>>, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = tags[k]?.trim();
    if (v) return v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v;
  }
  return undefined;
}

/** The first of the keys with a name left after cleanText (a name of zero-width spaces is none). */
function nameText(tags: Readonly<Record<string, string>>, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = cleanText(tags[k]);
    if (v) return v;
  }
  return undefined;
}

/** First entry of an OSM `;`-separated list (`phone=+44 1;+44 2`). */
function firstOfList(v: string | undefined): string | undefined {
  return v?.split(';')[0]?.trim() || undefined;
}

/** `yes`-like / `no` tag value to a boolean; anything else (`limited`, `unknown`) is absent. */
function yesNo(v: string | undefined, yes: readonly string[] = ['yes']): boolean | undefined {
  if (v === undefined) return undefined;
  if (yes.includes(v)) return true;
  if (v === 'no') return false;
  return undefined;
}

/** Cuisine words: lower case, spaces to `_`, de-duplicated, in tag order. */
export function cuisineGenres(cuisine: string | undefined, primary: string | undefined): string[] {
  if (!cuisine) return [];
  const out: string[] = [];
  for (const raw of cuisine.split(';')) {
    const g = raw.trim().toLowerCase().replace(/\s+/g, '_');
    if (g && g.length <= MAX_LIST_ITEM && g !== primary && !out.includes(g)) out.push(g);
  }
  return out;
}

/** `addr:*` to one line: `housename, housenumber street, suburb, city postcode` (UK order). */
export function formatOsmAddress(tags: Readonly<Record<string, string>>): string | undefined {
  const t = (k: string): string | undefined => cleanText(tags[k]);
  const street = t('addr:street') ?? t('addr:place');
  const number = t('addr:housenumber');
  const streetLine = street ? (number ? `${number} ${street}` : street) : number;
  const cityLine = [t('addr:city') ?? t('addr:town'), t('addr:postcode')].filter(Boolean).join(' ') || undefined;
  const parts = [t('addr:housename'), streetLine, t('addr:suburb'), cityLine].filter((p): p is string => !!p);
  const unique = parts.filter((p, i) => parts.indexOf(p) === i);
  return unique.length > 0 ? unique.join(', ').slice(0, MAX_TEXT) : undefined;
}

export function genreOf(tags: Readonly<Record<string, string>>): string | undefined {
  const amenity = tags.amenity;
  if (amenity !== undefined && AMENITY_GENRE[amenity] !== undefined) return AMENITY_GENRE[amenity];
  const shop = tags.shop;
  if (shop !== undefined && SHOP_GENRE[shop] !== undefined) return SHOP_GENRE[shop];
  return undefined;
}

function catersFlags(tags: Readonly<Record<string, string>>, report: ImportReport): string[] {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(tags)) {
    if (!key.startsWith('diet:')) continue;
    const diet = key.slice(5);
    const flag = DIET_CATERS_FLAG[diet];
    if ((value === 'yes' || value === 'only') && flag !== undefined) {
      if (!flags.includes(flag)) flags.push(flag);
    } else {
      report.count(`diet tag not recorded: ${key}=${value.length > 20 ? 'other' : value}`);
    }
  }
  return flags;
}

function establishmentFlags(tags: Readonly<Record<string, string>>): string[] {
  const flags: string[] = [];
  const amenity = tags.amenity ?? '';
  const wifi = tags.internet_access;
  if ((wifi === 'wlan' || wifi === 'yes' || wifi === 'wifi') && tags['internet_access:fee'] !== 'yes') flags.push('freeWifi');
  if (tags.food === 'yes' || FOOD_AMENITIES.has(amenity)) flags.push('servesFood');
  if (ALCOHOL_AMENITIES.has(amenity) || tags.drink === 'yes' || tags.real_ale === 'yes' || tags['drink:beer'] === 'yes') {
    flags.push('servesAlcohol');
  }
  if (tags.cocktails === 'yes' || tags['drink:cocktail'] === 'yes') flags.push('servesCocktails');
  // Facts also recorded in `amenities` / `accessibility` (below), flagged too: establishment
  // filters match genres and flags only (CONTRACT.md), and the search vocabulary publishes
  // these words (src/search/search-vocabulary.ts STATIC_FLAGS), so without the flag they
  // could never match. Each flag exactly when its field below is true.
  if (yesNo(tags.dog, ['yes', 'leashed']) === true) flags.push('dogFriendly');
  if (tags.outdoor_seating !== undefined && tags.outdoor_seating !== 'no') flags.push('outdoorSeating');
  if (yesNo(tags.wheelchair, ['yes', 'designated']) === true) flags.push('wheelchairAccessible');
  if (yesNo(tags.live_music) === true) flags.push('liveMusic');
  return flags;
}

/** Drops `undefined` values so optional properties stay absent (exactOptionalPropertyTypes). */
function defined<T extends object>(o: { [K in keyof T]: T[K] | undefined }): Partial<T> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length > 0 ? (out as Partial<T>) : undefined;
}

function hoursFor(value: string, ctx: MapContext): OpeningHoursConversion {
  let conv = ctx.hoursCache.get(value);
  if (!conv) {
    conv = convertOsmOpeningHours(value);
    ctx.hoursCache.set(value, conv);
  }
  return conv;
}

/**
 * The tag saying a venue no longer trades, or undefined: `disused=yes`, or a
 * `disused:amenity` with no live `amenity` (the venue is gone; a live `amenity` beside it
 * means the place reopened, as two London pubs tagged `amenity=pub` + `disused:amenity=pub`).
 */
function disusedTag(tags: Readonly<Record<string, string>>): string | undefined {
  if (tags.disused === 'yes') return 'disused=yes';
  const was = tags['disused:amenity'];
  if (was !== undefined && tags.amenity === undefined) return `disused:amenity=${was}`;
  return undefined;
}

/** `opening_hours=closed` or `off` (any case, trimmed): closed every day of the week, not a venue one can visit. */
function closedAllWeek(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === 'closed' || v === 'off';
}

/** Maps one OSM element to a venue record, or says why it is not one; `ctx` checked (import-options.ts). */
export function osmElementToVenue(el: OsmElement, ctx: MapContext): MapOutcome {
  checkOsmMapContext(ctx);
  return mapOsmElement(el, ctx);
}

/** osmElementToVenue for a context already checked (the importers make theirs). */
export function mapOsmElement(el: OsmElement, ctx: MapContext): MapOutcome {
  const { tags } = el;
  const { report } = ctx;
  if (isNullIsland(el.point.lat, el.point.lon)) return { ok: false, reason: NULL_ISLAND_REASON, detail: '0,0' };
  const genre = genreOf(tags);
  if (genre === undefined) {
    const what = tags.amenity
      ? `amenity=${tags.amenity}`
      : tags.shop
        ? `shop=${tags.shop}`
        : tags['veggiekarte:icon']
          ? `icon=${tags['veggiekarte:icon']}`
          : 'no amenity';
    return { ok: false, reason: 'not_food_or_drink', detail: what };
  }
  // shop=vacant: the premises stand empty (a venue that closed, whose amenity Veggiekarte still shows).
  if (tags.shop === 'vacant') return { ok: false, reason: 'vacant', detail: `amenity=${tags.amenity ?? '?'}` };
  const disused = disusedTag(tags);
  if (disused !== undefined) return { ok: false, reason: 'disused', detail: disused };
  if (closedAllWeek(tags.opening_hours)) return { ok: false, reason: 'closed_all_week', detail: `opening_hours=${tags.opening_hours?.trim()}` };
  const name = nameText(tags, 'name', 'name:en', 'brand');
  if (name === undefined) return { ok: false, reason: 'missing_name', detail: `amenity=${tags.amenity ?? tags.shop}` };

  const osmRef = `${el.type}/${el.id}`;
  const record: VenueRecord = {
    id: `osm:${osmRef}`,
    name: name.slice(0, 500),
    location: { type: 'Point', coordinates: [el.point.lat, el.point.lon] },
    primaryGenre: genre,
  };
  const address = formatOsmAddress(tags);
  if (address) record.formattedAddress = address;
  const website = text(tags, 'website', 'contact:website');
  if (website) record.websiteUri = website;
  const email = firstOfList(text(tags, 'email', 'contact:email'));
  if (email) record.contactEmail = email;
  const phones = text(tags, 'phone', 'contact:phone', 'contact:mobile');
  const phone = firstOfList(phones);
  if (phone) record.contactNumber = phone;
  // the record holds one number: the others of a list are said in the report (audit 72e F4)
  if (phone && (phones?.split(';').filter((p) => p.trim() !== '').length ?? 0) > 1) report.count('phone lists: the first number kept, the others not recorded');
  const description = text(tags, 'description');
  if (description) record.description = description;

  const genres = cuisineGenres(tags.cuisine, genre);
  if (genres.length > 0) record.additionalGenres = genres.slice(0, 100);

  const brandWikidata = tags['brand:wikidata']?.trim();
  if (tags.brand || brandWikidata) record.isChain = true;
  if (brandWikidata && !WIKIDATA_ID.test(brandWikidata)) report.count('brand:wikidata not recorded (not a Q-id)');
  const business = defined<NonNullable<VenueRecord['business']>>({
    brand: text(tags, 'brand'),
    operator: text(tags, 'operator'),
    brandWikidata: brandWikidata && WIKIDATA_ID.test(brandWikidata) ? brandWikidata : undefined,
  });
  if (business) record.business = business;

  const fhrs = tags['fhrs:id']?.trim();
  const wikidata = tags.wikidata?.trim();
  record.externalIds = { osm: osmRef };
  if (fhrs && /^[0-9]+$/.test(fhrs)) record.externalIds.fhrs = fhrs;
  else if (fhrs && /^[0-9]+( *; *[0-9]+)+$/.test(fhrs)) {
    // OSM's list of values ("354096;1398897": one venue, two registrations): every id names this
    // place, so all are kept, `;`-joined in OSM's order without repeats; merge links each (audit 68e F2).
    const ids = [...new Set(fhrs.split(';').map((id) => id.trim()))];
    record.externalIds.fhrs = ids.join(';');
    if (ids.length > 1) report.count('fhrs:id with several values (all kept)');
  } else if (fhrs) report.count('fhrs:id not recorded (not a number)');
  if (wikidata && WIKIDATA_ID.test(wikidata)) record.externalIds.wikidata = wikidata;

  const eFlags = establishmentFlags(tags);
  if (eFlags.length > 0) record.establishmentFlags = eFlags;
  const cFlags = catersFlags(tags, report);
  if (cFlags.length > 0) record.catersFlags = cFlags;

  const accessibility = defined<NonNullable<VenueRecord['accessibility']>>({
    wheelchairEntrance: yesNo(tags.wheelchair, ['yes', 'designated']),
    wheelchairToilet: yesNo(tags['toilets:wheelchair'], ['yes', 'designated']),
    hearingLoop: yesNo(tags['hearing_loop'] ?? tags['induction_loop']),
  });
  if (tags.wheelchair === 'limited') report.count('wheelchair=limited not recorded');
  if (accessibility) record.accessibility = accessibility;

  const outdoor = tags.outdoor_seating;
  const amenities = defined<NonNullable<VenueRecord['amenities']>>({
    outdoorSeating: outdoor === undefined ? undefined : outdoor === 'no' ? false : true,
    indoorSeating: yesNo(tags.indoor_seating),
    dogFriendly: yesNo(tags.dog, ['yes', 'leashed']),
    takeaway: yesNo(tags.takeaway, ['yes', 'only']),
    reservable: yesNo(tags.reservation, ['yes', 'recommended', 'required']),
    liveMusic: yesNo(tags.live_music),
  });
  if (amenities) record.amenities = amenities;

  const cards = ['payment:cards', 'payment:credit_cards', 'payment:debit_cards', 'payment:visa', 'payment:mastercard'];
  const payment = defined<NonNullable<VenueRecord['payment']>>({
    cash: yesNo(tags['payment:cash'] ?? tags['payment:coins']),
    cards: cards.some((k) => tags[k] === 'yes') ? true : cards.some((k) => tags[k] === 'no') ? false : undefined,
    contactless: yesNo(tags['payment:contactless']),
    mobile: yesNo(tags['payment:apple_pay'] ?? tags['payment:google_pay']),
  });
  if (payment) record.payment = payment;

  const socials = defined<NonNullable<VenueRecord['socials']>>({
    facebook: text(tags, 'contact:facebook', 'facebook'),
    instagram: text(tags, 'contact:instagram', 'instagram'),
  });
  if (socials) record.socials = socials;

  const oh = tags.opening_hours?.trim();
  if (oh) {
    const conv = hoursFor(oh, ctx);
    report.count(`opening_hours ${conv.status}`);
    record.openingHoursText = oh.slice(0, MAX_TEXT);
    if (conv.hours) record.regularOpeningHours = conv.hours;
    if (conv.notes.length > 0) record.openingHoursNotes = conv.notes.map((n) => n.slice(0, MAX_TEXT));
  }
  return { ok: true, record };
}
