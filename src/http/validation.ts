/**
 * Request validation that fixes three fastify defaults (issue 6):
 * - JSON bodies are validated WITHOUT type coercion (`null` is not 0, `"5"` is not 5), and
 *   unknown properties are rejected, never silently removed (`removeAdditional: false`).
 * - Query strings and path parameters are coerced (every value arrives as a string), but a
 *   numeric parameter must be a finite JSON number: ajv's coercion turns `Infinity`,
 *   `1e400` and `0x10` into numbers and lets the non-finite ones past `maximum`
 *   (fastify issue 6718, ajv issue 2212), and `Number()` reads `+5`, `05`, `5.` and `.5e1`,
 *   which no JSON client writes; so `finiteQueryNumbers` checks the raw text first.
 */
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, preValidationHookHandler } from 'fastify';
import { invalidParam } from './http-errors.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const COMMON: AjvOptions = {
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  // keep the offending value on each error so messages can show it
  verbose: true,
  // TypeBox and OpenAPI add annotation keywords ajv's strict mode does not know
  strict: false,
  // The route schemas are fixed at build time, so checking each against the JSON Schema
  // meta-schema at every start only costs time: compiling the meta-schema took ~30 ms of a
  // serve start (two instances). test/http/route-schemas.test.ts checks them all instead.
  validateSchema: false,
};

// One pair per process: ajv caches compiled validators by schema, so every app built in the
// process (tests build many) reuses them. Validators are pure functions of their schema.
let bodyAjv: Ajv | undefined;
let textAjv: Ajv | undefined;

/** A validator compiler with a non-coercing ajv for bodies and a coercing one for the rest. */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  bodyAjv ??= addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  textAjv ??= addFormats(new Ajv({ ...COMMON, coerceTypes: true }));
  const body = bodyAjv;
  const text = textAjv;
  return ({ schema, httpPart, method, url }) => {
    const validate = (httpPart === 'body' ? body : text).compile(schema as object);
    // each error names where it was sent (`POST /v1/search body`), for the "did you mean" of a
    // name that belongs in another part of the call (src/schema/unknown-name.ts)
    const place = `${method} ${url.replace(/\/+$/, '')} ${httpPart}`;
    // the data context (parentData) passed on, so ajv may still replace a root value it coerces;
    // schemaEnv copied, so fastify passes it
    const tagged = Object.assign(
      (data: unknown, context?: Parameters<typeof validate>[1]): boolean => {
        const valid = validate(data, context) as boolean;
        tagged.errors = validate.errors ?? null;
        for (const error of validate.errors ?? []) (error as PlacedError).place = place;
        return valid;
      },
      { errors: validate.errors ?? null, schemaEnv: validate.schemaEnv },
    );
    return tagged;
  };
}

/** An ajv error with the place its value was sent (createValidatorCompiler). */
export interface PlacedError {
  place?: string;
}

/**
 * The grammar of a numeric query parameter: a JSON number (RFC 8259 section 6), the text the
 * document's `type: integer`/`number` stands for. No `+`, no leading zero (`05`), no bare
 * `.` at either end (`5.`, `.5`); `-0`, `5.0` and `1e1` are JSON numbers and stay accepted
 * (the schema then decides: `1e1` is the integer 10). The one rule for every query number.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

interface ObjectSchemaLike {
  properties?: Record<string, { type?: unknown } | undefined>;
}

/**
 * A preValidation hook rejecting any query parameter that the schema declares as a number
 * or integer unless its raw text is a finite JSON number (no `Infinity`, `NaN`, `1e400`,
 * hex, `+5`, `05`, `5.`, `.5e1`, or empty string).
 */
export function finiteQueryNumbers(querySchema: ObjectSchemaLike): preValidationHookHandler {
  const numeric = Object.entries(querySchema.properties ?? {})
    .filter(([, s]) => s !== undefined && (s.type === 'number' || s.type === 'integer'))
    .map(([name]) => name);
  return (request, _reply, done) => {
    const query = request.query as Record<string, unknown>;
    for (const name of numeric) {
      const raw = query[name];
      if (raw === undefined || typeof raw !== 'string') continue; // arrays etc. fail the schema itself
      if (!JSON_NUMBER.test(raw) || !Number.isFinite(Number(raw))) {
        done(invalidParam(name, raw, 'a finite number written as in JSON (such as 5, -0.13 or 1e3)'));
        return;
      }
    }
    done();
  };
}

/**
 * The first query parameter of `url` that does not decode as percent-encoded UTF-8 (`+` is a
 * space), by its name (decoded where the name decodes, else as written; a nameless one by its
 * whole text); undefined when all
 * decode. The query parser keeps an undecodable sequence (`%E0%A4%A`, a lone surrogate
 * `%ED%A0%80`) as literal text, which would then be searched for and billed; such a URL is
 * refused instead, as the router refuses one in the path.
 */
export function malformedQueryParam(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const name = decodedOrUndefined(rawName);
    if (name === undefined || (eq >= 0 && decodedOrUndefined(pair.slice(eq + 1)) === undefined)) return name || rawName || pair;
  }
  return undefined;
}

function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
