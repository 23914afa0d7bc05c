/**
 * Importing the engine's entry does not load the importers' heaviest packages (opening_hours,
 * turf, csv-parse, hyparquet's decompressors): src/import/lazy-package.ts loads them at the
 * first conversion or read that needs them. The oracle is Node's own record of what a process
 * loaded (test/support/load-probe.ts: every module a resolution hook sees, and require.cache at
 * exit, since the synchronous conversions read their packages' CommonJS builds). The probe
 * must see them once used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProbe, packageOf } from '../support/load-probe.js';

const ENTRY = pathToFileURL(fileURLToPath(new URL('../../dist/src/index.js', import.meta.url))).href;
const HEAVY = ['opening_hours', '@turf/center-of-mass', '@turf/point-on-feature', '@turf/boolean-point-in-polygon', 'csv-parse', 'hyparquet-compressors'];

const dir = mkdtempSync(join(tmpdir(), 'lazy-packages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probe = loadProbe(dir);

/** The packages of node_modules a module script loaded (ES modules and CommonJS alike). */
function packagesLoadedBy(script: string): string[] {
  const run = probe.run(['--input-type=module', '-e', script]);
  expect(run.status, run.stderr).toBe(0);
  return [...new Set(run.files.map(packageOf).filter((name) => name !== undefined))].sort();
}

describe("the engine's entry loads the importers' heavy packages only when they are used", () => {
  it('an import of the entry loads none of them', () => {
    const loaded = packagesLoadedBy(`await import(${JSON.stringify(ENTRY)});`);
    // the probe sees the entry's own dependencies
    expect(loaded).toContain('kdbush');
    for (const name of HEAVY) expect(loaded, name).not.toContain(name);
  });

  it('an OSM conversion loads opening_hours and turf, and converts as before', () => {
    // a building way's square, 0.001 degrees a side: its representative point is its centre
    const script = `const e = await import(${JSON.stringify(ENTRY)});
const hours = e.convertOsmOpeningHours('Mo-Fr 09:00-17:00');
if (hours.status !== 'exact') throw new Error('hours: ' + JSON.stringify(hours));
const rows = e.featureCollectionRows({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'way/1', properties: { amenity: 'pub', name: 'The Test' }, geometry: { type: 'Polygon', coordinates: [[[-0.1, 51.5], [-0.099, 51.5], [-0.099, 51.501], [-0.1, 51.501], [-0.1, 51.5]]] } }] });
const p = rows[0]?.element?.point;
if (!p || Math.abs(p.lat - 51.5005) > 1e-9 || Math.abs(p.lon + 0.0995) > 1e-9) throw new Error('point: ' + JSON.stringify(rows));`;
    const loaded = packagesLoadedBy(script);
    for (const name of ['opening_hours', '@turf/center-of-mass', '@turf/boolean-point-in-polygon']) expect(loaded, name).toContain(name);
  });
});
