/**
 * Coordinates written [longitude, latitude] (GeoJSON's order) are named when `snapshot` and
 * `serve` read them (src/data/venues-at-sea.ts, src/cli/sea-warning.ts). Oracles: hand facts
 * of geography. Every London pub swapped lies within latitude [-0.6, 0.4] and longitude
 * [51.2, 51.8] (checked below from the real rows), the open Indian Ocean some 300 km east of
 * Somalia's coast (about 48° E at the equator) and far north of the Seychelles (4.6° S,
 * 55.5° E); (0, 0) lies in the Gulf of Guinea, (-25, 0) in the South Atlantic. None of the real extracts lies at sea.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { seaWarning } from '../../src/cli/sea-warning.js';
import { SEA_CHECK_SAMPLE, venuesAtSea } from '../../src/data/venues-at-sea.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { LONDON_PUBS, loadFixtureVenues, loadLondonPubs, loadVeggieGb, VEGGIE_GB } from '../search/support.js';
import { runSnapshotCommand } from '../snapshot/run-snapshot-command.js';
import { hasShared } from '../support/real-data.js';

const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-sea-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const swapped = (records: VenueRecord[]): VenueRecord[] =>
  records.map((r) => ({ ...r, location: { type: 'Point', coordinates: [r.location.coordinates[1], r.location.coordinates[0]] } }) as VenueRecord);

function writeNdjson(name: string, records: VenueRecord[]): string {
  const path = join(dir, name);
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

const fail = (message: string): never => {
  throw new Error(message);
};

describe('venues at sea', () => {
  it('finds none in the fixtures or the real extracts', () => {
    expect(seaWarning(createEngine(loadFixtureVenues()), 'fixtures')).toBeNull();
    if (hasShared(LONDON_PUBS)) expect(seaWarning(createEngine(loadLondonPubs()), 'pubs')).toBeNull();
    if (hasShared(VEGGIE_GB)) expect(seaWarning(createEngine(loadVeggieGb()), 'veggie')).toBeNull();
  });

  it.runIf(hasShared(LONDON_PUBS))('names London pubs written [longitude, latitude] when snapshot and serve read them', async () => {
    const pubs = loadLondonPubs();
    const turned = swapped(pubs);
    // the hand fact's premise: every swapped point within the open-ocean box
    for (const r of turned) {
      const [lat, lon] = r.location.coordinates;
      expect(lat).toBeGreaterThan(-0.6);
      expect(lat).toBeLessThan(0.4);
      expect(lon).toBeGreaterThan(51.2);
      expect(lon).toBeLessThan(51.8);
    }
    const path = writeNdjson('pubs-swapped.ndjson', turned);
    const said = { text: '' };
    await runSnapshotCommand(said, ['snapshot', '--data', path, '--out', join(dir, 'pubs.vsnap')]);
    const n = pubs.length.toLocaleString('en-GB');
    expect(said.text).toContain(`warning: ${n} of the ${n} venues in ${path} lie at sea (e.g. `);
    // the examples are swapped records, with their coordinates as given
    const named = [...said.text.matchAll(/"([^"]+)" at \[([-\d.]+), ([-\d.]+)\]/g)];
    expect(named).toHaveLength(3);
    for (const [, id, lat, lon] of named) {
      const record = turned.find((r) => r.id === id)!;
      expect(record.location.coordinates).toEqual([Number(lat), Number(lon)]);
    }
    expect(said.text).toContain('read the other way round, every one of them lies on land');
    expect(said.text).toContain('location.coordinates is [latitude, longitude], latitude first');
    // the snapshot is still written: a venue at sea is odd, not invalid
    expect(said.text).toMatch(/wrote .*pubs\.vsnap/);

    const report = { text: '', write(s: string) { this.text += s; return true; } };
    await loadEngineFile(path, fail, report as never);
    expect(report.text).toContain(`warning: ${n} of the ${n} venues in ${path} lie at sea`);
    // the snapshot itself loads without the check (it was said when it was written)
    const quiet = { text: '', write(s: string) { this.text += s; return true; } };
    await loadEngineFile(join(dir, 'pubs.vsnap'), fail, quiet as never);
    expect(quiet.text).not.toContain('warning');
  });

  it('counts venues at 0,0 among land ones, without the swap advice when swapping does not help', () => {
    const records = loadFixtureVenues();
    for (let k = 0; k < 7; k++) records[k * 100] = { ...records[k * 100]!, location: { type: 'Point', coordinates: [0, 0] } };
    const engine = createEngine(records);
    const warning = seaWarning(engine, 'mixed.ndjson');
    expect(warning).toContain(`warning: 7 of the ${records.length.toLocaleString('en-GB')} venues in mixed.ndjson lie at sea (e.g. `);
    const named = [...warning!.matchAll(/"([^"]+)" at \[0, 0\]/g)].map((m) => m[1]);
    expect(named).toHaveLength(3);
    for (const id of named) expect([0, 100, 200, 300, 400, 500, 600].map((k) => records[k]!.id)).toContain(id);
    expect(warning).not.toContain('other way round');
  });

  it('checks an evenly spaced sample of a large set', () => {
    const n = SEA_CHECK_SAMPLE * 2 + 5;
    // every venue in the South Atlantic (25° S, 0° E) except the even ones in London
    const lat = new Float64Array(n).fill(-25);
    const lon = new Float64Array(n).fill(0);
    for (let i = 0; i < n; i += 2) {
      lat[i] = 51.5;
      lon[i] = -0.12;
    }
    const found = venuesAtSea(lat, lon, n);
    expect(found.checked).toBe(SEA_CHECK_SAMPLE);
    // sample k is venue floor(k * n / SEA_CHECK_SAMPLE) = 2k + floor(5k / 100000): odd for k in [20000, 40000), [60000, 80000)
    expect(found.atSea).toBe(40_000);
    expect(found.examples).toEqual([40_001, 40_003, 40_005]);
  });
});
