/**
 * Audit 68e F7: `import osm` held a Set of id strings and one TwinPoint object per record written
 * (and a promise reaction per line read), ~1 KB a record. Now the ids are held as numbers in a
 * hash table (osm-written-ids.ts) and the twin count's inputs in typed arrays
 * (osm-twin-tally.ts). Memory is measured outside the tests (docs/import.md); these check that
 * the duplicate check stays exact and the twin count unchanged. Oracles: a Set of the id
 * strings; hand-computed distances; the brute-force twin scan (support/osm-twin-oracle.ts) of
 * the real London export.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun, importOsm, POSSIBLE_TWINS_COUNTER } from '../../src/import/osm-import.js';
import { OsmTwinTally } from '../../src/import/osm-twin-tally.js';
import { WrittenOsmIds } from '../../src/import/osm-written-ids.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { twinOracle } from './support/osm-twin-oracle.js';

const POINTS = 'osm-london-pubs/london_pubs_points.ndjson';

describe('WrittenOsmIds: exact as a Set of the id strings', () => {
  it('numbers near 2^53, leading zeros, one number of three types, ids of other forms', () => {
    const ids = [
      'osm:node/0', 'osm:way/0', 'osm:relation/0', 'osm:node/00', 'osm:node/0123', 'osm:node/123', 'osm:way/123',
      'osm:node/9007199254740991', 'osm:node/9007199254740992', 'osm:node/9007199254740993', // 2^53 - 1, 2^53, 2^53 + 1 (equal to 2^53 as doubles)
      'osm:node/4294967296', 'osm:node/4294967297', 'osm:way/8589934592', 'osm:node/123456789012345678901', 'fhrs:123', 'osm:node/12 ',
    ];
    // many numbers too, so the table grows past its first size: the London export's ids and the same numbers as ways
    const lines = hasShared(POINTS) ? readFileSync(sharedFile(POINTS), 'utf8').split('\n').filter(Boolean) : [];
    for (const line of lines) {
      const id = (JSON.parse(line) as { osm_id: string }).osm_id;
      ids.push(`osm:${id}`, `osm:way/${id.split('/')[1]}`);
    }
    for (let k = 0; k < 3000; k++) ids.push(`osm:node/${2 ** 40 + k * 2 ** 32}`); // equal low halves
    const oracle = new Set<string>();
    const held = new WrittenOsmIds();
    ids.forEach((id, i) => {
      if (i % 2 === 1) return; // every other id first, then all (repeats included)
      held.add(id);
      oracle.add(id);
    });
    for (const id of ids) expect(held.has(id), id).toBe(oracle.has(id));
    for (const id of ids) held.add(id);
    for (const id of ids) expect(held.has(id), id).toBe(true);
    for (const id of ['osm:node/1', 'osm:node/01', 'osm:relation/123', 'osm:node/9007199254740990', 'osm:node/123456789012345678900']) expect(held.has(id), id).toBe(ids.includes(id));
  });
});

describe('OsmTwinTally: the twin count of the records added', () => {
  const at = (id: string, name: string, lat: number, lon: number, genre = 'pub'): VenueRecord => ({ id: `osm:${id}`, name, location: { type: 'Point', coordinates: [lat, lon] }, primaryGenre: genre });
  // 0.0001 degree of latitude is 11.1 m, of longitude at 51.5 degrees 6.9 m
  it('one partner each, within 25 m, same name key and genre; counted by hand', () => {
    const tally = new OsmTwinTally();
    const records = [
      at('node/1', 'The Crown', 51.5, -0.1),
      at('way/1', 'Crown', 51.5001, -0.1), // 11 m: a twin
      at('way/2', 'The Crown', 51.5, -0.1002), // 14 m: the node is taken by the nearer way
      at('node/2', 'The Crown', 51.6, -0.1),
      at('relation/2', 'The Crown', 51.6003, -0.1), // 33 m: too far
      at('node/3', 'Bell', 51.7, -0.1),
      at('way/3', 'Bell', 51.7, -0.1001, 'bar'), // 7 m, another genre
      at('node/4', 'Swan', 51.8, -0.1, 'bar'),
      at('relation/4', 'The Swan', 51.8, -0.1001, 'bar'), // 7 m: a twin
      at('way/5', 'Swan', 51.8, -0.1001, 'bar'), // another way as near: the relation came first
      at('node/6', '!!!', 51.9, -0.1), // empty name key: never a twin
      at('way/6', '???', 51.9, -0.1),
    ];
    for (const r of records) tally.add(r);
    expect(tally.count()).toBe(2);
    expect(new OsmTwinTally().count()).toBe(0);
  });

  describe.skipIf(!hasShared(POINTS))('import osm of the London points export, twice over and with repeated lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'osm-written-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('duplicate_id lists exactly the repeated lines; the twin count is the brute-force count of each copy', async () => {
      const lines = readFileSync(sharedFile(POINTS), 'utf8').split('\n').filter(Boolean);
      const original = await collectRun(importOsm(sharedFile(POINTS)));
      const pairs = twinOracle(original.records);
      expect(pairs.length).toBe(3); // docs/import.md: London's three pubs mapped twice
      const written = new Set(original.records.map((r) => r.id.slice('osm:'.length)));
      // a copy 1 degree east with new ids (no pair across copies: 69 km apart), then every 7th line again
      const moved = lines.map((line) => {
        const v = JSON.parse(line) as { osm_id: string; lon: number };
        const [type, id] = v.osm_id.split('/');
        return JSON.stringify({ ...v, osm_id: `${type}/${Number(id) + 1e12}`, lon: v.lon + 1 });
      });
      const again = lines.filter((_, i) => i % 7 === 0);
      const path = join(dir, 'twice.ndjson');
      writeFileSync(path, [...lines, ...moved, ...again].join('\n') + '\n');
      const { records, report } = await collectRun(importOsm(path));
      expect(records.length).toBe(original.records.length * 2);
      const repeatedWritten = again.map((l) => (JSON.parse(l) as { osm_id: string }).osm_id).filter((id) => written.has(id));
      expect(report.skipReasons.get('duplicate_id')?.count).toBe(repeatedWritten.length);
      expect(report.skippedRecords.filter((s) => s.reason === 'duplicate_id').map((s) => s.ref)).toEqual(repeatedWritten);
      expect(report.counters.get(POSSIBLE_TWINS_COUNTER)).toBe(pairs.length * 2);
    }, 120_000);
  });
});
