/**
 * Audit 67a F6: GeoJSON whose features carry the element as numeric `osm_id` with `osm_type`
 * among their properties (osm2pgsql flex tables written out by ogr2ogr) imported 0 venues, each
 * skipped as a bare "missing_osm_id: feature #0". The data: the real Overpass export of London's
 * pubs rewritten into that form (no `@id`, no feature id; `osm_type` N/W/R); the oracle: the
 * records `import osm` writes of the export itself, and the skip detail written out by hand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const OVERPASS = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';

interface RawFeature {
  type: string;
  id?: string;
  properties: Record<string, unknown>;
  geometry: unknown;
}

/** A feature as an osm2pgsql flex table exported by ogr2ogr has it: osm_type N/W/R and the numeric osm_id among the properties. */
function flexFeature(f: RawFeature): RawFeature {
  const { '@id': ref, ...tags } = f.properties;
  const [type, id] = String(ref).split('/');
  return { type: 'Feature', properties: { osm_id: Number(id), osm_type: type!.charAt(0).toUpperCase(), ...tags }, geometry: f.geometry };
}

describe.skipIf(!hasShared(OVERPASS))('import osm reads osm_id with osm_type among GeoJSON properties (audit 67a F6)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-flex-geojson-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the same records as the Overpass export itself', async () => {
    const { features } = JSON.parse(readFileSync(sharedFile(OVERPASS), 'utf8')) as { features: RawFeature[] };
    const path = join(dir, 'flex.geojson');
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features: features.map(flexFeature) }));
    const expected = (await collectRun(importOsm(sharedFile(OVERPASS)))).records;
    const { records } = await collectRun(importOsm(path));
    expect(records.length).toBe(3048);
    expect(records).toEqual(expected);
  }, 60_000);

  it('a feature naming no element is skipped saying what it lacks', async () => {
    const geometry = { type: 'Point', coordinates: [-0.1946078, 51.6008404] };
    const path = join(dir, 'partial.geojson');
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features: [
      { type: 'Feature', properties: { osm_id: 451152, amenity: 'pub', name: 'King of Prussia' }, geometry },
      { type: 'Feature', properties: { amenity: 'pub', name: 'King of Prussia' }, geometry },
    ] }));
    const { report } = await collectRun(importOsm(path));
    expect(report.toJSON()).toMatchObject({
      written: 0,
      skipReasons: {
        missing_osm_id: {
          count: 2,
          examples: [
            'feature #0 (osm_id 451152 has no osm_type beside it)',
            'feature #1 (no element named: "@id": "node/1", an id "node/1" or 1, "_type" with "_id", or "osm_id" with "osm_type" among the properties)',
          ],
        },
      },
    });
  });
});
