/**
 * A request header's value, quoted for an error message as its sender wrote it. Node hands
 * header values over decoded as Latin-1 (one character per byte), so a UTF-8 `Ünï` arrives as
 * `ÃnÃ¯`. Invariant: the quoted text is the bytes' UTF-8 reading when they are valid UTF-8;
 * otherwise every byte above 0x7F is shown as `\xHH` (never guessed at). At most `max`
 * characters are shown.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function quotedHeaderValue(value: string, max: number): string {
  // ASCII reads the same either way; a character above U+00FF did not come off the wire as Latin-1
  if (!/[\u0080-\uffff]/.test(value) || /[\u0100-\uffff]/.test(value)) return JSON.stringify(value.slice(0, max));
  try {
    return JSON.stringify(UTF8.decode(Buffer.from(value, 'latin1')).slice(0, max));
  } catch {
    // JSON.stringify leaves U+0080..U+00FF as they are, so each is still one byte here
    return JSON.stringify(value.slice(0, max)).replace(/[\u0080-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
}
