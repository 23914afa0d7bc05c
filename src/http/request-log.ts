/**
 * The service's request log: method, path and status, never headers, and any key-shaped
 * token in a URL masked (maskKeys). `logger` is what `buildApp` was given: false (no log),
 * true (pino's defaults) or pino options (`{level, stream}`, ...). Without a stream (or a
 * transport) of its own, the log goes to stdout through failSafeStdout: a destination that
 * fails (a full disk) loses log lines, not the service (audit 66g F1).
 *
 * The operator token has no recognisable shape, so it is kept out by two rules (audit 63b
 * F2): the query of an /admin URL is never logged (those routes take none: an operator's
 * `?token=...` is the likely mistake), and the token itself, as it is or percent-encoded, is
 * masked wherever else a URL holds it, with or without its base64 `=` padding: every run of the
 * URL that percent-decodes to it, however
 * it was encoded (all or some characters escaped, upper- or lower-case hex, `+` for a space:
 * audit 64a F11, Python's `quote()` leaves `/` as it is), and after up to MAX_DECODINGS
 * decodings (`%2561...`, an escaped value escaped again: audit 65a F6).
 */
import type { FastifyServerOptions } from 'fastify';
import { maskKeys, maskThroughDecodings } from '../accounts/keys.js';
import { ADMIN_PREFIX } from './admin-routes.js';
import { targetPath } from './request-target.js';
import { failSafeStdout } from './stdout-log.js';

type LoggerOption = Exclude<FastifyServerOptions['logger'], undefined>;

/** What replaces a secret in a logged URL. */
const REDACTED = '[redacted]';

export function requestLogOptions(logger: LoggerOption | undefined, operatorToken?: string): LoggerOption {
  if (logger === false || logger === undefined) return false;
  const secrets = operatorToken === undefined ? [] : operatorTokenForms(operatorToken);
  const loggedUrl = (url: string): string => {
    const held = withoutAdminQuery(url);
    // the token's runs are masked in the text as written and after each decoding, as keys are
    return secrets.length === 0 ? maskKeys(held) : maskKeys(maskThroughDecodings(held, (t) => secrets.reduce((text, secret) => maskDecodedRuns(text, secret, REDACTED), t)));
  };
  const given = logger === true ? {} : logger;
  // stdout by default, through a destination whose failing writes drop lines rather than end the process (stdout-log.ts)
  const destination = 'stream' in given || 'transport' in given ? {} : { stream: failSafeStdout() };
  return {
    ...given,
    ...destination,
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: loggedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    redact: { paths: ['req.headers["api-key"]', 'req.headers["api_key"]', 'headers["api-key"]', 'headers["api_key"]'], censor: REDACTED },
  };
}

/**
 * The forms of the operator token masked in a logged URL: the token, and without its base64
 * padding (a token made as docs/updates.md says ends in `=`, which carries no secret: the
 * token less it is the whole secret, audit 69b note). The full token first, so it is masked
 * whole.
 */
function operatorTokenForms(token: string): string[] {
  const unpadded = token.replace(/=+$/, '');
  return unpadded !== token && unpadded.length > 0 ? [token, unpadded] : [token];
}

/**
 * `url` with its query replaced by `?[redacted]` when its path is under /admin, in any letter
 * case and with doubled slashes (a 404, but an operator's typo all the same), absolute-form too.
 */
function withoutAdminQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = targetPath(url).toLowerCase().replace(/\/{2,}/g, '/');
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`) ? `${url.slice(0, q)}?${REDACTED}` : url;
}

/** `%` and two hex digits, either case. */
const ESCAPE = /^%[0-9A-Fa-f]{2}$/;

/**
 * `url` with every run that percent-decodes to `secret` replaced by `replacement`. The URL is
 * read as a string of bytes, each from an escape (`%2f`, `%2F`) or a character's own UTF-8;
 * a `+` stands for itself or a space (a query's form encoding). Runs are matched on whole
 * escapes and characters, left to right, without overlap.
 */
export function maskDecodedRuns(url: string, secret: string, replacement: string): string {
  const needle = Buffer.from(secret, 'utf8');
  if (needle.length === 0) return url;
  // nothing escaped: the plain text is its own decoding
  if (!url.includes('%') && !url.includes('+')) return url.split(secret).join(replacement);
  // per byte of the decoded URL: its value, and the span [start, end) of the URL that wrote it
  const bytes: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < url.length; ) {
    if (url[i] === '%' && ESCAPE.test(url.slice(i, i + 3))) {
      bytes.push(parseInt(url.slice(i + 1, i + 3), 16));
      starts.push(i);
      ends.push(i + 3);
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(url.codePointAt(i)!);
    for (const byte of Buffer.from(char, 'utf8')) {
      bytes.push(byte);
      starts.push(i);
      ends.push(i + char.length);
    }
    i += char.length;
  }
  const PLUS = 0x2b;
  const SPACE = 0x20;
  const matchesAt = (at: number): boolean => {
    for (let k = 0; k < needle.length; k++) {
      const b = bytes[at + k]!;
      const raw = url[starts[at + k]!] === '+';
      if (b !== needle[k] && !(raw && needle[k] === SPACE && b === PLUS)) return false;
    }
    return true;
  };
  let out = '';
  let copied = 0;
  for (let at = 0; at + needle.length <= bytes.length; ) {
    // a match starts on the first byte a character or escape writes
    if ((at === 0 || starts[at - 1] !== starts[at]) && matchesAt(at)) {
      out += url.slice(copied, starts[at]) + replacement;
      copied = ends[at + needle.length - 1]!;
      at += needle.length;
    } else at++;
  }
  return out + url.slice(copied);
}
