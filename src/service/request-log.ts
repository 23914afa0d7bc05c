/**
 * The service's request log: method, path and status, never headers, and any key-shaped
 * token in a URL masked (maskKeys). `logger` is what `buildApp` was given: false (no log),
 * true (pino's defaults) or pino options (`{level, stream}`, ...).
 */
import type { FastifyServerOptions } from 'fastify';
import { maskKeys } from '../accounts/keys.js';

type LoggerOption = Exclude<FastifyServerOptions['logger'], undefined>;

export function requestLogOptions(logger: LoggerOption | undefined): LoggerOption {
  if (logger === false || logger === undefined) return false;
  return {
    ...(logger === true ? {} : logger),
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: maskKeys(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    redact: { paths: ['req.headers["api-key"]', 'req.headers["api_key"]', 'headers["api-key"]', 'headers["api_key"]'], censor: '[redacted]' },
  };
}
