/**
 * A short-lived in-memory copy of API-key rows, so a request does not query SQLite to find
 * who its key belongs to.
 *
 * What is cached: rows of keys that EXIST (digest, account, plan, kind and the key's expiry,
 * if a rotation set one). The expiry is checked against the request's own clock on every use,
 * so a rotation grace period ends exactly on time even from the cache. Unknown digests are
 * never cached: a key created by another process works on its first request.
 *
 * Freshness: an entry is used for at most `ttlMs` of real (monotonic) time after it was read
 * from the database. The store that changes keys (create, rotate) clears its own cache at
 * once; another process sharing the database file (the `keys rotate` command beside a running
 * `serve`) is seen within `ttlMs`: a key revoked there keeps working here for at most that
 * long. Expiries only ever move earlier (rotation never extends a grace period), so an entry
 * can only be too lenient by that bound, never wrongly refuse a key.
 *
 * Memory: at most `maxEntries` entries (one per key in use); past that the cache is emptied
 * and refills from the database.
 */
import type { KeyPrincipal } from './accounts-store.js';
import { sameDigest } from './keys.js';

/** Default key cache TTL, ms: a rotation is seen by every process within it. */
export const DEFAULT_KEY_CACHE_TTL_MS = 250;

export interface CachedKey {
  readonly principal: KeyPrincipal;
  /** The stored SHA-256 digest, for the constant-time re-compare. */
  readonly digest: Buffer;
  /** End of the key's rotation grace period, ms since the epoch; null while it is current. */
  readonly expiresAtMs: number | null;
}

interface Entry {
  readonly key: CachedKey;
  /** `monotonicNow()` when the row was read, ms. */
  readonly readAt: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    /** How long a row read from the database is trusted, ms of real time; 0 turns the cache off. */
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {
    if (!(ttlMs >= 0) || !Number.isFinite(ttlMs)) throw new RangeError(`keyCacheTtlMs must be a finite number >= 0; got ${ttlMs}`);
  }

  /** The cached row for `id` (the digest in base64), or undefined if absent or older than the TTL. */
  get(id: string): CachedKey | undefined {
    if (this.ttlMs === 0) return undefined;
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (this.monotonicNow() - entry.readAt >= this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.key;
  }

  set(id: string, key: CachedKey): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(id, { key, readAt: this.monotonicNow() });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The principal of a presented key digest, through `cache`: the row from the cache or from
 * `read` (the database; undefined when no such key), re-compared in constant time, and
 * refused once its rotation grace period has ended at `nowMs`. Every store finds keys so.
 */
export async function lookupKey(
  cache: KeyCache,
  digest: Uint8Array,
  nowMs: number,
  read: (presented: Buffer) => CachedKey | undefined | Promise<CachedKey | undefined>,
): Promise<KeyPrincipal | undefined> {
  const presented = Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);
  const id = presented.toString('base64');
  let key = cache.get(id);
  if (key === undefined) {
    key = await read(presented);
    if (key === undefined) return undefined;
    cache.set(id, key);
  }
  // the digest found by index (or map) is re-compared in constant time
  if (!sameDigest(key.digest, presented)) return undefined;
  if (key.expiresAtMs !== null && key.expiresAtMs <= nowMs) return undefined;
  return key.principal;
}
