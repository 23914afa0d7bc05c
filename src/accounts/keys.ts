/**
 * API keys: generation, hashing and masking in log text (the request header is HTTP's:
 * src/http/key-header.ts; what a public key may call: public-key-scope.ts).
 *
 * A key is `sk_` or `pk_` followed by 43 base64url characters (32 random bytes, 256 bits).
 * Only its SHA-256 digest is stored. A slow password hash (scrypt, argon2) exists to protect
 * low-entropy secrets chosen by people; for a 256-bit random key a single SHA-256 is already
 * infeasible to invert or brute-force, and it keeps the per-request cost to about a microsecond.
 * The digest is looked up by index and then compared with `timingSafeEqual`, so no comparison
 * of secret material depends on where two values first differ.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'secret' | 'public';

const PREFIX: Readonly<Record<KeyKind, string>> = { secret: 'sk_', public: 'pk_' };
/** Characters after the prefix: 32 random bytes in base64url. */
const KEY_BODY_LENGTH = 43;
const KEY_PATTERN = new RegExp(`^(sk|pk)_[A-Za-z0-9_-]{${KEY_BODY_LENGTH}}$`);

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
  // the one-shot digest: no Hash object per request (Node >= 20.12)
  return hash('sha256', key, 'buffer');
}

export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Key-shaped text: `sk_` or `pk_` starting a word, with any length after it, or glued to the
 * end of another word (`osm_sk_...`, `1sk_...`: audit 60a) with a whole key's characters
 * after it, KEY_BODY_LENGTH or more (so that `desk_lamp`, `risk_level` and
 * `Whisk_and_Whistle_Kitchen` stay as they are: audit 61b). Group 1 or 2 is the prefix.
 */
const KEY_IN_TEXT = new RegExp(`\\b(sk|pk)_[A-Za-z0-9_-]+|(sk|pk)_[A-Za-z0-9_-]{${KEY_BODY_LENGTH},}`, 'g');
const redact = (_match: string, atWord: string | undefined, glued: string | undefined): string => `${atWord ?? glued}_[redacted]`;

/**
 * Masks anything shaped like an API key (KEY_IN_TEXT), for log lines. A URL may carry a key
 * percent-encoded (`sk%5f...`, `%73%6b%5f...`), or encoded twice or three times by a client or
 * proxy that escapes an escaped value (`%2573%256b...`: audit 65a F6): see maskThroughDecodings.
 */
export function maskKeys(text: string): string {
  return maskThroughDecodings(text, (t) => t.replace(KEY_IN_TEXT, redact));
}

/** How many percent-decodings of a logged text are searched for a secret: a value encoded up to this many times is masked. */
export const MAX_DECODINGS = 3;

/**
 * `text` with `maskAsWritten` applied to it as written and after each of up to MAX_DECODINGS
 * percent-decodings. Where a decoding reveals a secret (maskAsWritten changes it), the decoded
 * text, masked, replaces what is logged from then on; a text holding no secret is returned
 * as written (masked as written). The invariant: no secret survives in the result that
 * MAX_DECODINGS decodings of it would reveal.
 */
export function maskThroughDecodings(text: string, maskAsWritten: (text: string) => string): string {
  let logged = maskAsWritten(text);
  let decoded = logged;
  for (let round = 0; round < MAX_DECODINGS && decoded.includes('%'); round++) {
    decoded = percentDecodedOnce(decoded);
    const masked = maskAsWritten(decoded);
    if (masked !== decoded) logged = decoded = masked;
  }
  return logged;
}

/**
 * One percent-decoding that never fails: each `%` and two hex digits is its byte, any other
 * character its own UTF-8, and bytes that are not UTF-8 read as U+FFFD. `+` stays `+`.
 */
export function percentDecodedOnce(text: string): string {
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    for (const byte of Buffer.from(char, 'utf8')) bytes.push(byte);
    i += char.length;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * When a rotation's replaced keys stop working, ms since the epoch: `nowMs + graceMs`, or 0
 * for no grace. Each serving process compares the stored time with its own clock, so a zero
 * grace is stored as the epoch rather than the rotating machine's "now": a leaked key then
 * ends everywhere at once, whichever clock is ahead.
 */
export function replacedKeysExpireAtMs(nowMs: number, graceMs: number): number {
  return graceMs === 0 ? 0 : nowMs + graceMs;
}
