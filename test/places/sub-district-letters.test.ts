import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { findRefusal } from './support/refusals.js';

/**
 * Audit 67b F4: a street the GB file knows only by W1's district estimate, qualified by a
 * sub-district of W1 ("Park Lane, W1K"), is advised to search W1; but every letter W1A to W1Z
 * was read as a sub-district, so "Bond Street, W1Z" stated a W1Z that does not exist. Oracle:
 * the outward codes of GeoNames' GB postal file (W1A to W1D, F to H, J, K, M, S to U, W).
 * Audit 76b F1: a letter not in use was "not a place we know" (suggesting Pond Street) or,
 * for Park Lane, named only the Wrexham one; now the code is said to be unknown and W1 advised.
 */
const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
const POSTAL = 'geonames-gb/gb_postal_outcode_places.tsv';
const STREETS = ['Bond Street', 'Goodge Street', 'Great Portland Street', 'Park Lane', 'Piccadilly Circus', 'Regent Street'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

describe.skipIf(!hasShared(LONDON_PUBS) || !hasShared(POSTAL))('a W1 street qualified by W1 and a letter (London pubs, GeoNames postal codes)', () => {
  let engine: Engine;
  let inUse: Set<string>;
  beforeAll(async () => {
    engine = createEngine((await collectRun(importOsm(sharedFile(LONDON_PUBS)))).records);
    // column 2 of GeoNames' postal rows is the outward code
    inUse = new Set(readFileSync(sharedFile(POSTAL), 'utf8').split('\n').map((line) => line.split('\t')[1] ?? ''));
  });

  it('GeoNames has some W1 sub-districts and not others (the oracle is not empty either way)', () => {
    const used = LETTERS.filter((l) => inUse.has(`W1${l}`));
    expect(used.length).toBeGreaterThan(5);
    expect(used.length).toBeLessThan(26);
  });

  it.each(STREETS)('%s: the district advice only for sub-districts GeoNames has, never a message naming a W1 code not in use', (street) => {
    const wrong: string[] = [];
    for (const letter of LETTERS) {
      const code = `W1${letter}`;
      const { message } = findRefusal(engine, `${street}, ${code}`);
      const claims = message.includes(`${street} in ${code} is known only by its postal district's estimate (W1)`);
      if (claims !== inUse.has(code)) wrong.push(`${code}: ${message}`);
      // a code not in use is said to be unknown, and the street's district advised all the same (audit 76b F1)
      const saysUnknown = message.includes(`"${code}" is not an area we know; ${street} is known only by its postal district's estimate (W1), too rough to search at; search its district ("W1"`);
      if (saysUnknown === inUse.has(code)) wrong.push(`${code}: ${message}`);
    }
    expect(wrong).toEqual([]);
  });
});
