/**
 * Tests' own reading of a snapshot header's seal, from its documented layout
 * (src/snapshot/header-digest.ts, docs/snapshots.md): the header is the file's last part, its
 * place in the 24-byte prefix (Float64 offset at byte 8, length at byte 16), and a sealed
 * header starts `{"headerDigest":"<64 hex>",`, the SHA-256 of `{` + the rest. Tests that edit a
 * header in place use these to make the file one a writer could have made: sealed again (a
 * file of another version) or unsealed (a file written before the seal).
 */
import { createHash } from 'node:crypto';

const SEAL = /^\{"headerDigest":"([0-9a-f]{64})",/;

function headerRange(bytes: Buffer): { at: number; end: number } {
  const at = bytes.readDoubleLE(8);
  return { at, end: at + bytes.readDoubleLE(16) };
}

/** Writes the digest of the (edited) header again, in place; the header must be sealed. */
export function resealHeader(bytes: Buffer): Buffer {
  const { at, end } = headerRange(bytes);
  const seal = SEAL.exec(bytes.toString('latin1', at, at + 100));
  if (seal === null) throw new Error('the snapshot header is not sealed');
  const rest = bytes.subarray(at + seal[0].length, end);
  bytes.write(createHash('sha256').update('{').update(rest).digest('hex'), at + '{"headerDigest":"'.length, 'latin1');
  return bytes;
}

/** Takes the seal out, in place, as files written before it (same length: the JSON is moved left and padded with spaces). */
export function unsealHeader(bytes: Buffer): Buffer {
  const { at, end } = headerRange(bytes);
  const seal = SEAL.exec(bytes.toString('latin1', at, at + 100));
  if (seal === null) throw new Error('the snapshot header is not sealed');
  const json = Buffer.concat([Buffer.from('{'), bytes.subarray(at + seal[0].length, end)]);
  json.copy(bytes, at);
  bytes.fill(' ', at + json.length, end);
  return bytes;
}
