import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { scratchFolder } from './support/scratch-files.js';

/**
 * Audit 68e F6: the London FHRS CSV cut inside its last row's longitude, with no line end after
 * it (a cut download): the row is skipped with a reason, not imported at a wrong point. The
 * row's id and true longitude are read from the raw file here.
 */
const FHRS = new URL('../../../shared/data/fhrs-london/fhrs_london_food_drink_2021-08-19.csv', import.meta.url).pathname;
const present = existsSync(FHRS);
const { file } = scratchFolder('venue-fhrs-cut-');


describe.skipIf(!present)('audit 68e F6: an FHRS CSV whose last row has no line end is cut: that row is skipped, not imported', () => {
  it('the London CSV cut inside row 4\'s longitude (",-0" of -0.0619...): fhrs:640 is skipped truncated_line, not placed 4 km east', async () => {
    const lines = readFileSync(FHRS, 'utf8').split('\n');
    expect(lines[3]!.split(',')[0]).toBe('640');
    const cutRow = lines[3]!.replace(/,(-?\d+)\.\d+$/, ',$1');
    expect(cutRow.endsWith(',-0')).toBe(true);
    const { records, report } = await collectRun(importFhrs(file('cut.csv', [...lines.slice(0, 3), cutRow].join('\n'))));
    expect(records.map((r) => r.id)).toEqual(['fhrs:' + lines[1]!.split(',')[0], 'fhrs:' + lines[2]!.split(',')[0]]);
    expect(report.skipReasons.get('truncated_line')?.examples).toEqual(['line 4 (the last row has no line end: the file looks cut short)']);
    expect(report.read).toBe(3);
    expect(report.balanced()).toBe(true);
    // the same rows ending with a line end (LF or CRLF) are all imported
    for (const end of ['\n', '\r\n']) {
      const whole = await collectRun(importFhrs(file('whole.csv', lines.slice(0, 4).join(end) + end)));
      expect(whole.records.map((r) => r.id)).toContain('fhrs:640');
    }
  });

  it('audit 68i F2: a last row without a line end whose last field is quoted and closed is whole: imported at its point', async () => {
    const lines = readFileSync(FHRS, 'utf8').split('\n');
    const fields = lines[3]!.split(',');
    const lon = fields.at(-1)!;
    const quoted = [...fields.slice(0, -1), `"${lon}"`].join(',');
    const { records, report } = await collectRun(importFhrs(file('quoted-last.csv', [...lines.slice(0, 3), quoted].join('\n'))));
    const venue = records.find((r) => r.id === 'fhrs:640');
    expect(venue?.location.coordinates[1]).toBe(Number(lon));
    expect(report.skipReasons.has('truncated_line')).toBe(false);
  });
});
