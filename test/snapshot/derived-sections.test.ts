// The snapshot's derived sections (src/snapshot/snapshot-format.ts: termBits, vibeBits,
// occupiedCells, namePostCells): what a restored engine would otherwise derive at its warm().
// Oracles: the store's own columns read here by the documented layouts (a venue's codes below
// 32 as bits; 1-degree cells, 180 rows by 360 columns), the engine built from the records, and
// the answers of a file without the sections (as written before them), which derives them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { prng } from '../support/oracle.js';
import { resealHeader } from '../support/snapshot-header-seal.js';
import { loadFixtureVenues } from '../search/support.js';
import { DERIVED_SECTION_NAMES as DERIVED } from '../../src/snapshot/snapshot-format.js';

const venues = loadFixtureVenues();
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-derived-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.UTC(2026, 10, 21, 19, 30);
const built = createEngine(venues).warm();
const file = join(dir, 'fixtures.vsnap');
writeSnapshot(built, file);

interface Header {
  sections: Record<string, { offset: number; byteLength: number; type: string }>;
}

function headerOf(bytes: Buffer): Header {
  const at = bytes.readDoubleLE(8);
  return JSON.parse(bytes.toString('utf8', at, at + bytes.readDoubleLE(16))) as Header;
}

/** The file as written before the derived sections: its header without them (same length, sealed again). */
function withoutDerivedSections(bytes: Buffer): Buffer {
  const at = bytes.readDoubleLE(8);
  const length = bytes.readDoubleLE(16);
  const header = headerOf(bytes);
  for (const name of DERIVED) delete header.sections[name];
  const text = JSON.stringify(header); // headerDigest stays the first key: sealed again below
  expect(text.length).toBeLessThan(length);
  bytes.write(text.padEnd(length, ' '), at, 'utf8');
  return resealHeader(bytes);
}

/** Searches and finds around the fixtures' venues: POINT and PATH with preferences, finds by name near a venue. */
function answers(engine: ReturnType<typeof createEngine>): unknown[] {
  const rnd = prng(2026);
  const out: unknown[] = [];
  for (let q = 0; q < 20; q++) {
    const [a, b] = [venues[Math.floor(rnd() * venues.length)]!, venues[Math.floor(rnd() * venues.length)]!];
    const at = (v: VenueRecord) => ({ lat: v.location.coordinates[0], lon: v.location.coordinates[1] });
    const preferences = { establishmentFilters: [a.primaryGenre ?? 'pub'], vibes: ['cosy'], catersFilters: q % 2 === 0 ? ['vegan'] : [] };
    out.push(engine.search({ locations: [at(a)], mode: { mode: 'POINT', maxDistance: 300 + rnd() * 2000 }, preferences }, { now: NOW, limit: 20 }));
    out.push(engine.search({ locations: [at(a), at(b)], mode: { mode: 'PATH', maxDistance: 200 + rnd() * 800 }, preferences }, { now: NOW, limit: 20 }));
    out.push(engine.find({ q: a.name.split(' ')[0]!, ...at(a), limit: 10 }, { now: NOW }));
  }
  // an empty answer away from the data, whose hint reads the occupied cells: London's point written [lon, lat]
  out.push(engine.search({ locations: [{ lat: -0.1278, lon: 51.5074 }], mode: { mode: 'POINT', maxDistance: 1000 } }, { now: NOW }));
  return out;
}

describe('snapshot: derived sections', () => {
  it('are written, and hold what the engine built from the records derives', () => {
    const bytes = readFileSync(file);
    const { sections } = headerOf(bytes);
    for (const name of DERIVED) expect(sections[name], name).toBeDefined();
    const restored = readSnapshot(file);
    const expected = built.searcher().prepared();
    const got = restored.searcher().prepared();
    expect(got.termBits).toEqual(expected.termBits);
    expect(got.vibeBits).toEqual(expected.vibeBits);
    expect(got.occupiedCells).toEqual(expected.occupiedCells);
    // read by their layouts: each venue's term and vibe codes below 32 as bits, each venue's 1-degree cell occupied
    const s = restored.store;
    const bitsOf = (start: Uint32Array, codes: Uint16Array, i: number) => {
      let w = 0;
      for (let k = start[i]!; k < start[i + 1]!; k++) if (codes[k]! < 32) w += 2 ** codes[k]!;
      return w;
    };
    const differences: string[] = [];
    const occupied = new Set<number>();
    for (let i = 0; i < s.size; i++) {
      if (got.termBits[i] !== bitsOf(s.termStart, s.termCodes, i)) differences.push(`venue ${i}: termBits ${got.termBits[i]}`);
      if (got.vibeBits[i] !== bitsOf(s.vibeStart, s.vibeCodes, i)) differences.push(`venue ${i}: vibeBits ${got.vibeBits[i]}`);
      occupied.add(Math.floor(s.lat[i]! + 90) * 360 + Math.floor(s.lon[i]! + 180));
    }
    expect(differences).toEqual([]);
    expect(got.termBits.some((w) => w !== 0) && got.vibeBits.some((w) => w !== 0)).toBe(true);
    expect(got.occupiedCells.length).toBe(180 * 360);
    expect([...got.occupiedCells.keys()].filter((c) => got.occupiedCells[c] === 1)).toEqual([...occupied].sort((x, y) => x - y));
    expect(restored.findStructures().cells).toEqual(built.findStructures().cells);
    // the restored ones are the file's sections, byte for byte
    const section = (name: string, C: typeof Uint32Array | typeof Uint8Array) => {
      const e = sections[name]!;
      return new C(new Uint8Array(bytes.subarray(e.offset, e.offset + e.byteLength)).buffer);
    };
    expect(got.termBits).toEqual(section('termBits', Uint32Array));
    expect(got.occupiedCells).toEqual(section('occupiedCells', Uint8Array));
    expect(restored.findStructures().cells).toEqual(section('namePostCells', Uint32Array));
  });

  it('are read, not derived again: a file whose occupiedCells section is emptied loses the [lon, lat] hint', () => {
    const bytes = Buffer.from(readFileSync(file));
    const e = headerOf(bytes).sections.occupiedCells!;
    bytes.fill(0, e.offset, e.offset + e.byteLength);
    const emptied = join(dir, 'emptied-cells.vsnap');
    writeFileSync(emptied, bytes);
    const swapped = { locations: [{ lat: -0.1278, lon: 51.5074 }], mode: { mode: 'POINT', maxDistance: 1000 } };
    expect(built.search(swapped, { now: NOW }).hint).toBeDefined();
    expect(readSnapshot(file).search(swapped, { now: NOW }).hint).toEqual(built.search(swapped, { now: NOW }).hint);
    expect(readSnapshot(emptied).search(swapped, { now: NOW }).hint).toBeUndefined();
  });

  it('a file without them (written before them) is read as before, derives them, and answers alike', () => {
    const older = join(dir, 'without-derived.vsnap');
    writeFileSync(older, withoutDerivedSections(Buffer.from(readFileSync(file))));
    for (const name of DERIVED) expect(headerOf(readFileSync(older)).sections[name], name).toBeUndefined();
    const fromOlder = readSnapshot(older).warm();
    const expected = answers(built);
    // answers with something in them: searches with results, finds with venues
    expect(expected.filter((a) => ((a as { totalResults?: number }).totalResults ?? 0) > 0).length).toBeGreaterThan(20);
    expect(expected.filter((a) => ((a as { totalFound?: number }).totalFound ?? 0) > 0).length).toBeGreaterThan(10);
    expect(answers(fromOlder)).toEqual(expected);
    expect(answers(readSnapshot(file).warm())).toEqual(expected);
    expect(fromOlder.searcher().prepared().termBits).toEqual(built.searcher().prepared().termBits);
    expect(fromOlder.findStructures().cells).toEqual(built.findStructures().cells);
  });

  it('a derived section outside the file is refused, naming it', () => {
    const bytes = Buffer.from(readFileSync(file));
    const at = bytes.readDoubleLE(8);
    const length = bytes.readDoubleLE(16);
    const header = headerOf(bytes);
    header.sections.vibeBits!.offset = at + length + 8;
    const text = JSON.stringify(header);
    expect(text.length).toBeLessThanOrEqual(length);
    bytes.write(text.padEnd(length, ' '), at, 'utf8');
    const outside = join(dir, 'outside.vsnap');
    writeFileSync(outside, resealHeader(bytes));
    expect(() => readSnapshot(outside)).toThrow(/not a usable venue-search snapshot: section vibeBits is outside the file/);
  });
});
