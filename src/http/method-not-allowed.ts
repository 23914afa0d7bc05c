/**
 * Known path, other method: a 405 with `Allow`, for every path under a prefix (`/v1`: the
 * venue routes, the OpenAPI document, the widget's page and assets). Registered at the root,
 * outside the plugins, so no guard runs first: the answer needs no key, as the path exists
 * for everyone. The operator routes (`/admin`) are left out on purpose: without the token
 * they answer 401 or 404 and reveal nothing, not even which methods exist.
 *
 * Use: `const methods = collectMethods(app, '/v1')` before the plugins are registered (it
 * hooks `onRoute`), then `addMethodNotAllowedRoutes(app, methods)` after them.
 */
import { METHODS } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { HttpError } from './http-errors.js';

/**
 * Every method Node's parser accepts (TRACE, PROPFIND, SEARCH, ...) is made known to the
 * router, which routes only seven by default: a method it does not know was a 404 on a known
 * path. CONNECT is not a request for a path (Node hands it to the server's `connect` event).
 */
function acceptEveryMethod(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
}

/** The methods served at each route URL (prefix included), as routes are registered. */
export type MethodsByUrl = Map<string, Set<HTTPMethods>>;

export function collectMethods(app: FastifyInstance, prefix: string): MethodsByUrl {
  acceptEveryMethod(app);
  const methodsByUrl: MethodsByUrl = new Map();
  app.addHook('onRoute', (route) => {
    if (route.url !== prefix && !route.url.startsWith(`${prefix}/`)) return;
    const methods = methodsByUrl.get(route.url) ?? new Set<HTTPMethods>();
    for (const method of [route.method].flat()) methods.add(method as HTTPMethods);
    methodsByUrl.set(route.url, methods);
  });
  return methodsByUrl;
}

/** The route config of a 405 route: the methods the path serves, as the `Allow` header lists them. */
export interface MethodNotAllowedConfig {
  readonly allowedMethods?: string;
}

/** The 405 of `method` on a path that serves `allow` (`GET, POST`). */
export function methodNotAllowed(method: string, allow: string): HttpError {
  return new HttpError('method_not_allowed', `${method} is not allowed on this path; allowed: ${allow}`, undefined, { allow });
}

export function addMethodNotAllowedRoutes(app: FastifyInstance, methodsByUrl: MethodsByUrl): void {
  // a snapshot: the routes added below pass through the same onRoute hook
  for (const [url, methods] of [...methodsByUrl]) {
    const others = app.supportedMethods.filter((m) => !methods.has(m as HTTPMethods)) as HTTPMethods[];
    if (others.length === 0) continue;
    const allow = [...methods].join(', ');
    app.route({
      method: others,
      url,
      schema: { hide: true },
      // read by the app's body checks (app.ts), which a 405 comes before
      config: { allowedMethods: allow } satisfies MethodNotAllowedConfig,
      handler: async (request) => {
        throw methodNotAllowed(request.method, allow);
      },
    });
  }
}
