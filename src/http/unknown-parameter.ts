/**
 * The HTTP adapter's schema errors (ajv, `verbose`) for a name that is not a parameter, with
 * "did you mean" naming the known name it most likely stands for (src/schema/unknown-name.ts,
 * the rule the engine's own checks use): `preferences.catersFilter` (additionalProperties),
 * and a required field missing because it was sent under another name (`lng` for `lon`:
 * ajv reports the missing `lon` first).
 */
import { didYouMeanName, keyStandingFor, misplacedName } from '../schema/unknown-name.js';

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

/**
 * For a request whose body was refused (empty, not JSON, or missing a field): its first query
 * parameter that belongs in the body of the same call (`from`/`to` in the query of POST
 * /v1/business/balances: audit 65a F5), as the param and message to answer instead; else
 * undefined. The body's error would only say "the body is empty" or "from is required" to a
 * client who sent the fields, in the wrong part of the call.
 */
export function misplacedQueryParameter(query: unknown, method: string, routeUrl: string | undefined): { param: string; message: string } | undefined {
  if (routeUrl === undefined || typeof query !== 'object' || query === null) return undefined;
  const place = `${method} ${routeUrl.replace(/\/+$/, '')} querystring`;
  for (const name of Object.keys(query)) {
    const elsewhere = misplacedName(name, place);
    if (elsewhere !== undefined) return { param: name, message: `${name} is not a known parameter; ${name} is ${elsewhere}` };
  }
  return undefined;
}
