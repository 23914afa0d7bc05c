import type { VenueRecord } from '../schema/venue.js';
import { hasUndecomposedLetter } from '../find/normalize-name.js';
import { robustCentroid } from './centroid.js';
import { UK_POSTCODE_IN_TEXT, placeKey } from './place-name.js';
import type { ResolvedPlace } from './place-resolver.js';

/** Apostrophes placeKey has dropped since 2026-12-01 (modifier apostrophe U+02BC, okina U+02BB): a saved key of a name holding one is worked out again. */
const KEYED_AGAIN_APOSTROPHES = /[\u02bb\u02bc]/;

/** Tuning of what counts as a learnt place (see docs/find.md). */
export interface LearntPlacesOptions {
  /** Venues an area name must appear in (default 3): one address is not a district. */
  readonly minVenuesPerArea?: number;
  /** Cluster radius around the median, metres (default 5000 for areas, 10,000 for outward codes). */
  readonly areaClusterMeters?: number;
  readonly outwardClusterMeters?: number;
  /** Share of a name's venues that must fall in its cluster (default 0.6); else the name is ambiguous. */
  readonly minClusterShare?: number;
}

/** The learnt places in a JSON-safe form (snapshots). */
export interface LearntPlacesJson {
  readonly areas: ReadonlyArray<readonly [string, ResolvedPlace]>;
  readonly postcodes: ReadonlyArray<readonly [string, ResolvedPlace]>;
}

/** Last words of address parts that name a street, not an area. */
const STREET_WORDS = new Set(
  'street st road rd lane ln avenue ave way place pl row terrace close drive court walk parade yard mews crescent grove rise passage hill gate wharf quay embankment arcade alley boulevard highway circus broadway'.split(' '),
);

/**
 * Places learnt from the loaded venues' addresses:
 * - UK postcodes (`NW1 7AB`): the full code and its outward code (`NW1`), each at the
 *   robust centre of the venues whose address contains it;
 * - area names: comma-separated address parts after the first, without digits (a
 *   trailing postcode is cut off first: "London WC2H 3WI" -> "London"), of 1 to 5 words,
 *   not ending in a street word, found in at least `minVenuesPerArea` venues whose robust
 *   centre keeps at least `minClusterShare` of them within `areaClusterMeters`.
 */
export class LearntPlaces {
  private readonly areas = new Map<string, ResolvedPlace>();
  private readonly postcodes = new Map<string, ResolvedPlace>();

  /** Places as saved by {@link toJSON} (a snapshot), without the records. */
  static fromJSON(saved: LearntPlacesJson): LearntPlaces {
    const places = new LearntPlaces([]);
    // A name holding "&", or a letter NFKD does not decompose, is keyed again: a snapshot
    // written before `&` was keyed as "and" (2026-11-29) holds "elephant castle" for
    // "Elephant & Castle", one written before those letters were folded (2026-11-30) "tromsø"
    // for "Tromsø", one written before the modifier apostrophe and the okina were dropped
    // (2026-12-01) "hawaiʻi" for "Hawaiʻi" (a key is the placeKey of every spelling of its
    // group, so of the name kept). Other keys are as they were, and are not worked out again
    // (a snapshot's start stays a read).
    for (const [key, p] of saved.areas) places.areas.set(p.name.includes('&') || hasUndecomposedLetter(p.name) || KEYED_AGAIN_APOSTROPHES.test(p.name) ? placeKey(p.name) : key, p);
    for (const [code, p] of saved.postcodes) places.postcodes.set(code, p);
    return places;
  }

  constructor(records: readonly VenueRecord[], options: LearntPlacesOptions = {}) {
    this.learn(records.length, (i) => records[i]!.location.coordinates[0], (i) => records[i]!.location.coordinates[1], (i) => records[i]!.formattedAddress, options);
  }

  /**
   * The places learnt from `count` venues given by their coordinates and addresses (the same
   * as from their records: for a store, whose records need not be built for it).
   */
  static fromAddresses(
    count: number,
    latOf: (i: number) => number,
    lonOf: (i: number) => number,
    addressOf: (i: number) => string | undefined,
    options: LearntPlacesOptions = {},
  ): LearntPlaces {
    const places = new LearntPlaces([]);
    places.learn(count, latOf, lonOf, addressOf, options);
    return places;
  }

  private learn(count: number, latOf: (i: number) => number, lonOf: (i: number) => number, addressOf: (i: number) => string | undefined, options: LearntPlacesOptions): void {
    const areaGroups = new Map<string, Group>();
    const postcodeGroups = new Map<string, Group>();
    const memo: AreaNameMemo = new Map();
    for (let i = 0; i < count; i++) {
      const address = addressOf(i);
      if (address === undefined) continue;
      const lat = latOf(i);
      const lon = lonOf(i);
      for (const { key, spelling, kind } of placesNamedIn(address, memo)) addTo(kind === 'postcode' ? postcodeGroups : areaGroups, key, spelling, lat, lon);
    }
    for (const [code, g] of postcodeGroups) this.update('postcode', code, learnPlace('postcode', code, g, options));
    for (const [key, g] of areaGroups) this.update('area', key, learnPlace('area', key, g, options));
  }

  /** Sets (or, with undefined, forgets) what is learnt of one area key or postcode. */
  update(kind: 'area' | 'postcode', key: string, place: ResolvedPlace | undefined): void {
    const map = kind === 'area' ? this.areas : this.postcodes;
    if (place === undefined) map.delete(key);
    else map.set(key, place);
  }

  /** A learnt area by its place key (see placeKey), or undefined. */
  area(key: string): ResolvedPlace | undefined {
    return this.areas.get(key);
  }

  /** A learnt postcode, full (`NW1 7AB`) or outward (`NW1`), upper case with one space. */
  postcode(code: string): ResolvedPlace | undefined {
    return this.postcodes.get(code);
  }

  /**
   * The learnt full postcodes of one outward code (`IM4`: `IM4 3NA`, ...), each at its venues'
   * centre: where the district's venues are. One pass over the learnt postcodes (an error path).
   */
  fullPostcodesOf(outward: string): ResolvedPlace[] {
    const out: ResolvedPlace[] = [];
    const prefix = `${outward} `;
    for (const [code, p] of this.postcodes) if (code.startsWith(prefix)) out.push(p);
    return out;
  }

  /** Every learnt area by place key (for suggestions; not a hot path). */
  areaEntries(): IterableIterator<[string, ResolvedPlace]> {
    return this.areas.entries();
  }

  toJSON(): LearntPlacesJson {
    return { areas: [...this.areas], postcodes: [...this.postcodes] };
  }

  get areaCount(): number {
    return this.areas.size;
  }

  get postcodeCount(): number {
    return this.postcodes.size;
  }
}

/** The venues that name one place: their coordinates and how they spell it. */
export interface Group {
  lat: number[];
  lon: number[];
  spellings: Map<string, number>;
}

/** A place named in a venue's address: an area (by place key) or a UK postcode. */
export interface NamedPlace {
  readonly kind: 'area' | 'postcode';
  readonly key: string;
  readonly spelling: string;
}

/**
 * The area named by each address part met so far in one pass over many addresses, with its
 * place key (null: the part names none). Addresses repeat their towns and districts: in the
 * FHRS London extract, 73 % of the parts after the first are repeats, and working out a
 * part's area costs most of {@link placesNamedIn} (about 1.6 of 1.95 µs an address). Held for
 * one pass only: it grows with the distinct parts.
 */
export type AreaNameMemo = Map<string, { readonly area: string; readonly key: string } | null>;

/** The places a venue's address names, each once (see the class comment for the rules). */
export function placesNamedBy(r: Pick<VenueRecord, 'formattedAddress'>, memo?: AreaNameMemo): NamedPlace[] {
  return r.formattedAddress === undefined ? [] : placesNamedIn(r.formattedAddress, memo);
}

/** The places an address names, each once (see the class comment for the rules); `memo`: one pass's (see AreaNameMemo). */
export function placesNamedIn(address: string, memo?: AreaNameMemo): NamedPlace[] {
  // A handful of places an address: each key looked for in `out` itself (no set per address).
  const out: NamedPlace[] = [];
  const text = address.toUpperCase();
  const postcodes = POSTCODES_IN_ADDRESS;
  postcodes.lastIndex = 0;
  for (let m = postcodes.exec(text); m !== null; m = postcodes.exec(text)) {
    const outward = m[1]!;
    if (!named(out, outward)) out.push({ kind: 'postcode', key: outward, spelling: outward });
    const full = `${outward} ${m[2]!}`;
    if (!named(out, full)) out.push({ kind: 'postcode', key: full, spelling: full });
  }
  const parts = address.split(',');
  for (let p = 1; p < parts.length; p++) {
    const area = areaOfPart(parts[p]!, memo);
    if (area === null || area.key === '' || named(out, area.key)) continue;
    out.push({ kind: 'area', key: area.key, spelling: area.area });
  }
  return out;
}

/** UK_POSTCODE_IN_TEXT's own copy for placesNamedIn's exec loop (a global regex keeps its place in lastIndex). */
const POSTCODES_IN_ADDRESS = new RegExp(UK_POSTCODE_IN_TEXT.source, UK_POSTCODE_IN_TEXT.flags);

/** Whether `out` names `key` already. */
function named(out: readonly NamedPlace[], key: string): boolean {
  for (let k = 0; k < out.length; k++) if (out[k]!.key === key) return true;
  return false;
}

/** The area an address part names, with its place key (null: none), through `memo` when given. */
function areaOfPart(part: string, memo: AreaNameMemo | undefined): { readonly area: string; readonly key: string } | null {
  let entry = memo?.get(part);
  if (entry === undefined) {
    const area = areaName(part);
    entry = area === null ? null : { area, key: placeKey(area) };
    memo?.set(part, entry);
  }
  return entry;
}

/** What a group of venues teaches about one place, or undefined (too few, or ambiguous). */
export function learnPlace(kind: 'area' | 'postcode', key: string, g: Group, options: LearntPlacesOptions = {}): ResolvedPlace | undefined {
  const share = options.minClusterShare ?? 0.6;
  if (kind === 'postcode') {
    const c = robustCentroid(g.lat, g.lon, options.outwardClusterMeters ?? 10_000, share);
    return c === null ? undefined : { name: key, lat: c.lat, lon: c.lon, kind: 'postcode' };
  }
  if (g.lat.length < (options.minVenuesPerArea ?? 3)) return undefined;
  const c = robustCentroid(g.lat, g.lon, options.areaClusterMeters ?? 5000, share);
  return c === null ? undefined : { name: mostCommon(g.spellings), lat: c.lat, lon: c.lon, kind: 'area' };
}

function addTo(groups: Map<string, Group>, key: string, spelling: string, lat: number, lon: number): void {
  let g = groups.get(key);
  if (g === undefined) {
    g = { lat: [], lon: [], spellings: new Map() };
    groups.set(key, g);
  }
  g.lat.push(lat);
  g.lon.push(lon);
  g.spellings.set(spelling, (g.spellings.get(spelling) ?? 0) + 1);
}

function mostCommon(counts: Map<string, number>): string {
  let best = '';
  let n = -1;
  for (const [s, c] of counts) if (c > n || (c === n && s < best)) [best, n] = [s, c];
  return best;
}

/** The area name in one address part, or null when it is a street, a number or noise. */
function areaName(part: string): string | null {
  const text = part
    .replace(UK_POSTCODE_IN_TEXT, ' ')
    .replace(/\b[A-Z]{1,2}[0-9][A-Z0-9]?\s*$/i, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '' || /[0-9]/.test(text)) return null;
  const words = text.split(' ');
  if (words.length > 5) return null;
  if (STREET_WORDS.has(words[words.length - 1]!.toLowerCase().replace(/\.$/, ''))) return null;
  return text;
}
