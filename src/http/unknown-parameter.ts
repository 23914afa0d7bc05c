/**
 * The HTTP adapter's schema errors (ajv, `verbose`) for a name that is not a parameter, with
 * "did you mean" naming the known name it most likely stands for (src/schema/unknown-name.ts,
 * the rule the engine's own checks use): `preferences.catersFilter` (additionalProperties),
 * and a required field missing because it was sent under another name (`lng` for `lon`:
 * ajv reports the missing `lon` first).
 */
import { didYouMeanName, keyStandingFor, misplacedName, misplacedRouteName, type RoutePart, type RouteSchemas } from '../schema/unknown-name.js';

interface AjvNameError {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  data?: unknown;
  parentSchema?: { properties?: Record<string, unknown> };
  /** Where the value was sent (`POST /v1/search body`: createValidatorCompiler). */
  place?: string;
}

/** The dotted name of an instance path and a key (`/locations/0` + `lng`: `locations.0.lng`); an empty key is `""`. */
function dotted(instancePath: string, key: string): string {
  const segments = instancePath === '' ? [] : instancePath.split('/').slice(1);
  return [...segments, key].map((s) => (s === '' ? '""' : s.replace(/~1/g, '/').replace(/~0/g, '~'))).join('.');
}

/** The param and message for an unknown name with a known one close to it; undefined for any other error (its usual message stands). */
export function unknownParameterError(error: AjvNameError): { param: string; message: string } | undefined {
  const known = Object.keys(error.parentSchema?.properties ?? {});
  let key: string | undefined;
  if (error.keyword === 'additionalProperties' && typeof error.params?.['additionalProperty'] === 'string') key = error.params['additionalProperty'];
  else if (error.keyword === 'required' && typeof error.params?.['missingProperty'] === 'string') key = keyStandingFor(error.params['missingProperty'], error.data, known);
  if (key === undefined) return undefined;
  const suggestion = didYouMeanName(key, known, error.place);
  if (suggestion === '') return undefined;
  const param = dotted(error.instancePath ?? '', key);
  return { param, message: `${param} is not a known parameter${suggestion}` };
}

/** The route a request was matched to: its method, its URL as registered, and its schemas (fastify's routeOptions). */
export interface MatchedRoute {
  readonly method: string;
  readonly url: string | undefined;
  readonly schemas: RouteSchemas;
}

/** Where `name`, sent in `part` of the route `method path`, belongs in the same call, by the place's own notes or the route's schemas. */
function elsewhereInCall(name: string, part: RoutePart, method: string, path: string, schemas: RouteSchemas): string | undefined {
  return misplacedName(name, `${method} ${path} ${part}`) ?? misplacedRouteName(name, part, method, path, schemas);
}

/**
 * For a request refused by its schemas, the name it sent in the wrong part of the call, as the
 * param and message to answer instead; else undefined (the error's own answer stands):
 * - the refusal is a top-level unknown name of the body or the query that the other part
 *   declares (`POST /v1/search?locations=...`, `limit` in the search body: audit 66a F5);
 * - the body was refused (empty, not JSON, a field missing or wrong) while the query holds
 *   one of the body's fields (`POST /v1/business/balances?from=...&to=...`: audit 65a F5;
 *   `POST /v1/search?mode=POINT` with `{}`): the body's error would only say "the body is
 *   empty" or "locations is required" to a client who sent the fields, in the wrong part.
 */
export function misplacedNameError(
  refusal: { readonly part: string | undefined; readonly first: AjvNameError | undefined; readonly bodyRefused: boolean },
  query: unknown,
  route: MatchedRoute,
): { param: string; message: string } | undefined {
  if (route.url === undefined) return undefined;
  const path = route.url.replace(/\/+$/, '');
  const answer = (name: string, part: RoutePart) => {
    const elsewhere = elsewhereInCall(name, part, route.method, path, route.schemas);
    return elsewhere === undefined ? undefined : { param: name, message: `${name} is not a known parameter; ${name} is ${elsewhere}` };
  };
  const { part, first } = refusal;
  const name = first?.params?.['additionalProperty'];
  if ((part === 'body' || part === 'querystring') && first?.keyword === 'additionalProperties' && (first.instancePath ?? '') === '' && typeof name === 'string') {
    const found = answer(name, part);
    if (found !== undefined) return found;
  }
  if (!refusal.bodyRefused || typeof query !== 'object' || query === null) return undefined;
  for (const key of Object.keys(query)) {
    const found = answer(key, 'querystring');
    if (found !== undefined) return found;
  }
  return undefined;
}
