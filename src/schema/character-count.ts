import type { TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';

/**
 * Characters of `text` as JSON Schema's `minLength` / `maxLength` count them (code points;
 * the HTTP layer's ajv counts so too), where `String.length` counts UTF-16 units (an emoji
 * is 2). An unpaired surrogate counts as one.
 */
export function characterCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/**
 * The first error of `check` on `value` that JSON Schema makes too, or undefined when there is
 * none. TypeBox counts a string's length in UTF-16 units, so a string of at most `maxLength`
 * characters holding characters beyond the BMP (emoji) fails its compiled check: that error
 * is not one (every `minLength` of the schemas is 0 or 1, which the two counts agree on).
 * Called only once the compiled check has failed, so the valid path costs nothing more.
 */
export function firstSchemaError(check: TypeCheck<TSchema>, value: unknown): ValueError | undefined {
  for (const error of check.Errors(value)) {
    const max = (error.schema as { maxLength?: unknown }).maxLength;
    if (error.type === ValueErrorType.StringMaxLength && typeof error.value === 'string' && typeof max === 'number' && characterCount(error.value) <= max) continue;
    return error;
  }
  return undefined;
}
