import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../src/import/import-report.js';
import { collectRun, importOverture } from '../../src/import/index.js';
import { VenueRecordSchema, type VenueRecord } from '../../src/schema/venue.js';

/**
 * The Overture importer against the real sample (../shared/data/overture-places-sample,
 * 3,425 US places, Snappy, one row group). The oracle is DuckDB (@duckdb/node-api), a
 * second Parquet reader and writer: it reads the sample's columns for every imported
 * venue, writes the ZSTD and multi-row-group files, and reports their row-group statistics.
 */
const SAMPLE = fileURLToPath(new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url));
const present = existsSync(SAMPLE);
if (!present) console.warn(`[skip] ${SAMPLE} not found: Overture import tests skipped`);

const dir = mkdtempSync(join(tmpdir(), 'venue-overture-'));
let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function query<T>(sql: string): Promise<T[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as unknown as T[];
}

/** The WKB point's [lon, lat], decoded here from the bytes DuckDB read (little-endian ISO WKB point). */
function wkbLonLat(hex: string): [number, number] {
  const b = Buffer.from(hex, 'hex');
  expect(b[0]).toBe(1);
  expect(b.readUInt32LE(1)).toBe(1);
  return [b.readDoubleLE(5), b.readDoubleLE(13)];
}

const firstText = (list: string[] | null): string | undefined => list?.map((s) => s.trim()).find((s) => s !== '');
const counts = (report: ImportReport): Record<string, number> => Object.fromEntries([...report.skipReasons].map(([k, g]) => [k, g.count]));

let sample: Promise<{ records: VenueRecord[]; report: ImportReport }> | undefined;
const importSample = () => (sample ??= collectRun(importOverture(SAMPLE)));

describe.skipIf(!present)('import overture: the real US sample', () => {
  it('reads 3,425 rows; written plus skipped by reason add up to 3,425; every record validates', async () => {
    const { records, report } = await importSample();
    expect(report.read).toBe(3425);
    expect(report.written + report.skipped).toBe(3425);
    expect(report.balanced()).toBe(true);
    expect(records).toHaveLength(report.written);
    // The figures docs/import.md prints ("Measured ... on the sample"); change both together.
    expect(report.written).toBe(679);
    expect(counts(report)).toEqual({ not_food_or_drink: 2710, low_confidence: 36 });
    expect(records.filter((r: VenueRecord) => !Value.Check(VenueRecordSchema, r)).map((r: VenueRecord) => r.id)).toEqual([]);
    expect(report.counters.get('row groups read')).toBe(1);
  });

  it('every imported venue: name, coordinates (1e-6 deg), chain flag and contact fields equal the file as DuckDB reads it', async () => {
    const { records } = await importSample();
    type Row = {
      id: string;
      name: string;
      wkb: string;
      confidence: number;
      websites: string[] | null;
      phones: string[] | null;
      emails: string[] | null;
      socials: string[] | null;
      brand_name: string | null;
      brand_wikidata: string | null;
      freeform: string | null;
    };
    const rows = await query<Row>(`
      SELECT id, names."primary" AS name, hex(geometry) AS wkb, confidence, websites, phones,
             CAST(emails AS VARCHAR[]) AS emails, socials,
             brand.names."primary" AS brand_name, CAST(brand.wikidata AS VARCHAR) AS brand_wikidata,
             addresses[1].freeform AS freeform
      FROM read_parquet('${SAMPLE}')`);
    expect(rows).toHaveLength(3425);
    const byId = new Map(rows.map((r) => [`overture:${r.id}`, r]));
    let chains = 0;
    for (const v of records) {
      const row = byId.get(v.id);
      expect(row, v.id).toBeDefined();
      if (row === undefined) continue;
      // Whitespace runs collapse to one space (src/import/clean-text.ts; `Mariscos  DJ S` in the sample).
      expect(v.name).toBe(row.name.replace(/\s+/g, ' ').trim());
      const [lon, lat] = wkbLonLat(row.wkb);
      expect(Math.abs(v.location.coordinates[0] - lat)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(v.location.coordinates[1] - lon)).toBeLessThanOrEqual(1e-6);
      const chain = (row.brand_name ?? '').trim() !== '' || (row.brand_wikidata ?? '') !== '';
      expect(v.isChain === true, v.id).toBe(chain);
      if (chain) chains++;
      expect(v.websiteUri).toBe(firstText(row.websites));
      expect(v.contactNumber).toBe(firstText(row.phones));
      expect(v.contactEmail).toBe(firstText(row.emails));
      expect(v.socials?.facebook).toBe(row.socials?.find((u) => u.includes('facebook.com/')));
      expect(v.confidence).toBe(row.confidence);
      expect(row.confidence).toBeGreaterThanOrEqual(0.5);
      if (row.freeform?.trim()) expect(v.formattedAddress?.startsWith(row.freeform.trim())).toBe(true);
    }
    expect(chains).toBeGreaterThan(50);
  });

  it('kinds: every row whose categories.primary is a plain food or drink word (listed here by hand) and confident is imported with that genre', async () => {
    const { records } = await importSample();
    const genreOf = new Map(records.map((r) => [r.id, r.primaryGenre]));
    const want: Record<string, string> = { restaurant: 'restaurant', coffee_shop: 'coffee_shop', cafe: 'coffee_shop', bar: 'bar', pub: 'pub', bakery: 'bakery', fast_food_restaurant: 'fast_food', ice_cream_shop: 'ice_cream', mexican_restaurant: 'restaurant', pizza_restaurant: 'restaurant' };
    const rows = await query<{ id: string; cat: string }>(`
      SELECT id, categories."primary" AS cat FROM read_parquet('${SAMPLE}')
      WHERE confidence >= 0.5 AND categories."primary" IN (${Object.keys(want).map((k) => `'${k}'`).join(',')})`);
    expect(rows.length).toBeGreaterThan(300);
    for (const r of rows) expect(genreOf.get(`overture:${r.id}`), `${r.id} ${r.cat}`).toBe(want[r.cat]);
    // Hotels, lawyers and campgrounds are not imported.
    const others = await query<{ id: string }>(`SELECT id FROM read_parquet('${SAMPLE}') WHERE categories."primary" IN ('hotel','lawyer','campground')`);
    expect(others.length).toBeGreaterThan(400);
    for (const r of others) expect(genreOf.has(`overture:${r.id}`)).toBe(false);
  });

  it('walk-through 32: steakhouse, salad_bar, smoothie_juice_bar, delicatessen, desserts, tapas_bar rows (read by DuckDB) are imported, none as not_food_or_drink', async () => {
    const { records, report } = await importSample();
    const genreOf = new Map(records.map((r) => [r.id, r.primaryGenre]));
    const want: Record<string, string> = { steakhouse: 'restaurant', salad_bar: 'restaurant', tapas_bar: 'restaurant', smoothie_juice_bar: 'coffee_shop', delicatessen: 'fast_food', desserts: 'ice_cream' };
    const rows = await query<{ id: string; name: string; cat: string }>(`
      SELECT id, names."primary" AS name, categories."primary" AS cat FROM read_parquet('${SAMPLE}')
      WHERE confidence >= 0.5 AND categories."primary" IN (${Object.keys(want).map((k) => `'${k}'`).join(',')})`);
    expect(rows.length).toBeGreaterThanOrEqual(25);
    for (const r of rows) expect(genreOf.get(`overture:${r.id}`), `${r.name} (${r.cat})`).toBe(want[r.cat]);
    const names = new Set(rows.map((r) => r.name));
    for (const n of ['Outback Steakhouse', 'Olive Garden Italian Restaurant', 'Sweetgreen', "JW's Bierstube"]) expect(names.has(n), n).toBe(true);
    const skippedAs = (report.skipReasons.get('not_food_or_drink')?.examples ?? []).join(' ');
    for (const w of Object.keys(want)) expect(skippedAs).not.toContain(`(${w})`);
  });

  it('audit 67d F3: pizza_delivery_service rows (read by DuckDB: Domino\'s Pizza, a Lou Malnati\'s) are fast food with cuisine pizza, not skipped', async () => {
    const { records, report } = await importSample();
    const byId = new Map(records.map((r) => [r.id, r]));
    const rows = await query<{ id: string; name: string }>(`
      SELECT id, names."primary" AS name FROM read_parquet('${SAMPLE}')
      WHERE confidence >= 0.5 AND categories."primary" = 'pizza_delivery_service'`);
    expect(rows.map((r) => r.name).sort()).toEqual(["Domino's Pizza", 'Old Irving - Lou Malnatis Old Irving']);
    for (const r of rows) {
      const v = byId.get(`overture:${r.id}`);
      expect(v?.primaryGenre, r.name).toBe('fast_food');
      expect(v?.additionalGenres ?? [], r.name).toContain('pizza');
      expect(v?.establishmentFlags ?? [], r.name).toContain('servesFood');
    }
    expect((report.skipReasons.get('not_food_or_drink')?.examples ?? []).join(' ')).not.toContain('(pizza_delivery_service)');
  });

  it('walk-through 32: a place whose own category is only eat_and_drink or food takes its kind from its first food alternate; a hotel, a liquor store, a filling station never do', async () => {
    const { records } = await importSample();
    const genreOf = new Map(records.map((r) => [r.id, r.primaryGenre]));
    const roots = await query<{ id: string; alt: string[] | null }>(`
      SELECT id, categories.alternate AS alt FROM read_parquet('${SAMPLE}')
      WHERE confidence >= 0.5 AND categories."primary" IN ('eat_and_drink', 'food') AND names."primary" IS NOT NULL`);
    const withFoodAlternate = roots.filter((r) => (r.alt ?? []).some((a) => a === 'restaurant' || a.endsWith('_restaurant')));
    expect(withFoodAlternate.length).toBeGreaterThanOrEqual(3);
    for (const r of withFoodAlternate) expect(genreOf.get(`overture:${r.id}`), r.id).toBe('restaurant');
    const others = await query<{ id: string }>(`
      SELECT id FROM read_parquet('${SAMPLE}')
      WHERE categories."primary" IN ('hotel', 'liquor_store', 'convenience_store', 'winery')
        AND len(list_filter(categories.alternate, a -> a IN ('restaurant', 'bar', 'wine_bar', 'pub', 'coffee_shop'))) > 0`);
    expect(others.length).toBeGreaterThan(10);
    for (const r of others) expect(genreOf.has(`overture:${r.id}`), r.id).toBe(false);
  });

  it('--min-confidence 0 keeps the low-confidence rows; 1.1 is rejected naming the option', async () => {
    const all = await collectRun(importOverture(SAMPLE, { minConfidence: 0 }));
    const def = await importSample();
    expect(all.report.written).toBe(def.report.written + (def.report.skipReasons.get('low_confidence')?.count ?? 0));
    expect(() => importOverture(SAMPLE, { minConfidence: 1.1 })).toThrow('options.minConfidence must be a number from 0 to 1; got 1.1');
  });

  it('a ZSTD file written by DuckDB as GeoParquet (geo metadata: the geometry decodes as GeoJSON) imports identically', async () => {
    const zstd = join(dir, 'places.zstd.parquet');
    const geo = JSON.stringify({ version: '1.1.0', primary_column: 'geometry', columns: { geometry: { encoding: 'WKB', geometry_types: ['Point'] } } });
    await duck.run(`COPY (SELECT * FROM read_parquet('${SAMPLE}')) TO '${zstd}' (FORMAT parquet, COMPRESSION zstd, KV_METADATA {geo: '${geo}'})`);
    const codecs = await query<{ compression: string }>(`SELECT DISTINCT compression FROM parquet_metadata('${zstd}')`);
    expect(codecs.map((c) => c.compression)).toEqual(['ZSTD']);
    const z = await collectRun(importOverture(zstd));
    const s = await importSample();
    expect(z.records).toEqual(s.records);
    expect(z.report.toJSON()).toEqual({ ...s.report.toJSON(), source: 'places.zstd.parquet' });
  });

  it('a folder: every .parquet file under it, in path order; the second copy of each venue is a duplicate_id', async () => {
    const folder = join(dir, 'release');
    mkdirSync(join(folder, 'type=place'), { recursive: true });
    await duck.run(`COPY (SELECT * FROM read_parquet('${SAMPLE}')) TO '${join(folder, 'type=place', 'part-0.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
    await duck.run(`COPY (SELECT * FROM read_parquet('${SAMPLE}')) TO '${join(folder, 'zz-copy.parquet')}' (FORMAT parquet)`);
    writeFileSync(join(folder, 'README.txt'), 'not parquet');
    const both = await collectRun(importOverture(folder));
    const s = await importSample();
    expect(both.records).toEqual(s.records);
    expect(both.report.read).toBe(2 * 3425);
    expect(both.report.counters.get('files')).toBe(2);
    expect(both.report.skipReasons.get('duplicate_id')?.count).toBe(s.report.written);
    expect(both.report.balanced()).toBe(true);
  });
});

describe.skipIf(!present)('import overture --bbox / --country: row groups outside the region are not read', () => {
  // Two row groups (DuckDB flushes row groups of 2,048 rows at the least): west of about -84.35 and east of it.
  const file = join(dir, 'by-longitude.parquet');
  const east = { west: -80, south: 38, east: -70, north: 43 };
  let groups: Array<{ id: number; xmin: number; xmax: number; ymin: number; ymax: number; offset: number; size: number }> = [];

  beforeAll(async () => {
    await duck.run(`COPY (SELECT * FROM read_parquet('${SAMPLE}') ORDER BY bbox.xmin) TO '${file}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 300)`);
    type Stat = { row_group_id: string; path_in_schema: string; stats_min: string; stats_max: string };
    const stats = await query<Stat>(`SELECT row_group_id, path_in_schema, stats_min, stats_max FROM parquet_metadata('${file}') WHERE path_in_schema LIKE 'bbox, %'`);
    const chunks = await query<{ row_group_id: string; start: string; size: string }>(`
      SELECT row_group_id, min(coalesce(dictionary_page_offset, data_page_offset)) AS start, sum(total_compressed_size) AS size
      FROM parquet_metadata('${file}') GROUP BY row_group_id ORDER BY row_group_id`);
    groups = chunks.map((c) => {
      const get = (col: string, which: 'stats_min' | 'stats_max') => Number(stats.find((s) => s.row_group_id === c.row_group_id && s.path_in_schema === `bbox, ${col}`)?.[which]);
      return { id: Number(c.row_group_id), xmin: get('xmin', 'stats_min'), xmax: get('xmax', 'stats_max'), ymin: get('ymin', 'stats_min'), ymax: get('ymax', 'stats_max'), offset: Number(c.start), size: Number(c.size) };
    });
  });

  it('reads only the row groups whose bbox statistics meet the box (DuckDB says which); venues are the full import\'s inside the box', async () => {
    expect(groups.length).toBe(2);
    const meets = groups.filter((g) => !(g.xmax < east.west || g.xmin > east.east || g.ymax < east.south || g.ymin > east.north));
    expect(meets.length).toBe(1);
    const { records, report } = await collectRun(importOverture(file, { bbox: east }));
    expect(report.counters.get('row groups read')).toBe(meets.length);
    expect(report.counters.get('row groups skipped (bbox statistics)')).toBe(groups.length - meets.length);
    expect(report.balanced()).toBe(true);
    const inside = (await importSample()).records.filter(({ location: { coordinates: [lat, lon] } }) => lat >= 38 && lat <= 43 && lon >= -80 && lon <= -70);
    expect(records.map((r) => r.id).sort()).toEqual(inside.map((r) => r.id).sort());
    expect(records.length).toBeGreaterThan(50);
  });

  it('proof that the other row group is never read: with its bytes overwritten, the bbox import still succeeds and the full one fails', async () => {
    const broken = join(dir, 'broken.parquet');
    await duck.run(`COPY (SELECT * FROM read_parquet('${file}')) TO '${broken}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 300)`);
    const west = groups.find((g) => g.xmax < east.west);
    expect(west).toBeDefined();
    const fd = openSync(broken, 'r+');
    writeSync(fd, Buffer.alloc(west!.size, 0xee), 0, west!.size, west!.offset);
    closeSync(fd);
    const { records } = await collectRun(importOverture(broken, { bbox: east }));
    const good = await collectRun(importOverture(file, { bbox: east }));
    expect(records).toEqual(good.records);
    await expect(collectRun(importOverture(broken))).rejects.toThrow();
  });

  it('a box across the antimeridian (west 170, east -150) takes the Aleutian and Hawaiian side of the sample only', async () => {
    const box = { west: 170, south: 15, east: -150, north: 65 };
    const { records } = await collectRun(importOverture(file, { bbox: box }));
    const want = (await importSample()).records.filter(({ location: { coordinates: [lat, lon] } }) => lat >= 15 && lat <= 65 && (lon >= 170 || lon <= -150));
    expect(records.map((r) => r.id).sort()).toEqual(want.map((r) => r.id).sort());
  });

  it('a box given in lat,lon order keeps no row group: the hint gives the files\' extent (DuckDB\'s statistics) and the order (audit 63d finding 6)', async () => {
    const run = await collectRun(importOverture(file, { bbox: { west: 40.5, south: -74.3, east: 40.95, north: -73.7 } }));
    expect(run.records).toEqual([]);
    const down = (v: number) => (Math.floor(v * 10) / 10).toFixed(1);
    const up = (v: number) => (Math.ceil(v * 10) / 10).toFixed(1);
    const w = Math.min(...groups.map((g) => g.xmin));
    const e = Math.max(...groups.map((g) => g.xmax));
    const s = Math.min(...groups.map((g) => g.ymin));
    const n = Math.max(...groups.map((g) => g.ymax));
    expect(run.report.emptyHint).toBe(
      `no row group met the region: the files' rows lie in lon ${down(w)}..${up(e)}, lat ${down(s)}..${up(n)} (their row-group statistics); --bbox is west,south,east,north (longitude first); given in lat,lon order? --bbox -74.3,40.5,-73.7,40.95 meets them`,
    );
    // a box in the right order that misses the rows: the extent and the order, no swapped box offered
    const atlantic = await collectRun(importOverture(file, { bbox: { west: -40, south: 30, east: -30, north: 40 } }));
    expect(atlantic.report.emptyHint).toMatch(/; --bbox is west,south,east,north \(longitude first\)$/);
    // a country that keeps none: the extent alone; an import that keeps rows: no hint
    expect((await collectRun(importOverture(file, { country: 'FJ' }))).report.emptyHint).toMatch(/\(their row-group statistics\)$/);
    expect((await collectRun(importOverture(file, { bbox: east }))).report.emptyHint).toBeUndefined();
  });

  it('--country US keeps every venue; FJ and GB read no row group; a bad code names the option', async () => {
    const us = await collectRun(importOverture(file, { country: 'us' }));
    expect(us.records.map((r) => r.id).sort()).toEqual((await importSample()).records.map((r) => r.id).sort());
    for (const code of ['FJ', 'GB']) {
      const run = await collectRun(importOverture(file, { country: code }));
      expect(run.records).toEqual([]);
      expect(run.report.counters.get('row groups read') ?? 0).toBe(0);
      expect(run.report.counters.get('row groups skipped (bbox statistics)')).toBe(2);
    }
    // refused when called, before the file is read (audit 64a F20)
    expect(() => importOverture(file, { country: 'XX' })).toThrow(/^options\.country "XX" has no places/);
    expect(() => importOverture(file, { country: 'USA' })).toThrow(/^options\.country must be an ISO 3166-1 alpha-2/);
  });
});
