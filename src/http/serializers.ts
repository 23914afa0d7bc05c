/**
 * Response serializers: fastify's own (fast-json-stringify through
 * @fastify/fast-json-stringify-compiler), with one serializer per `$ref` shared by every
 * route and status that answers with a reference alone.
 *
 * Why: each route documents its error statuses as `{ $ref: 'ErrorEnvelope#', description,
 * headers }` (openapi-responses.ts), 58 such entries across the routes, and fastify compiled a
 * separate fast-json-stringify function for each one: ~40 ms of every start for 58 identical
 * functions. A schema whose only other keys are `description` and `headers` (read by the
 * OpenAPI document, not by the serializer) serializes exactly as its `$ref` does, so one
 * compiled function serves every such schema with that `$ref`. Any other schema is compiled
 * as fastify would.
 *
 * The compiler package is a dependency of fastify, not of this package, so it is resolved
 * from fastify's own folder: the same module fastify loads when no factory is given. It is
 * resolved when the first app is built, not at import: bundled whole into CommonJS,
 * import.meta.url is undefined, and importing the HTTP entry died with a bare TypeError; now
 * buildApp throws PackageFileMissingError (audit 68c F2).
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import { moduleUrlOrMissing, PackageFileMissingError } from '../package-files.js';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type RouteSchemaDefinition = Parameters<ReturnType<SerializerFactory>>[0];

const COMPILER = '@fastify/fast-json-stringify-compiler';
const WHAT = "fastify's serializer compiler";

let fastifySerializerSelector: (() => SerializerFactory) | undefined;

/** The compiler package's selector, loaded once from fastify's folder (PackageFileMissingError when that cannot be located). */
function serializerSelector(): () => SerializerFactory {
  if (fastifySerializerSelector !== undefined) return fastifySerializerSelector;
  const here = moduleUrlOrMissing(import.meta.url, WHAT, COMPILER);
  let requireFromFastify: NodeJS.Require;
  try {
    requireFromFastify = createRequire(createRequire(here).resolve('fastify'));
  } catch (err) {
    throw new PackageFileMissingError(WHAT, `${COMPILER}: fastify cannot be located from this code`, { cause: err });
  }
  return (fastifySerializerSelector = requireFromFastify(COMPILER) as () => SerializerFactory);
}

/** Keys beside `$ref` that the serializer does not read. */
const DOCUMENTATION_KEYS = new Set(['$ref', 'description', 'headers']);

/** The `$ref` a schema consists of (beside documentation only), else undefined. */
function refOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return undefined;
  return Object.keys(schema).every((key) => DOCUMENTATION_KEYS.has(key)) ? ref : undefined;
}

/** fastify's serializer factory, sharing one compiled serializer per `$ref` within each app. */
export function sharedRefSerializers(): SerializerFactory {
  const fastifyFactory = serializerSelector()();
  return (externalSchemas, options) => {
    const compile = fastifyFactory(externalSchemas, options);
    const byRef = new Map<string, ReturnType<typeof compile>>();
    return (route: RouteSchemaDefinition) => {
      const ref = refOf(route.schema);
      if (ref === undefined) return compile(route);
      let serializer = byRef.get(ref);
      if (serializer === undefined) byRef.set(ref, (serializer = compile(route)));
      return serializer;
    };
  };
}
