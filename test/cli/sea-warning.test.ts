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
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const IOM_OSM = 'osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson';
const LONDON_PUBS_OSM = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';

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

  // audit 65a F9: west of about 1.5° W a swapped British point lands in the Indian Ocean around
  // the Seychelles, whose tiles name a land zone (Indian/Mahe), so the sea rule missed it
  describe('venues of the British Isles written [longitude, latitude], known by their addresses', () => {
    // hand-placed: each point and address from a map (the postcode is the building's)
    const british: VenueRecord[] = [
      ['Douglas, Isle of Man', 54.1502, -4.4777, 'Loch Promenade, Douglas IM1 2LX'],
      ['Edinburgh', 55.9502, -3.1875, '1 Princes Street, Edinburgh EH2 2EQ'],
      ['Manchester', 53.4794, -2.2453, 'Albert Square, Manchester M60 2LA'],
      ['Dublin', 53.3438, -6.2546, 'College Green, Dublin 2, D02 PN40'],
      ['Galway', 53.2743, -9.0514, 'Eyre Square, Galway, Ireland'],
      ['Belfast', 54.5964, -5.9301, 'Donegall Square, Belfast BT1 5GS'],
      ['Stornoway', 58.2089, -6.3857, 'Cromwell Street, Stornoway HS1 2DA'],
    ].map(([name, lat, lon, formattedAddress], k) => ({ id: `b${k}`, name: name as string, location: { type: 'Point', coordinates: [lat as number, lon as number] }, formattedAddress: formattedAddress as string }) as VenueRecord);
    // island venues whose swapped reading lands in a land zone or the British Isles' (Mahé's swap lies in Scotland)
    const islands: VenueRecord[] = [
      ['Victoria, Mahé', -4.6191, 55.4513, 'Market Street, Victoria, Mahé, Seychelles'],
      ['Beau Vallon, Mahé', -4.6167, 55.4277, 'Beau Vallon, Mahé, Seychelles'],
      ['Port Louis', -20.1609, 57.5012, 'Caudan Waterfront, Port Louis, Mauritius'],
      ['Tristan da Cunha', -37.0675, -12.3106, 'Edinburgh of the Seven Seas, TDCU 1ZZ'],
      ['Jamestown, St Helena', -15.9244, -5.7181, 'Main Street, Jamestown, STHL 1ZZ'],
      ['Marisco Tavern, Lundy', 51.1805, -4.6702, 'Lundy, Bideford EX39 2LY'],
      ['New Inn, Tresco', 49.956, -6.3303, 'New Grimsby, Tresco TR24 0QQ'],
      ['Mermaid Tavern, Sark', 49.4311, -2.3671, 'Sark GY10 1SF'],
      ['Fair Isle', 59.5386, -1.6137, 'Fair Isle, Shetland ZE2 9JU'],
    ].map(([name, lat, lon, formattedAddress], k) => ({ id: `i${k}`, name: name as string, location: { type: 'Point', coordinates: [lat as number, lon as number] }, formattedAddress: formattedAddress as string }) as VenueRecord);

    it('warns for every one of them, naming the zone they were given', () => {
      const warning = seaWarning(createEngine(swapped(british)), 'west.ndjson');
      expect(warning).toContain(`warning: ${british.length} of the ${british.length} venues in west.ndjson have an address in the British Isles (a UK postcode, an Eircode or the country) but lie outside them (e.g. `);
      // three examples, each a swapped record with its coordinates as given, in a zone of the Indian Ocean's islands
      const named = [...warning!.matchAll(/"(b\d)" at \[([-\d.]+), ([-\d.]+)\], time zone (Indian\/\w+)/g)];
      expect(named).toHaveLength(3);
      for (const [, id, lat, lon] of named) expect(swapped(british).find((r) => r.id === id)!.location.coordinates).toEqual([Number(lat), Number(lon)]);
      expect(warning).toContain('read the other way round, every one of them lies there. A venue\'s location.coordinates is [latitude, longitude]');
      // as read, in the right order: no warning
      expect(seaWarning(createEngine(british), 'west.ndjson')).toBeNull();
    });

    it('says nothing of island venues, nor of swapped British venues without an address in the British Isles', () => {
      expect(seaWarning(createEngine(islands), 'islands.ndjson')).toBeNull();
      const withoutAddress = swapped(british).map(({ formattedAddress: _, ...r }) => r as VenueRecord);
      expect(seaWarning(createEngine(withoutAddress), 'bare.ndjson')).toBeNull(); // what the rule still misses
    });

    it.runIf(hasShared(IOM_OSM) && hasShared(VEGGIE_GB) && hasShared(LONDON_PUBS_OSM))('on the real OSM extracts imported as `import osm` writes them: none as given; every Isle of Man venue with a postcode when swapped', async () => {
      const imported = async (file: string) => (await collectRun(importOsm(sharedFile(file)))).records;
      for (const file of [IOM_OSM, VEGGIE_GB, LONDON_PUBS_OSM]) expect(seaWarning(createEngine(await imported(file)), file)).toBeNull();
      const iom = await imported(IOM_OSM);
      // the oracle: Isle of Man postcodes are IM1 to IM99 (Royal Mail), written in the address
      const withPostcode = iom.filter((r) => /\bIM\d\d? ?\d[A-Z]{2}\b/.test(r.formattedAddress ?? '')).length;
      expect(withPostcode).toBeGreaterThan(100);
      const warning = seaWarning(createEngine(swapped(iom)), 'iom.ndjson')!;
      expect(warning).toContain(`warning: ${withPostcode} of the ${iom.length} venues in iom.ndjson have an address in the British Isles`);
      // each example is a real Isle of Man venue (hand fact: the island spans 54.04-54.42° N, 4.80-4.31° W)
      for (const [, id] of warning.matchAll(/"([^"]+)" at \[/g)) {
        const [lat, lon] = iom.find((r) => r.id === id)!.location.coordinates;
        expect(lat).toBeGreaterThan(54.0);
        expect(lat).toBeLessThan(54.45);
        expect(lon).toBeGreaterThan(-4.85);
        expect(lon).toBeLessThan(-4.3);
      }
    });
  });

  it('names New York venues written [longitude, latitude]: they lie in Antarctica, and on land read the other way round', () => {
    // the fixtures' New York venues (hand fact: Manhattan and Brooklyn lie within 40.5-40.95° N, 74.1-73.7° W)
    const ny = loadFixtureVenues().filter((r) => r.location.coordinates[1] < -60 && r.location.coordinates[0] > 30);
    expect(ny.length).toBeGreaterThan(5);
    for (const r of ny) {
      expect(r.location.coordinates[0]).toBeGreaterThan(40.5);
      expect(r.location.coordinates[0]).toBeLessThan(40.95);
      expect(r.location.coordinates[1]).toBeGreaterThan(-74.1);
      expect(r.location.coordinates[1]).toBeLessThan(-73.7);
    }
    expect(seaWarning(createEngine(ny), 'ny.ndjson')).toBeNull();
    // swapped, every latitude is below -73.7: south of 60° S, in Antarctica (tz-lookup's tile: Antarctica/Syowa), which is not a nautical zone
    const warning = seaWarning(createEngine(swapped(ny)), 'ny.ndjson');
    expect(warning).toContain(`warning: ${ny.length} of the ${ny.length} venues in ny.ndjson lie in Antarctica, south of 60° S (e.g. `);
    expect(warning).toContain('; read the other way round, every one of them lies on land. A venue\'s location.coordinates is [latitude, longitude]');
    const named = [...warning!.matchAll(/"([^"]+)" at \[([-\d.]+), ([-\d.]+)\]/g)];
    expect(named).toHaveLength(3);
    for (const [, id, lat, lon] of named) expect(swapped(ny).find((r) => r.id === id)!.location.coordinates).toEqual([Number(lat), Number(lon)]);
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
