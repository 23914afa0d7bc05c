import { describeValue } from '../errors.js';
import { PLACE_LEAD_WORDS } from '../places/place-name.js';
import type { FindHint } from '../schema/find.js';

/** A word people put between what they look for and where ("red lion near Islington"), with its spaces. */
const PLACE_WORD = new RegExp(`\\s+(?:${PLACE_LEAD_WORDS})\\s+`, 'giu');

/**
 * The hint of an empty find without a centre whose `query` holds a place (audit 77a F5: "red
 * lion near Islington" matched no name, as q is names only, and said nothing): the words
 * before `near`, `in`, `around`, `by`, `at`... (PLACE_LEAD_WORDS) as `q` and the rest as
 * `location`, the last such word first, when the rest is a place (`isPlace`) and the words
 * before it name some venue (`matches`). Undefined otherwise. Never applied: the answer stays the empty one asked for.
 */
export function placeInQueryHint(query: string, isPlace: (name: string) => boolean, matches: (q: string) => boolean): FindHint | undefined {
  const cuts = [...query.matchAll(PLACE_WORD)].reverse();
  for (const cut of cuts) {
    const q = query.slice(0, cut.index).trim();
    const location = query.slice(cut.index + cut[0].length).trim();
    if (q === '' || location === '' || !isPlace(location) || !matches(q)) continue;
    return {
      code: 'place_in_query',
      message: `no venue is named ${describeValue(query)}; ${describeValue(location)} is a place: give it as location (q ${describeValue(q)}, location ${describeValue(location)})`,
      q,
      location,
    };
  }
  return undefined;
}
