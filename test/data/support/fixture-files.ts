// The bundled fixtures as NDJSON lines, written to a temporary folder whole or with bad
// lines placed in different 1 MB blocks, and the first error of a read in a comparable
// form: shared by the readVenues and createEngineFromFile suites, which must agree on both.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isVenueSearchError } from '../../../src/errors.js';

const fixtures = readFileSync(new URL('../../../fixtures/venues.ndjson', import.meta.url), 'utf8');
/** The fixtures' 3,000 non-empty lines (about 7 MB: 1 MB blocks of some 430 lines). */
export const fixtureLines: readonly string[] = fixtures.split('\n').filter((l) => l.trim() !== '');

/** A fresh temporary folder and a writer of NDJSON files in it. */
export function fixtureFolder(prefix: string): { dir: string; write(name: string, rows: readonly string[]): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, rows) {
      const path = join(dir, name);
      writeFileSync(path, `${rows.join('\n')}\n`);
      return path;
    },
  };
}

/** The fixtures with bad lines: an invalid field (block 2), malformed JSON (block 5), a duplicate id (block 8). */
export function badRows(): string[] {
  const rows = [...fixtureLines];
  const bad = JSON.parse(rows[500]!) as Record<string, unknown>;
  bad.isChain = 'yes';
  rows[500] = JSON.stringify(bad);
  rows[1500] = `${rows[1500]!.slice(0, 40)}`;
  const dup = JSON.parse(rows[2500]!) as Record<string, unknown>;
  dup.id = (JSON.parse(rows[10]!) as { id: string }).id;
  rows[2500] = JSON.stringify(dup);
  return rows;
}

/** The error `promise` rejects with (a VenueSearchError), as the fields a user reads. */
export async function errorOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (err) {
    expect(isVenueSearchError(err)).toBe(true);
    const e = err as unknown as Record<string, unknown>;
    return { message: e.message, code: e.code, line: e.line, recordId: e.recordId, param: e.param, value: e.value };
  }
  throw new Error('expected an error');
}
