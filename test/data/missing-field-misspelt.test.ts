import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';

/**
 * Audit 67g F4: a required field sent in another case or misspelt (`Location`, `locaton`) was
 * told only "field location: expected required property", though any other misspelt field is
 * told "did you mean". Now the record is reported by the key given, with the field it stands
 * for. Oracle: the messages written by hand (docs/data-model.md's wording).
 */
const dir = mkdtempSync(join(tmpdir(), 'missing-field-misspelt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const POINT = { type: 'Point', coordinates: [51.5, -0.1] };
const POINT_JSON = '{"type":"Point","coordinates":[51.5,-0.1]}';

const CASES: readonly (readonly [record: Record<string, unknown>, said: string])[] = [
  [{ id: 't:1', name: 'A', Location: POINT }, `venue "t:1", field Location: unexpected property; did you mean "location"?; got ${POINT_JSON}`],
  [{ id: 't:1', name: 'A', locaton: POINT }, `venue "t:1", field locaton: unexpected property; did you mean "location"?; got ${POINT_JSON}`],
  [{ id: 't:1', Name: 'A', location: POINT }, 'venue "t:1", field Name: unexpected property; did you mean "name"?; got "A"'],
  [{ ID: 't:1', name: 'A', location: POINT }, 'field ID: unexpected property; did you mean "id"?; got "t:1"'],
  // a key that stands for no missing field: the missing field is said, as before
  [{ id: 't:1', name: 'A', flavour: POINT }, 'venue "t:1", field location: expected required property; got undefined'],
];

describe('a required field in another case or misspelt: "did you mean" (audit 67g F4)', () => {
  it('readVenues of an NDJSON file', async () => {
    for (const [record, said] of CASES) {
      const path = join(dir, 'case.ndjson');
      writeFileSync(path, `${JSON.stringify(record)}\n`);
      await expect(readVenues(path), said).rejects.toThrow(`case.ndjson: line 1, ${said}`);
    }
  });

  it('createEngine of a record made in code', () => {
    for (const [record, said] of CASES) expect(() => createEngine([record as never]), said).toThrow(said);
  });
});
