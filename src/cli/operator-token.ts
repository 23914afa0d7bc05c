import { statSync } from 'node:fs';

/** Shortest operator token accepted (characters). */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * Why `token` (read from `file`, trimmed) cannot be the operator token, or undefined when
 * it can: one word of at least MIN_ADMIN_TOKEN_LENGTH characters, each visible ASCII (0x21
 * to 0x7E, what the docs' `base64` recipe writes). The one rule for `serve
 * --admin-token-file` and `venues upsert|remove --token-file`; the message never quotes the
 * file (a wrong file may hold other secrets), only the position and code point of the first
 * character that cannot be sent.
 *
 * Why visible ASCII: the token travels in an `Authorization` header. A control character or
 * one outside ASCII (a passphrase with `€`) cannot be sent there by fetch at all, and Node's
 * server reads header bytes as Latin-1, so no client could present such a token: the service
 * started with it locked its operator out, and `venues` failed only at its first request
 * (audit 69b F3).
 */
export function operatorTokenProblem(token: string, file: string): string | undefined {
  // what is wrong is said (audit 73d F6), never the token itself
  const rule = `must be one word of at least ${MIN_ADMIN_TOKEN_LENGTH} characters; make one with: head -c 32 /dev/urandom | base64`;
  if (token === '') return `the operator token in ${file} is empty: it ${rule}`;
  if (/\s/.test(token)) return `the operator token in ${file} has white space in it: it ${rule}`;
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `the operator token in ${file} has ${token.length} characters: it ${rule}`;
  let position = 0;
  for (const character of token) {
    position++;
    const code = character.codePointAt(0)!;
    if (code >= 0x21 && code <= 0x7e) continue;
    const kind = code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ? 'a control character' : 'a character outside ASCII';
    return (
      `the operator token in ${file} has ${kind} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at character ${position}: ` +
      'it travels in an HTTP header, which carries visible ASCII only (letters, digits, punctuation); ' +
      'make one with: head -c 32 /dev/urandom | base64'
    );
  }
  return undefined;
}

/**
 * A warning when the token file `file` can be read or written by its group or by others (its
 * mode has any of 0o066), as ssh warns of a private key: anyone who reads the token can
 * change the venue data, anyone who writes it can lock the operator out. Not a refusal: the
 * start goes on as before (audit 63b F3). Undefined when only the owner can read or write it,
 * on Windows (no such mode bits) and when the file cannot be stat'ed (its reading says why).
 * The one rule for `serve --admin-token-file` and `venues upsert|remove --token-file`.
 */
export function operatorTokenFileWarning(file: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o066) === 0) return undefined;
  const access = (read: number, write: number): string => [mode & read ? 'readable' : '', mode & write ? 'writable' : ''].filter((a) => a !== '').join(' and ');
  const who = [
    [access(0o040, 0o020), 'its group'],
    [access(0o004, 0o002), 'others'],
  ]
    .filter(([how]) => how !== '')
    .map(([how, whom]) => `${how} by ${whom}`)
    .join(', ');
  return `warning: the operator token file ${file} has mode ${mode.toString(8).padStart(4, '0')}: ${who}, and whoever reads the token can change the venue data; make it owner-only: chmod 600 ${file}`;
}
