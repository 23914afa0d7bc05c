/**
 * GET /v1/openapi.json: the document @fastify/swagger builds from the route schemas, made
 * into what OpenAPI 3.1 (JSON Schema 2020-12) tools expect. The route schemas stay in the
 * draft-07 dialect fastify's compilers (ajv, fast-json-stringify) run; only the published
 * copy is rewritten, by the pure steps below, so the document describes exactly what the
 * compilers enforce:
 * - tuples: TypeBox writes `items: [a, b]` + `additionalItems: false` (draft-04..07), which
 *   2020-12 spells `prefixItems: [a, b]` + `items: false`;
 * - response headers: an entry's `required: true` (error-responses.ts) moves from the
 *   header's schema, where swagger leaves it, to the header object, where OpenAPI reads it;
 * - paths: only this version's (`/v1/...`); the router ignores a trailing slash, so a path
 *   documented with one (`/v1/search/`, the interface's spelling) is documented without it
 *   too, as its own operation (`operationId` + `WithoutSlash`);
 * - `servers`: the given public URL.
 */

import { withRequestExamples } from './request-examples.js';

type Json = unknown;

/** The document's head (everything but paths and schemas), as @fastify/swagger takes it. */
export const OPENAPI_HEAD = {
  openapi: '3.1.0',
  info: {
    title: 'venue-search',
    version: '1',
    description: 'Venue search for groups and routes. Errors share one envelope; money is integer micro-GBP.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  components: {
    securitySchemes: { ApiKey: { type: 'apiKey' as const, in: 'header', name: 'API-Key' } },
  },
};

/** Rewrites draft-07 tuples into the 2020-12 form, everywhere in `value` (a copy). */
export function tuplesAs2020(value: Json): Json {
  if (Array.isArray(value)) return value.map(tuplesAs2020);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(source)) out[key] = tuplesAs2020(v);
  if (Array.isArray(source['items'])) {
    const prefix = out['items'] as Json[];
    const additional = out['additionalItems'];
    delete out['additionalItems'];
    out['prefixItems'] = prefix;
    // draft-07: absent additionalItems allows any further item; 2020-12: absent items likewise
    if (additional === undefined || additional === true) delete out['items'];
    else out['items'] = additional;
  }
  return out;
}

interface HeaderObject {
  schema?: Record<string, Json>;
  required?: boolean;
  description?: string;
}

/** Moves `required: true` from each response header's schema to the header object. */
function headerRequirements(paths: Record<string, Json>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item as Record<string, { responses?: Record<string, { headers?: Record<string, HeaderObject> }> }>)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const header of Object.values(response.headers ?? {})) {
          if (header.schema?.['required'] === true) {
            delete header.schema['required'];
            header.required = true;
          }
        }
      }
    }
  }
}

/** A path item's copy whose operations carry `operationId + suffix`. */
function renamedOperations(item: Json, suffix: string): Json {
  const copy = structuredClone(item) as Record<string, { operationId?: string }>;
  for (const operation of Object.values(copy)) {
    if (typeof operation.operationId === 'string') operation.operationId += suffix;
  }
  return copy;
}

export interface PublishedDocumentOptions {
  /** Keep only paths under this prefix (`/v1`). */
  readonly prefix: string;
  /**
   * Named schemas (`SearchResponse`, `MatchScore`, ...): each as the routes inline it (the
   * compilers take no `$id`: plain-schema.ts), in every form a route may carry it. Where the
   * document holds one, it becomes a `$ref` to `components.schemas.<name>`, so a generated
   * client gets one named type per shape instead of anonymous copies (audit 60c).
   */
  readonly named?: ReadonlyArray<{ readonly name: string; readonly forms: readonly Json[] }>;
}

/**
 * `value` as @fastify/swagger publishes a schema: each `const: x` written `enum: [x]`, and a
 * `patternProperties` of one pattern written `additionalProperties` (a map's values).
 */
function asSwaggerPublishes(value: Json): Json {
  if (Array.isArray(value)) return value.map(asSwaggerPublishes);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value as Record<string, Json>)) {
    if (key === 'const') out['enum'] = [v];
    else if (key === 'patternProperties' && v !== null && typeof v === 'object' && Object.keys(v).length === 1) out['additionalProperties'] = asSwaggerPublishes(Object.values(v)[0]);
    else out[key] = asSwaggerPublishes(v);
  }
  return out;
}

/** `value` as JSON with its keys sorted: equal for two schemas exactly when they are the same. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, Json>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/**
 * `value` with every sub-schema equal to a named form replaced by a `$ref` to it (outermost
 * first); the components it refers to are added to `components`, their own named parts
 * referred to likewise.
 */
function referNamed(value: Json, byForm: ReadonlyMap<string, string>, components: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((v) => referNamed(v, byForm, components));
  if (value === null || typeof value !== 'object') return value;
  // as it is, or without the description of the response it is the schema of (@fastify/swagger copies that there)
  const { description: _description, ...shape } = value as Record<string, Json>;
  const asIs = byForm.get(canonical(value));
  const name = asIs ?? byForm.get(canonical(shape));
  if (name !== undefined) {
    if (!(name in components)) {
      components[name] = {}; // taken before its body is built: a shape that holds itself refers to itself
      components[name] = referParts(asIs !== undefined ? (value as Record<string, Json>) : shape, byForm, components);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  return referParts(value as Record<string, Json>, byForm, components);
}

function referParts(value: Record<string, Json>, byForm: ReadonlyMap<string, string>, components: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) out[key] = referNamed(v, byForm, components);
  return out;
}

/** The published document (without `servers`, which depend on the request). */
export function publishedDocument(swaggerDocument: Json, options: PublishedDocumentOptions): Record<string, Json> {
  const document = tuplesAs2020(swaggerDocument) as Record<string, Json> & { paths?: Record<string, Json> };
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(`${options.prefix}/`)) continue;
    paths[path] = item;
    if (path.endsWith('/') && path.length > options.prefix.length + 1) {
      const bare = path.slice(0, -1);
      if (!(bare in (document.paths ?? {}))) paths[bare] = renamedOperations(item, 'WithoutSlash');
    }
  }
  headerRequirements(paths);
  if (options.named === undefined || options.named.length === 0) return { ...document, paths: withRequestExamples(paths, options.prefix) };
  const byForm = new Map<string, string>();
  for (const { name, forms } of options.named) {
    for (const form of forms) {
      const key = canonical(asSwaggerPublishes(tuplesAs2020(form)));
      if (!byForm.has(key)) byForm.set(key, name);
    }
  }
  const components = (document['components'] ?? {}) as Record<string, Json> & { schemas?: Record<string, Json> };
  const schemas: Record<string, Json> = { ...(components.schemas ?? {}) };
  const referred = referNamed(paths, byForm, schemas) as Record<string, Json>;
  return { ...document, paths: withRequestExamples(referred, options.prefix), components: { ...components, schemas } };
}
