import { VenueSearchError, describeValue } from '../errors.js';

/**
 * `unknown_place` for a `location` no resolver knows. It is a VenueSearchError (same code,
 * param and value, so the HTTP adapter maps it to 400 like any other) that also carries
 * the known names closest in spelling, best first; the message offers them too
 * (`location "Shoredich" is not a place we know; did you mean "Shoreditch"?`).
 */
export class UnknownPlaceError extends VenueSearchError {
  readonly suggestions: readonly string[];

  constructor(name: string, suggestions: readonly string[]) {
    super('unknown_place', unknownPlaceMessage(name, suggestions), { param: 'location', value: name });
    this.suggestions = suggestions;
  }
}

function unknownPlaceMessage(name: string, suggestions: readonly string[]): string {
  const base = `location ${describeValue(name)} is not a place we know`;
  if (suggestions.length === 0) return base;
  const quoted = suggestions.map((s) => describeValue(s));
  const list = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}`;
  return `${base}; did you mean ${list}?`;
}
