/**
 * A meet-up person's weight field (docs/widget.md: weights are optional, a person with
 * weight 2 counts twice). What the field shows is what is searched: empty means the API's
 * default, 1; any other value must be one the API takes (0, or from MIN_POSITIVE_WEIGHT to
 * MAX_WEIGHT), and is never clamped or replaced: a value the field refuses marks it invalid
 * with a message, and stops the search.
 */
import { MAX_WEIGHT, MIN_POSITIVE_WEIGHT } from '../../schema/search-limits.js';

/** The API's range, as the message says it. */
const RANGE = `0, or a number from ${MIN_POSITIVE_WEIGHT.toFixed(6)} to ${MAX_WEIGHT.toLocaleString('en-GB')}`;
export type WeightReading = { readonly weight: number; readonly problem?: undefined } | { readonly weight?: undefined; readonly problem: string };

/** The weight `raw` (the field's text; 'NaN' when the browser holds text that is not a number) stands for, or why it stands for none. */
export function readWeight(raw: string, who: string): WeightReading {
  const text = raw.trim();
  if (text === '') return { weight: 1 };
  const value = Number(text);
  if (!Number.isFinite(value)) return { problem: `The weight of ${who} must be ${RANGE} (empty: 1).` };
  if (value < 0) return { problem: `The weight of ${who} must be ${RANGE}; ${text} is below 0.` };
  if (value !== 0 && (value < MIN_POSITIVE_WEIGHT || value > MAX_WEIGHT)) return { problem: `The weight of ${who} must be ${RANGE}; ${text} is out of range.` };
  return { weight: value };
}

/** Why a group with these weights cannot be searched, or undefined: the API needs one weight above 0. */
export function weightsProblem(weights: readonly number[]): string | undefined {
  return weights.some((w) => w > 0) ? undefined : 'At least one person needs a weight above 0.';
}

/**
 * `base`, or `base (2)`, `base (3)`... : the first not in `taken`. The API refuses two people
 * with one label (they name each person's travel in the answer).
 */
export function uniqueLabel(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let k = 2; ; k++) if (!taken.includes(`${base} (${k})`)) return `${base} (${k})`;
}
