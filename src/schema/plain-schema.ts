/**
 * Route schemas as fastify's compilers want them. The engine's TypeBox schemas carry `$id`s
 * on shared pieces (`DayName`, `MatchScore`, ...), and one response embeds the same piece
 * several times; fast-json-stringify and ajv then see one id "resolving to more than one
 * schema" and refuse to compile. A route gets a plain copy without any `$id` (TypeBox's
 * symbol keys drop out too), so every piece is simply inlined. Copies are memoised per
 * schema object: the same input always yields the same copy, which keeps ajv's and the
 * serializer's per-object caches effective across the apps built in one process.
 */
import type { TSchema } from '@sinclair/typebox';

const copies = new WeakMap<object, TSchema>();

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key !== '$id') out[key] = withoutIds(v);
  }
  return out;
}

/** The schema with every `$id` removed; the static type is unchanged. */
export function plainSchema<T extends TSchema>(schema: T): T {
  let copy = copies.get(schema);
  if (copy === undefined) {
    copy = withoutIds(schema) as TSchema;
    copies.set(schema, copy);
  }
  return copy as T;
}

const enumCopies = new WeakMap<object, TSchema>();

function unionsAsEnums(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unionsAsEnums);
  if (value === null || typeof value !== 'object') return value;
  const anyOf = (value as { anyOf?: unknown }).anyOf;
  if (Array.isArray(anyOf) && anyOf.length > 0 && anyOf.every((b) => typeof (b as { const?: unknown } | null)?.const === 'string')) {
    const { anyOf: _branches, ...rest } = value as Record<string, unknown>;
    return { ...rest, type: 'string', enum: anyOf.map((b: { const: string }) => b.const) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = unionsAsEnums(v);
  return out;
}

/**
 * The plain schema with every union of string literals (TypeBox's `Union([Literal('Mon'),
 * ...])`, i.e. `anyOf: [{const: 'Mon'}, ...]`) written as the equivalent `{type: 'string',
 * enum: [...]}`. For response schemas: fast-json-stringify picks an `anyOf` branch by running
 * an ajv validator per branch and per value (each weekday of each opening-hours row of each
 * result), while a string with an `enum` is simply written. Same documents validate.
 */
export function responseSchema<T extends TSchema>(schema: T): T {
  let copy = enumCopies.get(schema);
  if (copy === undefined) {
    copy = unionsAsEnums(plainSchema(schema)) as TSchema;
    enumCopies.set(schema, copy);
  }
  return copy as T;
}
