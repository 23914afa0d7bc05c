import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isVenueSearchError } from '../../src/errors.js';
import { collectRun, importOverture } from '../../src/import/index.js';
import { refusal } from './support/refusal.js';
import { scratchFolder } from './support/scratch-files.js';

/**
 * Audit 77e F1, F2: the Overture sample damaged inside (a data page zeroed, its footer cut)
 * and files too short to be Parquet, each refused as a VenueSearchError naming the file in
 * plain words, not the Parquet reader's or the decompressor's own error. The sample is one
 * row group of 3,425 rows (its SOURCE.md); messages written by hand.
 */
const PARQUET = new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url).pathname;
const { file } = scratchFolder('venue-damaged-parquet-');

async function refusedError(path: string): Promise<unknown> {
  try {
    await collectRun(importOverture(path));
  } catch (err) {
    return err;
  }
  throw new Error(`${path} was not refused`);
}

describe.skipIf(!existsSync(PARQUET))('a damaged Parquet file (audit 77e F1, F2)', () => {
  it('a data page zeroed: invalid_data naming the file, the row group and its rows', async () => {
    const bytes = Buffer.from(readFileSync(PARQUET));
    bytes.fill(0, 200_000, 260_000);
    const bad = file('zeroed-page.parquet', bytes);
    const err = await refusedError(bad);
    expect(isVenueSearchError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'invalid_data', file: bad });
    expect((err as Error).message).toMatch(new RegExp(`^Overture file ${bad} is damaged: row group 1 \\(rows 1 to 3425\\) cannot be decoded \\[.+\\]; download it again$`));
  });

  it('its footer cut out (the first 300,100 bytes and the last 8): the footer is said to be damaged', async () => {
    const whole = readFileSync(PARQUET);
    const bad = file('cut-footer.parquet', Buffer.concat([whole.subarray(0, 300_100), whole.subarray(whole.length - 8)]));
    expect(await refusal(() => collectRun(importOverture(bad)))).toMatch(
      new RegExp(`^Overture file ${bad} is not readable Parquet: its footer \\(the file's metadata, at its end\\) is damaged \\[.+\\]; download it again$`),
    );
  });

  it('"PAR1" alone (4 bytes) and a file of 11 bytes: too short to be Parquet', async () => {
    const four = file('four.parquet', 'PAR1');
    expect(await refusal(() => collectRun(importOverture(four)))).toBe(`Overture file ${four} is truncated (4 bytes; a Parquet file holds at least 12): the file was cut short; download it again`);
    const eleven = file('eleven.parquet', 'PAR1\u0000\u0000\u0000PAR1');
    expect(await refusal(() => collectRun(importOverture(eleven)))).toBe(`Overture file ${eleven} is truncated (11 bytes; a Parquet file holds at least 12): the file was cut short; download it again`);
  });

  it('plain text named .parquet: no Parquet file, in plain words', async () => {
    const text = file('notes.parquet', 'these are my notes, not a Parquet file\n');
    expect(await refusal(() => collectRun(importOverture(text)))).toBe(`Overture file ${text} is not readable Parquet: it does not end with Parquet's mark, PAR1 (it is no Parquet file)`);
  });
});
