/**
 * API keys: generation, hashing, the request header, and the public key's permission list.
 *
 * A key is `sk_` or `pk_` followed by 43 base64url characters (32 random bytes, 256 bits).
 * Only its SHA-256 digest is stored. A slow password hash (scrypt, argon2) exists to protect
 * low-entropy secrets chosen by people; for a 256-bit random key a single SHA-256 is already
 * infeasible to invert or brute-force, and it keeps the per-request cost to about a microsecond.
 * The digest is looked up by index and then compared with `timingSafeEqual`, so no comparison
 * of secret material depends on where two values first differ.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'secret' | 'public';

const PREFIX: Readonly<Record<KeyKind, string>> = { secret: 'sk_', public: 'pk_' };
const KEY_PATTERN = /^(sk|pk)_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(kind: KeyKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/** The kind a well-formed key claims by its prefix, or undefined for anything malformed. */
export function keyKindOf(key: string): KeyKind | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return match[1] === 'sk' ? 'secret' : 'public';
}

/** SHA-256 of the key's UTF-8 bytes: 32 bytes, the only form ever stored. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

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
