import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';

/**
 * Audit 65a F18: a venue record's field written as other data sets write it (`catersFlag`,
 * `formatedAddress`, `genre`, `openingHours`, `lat`) was refused as "unexpected property" with
 * no hint. Now the message names the record field it stands for, as request parameters' do.
 * Oracle: the field names of docs/data-model.md's table, and the messages written by hand.
 */
const dir = mkdtempSync(join(tmpdir(), 'venue-field-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BASE = { id: 't:1', name: 'Test', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' };

const CASES: readonly (readonly [extra: Record<string, unknown>, said: string])[] = [
  [{ catersFlag: ['vegan'] }, 'field catersFlag: unexpected property; did you mean "catersFlags"?; got ["vegan"]'],
  [{ formatedAddress: '1 High St' }, 'field formatedAddress: unexpected property; did you mean "formattedAddress"?; got "1 High St"'],
  [{ genre: 'pub' }, 'field genre: unexpected property; did you mean "primaryGenre"?; got "pub"'],
  [{ openingHours: [] }, 'field openingHours: unexpected property; did you mean "regularOpeningHours"?; got []'],
  [{ phone: '020 7946 0000' }, 'field phone: unexpected property; did you mean "contactNumber"?; got "020 7946 0000"'],
  [{ ratings: { ratting: '4.5' } }, 'field ratings.ratting: unexpected property; did you mean "rating"?; got "4.5"'],
  [
    { lat: 51.5 },
    'field lat: unexpected property; lat is not a field of a venue record: its point is location: {"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md); got 51.5',
  ],
  [{ flavour: 'x' }, 'field flavour: unexpected property; got "x"'],
];

describe('a venue field under another name: the message names the field it stands for (audit 65a F18)', () => {
  it('readVenues of an NDJSON file names the line, the record, the field and the known one', async () => {
    for (const [extra, said] of CASES) {
      const path = join(dir, 'near.ndjson');
      writeFileSync(path, `${JSON.stringify({ ...BASE, ...extra })}\n`);
      await expect(readVenues(path), said).rejects.toThrow(`near.ndjson: line 1, venue "t:1", ${said}`);
    }
  });

  it('createEngine says the same of a record made in code', () => {
    for (const [extra, said] of CASES) expect(() => createEngine([{ ...BASE, ...extra } as never]), said).toThrow(`venue "t:1", ${said}`);
  });
});
