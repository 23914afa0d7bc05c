import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../src/import/import-report.js';
import { collectRun, importFhrs, importOsm, importOverture } from '../../src/import/index.js';
import { mergeVenues } from '../../src/import/merge.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { wkbPointHex } from '../support/wkb.js';

/**
 * Audit 62d finding 8: a point at exactly 0,0 is refused by every importer under the one
 * reason `bad_coordinates` (the OSM importer used to write it); a point a hair away is kept.
 */
const dir = mkdtempSync(join(tmpdir(), 'venue-null-island-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const skips = (report: ImportReport): Record<string, string[]> => Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, g.examples]));

describe('0,0 is bad_coordinates in every importer (audit 62d finding 8)', () => {
  it('OSM GeoJSON: a node at [0,0] (and at [-0,0]) skipped; one 1e-7 degrees away kept', async () => {
    const file = join(dir, 'osm.geojson');
    const node = (id: number, coordinates: number[]) => ({ type: 'Feature', properties: { '@id': `node/${id}`, amenity: 'pub', name: `Pub ${id}` }, geometry: { type: 'Point', coordinates } });
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [node(28, [0, 0]), node(29, [-0, 0]), node(30, [1e-7, 0])] }));
    const { records, report } = await collectRun(importOsm(file));
    expect(records.map((r) => r.id)).toEqual(['osm:node/30']);
    expect(skips(report)).toEqual({ bad_coordinates: ['node/28 (0,0)', 'node/29 (0,0)'] });
  });

  it('OSM points NDJSON: lat 0, lon 0 skipped', async () => {
    const file = join(dir, 'points.ndjson');
    writeFileSync(file, `${JSON.stringify({ osm_id: 'node/1', lat: 0, lon: 0, tags: { amenity: 'cafe', name: 'Zero' } })}\n${JSON.stringify({ osm_id: 'node/2', lat: 51.5, lon: 0, tags: { amenity: 'cafe', name: 'Greenwich' } })}\n`);
    const { records, report } = await collectRun(importOsm(file));
    expect(records.map((r) => r.id)).toEqual(['osm:node/2']);
    expect(skips(report)).toEqual({ bad_coordinates: ['node/1 (0,0)'] });
  });

  it('FHRS: 0,0 and 0.0,-0.0 skipped as before', async () => {
    const file = join(dir, 'fhrs.csv');
    writeFileSync(file, 'FHRSID,BusinessName,BusinessType,Latitude,Longitude\n5,Zero,Pub/bar/nightclub,0,0\n6,Zero Again,Pub/bar/nightclub,0.0,-0.0\n7,Kept,Pub/bar/nightclub,51.5,0\n');
    const { records, report } = await collectRun(importFhrs(file));
    expect(records.map((r) => r.id)).toEqual(['fhrs:7']);
    expect(skips(report)).toEqual({ bad_coordinates: ['fhrs:5 (0,0)', 'fhrs:6 (0.0,-0.0)'] });
  });

  it('Overture: a WKB point at 0,0 skipped (file written by DuckDB)', async () => {
    const file = join(dir, 'overture.parquet');
    const row = (id: string, lon: number, lat: number): string =>
      `SELECT '${id}' AS id, from_hex('${wkbPointHex(lon, lat)}') AS geometry, {'primary': 'Cafe ${id}'} AS names, {'primary': 'cafe', 'alternate': []::VARCHAR[]} AS categories, 0.9 AS confidence`;
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run(`COPY (${row('zero', 0, 0)} UNION ALL ${row('near', 0, 1e-7)}) TO '${file}' (FORMAT parquet)`);
    const { records, report } = await collectRun(importOverture(file));
    expect(records.map((r) => r.id)).toEqual(['overture:near']);
    expect(skips(report)).toEqual({ bad_coordinates: ['overture:zero (0,0)'] });
  });

  it('import merge: a record at 0,0 (and -0,0) in a hand-written input skipped the same way; one 1e-7 degrees away kept (audit 63a F7)', () => {
    const at = (id: string, lat: number, lon: number): VenueRecord => ({ id, name: `Null ${id}`, location: { type: 'Point', coordinates: [lat, lon] }, primaryGenre: 'pub' });
    const { records, report } = mergeVenues([at('x:1', 0, 0), at('x:2', -0, 0), at('x:3', 0, 1e-7), at('x:4', 51.5, 0)]);
    expect(records.map((r) => r.id)).toEqual(['x:3', 'x:4']);
    expect(skips(report)).toEqual({ bad_coordinates: ['x:1 (0,0)', 'x:2 (0,0)'] });
    expect(report.read).toBe(4);
    expect(report.written).toBe(2);
  });
});
