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
  return { ...document, paths };
}
