/**
 * Audit 67a F3: GeoJSON Features one a line (`jq -c '.features[]'`, ogr2ogr's GeoJSONSeq) or in
 * a JSON array were refused as "field id: expected required property", never told that they are
 * GeoJSON Features nor how Features are read. The data: real London pubs (OpenStreetMap, the
 * shared osm-london-pubs points imported by `import osm`) written as GeoJSON Features by hand
 * here ([lon, lat], properties the record); the oracle: the FeatureCollection of the same
 * Features is read, and the messages are written out by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';

const FEATURE_HINT =
  'field type: a GeoJSON Feature is not a venue record: a venues file of GeoJSON is a FeatureCollection, {"type": "FeatureCollection", "features": [...]}, ' +
  "each Point Feature's properties a record (`jq -s '{type: \"FeatureCollection\", features: .}'` makes one of Features one a line); " +
  'a venue record has its fields at the top and its point as location: {"type": "Point", "coordinates": [lat, lon]}, latitude first (docs/data-model.md); got "Feature"';

describe.skipIf(!hasShared(LONDON_PUBS))('GeoJSON Features given as venue records are told what they are (audit 67a F3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-records-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let records: VenueRecord[];
  let features: unknown[];

  beforeAll(async () => {
    records = (await collectRun(importOsm(sharedFile(LONDON_PUBS)))).records.slice(0, 5);
    features = records.map(({ location, ...properties }) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [location.coordinates[1], location.coordinates[0]] },
      properties,
    }));
  }, 60_000);

  it('the FeatureCollection of them is read (the form the hint names)', async () => {
    const path = join(dir, 'fc.geojson');
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    const { venues: read } = await readVenues(path);
    expect(read.map((r) => r.id)).toEqual(records.map((r) => r.id));
  });

  it('Features one a line (.ndjson) and a JSON array of them (.json): told they are Features', async () => {
    const lines = join(dir, 'features.ndjson');
    writeFileSync(lines, features.map((f) => JSON.stringify(f)).join('\n') + '\n');
    await expect(readVenues(lines)).rejects.toThrow(`features.ndjson: line 1, ${FEATURE_HINT}`);
    const array = join(dir, 'farr.json');
    writeFileSync(array, JSON.stringify(features));
    await expect(readVenues(array)).rejects.toThrow(`farr.json: line 1, ${FEATURE_HINT}`);
  });

  it('createEngine and engine.upsert of Features', () => {
    expect(() => createEngine(features as never)).toThrow(`line 1, ${FEATURE_HINT}`);
    expect(() => createEngine(records).upsert([features[0] as never])).toThrow(FEATURE_HINT);
  });
});
