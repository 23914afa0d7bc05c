import { venueChecker } from '../data/validate-venue.js';
import type { VenueRecord } from '../schema/venue.js';
import type { ImportReport } from './import-report.js';

/*
 * The importers' last gate: every record they write passes `VenueRecordSchema` (the one
 * compiled check, src/data/validate-venue.ts). A record that does not is skipped with the
 * first schema error as the reason's detail.
 */

/** `undefined` when valid, else `path: message` of the first error. */
export function venueSchemaError(record: VenueRecord): string | undefined {
  const checker = venueChecker();
  if (checker.Check(record)) return undefined;
  const first = checker.Errors(record).First();
  return first ? `${first.path || '/'}: ${first.message}` : 'invalid';
}

/**
 * The last step of an importer for a mapped record: a repeated id is skipped as
 * `duplicate_id` (the first wins), a schema failure as `invalid_record`; otherwise the id is
 * remembered, `written` counted, and true returned (the caller yields the record).
 */
export function admitRecord(record: VenueRecord, ref: string, seen: Set<string>, report: ImportReport): boolean {
  if (seen.has(record.id)) {
    report.skip('duplicate_id', ref);
    return false;
  }
  const error = venueSchemaError(record);
  if (error !== undefined) {
    report.skip('invalid_record', ref, error);
    return false;
  }
  seen.add(record.id);
  report.written++;
  return true;
}
