import { describeValue } from '../errors.js';
import { suggestionBudget } from '../find/close-spellings.js';
import { editDistance } from '../find/prefix-edit-distance.js';
import { distanceMeters, nearDistanceMeters } from '../geo/distance.js';
import { DEFAULT_FIND_DISTANCE_METERS, MAX_FIND_DISTANCE_METERS, MAX_OTHER_PLACES } from '../schema/find.js';
import type { VenueRecord } from '../schema/venue.js';
import { DEFAULT_GAZETTEER_COUNTRIES, Gazetteer, areaLabel, areaLabels, isInArea, isInQualifier, kindOfFeature, type GazetteerEntry, type StrayEstimate } from './gazetteer.js';
import { KnownAreas } from './known-areas.js';
import { LearntPlaces, type LearntPlacesOptions } from './learnt-places.js';
import { looseArea, looseQualifier } from './loose-area.js';
import { areaKeys, areaQualifiedReadings, parsePostcode, PLACE_LEAD_WORDS, placeKey } from './place-name.js';
import type { PlaceResolver, ResolvedPlace, VenueDensity } from './place-resolver.js';
import { listed, UnknownPlaceError } from './unknown-place-error.js';

export interface DefaultPlaceResolverOptions extends LearntPlacesOptions {
  /** Gazetteer countries (ISO alpha-2), default GB, IE, IM, JE, GG; null for the world. */
  readonly countries?: readonly string[] | null;
  /** A ready gazetteer (tests, or a user's own); overrides `countries`. */
  readonly gazetteer?: Gazetteer;
  /**
   * A gazetteer entry within this distance (metres, default 10,000) of a learnt place of
   * the same name is taken instead of the learnt centre: same place, surveyed point.
   */
  readonly agreeMeters?: number;
}

/** Generic words a district name may add to the name people say ("Camden" for "Camden Town"). */
const GENERIC_SUFFIXES = ['town', 'village', 'city', 'centre', 'center'];
/** An approximate postal point this near a surveyed place of the same letters is that place (metres; Kirk Michael's IM6 point lies 11.8 km off). */
const ROUGH_POINT_METERS = 20_000;
/** An entry of a name within this distance (metres) of the place a qualified name resolves to under another name is that place (chooseInArea). */
const SAME_PLACE_METERS = 5000;
/**
 * A qualifier's area with a place this near (metres) one of the name's places may hold it
 * though the gazetteer lists it elsewhere (historic counties: Omagh, County Tyrone's county
 * town, is listed only in Fermanagh and Omagh): "no Omagh in County Tyrone" is not said.
 */
const AREA_NEAR_METERS = 10_000;
/**
 * A place named after a comma that is no area ("Angel, Islington": a London borough said by
 * its town) qualifies a place of the name this near one of its own points (metres).
 */
const NEAR_PLACE_QUALIFIER_METERS = 5000;
/** Words people put before a place ("near Islington", "in Soho"): offered without them when that resolves (suggest). */
const LEADING_PLACE_WORDS = new RegExp(`^\\s*(?:${PLACE_LEAD_WORDS})\\s+(\\S.*)$`, 'iu');
/** A postcode is in an area when a GB gazetteer place this near its point (metres) is (postcodeInArea). */
const POSTCODE_AREA_METERS = 5000;
/**
 * The postcode areas of the Crown Dependencies, which are not in the UK, by their country
 * (ISO 3166-1): Royal Mail's JE (Jersey), GY (Guernsey) and IM (Isle of Man).
 */
const CROWN_DEPENDENCY_POSTCODES: Readonly<Record<string, string>> = { JE: 'JE', GY: 'GG', IM: 'IM' };
/** A name of fewer letters (spaces aside) never takes a generic suffix ("LA" is not La Center). */
const MIN_SUFFIXED_LETTERS = 3;
/**
 * A bare name whose candidates are all approximate points with no venue within this distance
 * (metres; a venues' box, see VenueDensity.venuesNear), while one of its left-out stray district
 * estimates (Gazetteer.strayEstimates) has one, is refused (audit 65a F13: "St John's" on Isle
 * of Man data was St John's Chapel, County Durham, 190 km off), and so is one beside suffixed
 * places of it (audit 65e: "Garden"). Beyond an approximate point's error (ROUGH_POINT_METERS)
 * plus the data's widest reach (about 24 km, Britain-wide data).
 */
const FAR_APPROXIMATE_METERS = 50_000;
/** FAR_APPROXIMATE_METERS as messages say it. */
const FAR_APPROXIMATE_KM = FAR_APPROXIMATE_METERS / 1000;

/** A suffixed name of this many people or more is a candidate even beside precise own entries, and far from them. */
const CITY_POPULATION = 100_000;

/**
 * The widest reach of the data (metres) a candidate with no venue near it is in play at
 * (pickAmong, rule 1): Britain's thinly spread vegetarian venues reach about 23 km, and a town
 * 12 to 20 km from them (Brackley, Sleaford, Wishaw) is in their region. Sparse data
 * elsewhere widens the data's own reach (the London pubs plus 679 venues over the United
 * States: 115 km), which put Kingston, Ontario, 57 km from every venue, in play against
 * Kingston upon Thames with 405 venues within 10 km (audit 67d F5); beyond this distance a
 * candidate with venues near it wins, whatever either's prominence.
 */
const MAX_REACH_METERS = 25_000;

/**
 * The venue tier (venueTier: floor(log2(1 + n)), n venues within PLACE_VENUES_RADIUS_METERS) from
 * which a place is among many venues: 6, 63 venues or more. A thinly spread data set's hamlet
 * never reaches it (Britain's vegetarian venues: 10 to 45 beside "Brackley"'s hamlet, which
 * loses to the town 12 km from them), a city's neighbourhood does.
 */
const CROWDED_TIER = 6;
/** Tiers fewer than a crowded place's at which another place is out of play beside it: 5, a 32nd of its venues or under. */
const CROWDED_GAP = 5;

/** Radius (metres) within which a place's venues are counted when a name means several places. */
export const PLACE_VENUES_RADIUS_METERS = 10_000;

/** Whether some venue lies within FAR_APPROXIMATE_METERS of `p` (counted in the venues' grid box). */
function hasVenuesWithinFarReach(venues: VenueDensity, p: { lat: number; lon: number }): boolean {
  return venues.venuesNear(p.lat, p.lon, FAR_APPROXIMATE_METERS) > 0;
}

/**
 * The default resolver: places learnt from the venues, plus the embedded gazetteer.
 * Rules, in order (documented in docs/find.md, "Place names"):
 * 1. A UK postcode. A full one (`NW1 7AB`) resolves to the centre of the venues that have
 *    it (learnt); else, like an outward code (`NW1`), by rule 2 over the learnt outward code
 *    and the gazetteer's (an approximate gazetteer district point only when nothing is learnt).
 * 2. A name the venues taught (a learnt place) and the gazetteer has candidates for: the
 *    candidate within `agreeMeters` of the learnt centre (precise points first, then the
 *    nearest), else the learnt centre (the venues say where that name is in this data).
 * 3. Gazetteer candidates only: the one among the data's venues (see {@link pickAmong}).
 * 4. Otherwise null; {@link suggest} then offers names close in spelling.
 * A name's gazetteer candidates are its own entries, plus the entries of the name with a
 * generic suffix ("Camden" -> "Camden Town") near its own or learnt point when none of its
 * own has a precise point, and the suffixed cities (see {@link candidates}).
 */
export class DefaultPlaceResolver implements PlaceResolver {
  private readonly learnt: LearntPlaces;
  private readonly gazetteer: Gazetteer;
  private readonly agreeMeters: number;
  /**
   * Picks among several gazetteer candidates, by name key, for the `venues` they were made
   * for, at its `version` (another VenueDensity, or a new version of it: live changes,
   * clears them). Bounded by the gazetteer's names; spares the grid scan of a name far from
   * every venue.
   */
  /** The place each ambiguous key resolves to for `picksFor`, with the others of its name (see namedAmong). */
  private picks = new Map<string, ResolvedPlace>();
  /** True while namedAmong resolves the other places' written names (they are not named in turn). */
  private naming = false;
  private picksFor: VenueDensity | undefined;
  private picksVersion: number | undefined;
  private keysByLength: Map<number, string[]> | null = null;
  /** The gazetteer's areas, for a qualifier no place of the name is in (built on that error path). */
  private readonly knownAreas: KnownAreas;

  /** `learnt`: the venues' records to learn places from, or places already learnt. */
  constructor(learnt: readonly VenueRecord[] | LearntPlaces, options: DefaultPlaceResolverOptions = {}) {
    this.learnt = learnt instanceof LearntPlaces ? learnt : new LearntPlaces(learnt, options);
    this.gazetteer = options.gazetteer ?? Gazetteer.embedded(options.countries === undefined ? DEFAULT_GAZETTEER_COUNTRIES : options.countries);
    this.agreeMeters = options.agreeMeters ?? 10_000;
    this.knownAreas = new KnownAreas(this.gazetteer);
  }

  resolve(name: string, venues?: VenueDensity): ResolvedPlace | null {
    if (typeof name !== 'string') return null;
    const postcode = parsePostcode(name);
    if (postcode !== null) {
      const full = postcode.full !== null ? this.learnt.postcode(postcode.full) : undefined;
      if (full !== undefined) return full;
      const learnt = this.learnt.postcode(postcode.outward);
      const o = this.gazetteer.outcode(postcode.outward);
      // An approximate district point (o.precise false) never overrides the venues' own postcodes.
      const usable = o !== undefined && (o.precise !== false || learnt === undefined);
      const entries: GazetteerEntry[] = usable ? [{ name: o.code, lat: o.lat, lon: o.lon, country: 'GB', population: 0, featureCode: '', precise: o.precise !== false }] : [];
      const place = this.choose(learnt, entries, venues);
      return place === null ? null : { ...place, kind: 'postcode' };
    }
    // an area with no place's name before it would resolve as the area itself (", London")
    if (/^[^\p{L}\p{N}]*,/u.test(name) && placeKey(name) !== '') throw UnknownPlaceError.noPlaceName(name);
    const { key, entries } = this.knownKey(name);
    if (key === '') return null;
    const learnt = this.learnt.area(key);
    if (learnt === undefined && entries.length === 0) return this.resolveInArea(name, venues) ?? this.refuseStrayOnly(name, key, null, venues);
    if (learnt === undefined && venues !== undefined) {
      this.refuseFarApproximate(name, key, entries, venues);
      this.refuseForSuffixedNearVenues(name, key, entries, venues);
    }
    if (entries.length < 2 || venues === undefined) return this.choose(learnt, entries, venues);
    if (learnt === undefined) return this.remembered(key, venues, () => this.namedAmong(pickAmong(entries, venues), key, entries, venues));
    // a learnt name that agrees with one of several places of the name is named among them,
    // as a gazetteer-only name is ("Richmond" on London's pubs is Richmond, Greater London,
    // and "Richmond, North Yorkshire" is offered); the learnt centre alone is not
    const agreeing = this.agreeing(learnt, entries);
    if (agreeing === null) return learnt;
    return this.remembered(key, venues, () => this.namedAmong(agreeing, key, entries, venues));
  }

  /**
   * The answer `make` gives for `memoKey` on `venues`, remembered for them at their version
   * (see picks). Not remembered while namedAmong names other places: it then answers the plain
   * place, which is not the answer to give the caller.
   */
  private remembered(memoKey: string, venues: VenueDensity, make: () => ResolvedPlace): ResolvedPlace {
    if (this.naming) return make();
    if (this.picksFor !== venues || this.picksVersion !== venues.version) [this.picks, this.picksFor, this.picksVersion] = [new Map(), venues, venues.version];
    let pick = this.picks.get(memoKey);
    if (pick === undefined) this.picks.set(memoKey, (pick = make()));
    return pick;
  }

  /**
   * `taken`, picked among `entries` for a name meaning several places ("Newport"), with the
   * area it lies in, the most specific that tells it apart (`area`: "Wales"), and the other
   * places of the name, each written so that it resolves to that place (`otherPlaces`:
   * "Newport, Isle of Wight"; the most prominent first, at most MAX_OTHER_PLACES, each over
   * OTHER_PLACE_METERS from the place taken and from each other; a place its areas do not tell
   * apart, as two Crewes of Cheshire, is left out), so that a caller can show which one was
   * taken (audits 67c F3, 67d: "Newport" on London's data was Newport, Wales, 200 km off, and
   * the answer did not say so). Without other places, the plain place.
   */
  private namedAmong(taken: GazetteerEntry, key: string, entries: readonly GazetteerEntry[], venues: VenueDensity): ResolvedPlace {
    const place = fromEntry(taken);
    if (this.naming) return place;
    this.naming = true;
    try {
      const apart: GazetteerEntry[] = [taken];
      const others: string[] = [];
      for (const e of [...entries].sort(compareProminence)) {
        if (others.length === MAX_OTHER_PLACES) break;
        if (!apart.every((a) => nearDistanceMeters(a.lat, a.lon, e.lat, e.lon) > OTHER_PLACE_METERS)) continue;
        const written = `${e.name}, ${resolvingLabel(e, key, entries)}`;
        if (!this.resolvesNear(written, e, venues)) continue;
        apart.push(e);
        others.push(written);
      }
      return others.length === 0 ? place : { ...place, area: resolvingLabel(taken, key, entries), otherPlaces: others };
    } finally {
      this.naming = false;
    }
  }

  /** Whether `name` resolves within RESOLVES_AT_METERS of entry `e` (a refusal: no). */
  private resolvesNear(name: string, e: GazetteerEntry, venues: VenueDensity): boolean {
    try {
      const p = this.resolve(name, venues);
      return p !== null && nearDistanceMeters(p.lat, p.lon, e.lat, e.lon) <= RESOLVES_AT_METERS;
    } catch {
      return false;
    }
  }

  /**
   * Known names within a small edit distance of an unknown `name` (swapped adjacent letters
   * count as one edit; 1 edit up to 7 letters, 2 from 8), nearest spelling first, then the
   * place among the venues, then the more prominent. Gazetteer and learnt names; not postcodes.
   */
  suggest(name: string, limit: number, venues?: VenueDensity): string[] {
    if (typeof name !== 'string' || parsePostcode(name) !== null) return [];
    const separated = this.separatedOtherwise(name, venues);
    if (separated !== null) return [separated];
    // "near Islington" (audit 77c F2): the place without the word before it. Only offered, as
    // a name may begin with such a word ("Near Sawrey", which resolves before any suggestion).
    const led = LEADING_PLACE_WORDS.exec(name);
    const unled = led?.[1]!.trim();
    if (unled !== undefined && this.holds(unled, venues)) return [unled];
    const whole = this.suggestBare(name, limit, venues);
    if (whole.length > 0) return whole;
    // "near Shoredich": the names close to the place after the word
    if (unled !== undefined) {
      const close = this.suggestBare(unled, limit, venues);
      if (close.length > 0) return close;
    }
    // A misspelt name followed by its area ("Shordich, London", audit 64a F2): the closest
    // names to the part before a comma (the last comma first), each with the area kept when
    // the area holds it ("Shoreditch, London"), else alone.
    for (const { place, area } of areaQualifiedReadings(name)) {
      if (parsePostcode(place) !== null) continue;
      const out: string[] = [];
      for (const s of this.suggestBare(place, limit, venues)) {
        const qualified = `${s}, ${area}`;
        const named = this.holds(qualified, venues) ? qualified : s;
        if (!out.includes(named)) out.push(named);
      }
      if (out.length > 0) return out;
    }
    return [];
  }

  /**
   * A place and its area written with another separator than a comma, as "place, area" when
   * that resolves (audit 65a F14): "Soho (London)", "Soho - London", "Soho/London", and with a
   * space only, "Soho London" (each word break tried, the last first). Null when none
   * resolves or the name has a comma.
   */
  private separatedOtherwise(name: string, venues: VenueDensity | undefined): string | null {
    if (name.includes(',')) return null;
    const t = name.trim().replace(/\s+/g, ' ');
    const marked = /^(.+?)\s*(?:\((.+)\)|\s[-\u2013\u2014]\s|\/)\s*(.*)$/u.exec(t);
    const readings: string[] = [];
    if (marked !== null) readings.push(`${marked[1]!}, ${marked[2] ?? marked[3]!}`.trim());
    else for (let at = t.lastIndexOf(' '); at > 0; at = t.lastIndexOf(' ', at - 1)) readings.push(`${t.slice(0, at)}, ${t.slice(at + 1)}`);
    return readings.find((r) => !/,\s*$/.test(r) && this.holds(r, venues)) ?? null;
  }

  /** Whether `name` resolves (an unknown_place it throws is a no). */
  private holds(name: string, venues: VenueDensity | undefined): boolean {
    try {
      return this.resolve(name, venues) !== null;
    } catch (err) {
      if (err instanceof UnknownPlaceError) return false;
      throw err;
    }
  }

  /** suggest() for a name as a whole. */
  private suggestBare(name: string, limit: number, venues: VenueDensity | undefined): string[] {
    const key = placeKey(name);
    if (key.length < 3) return [];
    const max = suggestionBudget(key.length);
    const found: Array<{ key: string; edits: number }> = [];
    const consider = (k: string): void => {
      if (k === key) return;
      const edits = editDistance(key, k, max);
      if (edits <= max) found.push({ key: k, edits });
    };
    // the name with a generic suffix, which the resolver no longer takes for it far from
    // where the name is known ("Kentish": "Kentish Town"), offered first
    if (key.replace(/ /g, '').length >= MIN_SUFFIXED_LETTERS) {
      for (const suffix of GENERIC_SUFFIXES) if (this.gazetteer.lookup(`${key} ${suffix}`).length > 0) found.push({ key: `${key} ${suffix}`, edits: 0 });
    }
    const byLength = this.gazetteerKeysByLength();
    for (let length = key.length - max; length <= key.length + max; length++) for (const k of byLength.get(length) ?? []) consider(k);
    // The learnt names as they are now: live data learns and unlearns places (an error path:
    // one pass over the learnt areas).
    for (const [k] of this.learnt.areaEntries()) {
      if (Math.abs(k.length - key.length) <= max && this.gazetteer.lookup(k).length === 0) consider(k);
    }
    const ranked = found.map(({ key: k, edits }) => {
      const entries = this.gazetteer.lookup(k);
      const best = entries.length > 0 ? pickAmong(entries, venues) : null;
      const place = best !== null ? fromEntry(best) : this.learnt.area(k)!;
      return { name: place.name, edits, tier: venues === undefined ? 0 : venueTier(venues, place.lat, place.lon), best };
    });
    ranked.sort((a, b) => a.edits - b.edits || b.tier - a.tier || compareProminence(a.best, b.best) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const out: string[] = [];
    for (const r of ranked) {
      if (out.length >= limit) break;
      if (!out.includes(r.name)) out.push(r.name);
    }
    return out;
  }

  /**
   * The gazetteer's place keys by length, built at the first suggestion (the gazetteer does not
   * change; the learnt places may, so they are read at each suggestion).
   */
  private gazetteerKeysByLength(): ReadonlyMap<number, readonly string[]> {
    if (this.keysByLength !== null) return this.keysByLength;
    const byLength = new Map<number, string[]>();
    for (const k of this.gazetteer.keys()) {
      const list = byLength.get(k.length);
      if (list === undefined) byLength.set(k.length, [k]);
      else list.push(k);
    }
    this.keysByLength = byLength;
    return byLength;
  }

  /**
   * A name unknown as a whole qualified by its area after a comma ("St Ives, Cornwall",
   * "Newport, Wales", "Richmond, London", "London, UK", "Richmond, North Yorkshire, UK": see
   * isInQualifier): its gazetteer candidates in that area (see
   * isInArea), its own entries first, else those it stands for ("Newcastle, Tyne and Wear"
   * is Newcastle upon Tyne), chosen among as for a bare name (pickAmong). Each comma is
   * tried, the last first (areaQualifiedReadings). Null without a comma or when no name
   * before one is known; a known name with no place in that area throws unknown_place
   * naming the areas it is in, the default first.
   */
  private resolveInArea(name: string, venues: VenueDensity | undefined): ResolvedPlace | null {
    let notThere: { place: string; key: string; area: string; candidates: readonly GazetteerEntry[] } | null = null;
    const readings = areaQualifiedReadings(name).filter(({ place, area }) => placeKey(place) !== '' && placeKey(area) !== '');
    for (const { place, area } of readings) {
      if (parsePostcode(place) !== null) return this.postcodeInArea(name, place, area, venues);
      const key = placeKey(place);
      const candidates = this.candidates(key, true);
      // The qualifier filters the bare name's candidates (audit 64a F15: "Kingston, UK" is
      // Kingston upon Thames as "Kingston" is, not a Kingston village because its name is
      // exact); only when none is in that area, the places it stands for beyond them.
      const bare = candidates.filter((e) => isInQualifier(e, area));
      const inArea = bare.length > 0 ? bare : this.gazetteer.qualified(key).filter((e) => isInQualifier(e, area));
      if (inArea.length > 0) return this.chooseInArea(key, area, candidates, inArea, venues);
      if (candidates.length > 0) notThere ??= { place, key, area, candidates };
    }
    // No area's own name: the looser readings (loose-area.ts: "Lanarkshire" for South
    // Lanarkshire, "IOM", "VA"), taken when the places they match are in one area.
    for (const { place, area } of readings) {
      const key = placeKey(place);
      const matched = (entries: readonly GazetteerEntry[], former: boolean) =>
        entries.flatMap((e) => {
          const a = looseQualifier(e, area, former);
          return a === null ? [] : [{ e, a }];
        });
      const candidates = this.candidates(key, true);
      const within = (former: boolean) => {
        const bare = matched(candidates, former);
        return bare.length > 0 ? bare : matched(this.gazetteer.qualified(key), former);
      };
      // a former county's places only when the area's other readings match none, as its own
      // name's places come first: "Thornton, Lancs" is "Thornton, Lancashire" (audit 66f F3)
      const own = within(false);
      const inArea = own.length > 0 ? own : within(true);
      if (inArea.length === 0) continue;
      const areas = [...new Set(inArea.sort((x, y) => compareProminence(x.e, y.e)).map((m) => m.a))];
      if (areas.length === 1) return this.chooseInArea(key, area, candidates, inArea.map((m) => m.e), venues);
      // several areas: the one whose places alone are within the data's reach, as rule 1 picks
      // among places ("Pasadena, CA" on US venues is California's, not Canada's: audit 72d F3)
      if (venues !== undefined) {
        const { reached } = withinDataReach(
          inArea.map((m) => m.e),
          venues,
        );
        const reachedAreas = new Set(inArea.filter((_, i) => reached[i]).map((m) => m.a));
        if (reachedAreas.size === 1) {
          const [only] = reachedAreas;
          return this.chooseInArea(key, area, candidates, inArea.filter((m) => m.a === only).map((m) => m.e), venues);
        }
      }
      throw UnknownPlaceError.inOtherAreas(name, { place, area, areas, ambiguous: true });
    }
    // a place of the name in that area that the gazetteer holds only as a stray estimate
    // ("St John's, Isle of Man"): said so, not that there is none there
    for (const { place, area } of readings) this.refuseStrayOnly(name, placeKey(place), area, venues);
    if (notThere === null) return null;
    const { place, key, area, candidates } = notThere;
    const areas = resolvingLabels(key, candidates);
    // the part of the qualifier no place of that name is in ("Wales" of "Richmond, North
    // Yorkshire, Wales"), so that the message never names as missing an area it lists
    const parts = area.split(',').map((p) => p.trim());
    const missing = parts.length === 1 ? area : parts.find((p) => placeKey(p) !== '' && !candidates.some((e) => isInArea(e, placeKey(p))));
    if (missing === undefined) throw UnknownPlaceError.inOtherAreas(name, { place, area, areas, inEachPart: true });
    if (this.knownAreas.knowsFor(placeKey(missing), candidates)) {
      // an area with places near one of the name's (audit 66a F2: "Omagh, County Tyrone"): the
      // gazetteer lists the place elsewhere, which does not make "no Omagh in County Tyrone" true
      const bordering = this.knownAreas.hasPlaceNear(placeKey(missing), candidates, AREA_NEAR_METERS);
      throw UnknownPlaceError.inOtherAreas(name, { place, area: missing, areas, ...(bordering && { notListedNearKm: AREA_NEAR_METERS / 1000 }) });
    }
    // No area but a place near one of the name's ("Angel, Islington", audit 77c F3): the
    // name's place nearest to it.
    if (parts.length === 1) {
      const near = nearestToPlace(candidates, this.gazetteer.lookup(placeKey(missing)), NEAR_PLACE_QUALIFIER_METERS);
      if (near !== null) return fromEntry(near);
    }
    // An area no place is in (audit 65a F3: "County Cork"; F14: "Lodnon"): said so, with the
    // known areas close in spelling whose qualified name resolves ("Soho, London").
    const didYouMean: string[] = [];
    for (const close of this.knownAreas.closest(placeKey(missing))) {
      // the place's own name as its area ("Derby, Derby" for "Derby, Derbys": audit 66a F3) reads as a mistake
      if (areaKeys(close).includes(key)) continue;
      const qualified = `${place}, ${parts.length === 1 ? close : parts.map((p) => (p === missing ? close : p)).join(', ')}`;
      if (didYouMean.length < 3 && this.holds(qualified, venues)) didYouMean.push(qualified);
    }
    throw UnknownPlaceError.inOtherAreas(name, { place, area: missing, areas, areaUnknown: true, didYouMean });
  }

  /**
   * Among a qualified name's candidates in the area (`inArea`), the one the bare name would
   * take, when that one is among them: with a learnt place of the name, the candidate rule 2
   * takes (within agreeMeters of the learnt centre); else the venues' and prominence rules
   * over `inArea` (pickAmong), which over all the `candidates` is the bare name's answer.
   * When that place is another name's ("Camden Town" for "Camden"), an entry of the name as
   * typed within SAME_PLACE_METERS of it is the same place under that name, and is taken.
   * When the venues' rules chose among several places the area still leaves ("Springfield,
   * USA"), the answer names the one taken and the others in the area as a bare name's does
   * (namedAmong over `inArea`: `area` "Missouri", `otherPlaces` "Springfield, Massachusetts",
   * ...; audit 70g F5: the qualified answer said neither, less than the bare name's).
   */
  private chooseInArea(key: string, area: string, candidates: readonly GazetteerEntry[], inArea: readonly GazetteerEntry[], venues: VenueDensity | undefined): ResolvedPlace {
    const learnt = this.learnt.area(key);
    let pick: GazetteerEntry | undefined;
    if (learnt !== undefined) {
      const bare = this.choose(learnt, candidates, venues);
      if (bare !== null && bare !== learnt) pick = inArea.find((e) => e.lat === bare.lat && e.lon === bare.lon && e.name === bare.name);
    }
    // rule 3 (pickAmong) chooses among several places only with venues; rule 2's pick is not named (as for a bare name)
    const amongSeveral = pick === undefined && inArea.length > 1 && venues !== undefined;
    pick ??= pickAmong(inArea, venues);
    let taken = pick;
    if (placeKey(pick.name) !== key) {
      let ownD = SAME_PLACE_METERS;
      for (const e of inArea) {
        if (placeKey(e.name) !== key) continue;
        const d = nearDistanceMeters(pick.lat, pick.lon, e.lat, e.lon);
        if (d <= ownD) [taken, ownD] = [e, d];
      }
    }
    if (!amongSeveral) return fromEntry(taken);
    return this.remembered(`${key}, ${placeKey(area)}`, venues, () => this.namedAmong(taken, key, inArea, venues));
  }

  /**
   * A UK postcode followed by an area ("SW1A 1AA, UK", "NW1, London"): the postcode as if
   * bare (audit 64a F3), when the area holds it: some gazetteer place within
   * POSTCODE_AREA_METERS of its point is in that area, by its name or a looser reading
   * (isInQualifier, looseQualifier: "IM1 1AA, IOM"). A postcode of Jersey, Guernsey or the
   * Isle of Man (CROWN_DEPENDENCY_POSTCODES) is in that country, not in the UK: the GB
   * postal file's places there count as that country's ("JE2, Jersey"; "IM1, UK" refused:
   * audit 65a F12). Otherwise unknown_place naming the area of the place nearest to it; null
   * when the postcode is unknown.
   */
  private postcodeInArea(name: string, postcode: string, area: string, venues: VenueDensity | undefined): ResolvedPlace | null {
    const place = this.resolve(postcode, venues);
    if (place === null) return null;
    const dependency = CROWN_DEPENDENCY_POSTCODES[/^[A-Z]+/.exec(postcode.trim().toUpperCase())![0]];
    let nearest: GazetteerEntry | null = null;
    let nearestD = Infinity;
    for (const entry of this.gazetteer.entries()) {
      if (entry.country !== 'GB' && entry.country !== dependency) continue;
      const d = nearDistanceMeters(place.lat, place.lon, entry.lat, entry.lon);
      if (d > POSTCODE_AREA_METERS) continue;
      const e: GazetteerEntry = dependency === undefined ? entry : { name: entry.name, lat: entry.lat, lon: entry.lon, country: dependency, population: entry.population, featureCode: entry.featureCode };
      if (isInQualifier(e, area) || looseQualifier(e, area) !== null) return place;
      if (d < nearestD) [nearest, nearestD] = [e, d];
    }
    if (nearest === null) return null;
    // the part of the qualifier the postcode is not in ("UK" of "IM1, Isle of Man, UK")
    const near = nearest;
    const missing = area.split(',').find((p) => placeKey(p) !== '' && !isInArea(near, placeKey(p)) && looseArea(near, placeKey(p)) === null) ?? area;
    throw UnknownPlaceError.inOtherAreas(name, { place: postcode, area: missing.trim(), areas: [areaLabel(nearest)] });
  }

  /**
   * Throws unknown_place when the place of a bare name near the data was left out of the
   * gazetteer as a stray district estimate (IM4's St John's, W1's Park Lane) and what remains
   * of the name, precise or approximate points, is all far from every venue
   * (FAR_APPROXIMATE_METERS): searching one of those would be a search far from the data
   * (audit 66a F8: "Garth" on Isle of Man data was Garth, Gwynedd, a precise point 101.7 km
   * from every venue, beside IM4's Garth). The message says how to search the district first,
   * and offers its outward code first ("Park Lane" on London data: W1, audit 66a F11; see
   * districtAdvice), then lists where the others are, each suggested qualified by its area
   * ("St John's, Surrey"), which resolves.
   */
  private refuseFarApproximate(name: string, key: string, entries: readonly GazetteerEntry[], venues: VenueDensity): void {
    const hasVenues = (p: { lat: number; lon: number }) => hasVenuesWithinFarReach(venues, p);
    const near = this.gazetteer.strayEstimates(key).filter(hasVenues);
    if (near.length === 0 || entries.some(hasVenues)) return;
    const areas = resolvingLabels(key, entries);
    const district = this.districtAdvice(near, venues);
    const where = listed(areas, 'and');
    const points = entries.some(isPrecise) ? ',' : areas.length === 1 ? ', an approximate point' : ', approximate points';
    const message =
      `location ${describeValue(name)}: the ${name} near the venues is known only by its postal district's estimate (${district.codes.join(', ')}), too rough to search at; ` +
      `${district.advice}; ${name} is also in ${where}${points} more than ${FAR_APPROXIMATE_KM} km from every venue; ` +
      `say which, e.g. ${describeValue(`${name}, ${areas[0]!}`)}`;
    throw UnknownPlaceError.fromReport(name, message, [...district.suggestions, ...areas.map((a) => `${name}, ${a}`)]);
  }

  /**
   * Throws unknown_place when every candidate of a bare name is an approximate point with no
   * venue within FAR_APPROXIMATE_METERS while places of the name with a generic suffix exist,
   * left out by {@link candidates} as far from where the name is known (audit 65e F1, F3):
   * "Garden" on US data was Garden, Stirling (5,168 km from every venue) beside Garden City,
   * New York; "Cross" Cross, Somerset beside Cross City, Florida; "Clewer" on London data
   * Clewer, Somerset (160 km) beside Clewer Village, Windsor. The suffixed names nearer the
   * venues than the name's own places or with venues within that distance are offered (those
   * with venues first, then the most prominent; at most 3), not taken: a word that only begins
   * a place's name is a guess ("New" is not New Town). None such (audit 66a F9: "Warley Town"
   * is farther than Warley): the refusal stands and offers the name's own places qualified by
   * their areas ("Warley, West Midlands"), which resolve (audit 66f F5: "Dingley" on US data
   * resolved silently to Dingley, Northamptonshire, 5,139 km from every venue).
   */
  private refuseForSuffixedNearVenues(name: string, key: string, entries: readonly GazetteerEntry[], venues: VenueDensity): void {
    if (entries.length === 0 || entries.some(isPrecise) || key.replace(/ /g, '').length < MIN_SUFFIXED_LETTERS) return;
    const hasVenues = (p: { lat: number; lon: number }) => hasVenuesWithinFarReach(venues, p);
    if (entries.some(hasVenues)) return;
    // the suffixed places left out (none: no refusal); offered only those nearer the venues
    // than the name's own places or within reach of a venue (audit 66a F9: "Warley" on the
    // London pubs, 160 km off, was refused for "Warley Town", 270 km off), those with venues
    // near first, then the most prominent
    const all = GENERIC_SUFFIXES.flatMap((suffix) => this.gazetteer.lookup(`${key} ${suffix}`)).filter((e) => !entries.includes(e));
    if (all.length === 0) return;
    const ownNearest = Math.min(...entries.map((e) => venues.nearestVenueMeters(e.lat, e.lon)));
    const left = all.filter((e) => hasVenues(e) || venues.nearestVenueMeters(e.lat, e.lon) < ownNearest);
    left.sort((a, b) => Number(hasVenues(b)) - Number(hasVenues(a)) || compareProminence(a, b));
    const suffixed = [...new Set(left.map((e) => e.name))].slice(0, 3);
    // one place: "the only Warley we know is"; several: "the 2 places called Row we know are" (audit 67b F5)
    const known = entries.length === 1 ? `the only ${name} we know is an approximate point` : `the ${entries.length} places called ${name} we know are approximate points`;
    const only = `location ${describeValue(name)}: ${known} more than ${FAR_APPROXIMATE_KM} km from every venue`;
    if (suffixed.length > 0) throw UnknownPlaceError.fromReport(name, `${only}; did you mean ${suffixed.map((n) => describeValue(n)).join(' or ')}?`, suffixed);
    const areas = resolvingLabels(key, entries);
    const where = listed(areas, 'and');
    // a choice only between several areas; one is named as the way to search there (audit 67b F5)
    const how = areas.length === 1 ? `to search there, say ${describeValue(`${name}, ${areas[0]!}`)}` : `say which, e.g. ${describeValue(`${name}, ${areas[0]!}`)}`;
    throw UnknownPlaceError.fromReport(name, `${only} (in ${where}); ${how}`, areas.map((a) => `${name}, ${a}`));
  }

  /**
   * Throws unknown_place when the GB file left out a postal place named `key` as placed only
   * at a stray district estimate (Gazetteer.strayEstimates) and, with `area`, that place is in
   * the area, or the area is its own outward code ("Park Lane, W1", audit 66a F11) or a
   * sub-district of it ("Park Lane, W1K", as the street's own postcodes read): the name
   * is then known, only too roughly to search at, and the message says so and how to search
   * its district (districtAdvice: "Glen Vine": IM4), rather than "not a place we know" or "no
   * St John's in Isle of Man" (false: it is there). Returns null otherwise.
   */
  private refuseStrayOnly(name: string, key: string, area: string | null, venues?: VenueDensity): null {
    const ownCode = area === null ? null : parsePostcode(area);
    const strays = this.gazetteer.strayEstimates(key).filter((s) => {
      if (area === null) return true;
      if (ownCode !== null) return ownCode.full === null && (ownCode.outward === s.code || this.isSubDistrictOf(ownCode.outward, s.code));
      const e: GazetteerEntry = { name: s.name, lat: s.lat, lon: s.lon, country: 'GB', population: 0, featureCode: '', precise: false, ...(s.nation !== undefined && { nation: s.nation }), ...(s.counties !== undefined && { counties: s.counties }) };
      return isInQualifier(e, area) || looseQualifier(e, area) !== null;
    });
    if (strays.length === 0) return ownCode === null || ownCode.full !== null ? null : this.refuseUnusedSubDistrict(name, key, ownCode.outward, venues);
    const district = this.districtAdvice(strays, venues);
    const place = area === null ? strays[0]!.name : `${strays[0]!.name} in ${area}`;
    const message = `location ${describeValue(name)}: ${place} is known only by its postal district's estimate (${district.codes.join(', ')}), too rough to search at; ${district.advice}`;
    throw UnknownPlaceError.fromReport(name, message, district.suggestions);
  }

  /**
   * Throws unknown_place for a stray-only place qualified by a sub-district code of its
   * district that is not in use ("Bond Street, W1Z": W1 has no W1Z): the code is said to be
   * unknown, and the place's district advised as for a code in use (audit 76b F1: it was "not a
   * place we know", suggesting Pond Street, while "Bond Street" alone was advised W1). Returns
   * null when `outward` is in use or is not a letter after a stray's district.
   */
  private refuseUnusedSubDistrict(name: string, key: string, outward: string, venues?: VenueDensity): null {
    if (this.gazetteer.outcode(outward) !== undefined) return null;
    const strays = this.gazetteer.strayEstimates(key).filter((s) => outward.length === s.code.length + 1 && outward.startsWith(s.code) && /[0-9]$/.test(s.code) && /[A-Z]$/.test(outward));
    if (strays.length === 0) return null;
    const district = this.districtAdvice(strays, venues);
    const message = `location ${describeValue(name)}: ${describeValue(outward)} is not an area we know; ${strays[0]!.name} is known only by its postal district's estimate (${district.codes.join(', ')}), too rough to search at; ${district.advice}`;
    throw UnknownPlaceError.fromReport(name, message, district.suggestions);
  }

  /**
   * How to search the districts of stray estimates (audit 66a F7). A district's point (its
   * venues' centre, else the gazetteer's) may lie far from its places: IM4's is by Union Mills,
   * 9 km from St John's, whose venues a find there at the default radius
   * (DEFAULT_FIND_DISTANCE_METERS) misses. When venues carry full postcodes of the district,
   * the radius that reaches all of them from its point (whole km up) is advised with the
   * code; a district whose venues lie beyond MAX_FIND_DISTANCE_METERS of its point is not
   * advised (no find from there reaches them); one no venue has a postcode of is advised
   * alone (the data has nothing there to miss).
   */
  private districtAdvice(strays: readonly StrayEstimate[], venues: VenueDensity | undefined): { codes: string[]; advice: string; suggestions: string[] } {
    const codes = [...new Set(strays.map((s) => s.code))];
    const ways: string[] = [];
    const suggestions: string[] = [];
    for (const code of codes) {
      const point = this.resolve(code, venues);
      if (point === null) continue;
      const farthest = Math.max(0, ...this.learnt.fullPostcodesOf(code).map((p) => distanceMeters(point.lat, point.lon, p.lat, p.lon)));
      if (farthest > MAX_FIND_DISTANCE_METERS) continue;
      suggestions.push(code);
      const radius = Math.ceil(farthest / 1000) * 1000;
      ways.push(
        farthest <= DEFAULT_FIND_DISTANCE_METERS
          ? describeValue(code)
          : `${describeValue(code)} with maxDistanceMeters ${radius}: the venues with ${code} postcodes lie up to ${(farthest / 1000).toFixed(1)} km from its point`,
      );
    }
    const advice = ways.length === 0 ? 'search a place near it' : `search its district (${ways.join(' or ')}) or a place near it`;
    return { codes, advice, suggestions };
  }

  /**
   * Whether outward code `code` is a sub-district of `district`: central London's districts are
   * split by a final letter, and a street's own postcodes carry the sub-district ("Park Lane,
   * W1K"). Only the sub-districts in use, which the gazetteer's outward codes are (GeoNames'
   * postal file): W1A to W1D, W1F to W1H, W1J, W1K, W1M, W1S to W1U and W1W; SW1A, E, H, P, V
   * to Y; EC1A to EC4Y and WC1A to WC2R alike (audit 67b F4: "Bond Street, W1Z" was read as in
   * a W1Z that does not exist).
   */
  private isSubDistrictOf(code: string, district: string): boolean {
    return code.length === district.length + 1 && code.startsWith(district) && /[0-9]$/.test(district) && /[A-Z]$/.test(code) && this.gazetteer.outcode(code) !== undefined;
  }

  /**
   * The place key of `name` and its gazetteer candidates. Word breaks are tried otherwise
   * only in a name without a comma: the comma's word is an area (its key turns the comma into
   * a space), and "Crete, IL" run together is Créteil, France (audit 72d F1: that answer came
   * before the place-and-area reading, Crete, Illinois, was tried).
   */
  private knownKey(name: string): { key: string; entries: readonly GazetteerEntry[] } {
    const key = placeKey(name);
    return { key, entries: this.candidates(key, false, !name.includes(',')) };
  }

  /** Rules 2 and 3 for one name: a learnt place (or undefined) and the gazetteer candidates. */
  private choose(learnt: ResolvedPlace | undefined, entries: readonly GazetteerEntry[], venues: VenueDensity | undefined): ResolvedPlace | null {
    if (learnt !== undefined) {
      const best = this.agreeing(learnt, entries);
      return best !== null ? fromEntry(best) : learnt;
    }
    return entries.length > 0 ? fromEntry(pickAmong(entries, venues)) : null;
  }

  /** Rule 2's candidate for a learnt place: within `agreeMeters` of its centre, precise points first, then the nearest; null when none is. */
  private agreeing(learnt: ResolvedPlace, entries: readonly GazetteerEntry[]): GazetteerEntry | null {
    let best: GazetteerEntry | null = null;
    let bestD = Infinity;
    for (const e of entries) {
      const d = nearDistanceMeters(learnt.lat, learnt.lon, e.lat, e.lon);
      if (d > this.agreeMeters) continue;
      const better = best === null || (isPrecise(e) && !isPrecise(best)) || (isPrecise(e) === isPrecise(best) && d < bestD);
      if (better) [best, bestD] = [e, d];
    }
    return best;
  }

  /**
   * A name's own entries, plus its generic-suffix names': the suffixed cities
   * (CITY_POPULATION and up), so that with the world option "New York" still finds
   * GeoNames' "New York City" beside the two GB villages called New York (the venues, then
   * prominence, choose among them: pickAmong), and when none of its own is precise the
   * suffixed places near where the name is known (see below), or anywhere with `anywhere`
   * (a name qualified by its area: the area says where it is known, "Warley, West Yorkshire"
   * is Warley Town there, audit 65e F4).
   */
  private candidates(key: string, anywhere = false, otherWordBreaks = true): readonly GazetteerEntry[] {
    const own = this.gazetteer.lookup(key);
    const precise = own.some(isPrecise);
    const all = [...own];
    // A suffixed name is the same place under a longer name ("Camden Town" for "Camden")
    // only near where the name itself is known: within ROUGH_POINT_METERS of one of its own
    // (approximate) entries or of its learnt place; a city is a candidate anywhere ("Salt
    // Lake" is Salt Lake City). A fragment that is no place ("LA", "New", "Texas") or of
    // fewer than MIN_SUFFIXED_LETTERS letters takes no suffix (audit 65a F2).
    if (key.replace(/ /g, '').length >= MIN_SUFFIXED_LETTERS) {
      const learnt = this.learnt.area(key);
      const known = [...own, ...(learnt === undefined ? [] : [learnt])];
      const nearKnown = (e: GazetteerEntry) => known.some((k) => nearDistanceMeters(k.lat, k.lon, e.lat, e.lon) <= ROUGH_POINT_METERS);
      for (const suffix of GENERIC_SUFFIXES) {
        for (const e of this.gazetteer.lookup(`${key} ${suffix}`)) if (e.population >= CITY_POPULATION || (!precise && (anywhere || nearKnown(e)))) all.push(e);
      }
    }
    // "Newcastle" may mean Newcastle upon Tyne, "Kingston" Kingston upon Thames: a qualified
    // name is a candidate when it is a more prominent kind of place than every one of the
    // name's own in its country ("Radcliffe", a town, is not Radcliffe on Trent, another),
    // as a short name is said where the place is: with the world gazetteer, Kingston, Ontario
    // (a city) does not hide Kingston upon Thames (audit 67d F5).
    const ownClass = (country: string) => Math.max(-1, ...own.filter((o) => o.country === country).map(prominenceClass));
    for (const e of this.gazetteer.qualified(key)) if (!precise || prominenceClass(e) > ownClass(e.country)) all.push(e);
    // A name known only by an approximate postal point may be surveyed under other word
    // breaks ("Kirk Michael" is GeoNames' "Kirkmichael"): those are candidates too, and an
    // approximate point near one of them is that place roughly placed, so it is dropped.
    if (!precise && otherWordBreaks) {
      const surveyed = this.gazetteer.spacedOtherwise(key).filter(isPrecise);
      if (surveyed.length > 0) {
        const rough = (e: GazetteerEntry) => !isPrecise(e) && surveyed.some((p) => nearDistanceMeters(p.lat, p.lon, e.lat, e.lon) <= ROUGH_POINT_METERS);
        return [...all.filter((e) => !rough(e)), ...surveyed];
      }
    }
    return all;
  }
}

/**
 * Rule 1's test for each entry: within the data's reach, no farther from the nearest venue
 * than PLACE_VENUES_RADIUS_METERS or VenueDensity.reachMeters, and never than
 * MAX_REACH_METERS; at the grid's precision (a venue in the grid cells around the place says
 * "within reach": grid scans spared; cells reach beyond the venue radius).
 */
function withinDataReach(entries: readonly GazetteerEntry[], venues: VenueDensity): { readonly reached: boolean[]; readonly nearest: number[] } {
  const reach = Math.min(MAX_REACH_METERS, Math.max(PLACE_VENUES_RADIUS_METERS, venues.reachMeters?.() ?? 0));
  // metres to the nearest venue; 0 for a venue in the cells around the place
  const nearest = entries.map((e) => (venues.venuesNear(e.lat, e.lon, PLACE_VENUES_RADIUS_METERS) > 0 ? 0 : venues.nearestVenueMeters(e.lat, e.lon)));
  return { reached: nearest.map((d) => d <= reach), nearest };
}

/**
 * Among places sharing a name, the one in the data's region, and there the most prominent
 * kind of place:
 * 1. The candidates within the data's reach: no farther from the nearest venue than
 *    PLACE_VENUES_RADIUS_METERS or VenueDensity.reachMeters (the gaps between the venues'
 *    areas: a few km for a city's data, about 24 km for venues spread thinly over Britain),
 *    and never than MAX_REACH_METERS (a sparse foreign part of the data does not put a
 *    continent in reach: audit 67d F5); if none is, all of them. Measured at the grid's
 *    precision (VenueDensity.venuesNear: a venue in the cells around the place is near; else
 *    the nearest occupied cell's centre), so a place 10 to 20 km from a city's data is in
 *    its region ("Botley" on the London pubs is Botley, Buckinghamshire, 15 km from the
 *    nearest, not the larger Botley in Hampshire 80 km off: audit 70i).
 *    When one of them has many venues near it (CROWDED_TIER: 63 or more within
 *    PLACE_VENUES_RADIUS_METERS), those with far fewer (CROWDED_GAP tiers less: a 32nd or
 *    under) are out of play too: on the London pubs plus the Overture US sample, "Waterloo"
 *    (1,879 venues within 10 km of London's) was Waterloo, New York, a town with 1, before
 *    London's postal locality (audit 67f F2).
 * 2. Of those, the highest {@link prominenceClass}: a city before a town, a town before a
 *    place of unknown population (a postal name, a neighbourhood). "Preston" on data
 *    spread over Britain is the city in Lancashire, not the Brighton suburb among more
 *    venues; "Leeds" on the London pubs (near neither) is the city, not the Kent village
 *    nearer London; "Brackley" on Britain's vegetarian venues is the town 12 km from the
 *    nearest of them, not a Highland hamlet beside some.
 * 3. Of those, the most venues within PLACE_VENUES_RADIUS_METERS, compared in powers of two
 *    (1-2, 3-6, 7-14, ... venues: floor(log2(1 + n)): counts within a factor of two are a
 *    tie, so two points of one neighbourhood are not told apart by a few venues); when none
 *    has venues that near, the nearest to any venue. Counted exactly when `venues` can
 *    (VenueDensity.venuesWithin; an engine's own can): the grid's whole cells reach 20 km
 *    beyond the radius and took Carrington, Midlothian (2 venues within 10 km, 77 in its
 *    cells) over Carrington, Trafford (22) on Britain's vegetarian venues (audit 70i).
 * Ties, and a resolver called without `venues`: the most prominent (see compareProminence).
 */
export function pickAmong(entries: readonly GazetteerEntry[], venues: VenueDensity | undefined): GazetteerEntry {
  let best = entries[0]!;
  if (entries.length === 1) return best;
  if (venues === undefined) {
    for (const e of entries) if (compareProminence(e, best) < 0) best = e;
    return best;
  }
  const tiers = entries.map((e) => venueTier(venues, e.lat, e.lon));
  const { reached, nearest } = withinDataReach(entries, venues);
  const anyInReach = reached.some(Boolean);
  const inReach = (i: number) => !anyInReach || reached[i]!;
  // a place among many venues puts out of play every place with far fewer (CROWDED_TIER, CROWDED_GAP)
  let crowdedTier = 0;
  tiers.forEach((t, i) => {
    if (t >= CROWDED_TIER && inReach(i)) crowdedTier = Math.max(crowdedTier, t);
  });
  const inPlay = (i: number) => inReach(i) && !(crowdedTier > 0 && tiers[i]! <= crowdedTier - CROWDED_GAP);
  let topClass = -1;
  entries.forEach((e, i) => {
    if (inPlay(i)) topClass = Math.max(topClass, prominenceClass(e));
  });
  const eligible = (i: number) => inPlay(i) && prominenceClass(entries[i]!) === topClass;
  let topTier = 0;
  entries.forEach((_, i) => {
    if (eligible(i)) topTier = Math.max(topTier, tiers[i]!);
  });
  let chosen: GazetteerEntry | null = null;
  let chosenD = Infinity;
  entries.forEach((e, i) => {
    if (!eligible(i) || tiers[i] !== topTier) return;
    // tier 0 (no venue within PLACE_VENUES_RADIUS_METERS): the nearest to a venue (its grid cell's centre)
    const d = topTier > 0 ? 0 : nearest[i]! > 0 ? nearest[i]! : venues.nearestVenueMeters(e.lat, e.lon);
    if (chosen === null || d < chosenD || (d === chosenD && compareProminence(e, chosen) < 0)) [chosen, chosenD] = [e, d];
  });
  return chosen ?? best;
}

/**
 * The area to name an entry by when its name is qualified by an area it is not in: the most
 * specific of its areas (areaLabels) in which the name resolves to it ("Leeds, West
 * Yorkshire" for the city, audit 64a F4: before, its first county was its own borough, so
 * the nation was named, and "Leeds, England" was offered for it beside "Leeds, Kent"); the
 * most specific area when none does (two places of a name in one county). Never an area
 * named as the place, whether the name typed or the place taken ("Newcastle upon Tyne" for
 * "Newcastle", "Southend-on-Sea" for "Southend": audit 65a F4), except a county named after
 * its town with the word County ("Durham, County Durham", as people write it).
 */
/** The resolving label ({@link resolvingLabel}) of each of a name's candidates, the most prominent first, each once. */
function resolvingLabels(key: string, candidates: readonly GazetteerEntry[]): string[] {
  const labels: string[] = [];
  for (const e of [...candidates].sort(compareProminence)) {
    const label = resolvingLabel(e, key, candidates);
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

function resolvingLabel(e: GazetteerEntry, key: string, candidates: readonly GazetteerEntry[]): string {
  const own = [key, placeKey(e.name)];
  const all = areaLabels(e);
  const others = all.filter((l) => own.some((k) => areaKeys(l)[0] === `county ${k}`) || !areaKeys(l).some((k) => own.includes(k)));
  const labels = others.length > 0 ? others : all;
  return labels.find((l) => pickAmong(candidates.filter((c) => isInQualifier(c, l)), undefined) === e) ?? labels[0]!;
}

/** 2: a city (see kindOfFeature); 1: another place with a known population; 0: none known. */
function prominenceClass(e: GazetteerEntry): number {
  if (kindOfFeature(e.featureCode, e.population) === 'city') return 2;
  return e.population > 0 ? 1 : 0;
}

/**
 * floor(log2(1 + venues within PLACE_VENUES_RADIUS_METERS)): 0 for none. Counted exactly
 * when `venues` can (VenueDensity.venuesWithin: an engine's own), else by the grid's cells.
 */
function venueTier(venues: VenueDensity, lat: number, lon: number): number {
  const n = venues.venuesWithin?.(lat, lon, PLACE_VENUES_RADIUS_METERS) ?? venues.venuesNear(lat, lon, PLACE_VENUES_RADIUS_METERS);
  return Math.floor(Math.log2(1 + n));
}

/**
 * Negative when `a` is more prominent: a precise point first, then the capital, the larger
 * population, the more outward postcodes naming it, then name and latitude (deterministic).
 */
function compareProminence(a: GazetteerEntry | null, b: GazetteerEntry | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return (
    Number(isPrecise(b)) - Number(isPrecise(a)) ||
    Number(b.featureCode === 'PPLC') - Number(a.featureCode === 'PPLC') ||
    b.population - a.population ||
    (b.outcodes ?? 0) - (a.outcodes ?? 0) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    a.lat - b.lat
  );
}

function isPrecise(e: GazetteerEntry): boolean {
  return e.precise !== false;
}

/** An entry as an answer; an imprecise point (see GazetteerEntry.precise) is marked approximate. */
/** Other places of a name told apart in an answer lie this far (metres) from the one taken and from each other (at most MAX_OTHER_PLACES of them). */
const OTHER_PLACE_METERS = 10_000;
/** A written other place resolves to its entry when its answer lies this close (metres) to the entry's point. */
const RESOLVES_AT_METERS = 2_000;

/** The candidate nearest to any of `places`, when within `maxMeters` of one; else null. */
function nearestToPlace(candidates: readonly GazetteerEntry[], places: readonly GazetteerEntry[], maxMeters: number): GazetteerEntry | null {
  let best: GazetteerEntry | null = null;
  let bestD = maxMeters;
  for (const c of candidates) {
    for (const p of places) {
      const d = distanceMeters(c.lat, c.lon, p.lat, p.lon);
      if (d <= bestD) [best, bestD] = [c, d];
    }
  }
  return best;
}

function fromEntry(e: GazetteerEntry): ResolvedPlace {
  const place = { name: e.name, lat: e.lat, lon: e.lon, kind: kindOfFeature(e.featureCode, e.population) };
  return isPrecise(e) ? place : { ...place, approximate: true };
}

export function createDefaultPlaceResolver(learnt: readonly VenueRecord[] | LearntPlaces, options: DefaultPlaceResolverOptions = {}): DefaultPlaceResolver {
  return new DefaultPlaceResolver(learnt, options);
}
