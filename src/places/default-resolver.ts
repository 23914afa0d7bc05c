import { nearDistanceMeters } from '../geo/distance.js';
import type { VenueRecord } from '../schema/venue.js';
import { DEFAULT_GAZETTEER_COUNTRIES, Gazetteer, kindOfFeature, type GazetteerEntry } from './gazetteer.js';
import { LearntPlaces, type LearntPlacesOptions } from './learnt-places.js';
import { parsePostcode, placeKey } from './place-name.js';
import type { PlaceResolver, ResolvedPlace } from './place-resolver.js';

export interface DefaultPlaceResolverOptions extends LearntPlacesOptions {
  /** Gazetteer countries (ISO alpha-2), default GB, IE, IM, JE, GG; null for the world. */
  readonly countries?: readonly string[] | null;
  /** A ready gazetteer (tests, or a user's own); overrides `countries`. */
  readonly gazetteer?: Gazetteer;
  /**
   * A gazetteer entry within this distance (metres, default 10,000) of a learnt area of
   * the same name is taken instead of the learnt centre: same place, surveyed point.
   */
  readonly agreeMeters?: number;
}

/** Generic words a district name may add to the name people say ("Camden" for "Camden Town"). */
const GENERIC_SUFFIXES = ['town', 'village', 'city', 'centre', 'center'];

/**
 * The default resolver: places learnt from the venues, plus the embedded gazetteer.
 * Rules, in order (documented in docs/find.md):
 * 1. A UK postcode: a full one resolves to its venues' centre, else to its outward code's;
 *    an outward code (`NW1`) to the centre of the venues that have it. Unknown: null.
 * 2. A learnt area and gazetteer entries of the same name: the gazetteer entry nearest the
 *    learnt centre if within `agreeMeters` of it, else the learnt centre (the venues say
 *    where that name is for this data set).
 * 3. Gazetteer entries only: the most populous (a capital first); then names with a
 *    generic suffix added ("Camden" -> "Camden Town").
 * 4. Otherwise null.
 */
export class DefaultPlaceResolver implements PlaceResolver {
  private readonly learnt: LearntPlaces;
  private readonly gazetteer: Gazetteer;
  private readonly agreeMeters: number;

  /** `learnt`: the venues' records to learn places from, or places already learnt. */
  constructor(learnt: readonly VenueRecord[] | LearntPlaces, options: DefaultPlaceResolverOptions = {}) {
    this.learnt = learnt instanceof LearntPlaces ? learnt : new LearntPlaces(learnt, options);
    this.gazetteer = options.gazetteer ?? Gazetteer.fromAllTheCities(options.countries === undefined ? DEFAULT_GAZETTEER_COUNTRIES : options.countries);
    this.agreeMeters = options.agreeMeters ?? 10_000;
  }

  resolve(name: string): ResolvedPlace | null {
    if (typeof name !== 'string') return null;
    const postcode = parsePostcode(name);
    if (postcode !== null) {
      return (postcode.full !== null ? this.learnt.postcode(postcode.full) : undefined) ?? this.learnt.postcode(postcode.outward) ?? null;
    }
    const key = placeKey(name);
    if (key === '') return null;
    const learnt = this.learnt.area(key);
    const entries = this.gazetteer.lookup(key);
    if (learnt !== undefined) {
      let best: GazetteerEntry | null = null;
      let bestD = Infinity;
      for (const e of entries) {
        const d = nearDistanceMeters(learnt.lat, learnt.lon, e.lat, e.lon);
        if (d < bestD) [best, bestD] = [e, d];
      }
      return best !== null && bestD <= this.agreeMeters ? fromEntry(best) : learnt;
    }
    if (entries.length > 0) return fromEntry(mostProminent(entries));
    for (const suffix of GENERIC_SUFFIXES) {
      const more = this.gazetteer.lookup(`${key} ${suffix}`);
      if (more.length > 0) return fromEntry(mostProminent(more));
    }
    return null;
  }
}

function mostProminent(entries: readonly GazetteerEntry[]): GazetteerEntry {
  let best = entries[0]!;
  for (const e of entries) {
    const capital = (x: GazetteerEntry) => (x.featureCode === 'PPLC' ? 1 : 0);
    if (capital(e) > capital(best) || (capital(e) === capital(best) && e.population > best.population)) best = e;
  }
  return best;
}

function fromEntry(e: GazetteerEntry): ResolvedPlace {
  return { name: e.name, lat: e.lat, lon: e.lon, kind: kindOfFeature(e.featureCode, e.population) };
}

export function createDefaultPlaceResolver(learnt: readonly VenueRecord[] | LearntPlaces, options: DefaultPlaceResolverOptions = {}): DefaultPlaceResolver {
  return new DefaultPlaceResolver(learnt, options);
}
