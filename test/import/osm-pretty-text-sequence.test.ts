/**
 * Audit 68b F4: a GeoJSON text sequence whose records span lines (RFC 7464 lets them; `jq --seq .`
 * pretty-prints each) was refused as a points file "with no line with an osm_id among its
 * 152977". Now a file that begins with RS is split on RS. The data: the real Overpass export of
 * London's pubs, rewritten here as RS + JSON.stringify(feature, null, 2) + LF; the oracle: the
 * records and report of the export itself (its FeatureCollection).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const OVERPASS = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';

describe.skipIf(!hasShared(OVERPASS))('import osm reads a GeoJSON text sequence whose records span lines (audit 68b F4)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-pretty-seq-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let features: unknown[];
  let expected: { records: VenueRecord[]; skips: unknown };
  let pretty: string[];

  const skipsOf = (report: { skipReasons: Map<string, { count: number; examples: string[] }> }): unknown => Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, [g.count, g.examples]]));

  beforeAll(async () => {
    features = (JSON.parse(readFileSync(sharedFile(OVERPASS), 'utf8')) as { features: unknown[] }).features;
    pretty = features.map((f) => `\u001e${JSON.stringify(f, null, 2)}\n`);
    const run = await collectRun(importOsm(sharedFile(OVERPASS)));
    expected = { records: run.records, skips: skipsOf(run.report) };
    expect(expected.records.length).toBe(3048); // docs/import.md's count for this export
  }, 60_000);

  it('pretty-printed records, as .geojsons and .geojson, LF and CRLF: the records and skips of the FeatureCollection', async () => {
    const text = pretty.join('');
    expect(text.split('\n').length).toBeGreaterThan(features.length * 10); // records really span lines
    for (const [name, body] of [['pretty.geojsons', text], ['pretty.geojson', text], ['crlf.geojsons', text.replaceAll('\n', '\r\n')]] as const) {
      const path = join(dir, name);
      writeFileSync(path, body);
      const { records, report } = await collectRun(importOsm(path));
      expect(records, name).toEqual(expected.records);
      expect(skipsOf(report), name).toEqual(expected.skips);
      expect(report.read, name).toBe(features.length);
    }
  }, 60_000);

  it('a last record cut short is skipped as a cut line is (malformed_line, the line its RS is on); the others are the FeatureCollection’s', async () => {
    const whole = pretty.slice(0, -1).join('');
    const last = pretty.at(-1) as string;
    const path = join(dir, 'cut.geojsons');
    writeFileSync(path, whole + last.slice(0, Math.floor(last.length / 2)));
    const { records, report } = await collectRun(importOsm(path));
    const cutAt = whole.split('\n').length; // the line the last RS is on
    expect(report.skipReasons.get('malformed_line')?.examples).toEqual([expect.stringMatching(new RegExp(`^line ${cutAt} \\(.*JSON`))]);
    // the last feature's record (if it made one) is missing; the rest are as in the FeatureCollection
    const lastRef = JSON.stringify(features.at(-1)).match(/"@id":"([a-z]+\/[0-9]+)"/)?.[1];
    expect(records).toEqual(expected.records.filter((r) => r.id !== `osm:${lastRef}`));
  }, 60_000);

  it('a stray line after a record (no RS) is skipped by its line; the record before it is kept', async () => {
    const path = join(dir, 'stray.geojsons');
    writeFileSync(path, pretty.join('') + 'garbage\n');
    const { records, report } = await collectRun(importOsm(path));
    expect(records).toEqual(expected.records);
    const strayLine = pretty.join('').split('\n').length;
    expect(report.skipReasons.get('malformed_line')?.examples).toEqual([expect.stringMatching(new RegExp(`^line ${strayLine} \\(.*garbage`))]);
  }, 60_000);
});
