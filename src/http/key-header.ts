/**
 * The API key as HTTP carries it: which header. What a public key may call:
 * src/accounts/public-key-scope.ts; key generation and hashing: src/accounts/keys.ts.
 */

/** What the request carried: no key, two different keys, or one key string. */
export type PresentedKey = { kind: 'none' } | { kind: 'conflict' } | { kind: 'key'; key: string };

/**
 * Reads the key from `API-Key` (any letter case: Node lower-cases header names) or `API_KEY`.
 * A header repeated, or both headers with different values, is a conflict (401), never a guess.
 */
export function presentedKey(headers: Readonly<Record<string, string | string[] | undefined>>): PresentedKey {
  // the usual request: one API-Key header, no API_KEY
  const only = headers['api-key'];
  if (typeof only === 'string' && headers['api_key'] === undefined) return { kind: 'key', key: only.trim() };
  const values: string[] = [];
  for (const name of ['api-key', 'api_key']) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  const distinct = [...new Set(values.map((v) => v.trim()))];
  if (distinct.length === 0) return { kind: 'none' };
  if (distinct.length > 1) return { kind: 'conflict' };
  return { kind: 'key', key: distinct[0]! };
}
