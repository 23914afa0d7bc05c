/**
 * What the page says when a search finds nothing (issue 32). A POINT answer carries
 * `smallestFeasibleMaxDistance` (docs/search.md, "No empty answer without a reason"): the
 * smallest radius, whole metres, at which something would qualify; the page says it and
 * offers to search with it. Any search answer may carry `hint` (today `lat_lon_swapped`),
 * whose message is shown too. A pure function, so its words are tested without a browser.
 */
import { MAX_POINT_DISTANCE_METERS } from '../../schema/search-limits.js';
import type { SearchResponse } from './types.js';

export interface EmptyAnswer {
  /** The status line, in words. */
  readonly words: string;
  /** The radius (metres) to offer a search with, when the service named one. */
  readonly offerMeters: number | undefined;
}

const metres = (m: number): string => `${m.toLocaleString('en-GB')} m`;

/**
 * Said when "Independent venues only" (a hard chain preference) was asked and no wider radius
 * helps: only a venue known not to be a chain satisfies it (docs/search.md), and data that marks
 * only chains (the OpenStreetMap import: `isChain` for branded venues, absent otherwise) knows
 * no independent venue, so the control, not the radius, is what empties the answer (audit 67c F2).
 */
const INDEPENDENT_ONLY_WORDS =
  '"Independent venues only" counts only venues known not to be part of a chain, and the venues here are chains or their chain status is unknown. Untick it to see them.';

/** `independentOnly`: the search asked for independent venues only (preferences.ts). */
export function describeEmptyAnswer(answer: Pick<SearchResponse, 'radius' | 'smallestFeasibleMaxDistance' | 'hint'>, mode: 'meet' | 'route', independentOnly = false): EmptyAnswer {
  const smallest = mode === 'meet' ? answer.smallestFeasibleMaxDistance : undefined;
  let words: string;
  if (mode === 'route') words = `No venues found within ${metres(answer.radius)} of the route${independentOnly ? ` with these needs. ${INDEPENDENT_ONLY_WORDS}` : '.'}`;
  else if (smallest !== undefined) words = `No venues found with a radius of ${metres(answer.radius)}; a radius of ${metres(smallest)} would find at least one.`;
  else if (independentOnly) words = `No venues found within ${metres(MAX_POINT_DISTANCE_METERS)} with these needs. ${INDEPENDENT_ONLY_WORDS}`;
  else words = `No venues found with a radius of ${metres(answer.radius)}, and none would be found with these needs up to the largest radius, ${metres(MAX_POINT_DISTANCE_METERS)}.`;
  if (answer.hint !== undefined) words += ` The service notes: ${answer.hint.message}`;
  return { words, offerMeters: smallest };
}

/** The offer's button text. */
export const offerWords = (meters: number): string => `Search with a radius of ${metres(meters)}`;
