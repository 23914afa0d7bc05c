/**
 * The API key as HTTP carries it: which header, and what a public key may call (interface
 * section 5). Key generation and hashing: src/accounts/keys.ts.
 */

/** What the request carried: no key, two different keys, or one key string. */
export type PresentedKey = { kind: 'none' } | { kind: 'conflict' } | { kind: 'key'; key: string };

/**
 * Reads the key from `API-Key` (any letter case: Node lower-cases header names) or `API_KEY`.
 * A header repeated, or both headers with different values, is a conflict (401), never a guess.
 */
export function presentedKey(headers: Readonly<Record<string, string | string[] | undefined>>): PresentedKey {
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

/**
 * Interface section 5: what a public key may call. Each entry is a method and a path prefix
 * (the interface's `*`). Everything else is 403 for a public key.
 */
const PUBLIC_KEY_ALLOWED: readonly { method: string; prefix: string }[] = [
  { method: 'POST', prefix: '/v1/search/' },
  { method: 'POST', prefix: '/v1/business/balances' },
  { method: 'GET', prefix: '/v1/find' },
  { method: 'GET', prefix: '/v1/establishments/basic/' },
  { method: 'GET', prefix: '/v1/establishments/advanced/' },
  { method: 'GET', prefix: '/v1/establishments/menus/' },
  { method: 'GET', prefix: '/v1/widget/' },
  { method: 'GET', prefix: '/v1/business/balances' },
];

/** `path` is the request path without the query string. `/v1/search` (no slash) counts as `/v1/search/`. */
export function publicKeyMayCall(method: string, path: string): boolean {
  const p = path.endsWith('/') ? path : `${path}/`;
  return PUBLIC_KEY_ALLOWED.some((rule) => rule.method === method && (path.startsWith(rule.prefix) || p.startsWith(rule.prefix)));
}
