/**
 * Audit 67a F5: Overpass's features one a line (`jq -c '.features[]' export.geojson >
 * pubs.ndjson`, ogr2ogr's GeoJSONSeq) given to `serve`/`snapshot`/`venues upsert` were sent to
 * `import osm`, which refused the same file ("has no line with an osm_id", or "not readable JSON"
 * under a GeoJSON name). Now `import osm` reads them, and a JSON array of the features, as it
 * reads their FeatureCollection. The data: the real Overpass export of London's pubs, rewritten
 * here into those forms; the oracle: the records `import osm` writes of the export itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const OVERPASS = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';

describe.skipIf(!hasShared(OVERPASS))('import osm reads GeoJSON features one a line or in an array (audit 67a F5)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-feature-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let expected: VenueRecord[];
  let features: unknown[];
  let lines: string;

  beforeAll(async () => {
    features = (JSON.parse(readFileSync(sharedFile(OVERPASS), 'utf8')) as { features: unknown[] }).features;
    lines = features.map((f) => JSON.stringify(f)).join('\n') + '\n';
    expected = (await collectRun(importOsm(sharedFile(OVERPASS)))).records;
    expect(expected.length).toBe(3048); // docs/import.md's count for this export
  }, 60_000);

  it('one a line, as .ndjson, .geojsonl and .geojson: the records of the export itself', async () => {
    for (const name of ['pubs.ndjson', 'pubs.geojsonl', 'pubs.geojson']) {
      const path = join(dir, name);
      writeFileSync(path, lines);
      const { records, report } = await collectRun(importOsm(path));
      expect(records, name).toEqual(expected);
      expect(report.read, name).toBe(features.length);
    }
  }, 60_000);

  // Audit 67g F3: before, "has no line with an osm_id among its 3070" (.geojsons) and "is not JSON" (.geojson).
  it('a GeoJSON text sequence (RFC 8142: RS before each Feature, CRLF too), as .geojsons and .geojson: the records of the export itself', async () => {
    const rs = features.map((f) => `\u001e${JSON.stringify(f)}\n`).join('');
    for (const [name, text] of [['pubs.geojsons', rs], ['rs.geojson', rs], ['crlf.geojsons', rs.replaceAll('\n', '\r\n')]] as const) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const { records, report } = await collectRun(importOsm(path));
      expect(records, name).toEqual(expected);
      expect(report.read, name).toBe(features.length);
      expect(report.skipped, name).toBe(23); // docs/import.md's count for this export
    }
  }, 60_000);

  it('a JSON array of the features: the records of the export itself', async () => {
    const path = join(dir, 'array.json');
    writeFileSync(path, JSON.stringify(features));
    expect((await collectRun(importOsm(path))).records).toEqual(expected);
  }, 60_000);

  it('readVenues sends the lines to import osm, which reads them (no loop)', async () => {
    const path = join(dir, 'seq.ndjson');
    writeFileSync(path, lines);
    await expect(readVenues(path)).rejects.toThrow(/seq\.ndjson: line 1, venue "relation\/2078607", field type: a GeoJSON Feature is not a venue record: .*\(a raw OpenStreetMap export is imported first: `venue-search import osm`\)$/);
    expect((await collectRun(importOsm(path))).records.length).toBe(expected.length);
  }, 60_000);

  it('lines of Features naming no OSM element are still refused as not an OSM file', async () => {
    const path = join(dir, 'addresses.ndjson');
    writeFileSync(path, '{"type":"Feature","properties":{"number":"12","street":"High Street"},"geometry":{"type":"Point","coordinates":[-0.1,51.5]}}\n');
    await expect(collectRun(importOsm(path))).rejects.toThrow(`OSM file ${path} has no line with an osm_id among its 1`);
  });
});
