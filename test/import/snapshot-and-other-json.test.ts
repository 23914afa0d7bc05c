/**
 * Audit 66a F6: a venue-search snapshot given to an importer was refused without saying what
 * it is (`import fhrs` printed its binary bytes as replacement characters, `import osm` called
 * it "not JSON", `import overture` "not readable Parquet"); and `import overture` (or
 * `import fhrs`) given JSON that `import osm` refuses too suggested `import osm`. Now a snapshot
 * is told to be served with `serve --data`, and `import osm` is suggested only for a file the
 * OSM importer itself reads. Oracles: the messages written out by hand, and the OSM importer's
 * own verdict on each file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { collectRun, importFhrs, importOverture } from '../../src/import/index.js';
import { importOsm } from '../../src/import/osm-import.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { refusal } from './support/refusal.js';
import { runImportCli } from './support/import-cli.js';
import { scratchFolder } from './support/scratch-files.js';

const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const PUBS_GEOJSON = DATA + 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const PUBS_POINTS = DATA + 'osm-london-pubs/london_pubs_points.ndjson';
const present = [PUBS_GEOJSON, PUBS_POINTS].every(existsSync);
const { dir, file } = scratchFolder('venue-snapshot-import-');


/** What `venue-search <args>` fails with (the message the CLI prints), through its commands in-process. */
async function cli(args: string[]): Promise<string> {
  const { error } = await runImportCli(args);
  if (error === undefined) throw new Error('not refused');
  return (error as Error).message;
}

/** Whether the OSM importer itself reads the file (the oracle for suggesting it). */
async function osmReads(path: string): Promise<boolean> {
  try {
    await collectRun(importOsm(path));
    return true;
  } catch {
    return false;
  }
}

describe('a snapshot given to an importer is told to be served (audit 66a F6)', () => {
  const snapshot = join(dir, 'pubs.snap');
  writeSnapshot(createEngine([{ id: 't:1', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] }, primaryGenre: 'pub' }]), snapshot);
  const said = 'is a venue-search snapshot (venue records already imported and built), not a source to import: serve it with `venue-search serve --data`';

  it('import fhrs, osm and overture, through the library', async () => {
    expect(readFileSync(snapshot).subarray(0, 8).toString('latin1')).toBe('VSNAPSHT');
    expect(await refusal(() => collectRun(importFhrs(snapshot)))).toBe(`FHRS file ${snapshot} ${said}`);
    expect(await refusal(() => collectRun(importOsm(snapshot)))).toBe(`OSM file ${snapshot} ${said}`);
    expect(await refusal(() => collectRun(importOverture(snapshot)))).toBe(`Overture file ${snapshot} ${said}`);
  });

  it('the CLI says so, with no replacement characters of its bytes', async () => {
    for (const kind of ['fhrs', 'osm', 'overture']) {
      const message = await cli(['import', kind, snapshot]);
      expect(message).toContain(said);
      expect(message).not.toContain('\uFFFD');
    }
  });
});

describe.skipIf(!present)('JSON given to import overture or fhrs names import osm only when import osm reads it (audit 66a F6)', () => {
  const suggestsOsm = /use `venue-search import osm`/;
  const files = () => [
    PUBS_GEOJSON,
    PUBS_POINTS,
    file('oa.json', '{"type":"Feature","properties":{"number":"12","street":"High Street"},"geometry":{"type":"Point","coordinates":[-0.1,51.5]}}\n'),
    file('object.json', '{"hash":"a1","number":"12","street":"High Street","city":"London"}'),
    file('no-osm-id.ndjson', '{"name":"The Red Lion","lat":51.5,"lon":-0.1}\n{"name":"The Crown","lat":51.6,"lon":-0.2}\n'),
    file('small.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { '@id': 'node/1', amenity: 'pub', name: 'The Red Lion' }, geometry: { type: 'Point', coordinates: [-0.1, 51.5] } }] })),
  ];

  it('the suggestion is made exactly for the files the OSM importer reads', async () => {
    const verdicts: [string, boolean, boolean, boolean][] = [];
    for (const path of files()) {
      const overture = await refusal(() => collectRun(importOverture(path)));
      const fhrs = await refusal(() => collectRun(importFhrs(path)));
      verdicts.push([path, await osmReads(path), suggestsOsm.test(overture), suggestsOsm.test(fhrs)]);
    }
    for (const [path, reads, overture, fhrs] of verdicts) expect([path, overture, fhrs]).toEqual([path, reads, reads]);
    // the oracle is not trivial: both kinds are among the files
    expect(verdicts.map((v) => v[1])).toEqual([true, true, false, false, false, true]);
  });

  it('other JSON is told what import osm reads instead', async () => {
    const oa = files()[2]!;
    expect(await refusal(() => collectRun(importOverture(oa)))).toBe(
      `Overture file ${oa} is not readable Parquet: it does not end with Parquet's mark, PAR1 (it is no Parquet file); it is JSON that no importer here reads (\`import osm\` takes an Overpass or Veggiekarte GeoJSON FeatureCollection or {osm_id, lat, lon, tags} lines)`,
    );
  });
});
