/**
 * The service's request log: method, path and status, never headers, and any key-shaped
 * token in a URL masked (maskKeys). `logger` is what `buildApp` was given: false (no log),
 * true (pino's defaults) or pino options (`{level, stream}`, ...).
 *
 * The operator token has no recognisable shape, so it is kept out by two rules (audit 63b
 * F2): the query of an /admin URL is never logged (those routes take none: an operator's
 * `?token=...` is the likely mistake), and the token itself, as it is or percent-encoded, is
 * masked wherever else a URL holds it.
 */
import type { FastifyServerOptions } from 'fastify';
import { maskKeys } from '../accounts/keys.js';
import { ADMIN_PREFIX } from './admin-routes.js';
import { targetPath } from './request-target.js';

type LoggerOption = Exclude<FastifyServerOptions['logger'], undefined>;

/** What replaces a secret in a logged URL. */
const REDACTED = '[redacted]';

export function requestLogOptions(logger: LoggerOption | undefined, operatorToken?: string): LoggerOption {
  if (logger === false || logger === undefined) return false;
  const secrets = operatorToken === undefined ? [] : [...new Set([operatorToken, encodeURIComponent(operatorToken)])];
  const loggedUrl = (url: string): string => maskKeys(secrets.reduce((masked, secret) => masked.split(secret).join(REDACTED), withoutAdminQuery(url)));
  return {
    ...(logger === true ? {} : logger),
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: loggedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    redact: { paths: ['req.headers["api-key"]', 'req.headers["api_key"]', 'headers["api-key"]', 'headers["api_key"]'], censor: REDACTED },
  };
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
