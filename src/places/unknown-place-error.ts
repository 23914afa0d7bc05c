import { VenueSearchError, describeValue } from '../errors.js';
import { placeKey } from './place-name.js';

/** At most this many areas are named in the message for a name qualified by an area it is not in. */
const MAX_LISTED_AREAS = 8;

/** A known place name qualified by an area where no place of that name is ("St Ives, Devon"). */
export interface NameInOtherAreas {
  /** The name before the comma, as given ("St Ives"). */
  readonly place: string;
  /** The qualifier after it, as given ("Devon"). */
  readonly area: string;
  /** The areas places of that name are in, the default (the one the bare name resolves to without venues) first. */
  readonly areas: readonly string[];
  /** Each part of a qualifier "A, B" has a place of that name, but no one place is in all of them. */
  readonly inEachPart?: boolean;
  /** The qualifier names several of the areas listed, by a looser reading ("Lanarkshire": North and South Lanarkshire; "CA": California and Canada). */
  readonly ambiguous?: boolean;
  /**
   * The qualifier names no area the gazetteer knows for any place ("County Cork", "Lodnon"):
   * the message says so rather than "no X in <area>", which would state a falsehood.
   */
  readonly areaUnknown?: boolean;
  /**
   * The area is known and has places within this many km of one of the name's (AREA_NEAR_METERS
   * in default-resolver.ts), so it may hold it though the gazetteer lists it elsewhere (historic
   * counties: "Omagh, County Tyrone"): the message says it is not listed there, not "no X in Y".
   */
  readonly notListedNearKm?: number;
  /** With `areaUnknown`: the name qualified by known areas close in spelling that hold it ("Soho, London" for "Soho, Lodnon"); offered instead of the areas. */
  readonly didYouMean?: readonly string[];
}

/**
 * `unknown_place` for a `location` no resolver knows. It is a VenueSearchError (same code,
 * param and value, so the HTTP adapter maps it to 400 like any other) that also carries
 * the known names closest in spelling, best first; the message offers them too
 * (`location "Shoredich" is not a place we know; did you mean "Shoreditch"?`).
 *
 * For a known name qualified by an area it is not in (`inOtherAreas`), the message lists the
 * areas it is in and how to pick one (`location "St Ives, Devon": no St Ives in Devon; St Ives
 * is in Cornwall, Cambridgeshire and Hampshire; say which, e.g. "St Ives, Cornwall"`), and
 * the suggestions are those qualified names ("St Ives, Cornwall", ...).
 */
export class UnknownPlaceError extends VenueSearchError {
  readonly suggestions: readonly string[];

  /** `message`: the message as already made (an error reported by an engine thread: fromReport). */
  constructor(name: string, suggestions: readonly string[], inOtherAreas?: NameInOtherAreas, message?: string) {
    super('unknown_place', message ?? (inOtherAreas === undefined ? unknownPlaceMessage(name, suggestions) : otherAreasMessage(name, inOtherAreas)), { param: 'location', value: name });
    this.suggestions = suggestions;
  }

  /** The error again from what an engine thread reported (src/service/engine-thread.ts): its location, message and suggestions. */
  static fromReport(name: string, message: string, suggestions: readonly string[]): UnknownPlaceError {
    return new UnknownPlaceError(name, suggestions, undefined, message);
  }

  /** The error for an area with no place's name before it (", London": audit 65a F14); nothing to suggest. */
  static noPlaceName(name: string): UnknownPlaceError {
    return new UnknownPlaceError(name, [], undefined, `location ${describeValue(name)} has no place name before its comma; name a place, then its area ("Soho, London")`);
  }

  /** The error for a known name qualified by an area it is not in; suggests the name in each listed area. */
  static inOtherAreas(name: string, inOtherAreas: NameInOtherAreas): UnknownPlaceError {
    const listed = inOtherAreas.areas.slice(0, MAX_LISTED_AREAS);
    const close = inOtherAreas.didYouMean ?? [];
    return new UnknownPlaceError(name, close.length > 0 ? close : listed.map((a) => `${inOtherAreas.place}, ${a}`), inOtherAreas);
  }
}

/** A US ZIP code, 5 digits or ZIP+4 ("90210", "10001-1234"): no resolver takes one (UK postcodes only). */
const US_ZIP = /^\s*\d{5}(?:-\d{4})?\s*$/;
/** What the message for a US ZIP code adds (audit 70g F3: "not a place we know" gave no way forward). */
const US_ZIP_ADVICE = 'US ZIP codes are not supported, only UK postcodes: name the town, e.g. "Springfield, Illinois"';

/** A place followed by a US ZIP code ("Chicago, IL 60601", "Beverly Hills 90210"): the place, and the code. */
const PLACE_THEN_US_ZIP = /^(.*\p{L}.*?)[\s,]+(\d{5}(?:-\d{4})?)\s*$/u;

/** What a message adds for a location that is, or ends with, a US ZIP code; '' otherwise. */
function usZipAdvice(name: string): string {
  if (US_ZIP.test(name)) return `; ${US_ZIP_ADVICE}`;
  const m = PLACE_THEN_US_ZIP.exec(name);
  // audit 72d F4: "Chicago, IL 60601" was "IL 60601 is not an area we know", with no word of the code
  return m === null ? '' : `; US ZIP codes are not supported, only UK postcodes: leave ${describeValue(m[2]!)} out (${describeValue(m[1]!.trim())})`;
}

function unknownPlaceMessage(name: string, suggestions: readonly string[]): string {
  const base = `location ${describeValue(name)} is not a place we know${usZipAdvice(name)}`;
  if (suggestions.length === 0) return base;
  return `${base}; did you mean ${listed(suggestions.map((s) => describeValue(s)), 'or')}?`;
}

function otherAreasMessage(name: string, { place, area, areas, inEachPart, ambiguous, areaUnknown, notListedNearKm, didYouMean }: NameInOtherAreas): string {
  const shown = areas.slice(0, MAX_LISTED_AREAS);
  const more = areas.length - shown.length;
  const where = more > 0 ? `${shown.join(', ')} and ${more} other area${more === 1 ? '' : 's'}` : listed(shown, 'and');
  if (ambiguous === true) {
    // every listed area holds such a place: "no X in A" would contradict the list
    return `location ${describeValue(name)}: ${describeValue(area)} may mean ${listed(shown, 'or')}, ${shown.length === 2 ? 'both' : 'each'} with a ${place}; say which, e.g. ${describeValue(`${place}, ${shown[0]!}`)}`;
  }
  const zip = usZipAdvice(name);
  if (areaUnknown === true && didYouMean !== undefined && didYouMean.length > 0) {
    return `location ${describeValue(name)}: ${describeValue(area)} is not an area we know${zip}; did you mean ${listed(didYouMean.map((s) => describeValue(s)), 'or')}?`;
  }
  if (areaUnknown === true && zip !== '') return `location ${describeValue(name)}: ${describeValue(area)} is not an area we know${zip}`;
  const missing =
    areaUnknown === true
      ? `${describeValue(area)} is not an area we know`
      : inEachPart === true
        ? `no one ${place} is in all of ${area}`
        : notListedNearKm !== undefined
          ? `we do not list ${place} under ${area}, though places we list there lie within ${notListedNearKm} km of it`
          : `no ${place} in ${area}`;
  // an example that would repeat the place's name ("Cardiff, Cardiff") reads as a mistake: left out
  const example = areas.find((a) => placeKey(a) !== placeKey(place));
  return `location ${describeValue(name)}: ${missing}; ${place} is in ${where}; say which${example === undefined ? '' : `, e.g. ${describeValue(`${place}, ${example}`)}`}`;
}

/** "a", "a or b", "a, b or c" (or "and"). */
export function listed(items: readonly string[], conjunction: 'or' | 'and'): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]!}`;
}
