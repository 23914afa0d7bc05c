/**
 * Where a venue record came from, and the one way every message names that place. A module of
 * its own, without the validator's schema, so the `venues` command (which only names lines)
 * starts without loading TypeBox.
 */
export interface RecordLocation {
  readonly file?: string;
  readonly line?: number;
}

/** How every message names a record's place: `venues.ndjson: line 2` (either part may be missing). */
export function describeLocation(where: RecordLocation): string {
  return [where.file, where.line !== undefined ? `line ${where.line}` : undefined].filter(Boolean).join(': ');
}
