/**
 * Interface section 5: what a public key may call. Each entry is a method and a path prefix
 * (the interface's `*`). Everything else is refused for a public key (403).
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
