import { TypeCompiler } from '@sinclair/typebox/compiler';
import { VenueRecordSchema, type VenueRecord } from '../schema/venue.js';

/**
 * The importers' last gate: every record they write passes `VenueRecordSchema`. A record
 * that does not is skipped with the first schema error as the reason's detail.
 */
let checker: ReturnType<typeof TypeCompiler.Compile<typeof VenueRecordSchema>> | undefined;

/** `undefined` when valid, else `path: message` of the first error. */
export function venueSchemaError(record: VenueRecord): string | undefined {
  checker ??= TypeCompiler.Compile(VenueRecordSchema);
  if (checker.Check(record)) return undefined;
  const first = checker.Errors(record).First();
  return first ? `${first.path || '/'}: ${first.message}` : 'invalid';
}
