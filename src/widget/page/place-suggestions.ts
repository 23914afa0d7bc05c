/**
 * What the widget says when the service does not resolve a place name, and the names it
 * offers as buttons. The service's `unknown_place` error carries its suggestions as
 * `suggestions` (src/http/http-errors.ts; names close in spelling, or the name qualified by
 * each area it is in: "St Ives, Cornwall"); from a service without that field they are read
 * back from the message (`location "Shordich" is not a place we know; did you mean
 * "Shoreditch" or "Horwich"?`, each name a JSON string).
 */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** The page's words for a name the service does not know. */
export function unknownPlaceText(name: string, withHint: boolean): string {
  return `"${name}" is not a place the service knows.${withHint ? ' Try a town, an area or a postcode.' : ''}`;
}

/**
 * The problem to show for an `unknown_place` answer to `name`, and the names to offer:
 * - a name the service does not know: "not a place the service knows", with its suggestions;
 * - a known name qualified by an area it is not in ("St Ives, Devon"): the service's own
 *   words (`"St Ives, Devon": no St Ives in Devon; St Ives is in Cornwall, Cambridgeshire and
 *   Hampshire.`), with the name in each of those areas to choose from.
 */
export function placeProblem(name: string, serverMessage: string, offered: readonly string[] | undefined): { text: string; suggestions: string[] } {
  const suggestions = offered !== undefined ? [...offered] : placeSuggestions(serverMessage);
  const known = serverMessage.startsWith('location ') && !serverMessage.includes(' is not a place we know');
  if (!known || serverMessage === '') return { text: unknownPlaceText(name, suggestions.length === 0), suggestions };
  const words = serverMessage.slice('location '.length);
  // the buttons say "Did you mean ...?": the message's own "say which, e.g." is left out then
  const cut = suggestions.length > 0 ? words.lastIndexOf('; say which') : -1;
  return { text: cut < 0 ? words : `${words.slice(0, cut)}.`, suggestions };
}

/** The "did you mean" names of a service message; none without "did you mean". */
export function placeSuggestions(serverMessage: string): string[] {
  const at = serverMessage.lastIndexOf('; did you mean ');
  if (at < 0) return [];
  const names: string[] = [];
  for (const quoted of serverMessage.slice(at).match(QUOTED) ?? []) {
    try {
      const name = JSON.parse(quoted) as unknown;
      if (typeof name === 'string' && name !== '') names.push(name);
    } catch {
      // not a JSON string: not one of the service's suggestions
    }
  }
  return names;
}
