/**
 * Checks requests and responses against a served OpenAPI 3.1 document with an independent
 * JSON Schema 2020-12 validator (ajv's `Ajv2020`, strict mode: a draft-04 tuple, an unknown
 * keyword or an unresolvable `$ref` is a compile error, as in a strict client or gateway).
 *
 * A response is checked the way a client generated from the document would read it:
 * - its path and method: a path the document does not have must be a 404, a method its path
 *   item does not have must be a 405 whose `Allow` lists exactly the documented methods;
 *   either way the body is the `ErrorEnvelope` component;
 * - its status: documented exactly, else by its class (`4XX`, `5XX`);
 * - its media type: one the entry documents; its body: valid against that schema;
 * - its headers: every `required` header present, every documented header present valid
 *   against its schema after the `simple` style deserialization (an integer is digits).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;

interface HeaderObject {
  required?: boolean;
  schema: Json;
}

interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: Json }>;
}

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: Json;
}

interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, ResponseObject>;
}

export interface CheckedResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Statuses every operation that can answer them must list by number (the routes' own answers). */
const EXPLICIT_STATUSES = new Set([400, 401, 402, 403, 404, 413, 415, 429]);
const COMPONENTS_ID = 'https://venue-search.test/components';

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<Json, ValidateFunction>();
  private readonly paths: Record<string, Record<string, OperationObject>>;
  /** Operations checked so far, by operationId, and statuses seen per operation. */
  readonly seen = new Map<string, Set<number>>();

  constructor(readonly document: Json) {
    // `#/components/schemas/X` refers into the document; the components are registered on
    // their own (the document itself is not a schema) and the refs rewritten to point there
    const text = JSON.stringify(document).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`);
    const copy = JSON.parse(text) as Json & { components?: { schemas?: Json }; paths: Record<string, Record<string, OperationObject>> };
    this.paths = copy.paths;
    this.ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: copy.components?.schemas ?? {} });
  }

  /** Compiles every request, response and header schema of the document (strict mode). */
  compileAll(): number {
    let count = 0;
    for (const item of Object.values(this.paths)) {
      for (const operation of Object.values(item)) {
        for (const p of operation.parameters ?? []) {
          this.validator(p.schema);
          count++;
        }
        for (const m of Object.values(operation.requestBody?.content ?? {})) {
          this.validator(m.schema);
          count++;
        }
        for (const r of Object.values(operation.responses)) {
          for (const m of Object.values(r.content ?? {})) {
            this.validator(m.schema);
            count++;
          }
          for (const h of Object.values(r.headers ?? {})) {
            this.validator(h.schema);
            count++;
          }
        }
      }
    }
    return count;
  }

  private validator(schema: Json): ValidateFunction {
    let fn = this.cache.get(schema);
    if (fn === undefined) {
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  private validate(schema: Json, value: unknown, what: string): void {
    const fn = this.validator(schema);
    if (!fn(value)) throw new Error(`${what} does not match the document: ${this.ajv.errorsText(fn.errors)}; value ${JSON.stringify(value)?.slice(0, 300)}`);
  }

  private envelopeSchema(): Json {
    return { $ref: `${COMPONENTS_ID}#/$defs/ErrorEnvelope` };
  }

  /** The documented path template matching `path`, and its path parameters. */
  matchPath(path: string): { template: string; params: Record<string, string> } | undefined {
    for (const template of Object.keys(this.paths)) {
      const names: string[] = [];
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const m = new RegExp(`^${pattern}$`).exec(path);
      if (m !== null) return { template, params: Object.fromEntries(names.map((n, i) => [n, decodeOrRaw(m[i + 1]!)])) };
    }
    return undefined;
  }

  private operation(method: string, url: string): { operation: OperationObject | undefined; template: string | undefined } {
    const path = url.split('?', 1)[0]!;
    const matched = this.matchPath(path);
    if (matched === undefined) return { operation: undefined, template: undefined };
    return { operation: this.paths[matched.template]![method.toLowerCase()], template: matched.template };
  }

  /** Checks a request against the document: known parameters, their types, the body. */
  checkRequest(method: string, url: string, body: unknown): string {
    const { operation, template } = this.operation(method, url);
    if (operation === undefined) throw new Error(`${method} ${url}: not in the document`);
    const query = new URL(url, 'http://x').searchParams;
    const params = operation.parameters ?? [];
    for (const name of new Set(query.keys())) {
      const param = params.find((p) => p.in === 'query' && p.name === name);
      if (param === undefined) throw new Error(`${method} ${url}: query parameter ${name} is not documented`);
      this.validate(param.schema, deserialize(param.schema, query.get(name)!), `query parameter ${name}`);
    }
    for (const p of params) {
      if (p.in === 'query' && p.required === true && !query.has(p.name)) throw new Error(`${method} ${url}: required query parameter ${p.name} missing`);
    }
    const pathParams = this.matchPath(url.split('?', 1)[0]!)!.params;
    for (const p of params.filter((q) => q.in === 'path')) this.validate(p.schema, pathParams[p.name], `path parameter ${p.name}`);
    if (operation.requestBody !== undefined) {
      if (body === undefined && operation.requestBody.required === true) throw new Error(`${method} ${url}: body required`);
      if (body !== undefined) this.validate(operation.requestBody.content['application/json']!.schema, body, 'request body');
    }
    return `${template}`;
  }

  /** Checks a response to `method url` against the document (see the file comment). */
  checkResponse(method: string, url: string, res: CheckedResponse): void {
    const path = url.split('?', 1)[0]!;
    const matched = this.matchPath(path);
    const what = `${method} ${url} -> ${res.statusCode}`;
    if (matched === undefined) {
      if (res.statusCode !== 404) throw new Error(`${what}: undocumented path must be 404`);
      this.validate(this.envelopeSchema(), JSON.parse(res.body), `${what} body`);
      return;
    }
    const item = this.paths[matched.template]!;
    const operation = item[method.toLowerCase()];
    if (operation === undefined) {
      if (res.statusCode !== 405) throw new Error(`${what}: undocumented method must be 405`);
      const documented = METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase()).sort();
      const allow = String(res.headers['allow'] ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '').sort();
      if (JSON.stringify(allow) !== JSON.stringify(documented)) throw new Error(`${what}: Allow ${allow.join(',')} but the document has ${documented.join(',')}`);
      this.validate(this.envelopeSchema(), JSON.parse(res.body), `${what} body`);
      return;
    }
    const status = String(res.statusCode);
    // a status a strict client switches on is listed by itself, not only through the 4XX fallback
    if (EXPLICIT_STATUSES.has(res.statusCode) && operation.responses[status] === undefined) {
      throw new Error(`${what}: status ${status} documented for ${operation.operationId} only through a fallback`);
    }
    const entry = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses['default'];
    if (entry === undefined) throw new Error(`${what}: status not documented for ${operation.operationId}`);
    const seen = this.seen.get(operation.operationId) ?? new Set<number>();
    seen.add(res.statusCode);
    this.seen.set(operation.operationId, seen);
    const contentType = String(res.headers['content-type'] ?? '').split(';', 1)[0]!.trim();
    const media = entry.content?.[contentType];
    if (media === undefined) throw new Error(`${what}: content type ${contentType} not documented (${Object.keys(entry.content ?? {}).join(', ')})`);
    this.validate(media.schema, JSON.parse(res.body), `${what} body`);
    for (const [name, header] of Object.entries(entry.headers ?? {})) {
      const raw = res.headers[name.toLowerCase()];
      if (raw === undefined) {
        if (header.required === true) throw new Error(`${what}: required header ${name} missing`);
        continue;
      }
      this.validate(header.schema, deserialize(header.schema, String(raw)), `${what} header ${name}`);
    }
  }
}

/** The `simple`/`form` style value of a primitive parameter or header (no coercion beyond it). */
function deserialize(schema: Json, text: string): unknown {
  if (schema['type'] === 'integer' || schema['type'] === 'number') return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
  if (schema['type'] === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** A percent-decoded path segment, or the raw text when it is not valid percent-encoding. */
function decodeOrRaw(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
