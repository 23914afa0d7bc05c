/**
 * A union of string literals (TypeBox `Union([Literal('Mon'), ...])`, in JSON Schema an `anyOf`
 * of `const`s) as error messages state it: `one of Mon, Tue, Wed` (audit 70c F3: a bad day
 * name was told only "expected union value"). The one wording for the engine's request
 * validation, the record validation and the hours compiler.
 */

/** The values of a union of string literals, in order; undefined for any other schema. */
export function literalUnionValues(schema: unknown): string[] | undefined {
  const options = (schema as { anyOf?: unknown } | null)?.anyOf;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const values = options.map((o) => (o as { const?: unknown } | null)?.const);
  return values.every((v): v is string => typeof v === 'string') ? values : undefined;
}

/** `one of A, B, C`: what a value of such a union must be. */
export function oneOfLiterals(values: readonly string[]): string {
  return `one of ${values.join(', ')}`;
}
