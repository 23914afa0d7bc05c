/**
 * The UTF-8 byte order mark some Windows editors write at the start of a text file. It is not
 * part of the first line or value: every reader of venue and import files drops it.
 */

/** `text` without a leading byte order mark (U+FEFF). */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `bytes` without a leading UTF-8 byte order mark (EF BB BF): a view, not a copy. */
export function bytesWithoutByteOrderMark(bytes: Buffer): Buffer {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}
