/**
 * Audit 66g F6: `import osm` said "has no line with an osm_id" of points lines that have one, as
 * a number with `osm_type` beside it ({"osm_type": "node", "osm_id": 123}, as Nominatim,
 * osm2pgsql's flex output and Photon write it); only "osm_id": "node/123" was read. Now both
 * are read, and a line whose osm_id is of neither form is told which forms are read.
 * Oracle: the real London pubs points file (../shared/data/osm-london-pubs) imported as it is;
 * the same lines rewritten to the other forms must give the same venues and report.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { importOsm } from '../../src/import/osm-import.js';
import { refusal } from './support/refusal.js';

const POINTS = new URL('../../../shared/data/osm-london-pubs/london_pubs_points.ndjson', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'venue-osm-type-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each export's way of writing an element's type beside its numeric id. */
const TYPE_WRITTEN: Record<string, Record<string, string>> = {
  nominatim: { node: 'node', way: 'way', relation: 'relation' },
  photon: { node: 'N', way: 'W', relation: 'R' },
};

/** The file's lines with `osm_id` "node/1" rewritten to `osm_type` and a numeric id (line k: a number, or a string of digits every third line). */
function rewritten(lines: string[], form: keyof typeof TYPE_WRITTEN): string {
  return lines
    .map((line, k) => {
      const { osm_id: ref, ...rest } = JSON.parse(line) as { osm_id: string };
      const [type, id] = ref.split('/') as [string, string];
      return JSON.stringify({ osm_type: TYPE_WRITTEN[form]![type], osm_id: k % 3 === 0 ? id : Number(id), ...rest });
    })
    .join('\n');
}

describe.runIf(existsSync(POINTS))('import osm reads osm_type beside a numeric osm_id (audit 66g F6)', () => {
  const lines = readFileSync(POINTS, 'utf8').trimEnd().split('\n');

  it('the London pubs as Nominatim and Photon write their ids: the same venues and report as the original file', async () => {
    const original = await collectRun(importOsm(POINTS, { source: 'pubs' }));
    expect(original.records.length).toBeGreaterThan(3000);
    // the oracle file names every kind of element
    expect(new Set(lines.map((l) => (JSON.parse(l) as { osm_id: string }).osm_id.split('/')[0]))).toEqual(new Set(['node', 'way', 'relation']));
    for (const form of Object.keys(TYPE_WRITTEN)) {
      const path = join(dir, `pubs-${form}.ndjson`);
      writeFileSync(path, rewritten(lines, form));
      const got = await collectRun(importOsm(path, { source: 'pubs' }));
      expect(got.records, form).toEqual(original.records);
      expect(got.report.toJSON(), form).toEqual(original.report.toJSON());
    }
  });

  it('a file of such lines given to import fhrs is told to use import osm', async () => {
    const path = join(dir, 'two.ndjson');
    writeFileSync(path, rewritten(lines.slice(0, 2), 'nominatim'));
    expect(await refusal(() => collectRun(importFhrs(path)))).toBe(`FHRS file ${path} is not a CSV: this looks like JSON or GeoJSON (an OpenStreetMap export?): use \`venue-search import osm\``);
  });
});

describe('a points line whose osm_id is of no form read is told the forms (audit 66g F6)', () => {
  const forms = '{osm_id, lat, lon, tags} lines expected, the element as "osm_id": "node/1", or as "osm_type": "node" (or way, relation; N, W, R) with "osm_id": 1';
  const pub = { lat: 51.5, lon: -0.1, tags: { amenity: 'pub', name: 'P' } };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ osm_id: 1, ...pub }, 'osm_id 1 has no osm_type beside it'],
    [{ osm_type: 'area', osm_id: 1, ...pub }, 'osm_id 1 has osm_type "area", not node, way or relation'],
    [{ osm_type: 'relation', osm_id: -7, ...pub }, 'osm_id -7 is neither "node/1" nor a whole number, 0 or more'],
  ];

  it('when no line names an element: the file refused, naming the first such line', async () => {
    for (const [line, why] of cases) {
      const path = join(dir, 'bad.ndjson');
      writeFileSync(path, `${JSON.stringify(line)}\n`);
      expect(await refusal(() => collectRun(importOsm(path)))).toBe(`OSM file ${path} has no line naming an OSM element among its 1: line 1: ${why} (${forms})`);
    }
  });

  it('among lines that do: skipped as missing_osm_id with the reason', async () => {
    const path = join(dir, 'mixed.ndjson');
    writeFileSync(path, [{ osm_id: 'node/2', ...pub }, cases[0]![0]].map((l) => JSON.stringify(l)).join('\n'));
    const { records, report } = await collectRun(importOsm(path));
    expect(records.map((r) => r.id)).toEqual(['osm:node/2']);
    expect([...report.skipReasons].map(([k, g]) => [k, g.examples])).toEqual([['missing_osm_id', [`line 2 (${cases[0]![1]})`]]]);
  });
});
