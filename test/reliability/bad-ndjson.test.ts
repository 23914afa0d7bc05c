/**
 * Data loading under bad input (issue 8, item 6): an NDJSON file generated here into
 * os.tmpdir() with 1 % bad lines of many kinds, read with `readVenues(path, {onInvalid: 'skip'})`.
 * Oracle: the generator's own list of which line numbers it made bad and which ids it made
 * good. The good records all load (same ids, same order, coordinates intact); exactly the bad
 * lines are reported, by line number; blank lines and CRLF endings are neither. 100,000 lines
 * in `npm test`, 1,000,000 in `npm run soak`. Seeded (SEED in support/scale.ts).
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { prng } from '../support/oracle.js';
import { SCALE, SEED } from './support/scale.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-ndjson-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FULL_RECORDS = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'venues.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .slice(0, 50)
  .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Kinds of bad line; each must be rejected on its own line without stopping the read. */
const BAD_KINDS: readonly ((i: number, random: () => number, goodIds: string[]) => string)[] = [
  (i) => `{"id":"bad-${i}","name":"Cut off","location":{"type":"Point","coordinates":[51.5,`, // truncated JSON
  () => '\u0000\u0001\u0002 binary \uFFFD garbage \u00ff',
  () => '42',
  () => '[1,2,3]',
  () => '"just a string"',
  () => 'null',
  (i) => `{"id":"bad-${i}","location":{"type":"Point","coordinates":[51.5,-0.1]}}`, // no name
  (i) => `{"id":"bad-${i}","name":"Too far north","location":{"type":"Point","coordinates":[91,-0.1]}}`,
  (i) => `{"id":"bad-${i}","name":"Lon past 180","location":{"type":"Point","coordinates":[51.5,180.5]}}`,
  (i) => `{"id":"bad-${i}","name":5,"location":{"type":"Point","coordinates":[51.5,-0.1]}}`, // name not a string
  (i) => `{"id":"bad-${i}","name":"NaN lat","location":{"type":"Point","coordinates":[NaN,-0.1]}}`,
  (i) => `{"id":"bad-${i}","name":"Huge","location":{"type":"Point","coordinates":[1e400,-0.1]}}`,
  (i) => `{"id":"bad-${i}","name":"Unknown field","location":{"type":"Point","coordinates":[51.5,-0.1]},"surprise":true}`,
  (i) => `{"id":"bad-${i}","name":"Chain","isChain":"yes","location":{"type":"Point","coordinates":[51.5,-0.1]}}`,
  (i, _r, goodIds) => `{"id":${JSON.stringify(goodIds[Math.floor(goodIds.length / 2)] ?? 'x')},"name":"Duplicate of an earlier id","location":{"type":"Point","coordinates":[51.5,-0.1]}}`,
  (i) => `{"id":"bad-${i}","name":"Proto","location":{"type":"Point","coordinates":[51.5,-0.1]},"__proto__":{"polluted":true}}`,
  (i) => `{"id":"bad-${i}","name":"Trailing","location":{"type":"Point","coordinates":[51.5,-0.1]}} trailing`,
  (i) => `{"id":"","name":"Empty id ${i}","location":{"type":"Point","coordinates":[51.5,-0.1]}}`,
];

interface Generated {
  path: string;
  goodIds: string[];
  goodCoordinates: Map<string, [number, number]>;
  badLines: number[];
  lines: number;
}

async function generate(lines: number, seed: number): Promise<Generated> {
  const random = prng(seed);
  const path = join(tmp, `venues-${lines}.ndjson`);
  const out = createWriteStream(path);
  const goodIds: string[] = [];
  const goodCoordinates = new Map<string, [number, number]>();
  const badLines: number[] = [];
  let chunk = '';
  for (let line = 1; line <= lines; line++) {
    let text: string;
    let ending = '\n';
    const r = random();
    if (r < 0.01) {
      const kind = BAD_KINDS[badLines.length % BAD_KINDS.length]!;
      text = kind(line, random, goodIds);
      badLines.push(line);
    } else if (r < 0.012) {
      text = random() < 0.5 ? '' : '   \t '; // blank: skipped, not a reject
    } else {
      const id = `v-${line}`;
      const lat = Math.round((49 + random() * 11) * 1e7) / 1e7;
      const lon = Math.round((-8 + random() * 10) * 1e7) / 1e7;
      const base = line % 997 === 0 ? { ...FULL_RECORDS[line % FULL_RECORDS.length]! } : { name: `Venue ${line} caf\u0065\u0301` };
      text = JSON.stringify({ ...base, id, location: { type: 'Point', coordinates: [lat, lon] } });
      goodIds.push(id);
      goodCoordinates.set(id, [lat, lon]);
      if (random() < 0.01) ending = '\r\n';
    }
    chunk += text + ending;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve, reject) => out.once('finish', () => resolve()).once('error', reject));
  return { path, goodIds, goodCoordinates, badLines, lines };
}

describe(`NDJSON with 1 % bad lines (${SCALE.ndjsonLines.toLocaleString('en-GB')} lines, seed ${SEED})`, () => {
  it(`skip mode loads every good record and reports exactly the bad lines (${BAD_KINDS.length} kinds of bad line, blank lines and CRLF mixed in)`, async () => {
    const g = await generate(SCALE.ndjsonLines, SEED);
    const started = performance.now();
    const { venues, rejects } = await readVenues(g.path, { onInvalid: 'skip' });
    const ms = performance.now() - started;
    console.log(`ndjson: ${g.lines} lines, ${g.goodIds.length} good, ${g.badLines.length} bad, read in ${Math.round(ms)} ms`);
    expect(g.badLines.length).toBeGreaterThan(g.lines * 0.008);
    expect(rejects.map((r) => r.line)).toEqual(g.badLines);
    for (const r of rejects) {
      expect(r.error.message, `line ${r.line}`).toMatch(new RegExp(`line ${r.line}\\b`));
    }
    expect(venues.length).toBe(g.goodIds.length);
    expect(venues.map((v) => v.id)).toEqual(g.goodIds);
    for (let i = 0; i < venues.length; i += 97) {
      const v = venues[i]!;
      expect(v.location.coordinates).toEqual(g.goodCoordinates.get(v.id));
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('throw mode stops at the first bad line and names it', async () => {
    const g = await generate(5000, SEED + 1);
    await expect(readVenues(g.path)).rejects.toThrow(new RegExp(`line ${g.badLines[0]}\\b`));
  });
});
