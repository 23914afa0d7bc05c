/**
 * The API key as HTTP carries it: which header. What a public key may call:
 * src/accounts/public-key-scope.ts; key generation and hashing: src/accounts/keys.ts.
 */

/** What the request carried: no key, two different keys, or one key string. */
export type PresentedKey = { kind: 'none' } | { kind: 'conflict' } | { kind: 'key'; key: string };

/**
 * Reads the key from `API-Key` (any letter case: Node lower-cases header names) or `API_KEY`.
 * Different keys (in the two headers, or in one header sent twice) are a conflict (401),
 * never a guess; the same key sent twice (as some proxies repeat a header) is that key.
 * Node joins a repeated header's lines into one value with ", " (RFC 9110 5.3); a key never
 * holds a comma, so the value is split on commas.
 */
export function presentedKey(headers: Readonly<Record<string, string | string[] | undefined>>): PresentedKey {
  // the usual request: one API-Key header, no API_KEY
  const only = headers['api-key'];
  if (typeof only === 'string' && headers['api_key'] === undefined && !only.includes(',')) {
    // an empty value (`API-Key: `, as a client sends an unset variable) is no key, as `,` is (audit 64a F9)
    const key = only.trim();
    return key === '' ? { kind: 'none' } : { kind: 'key', key };
  }
  const values: string[] = [];
  for (const name of ['api-key', 'api_key']) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const line of Array.isArray(value) ? value : [value]) values.push(...line.split(','));
  }
  // empty items (a stray comma: `k,`, or `,` alone) are no key: dropped, not a second key
  const distinct = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  if (distinct.length === 0) return { kind: 'none' };
  if (distinct.length > 1) return { kind: 'conflict' };
  return { kind: 'key', key: distinct[0]! };
}

/**
 * Advice for a key that was refused as not valid, when the header's value wraps a key in
 * something the header does not take (audit 65a F16): an `Authorization`-style scheme word
 * (`API-Key: Bearer sk_...`) or quotes (`API-Key: "sk_..."`). Ends a sentence; '' when the
 * value is not so wrapped. Never repeats the key.
 */
export function wrappedKeyAdvice(presented: string): string {
  const scheme = /^(bearer|basic|token|apikey|api-key)\s+(?=[sp]k_)/i.exec(presented);
  if (scheme !== null) return `; the API-Key header holds the key alone: drop the "${scheme[1]} " before it`;
  if (/^(["'])[sp]k_\S*\1$/.test(presented)) return '; the API-Key header holds the key alone: drop the quotes around it';
  return '';
}
