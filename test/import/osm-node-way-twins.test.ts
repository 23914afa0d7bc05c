import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectRun, importOsm, mergeVenues } from '../../src/import/index.js';
import { POSSIBLE_TWINS_COUNTER } from '../../src/import/osm-import.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { osmNode } from './support/merge-records.js';
import { twinOracle } from './support/osm-twin-oracle.js';

/**
 * Audit 64c F6: one OSM place mapped twice, as a node and as its building's way, was imported
 * twice ("The Forge", node/10048694530 and way/59523528, 7.8 m apart). `import merge` folds
 * such pairs (a node and a way/relation, equal name key, equal primaryGenre, within 25 m);
 * `import osm` counts them. Oracle: a brute-force scan of all pairs of each real import
 * (support/osm-twin-oracle.ts: its own name folding, GeographicLib distances).
 */
const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const FILES = ['osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson', 'osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson', 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson'];
const present = FILES.every((f) => existsSync(DATA + f));

describe.skipIf(!present)('one OSM place mapped as a node and as its building: counted by import osm, folded by import merge (audit 64c F6)', () => {
  const expected: Record<string, string[]> = {
    // checked by hand: the audit's pairs, and London's three pubs mapped twice
    'osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson': ['node/549539702 way/147183304', 'node/10048694530 way/59523528'],
    // "Wild Food Café": node/6908721508 a restaurant, way/566375748 a cafe (3.3 m): genres differ, kept apart by the tight rule
    'osm-veggie-gb/veggiekarte_gb_2022-12-02.geojson': [],
    'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson': ['node/11638253269 way/364768722', 'node/2488725676 way/1221239101', 'node/317421598 way/1322622415'],
  };
  for (const file of FILES) {
    it(`${file.split('/')[0]}: the folds are exactly the brute-force pairs; the node keeps its id and takes the way's fields`, async () => {
      const { records, report: imported } = await collectRun(importOsm(DATA + file));
      const pairs = twinOracle(records);
      const ids = (r: VenueRecord) => r.id.slice('osm:'.length);
      expect(pairs.map(([n, w]) => `${ids(n)} ${ids(w)}`).sort()).toEqual([...(expected[file] as string[])].sort());
      // no record in two pairs, so one partner each changes nothing
      expect(new Set(pairs.flat().map((r) => r.id)).size).toBe(pairs.length * 2);
      expect(imported.counters.get(POSSIBLE_TWINS_COUNTER)).toBe(pairs.length === 0 ? undefined : pairs.length);

      const { records: merged, report } = mergeVenues(records);
      const skips = report.skippedRecords.filter((s) => s.reason === 'osm_node_way_twin');
      expect(skips.map((s) => `${s.ref} ${s.detail?.split(',')[0]}`).sort()).toEqual(pairs.map(([n, w]) => `${w.id} into ${n.id}`).sort());
      expect(merged).toHaveLength(records.length - pairs.length);
      const byId = new Map(merged.map((r) => [r.id, r]));
      for (const [node, way] of pairs) {
        expect(byId.has(way.id), way.id).toBe(false);
        const kept = byId.get(node.id) as VenueRecord;
        expect(kept.location).toEqual(node.location);
        expect(kept.name).toBe(node.name);
        for (const key of Object.keys(way)) expect(kept[key as keyof VenueRecord], `${node.id} ${key}`).toBeDefined();
      }
      expect(report.balanced()).toBe(true);
    });
  }

  it('two ways 40 m apart ("The Hill") and a node and way 72 m apart ("Greggs") stay apart; so do a node and way 30 m apart', async () => {
    const pubs = (await collectRun(importOsm(DATA + FILES[2]))).records;
    const veg = (await collectRun(importOsm(DATA + FILES[1]))).records;
    const { records } = mergeVenues([...pubs, ...veg]);
    for (const id of ['osm:way/289374229', 'osm:way/289446739', 'osm:node/2900427075', 'osm:way/461464739']) expect(records.some((r) => r.id === id), id).toBe(true);
    // hand-made: 0.00027° of latitude is 30.0 m
    const way: VenueRecord = { id: 'osm:way/2', name: 'The Anchor', primaryGenre: 'pub', location: { type: 'Point', coordinates: [51.50027, -0.1] } };
    const near = mergeVenues([osmNode(1, 'Anchor', [51.5, -0.1], { primaryGenre: 'pub' }), way]);
    expect(near.records.map((r) => r.id)).toEqual(['osm:node/1', 'osm:way/2']);
    const close = mergeVenues([osmNode(1, 'Anchor', [51.5002, -0.1], { primaryGenre: 'pub' }), way]);
    expect(close.records.map((r) => r.id)).toEqual(['osm:node/1']);
  });
});
