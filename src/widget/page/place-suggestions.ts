/**
 * The place names the service suggests for one it does not know. Its `unknown_place` error
 * carries them only in its message (src/places/unknown-place-error.ts: `location "Shordich"
 * is not a place we know; did you mean "Shoreditch" or "Horwich"?`, each name a JSON string),
 * so they are read back from there; a message without "did you mean" has none.
 */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

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
