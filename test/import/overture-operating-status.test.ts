import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRun, importOverture } from '../../src/import/index.js';
import { wkbPointHex } from '../support/wkb.js';

/**
 * Audit 62d finding 3: Overture's optional `operating_status` column is read;
 * `permanently_closed` and `temporarily_closed` places are skipped under a reason each,
 * `open`, null and an absent column import the place. The Parquet files are written here by
 * DuckDB (a second Parquet writer and reader, the oracle for what the file holds).
 */
const SAMPLE = fileURLToPath(new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'venue-overture-status-'));
let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('import overture: operating_status (audit 62d finding 3)', () => {
  // Hand-written places: the expected outcome of each is its status, read by eye.
  const places: Array<[id: string, status: string | null]> = [
    ['a-open', 'open'],
    ['b-gone', 'permanently_closed'],
    ['c-works', 'temporarily_closed'],
    ['d-null', null],
    ['e-gone', 'permanently_closed'],
  ];

  it('a file with the column: closed places skipped by reason and named; open and null imported', async () => {
    const file = join(dir, 'status.parquet');
    const rows = places
      .map(([id, status], i) => `SELECT '${id}' AS id, from_hex('${wkbPointHex(-0.1 + i / 1000, 51.5)}') AS geometry, {'primary': 'The ${id} Arms'} AS names, ` +
        `{'primary': 'pub', 'alternate': ['bar']} AS categories, 0.9 AS confidence, ${status === null ? 'NULL::VARCHAR' : `'${status}'`} AS operating_status`)
      .join(' UNION ALL ');
    await duck.run(`COPY (${rows}) TO '${file}' (FORMAT parquet)`);
    const inFile = (await duck.runAndReadAll(`SELECT id, operating_status FROM read_parquet('${file}') ORDER BY id`)).getRowObjectsJson();
    expect(inFile).toEqual(places.map(([id, operating_status]) => ({ id, operating_status })));

    const { records, report } = await collectRun(importOverture(file));
    expect(records.map((r) => r.id)).toEqual(['overture:a-open', 'overture:d-null']);
    expect(report.skipReasons.get('permanently_closed')).toEqual({ count: 2, examples: ['overture:b-gone (pub)', 'overture:e-gone (pub)'] });
    expect(report.skipReasons.get('temporarily_closed')).toEqual({ count: 1, examples: ['overture:c-works (pub)'] });
    expect(report.balanced()).toBe(true);
  });

  it.runIf(existsSync(SAMPLE))('sample rows given a status: written = the sample\'s own import minus the closed ids DuckDB lists', async () => {
    const file = join(dir, 'sample-status.parquet');
    // Every third row permanently closed, every fifth (not third) temporarily closed, the rest open or null.
    await duck.run(`COPY (SELECT * EXCLUDE (open), CASE WHEN n % 3 = 0 THEN 'permanently_closed' WHEN n % 5 = 0 THEN 'temporarily_closed' WHEN n % 2 = 0 THEN 'open' END AS operating_status
      FROM (SELECT *, row_number() OVER () AS n FROM read_parquet('${SAMPLE}'))) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`);
    const closed = async (status: string): Promise<Set<string>> =>
      new Set((await duck.runAndReadAll(`SELECT id FROM read_parquet('${file}') WHERE operating_status = '${status}'`)).getRowObjectsJson().map((r) => `overture:${String(r.id)}`));
    const permanently = await closed('permanently_closed');
    const temporarily = await closed('temporarily_closed');
    const plain = await collectRun(importOverture(SAMPLE));
    const { records, report } = await collectRun(importOverture(file));
    const plainIds = plain.records.map((r) => r.id);
    expect(records.map((r) => r.id)).toEqual(plainIds.filter((id) => !permanently.has(id) && !temporarily.has(id)));
    // The status is judged before the confidence: every food place with a closed status counts, whatever its confidence.
    const food = (await collectRun(importOverture(SAMPLE, { minConfidence: 0 }))).records.map((r) => r.id);
    expect(report.skipReasons.get('permanently_closed')?.count).toBe(food.filter((id) => permanently.has(id)).length);
    expect(report.skipReasons.get('temporarily_closed')?.count).toBe(food.filter((id) => temporarily.has(id)).length);
    expect(report.skipReasons.get('permanently_closed')?.count).toBeGreaterThan(100);
    expect(report.balanced()).toBe(true);
  });
});
