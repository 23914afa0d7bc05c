/**
 * The snapshot header's digest: a SHA-256 of the header's JSON, written as the header's first
 * key, so that a header damaged in a way that still parses (a shared value's key, a zone name,
 * a word) is refused at load instead of answering wrongly or throwing a TypeError in a query.
 *
 * Layout of a sealed header (UTF-8): `{"headerDigest":"<64 lowercase hex>",` followed by the
 * rest of the unsealed JSON after its opening `{`. The digest is over the unsealed JSON's
 * bytes, i.e. `{` + that rest. Headers written before the digest (2026-11-30) start with
 * `{"format":` (every writer put `format` first) and are read unchecked.
 */
import { createHash } from 'node:crypto';

const SEAL_START = '{"headerDigest":"';
const DIGEST_HEX_LENGTH = 64;
const SEAL_END = '",';
/** Bytes of the seal before the unsealed JSON's rest: start, digest, end (all ASCII). */
const SEAL_BYTES = SEAL_START.length + DIGEST_HEX_LENGTH + SEAL_END.length;
/** How every header written before the digest starts. */
const UNSEALED_START = '{"format":';

function sha256Hex(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/** The header's JSON (an object's, so starting with `{`) with its digest as the first key. */
export function sealHeader(json: string): string {
  if (!json.startsWith('{"')) throw new Error('a snapshot header is a non-empty JSON object');
  return `${SEAL_START}${sha256Hex([json])}${SEAL_END}${json.slice(1)}`;
}

/** What the header's bytes say of their digest: checked and equal, absent (an older file), or why they are damaged. */
export type HeaderSeal = { readonly kind: 'sealed' } | { readonly kind: 'unsealed' } | { readonly kind: 'damaged'; readonly why: string };

function startsWithAscii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Checks the header's raw bytes against their digest (the bytes are not copied). */
export function checkHeaderSeal(bytes: Uint8Array): HeaderSeal {
  if (startsWithAscii(bytes, 0, UNSEALED_START)) return { kind: 'unsealed' };
  if (!startsWithAscii(bytes, 0, SEAL_START) || !startsWithAscii(bytes, SEAL_START.length + DIGEST_HEX_LENGTH, SEAL_END)) {
    return { kind: 'damaged', why: `its header starts with neither ${SEAL_START}<digest>${SEAL_END} nor ${UNSEALED_START}` };
  }
  const written = Buffer.from(bytes.buffer, bytes.byteOffset + SEAL_START.length, DIGEST_HEX_LENGTH).toString('latin1');
  const actual = sha256Hex(['{', bytes.subarray(SEAL_BYTES)]);
  return written === actual ? { kind: 'sealed' } : { kind: 'damaged', why: `its header does not match its digest (written ${written}, read ${actual})` };
}
