import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import type { SectionName, SnapshotHeader } from '../../src/snapshot/snapshot-format.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { unsealHeader } from '../support/snapshot-header-seal.js';

// A real snapshot (the 3,000 fixture venues), with bytes flipped at stated places of one
// section each; the expected outcome of each is worked out here from the format
// (snapshot-format.ts), not from the reader.
const FIXTURES = new URL('../../fixtures/venues.ndjson', import.meta.url);
const venues = readFileSync(FIXTURES, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as VenueRecord);
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const original = join(dir, 'fixtures.vsnap');
writeSnapshot(createEngine(venues), original);
const bytes = readFileSync(original);
const headerAt = bytes.readDoubleLE(8);
const header = JSON.parse(bytes.toString('utf8', headerAt, headerAt + bytes.readDoubleLE(16))) as SnapshotHeader;
const sectionAt = (s: SectionName): number => header.sections[s]!.offset;

// The header's seal, by its layout (src/snapshot/header-digest.ts): `{"headerDigest":"<64 hex>",`
// then the rest of the JSON; the digest is SHA-256 of `{` + that rest.
const SEAL = /^\{"headerDigest":"([0-9a-f]{64})",/;
const headerText = bytes.toString('utf8', headerAt);
const sealMatch = SEAL.exec(headerText);
/** The snapshot as written before 2026-11-30: the same header without its seal. */
const unsealed = unsealHeader(Buffer.from(bytes));

/** A copy of the snapshot (sealed, or `from` the unsealed one) with `change` applied, written to a file of its own. */
function damaged(name: string, change: (b: Buffer) => void, from: Buffer = bytes): string {
  const b = Buffer.from(from);
  change(b);
  const file = join(dir, `${name}.vsnap`);
  writeFileSync(file, b);
  return file;
}

interface Outcome {
  readonly file: string;
  readonly stage: 'load' | 'query';
  readonly outcome: 'answered' | 'threw';
  readonly code?: string;
  readonly message?: string;
}

/** Loads and queries each file in a child process with a deadline (a hang fails, never holds, the test). */
function loadAll(files: readonly string[]): Map<string, Outcome> {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL('./support/load-damaged-snapshots.ts', import.meta.url).pathname, JSON.stringify({ files, at: { lat: venues[0]!.location.coordinates[0], lon: venues[0]!.location.coordinates[1] }, now: Date.UTC(2026, 10, 21, 19, 30) })], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  const lines = run.stdout.trim().split('\n').filter((l) => l !== '');
  const outcomes = new Map(lines.map((l) => JSON.parse(l) as Outcome).map((o) => [o.file, o]));
  // a child killed at its deadline (signal SIGTERM) leaves the files after the one it hung on without a line
  expect({ signal: run.signal, answered: outcomes.size }, run.stderr).toEqual({ signal: null, answered: files.length });
  return outcomes;
}

describe('a snapshot with a byte flipped in a row-starts or venue-index column, or a header list, is refused at load, naming it (audit 69c F1)', () => {
  // Each start column's entry 1 is bytes 4..7 (little-endian Uint32): flipping byte 7 (its
  // high byte) makes row 0 end past 16M entries (the sections hold far fewer) and row 1 start there
  // (a start below the one before). The audit's case is termStart: load fine, then a search never returned.
  const startColumns: [SectionName, SectionName][] = [
    ['termStart', 'termCodes'],
    ['vibeStart', 'vibeCodes'],
    ['scheduleOffsets', 'intervals'],
    ['namePostStart', 'namePostVenue'],
    ['nameVenueStart', 'nameVenueTok'],
  ];
  // a start column's entry 0 must be 0: its low byte set to 1
  const firstNotZero = damaged('termStart-first', (b) => (b[sectionAt('termStart')] = 1));
  // kdbush's layout: an 8-byte header, then the ids (Uint16 below 65,536 points), the first id's high byte flipped: an id of 62,464 or more, for 3,000 venues
  const treeId = damaged('tree-id', (b) => (b[sectionAt('tree') + 9]! ^= 0xff));
  // idOrder's entry 0 (a venue index, Uint32), its high byte flipped: an index above 16M
  const idOrder = damaged('idOrder', (b) => (b[sectionAt('idOrder') + 3]! ^= 0xff));
  const files = new Map<string, string>(startColumns.map(([s]) => [s, damaged(s, (b) => (b[sectionAt(s) + 7]! ^= 0xff))]));
  // (on a header written before its seal, which a sealed one's digest refuses first: see below)
  // the header's key "termWords" with one letter changed ("termXords"): the field is absent, the JSON still parses
  const headerKey = damaged('header-key', (b) => (b[b.indexOf('"termWords"', headerAt) + 5] = 'X'.charCodeAt(0)), unsealed);
  // a record key list's "location" with one letter changed ("locatiom"): records read by it lose their location
  const shapeKey = damaged('shape-key', (b) => (b[b.indexOf('"location"', b.indexOf('"recordShapes"', headerAt)) + 8] = 'm'.charCodeAt(0)), unsealed);
  const outcomes = loadAll([...files.values(), firstNotZero, treeId, idOrder, headerKey, shapeKey]);

  it.each(startColumns)('%s (against %s): refused with invalid_data naming both sections', (starts, data) => {
    expect(header.sections[starts]!.byteLength).toBeGreaterThanOrEqual(12); // entries 0, 1 and 2 exist
    const o = outcomes.get(files.get(starts)!)!;
    expect(o).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data' });
    expect(o.message).toMatch(new RegExp(`not a usable venue-search snapshot: section ${starts} does not index section ${data}: start 2 is \\d+, below start 1 \\(\\d{8,}\\)`));
  });

  it('a start column whose first entry is not 0 is refused', () => {
    expect(outcomes.get(firstNotZero)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/section termStart does not index section termCodes: its first start is 1, not 0/) as unknown });
  });

  it('a kd-tree id or an idOrder entry past the venue count is refused', () => {
    expect(venues.length).toBe(3000);
    expect(outcomes.get(treeId)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/section tree holds venue \d{5} at 0, past its 3000 venues/) as unknown });
    expect(outcomes.get(idOrder)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/section idOrder holds venue \d{8,} at 0, past its 3000 venues/) as unknown });
  });

  it('a record key list without location is refused, naming it (a TypeError at details before)', () => {
    expect(outcomes.get(shapeKey)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/its header's recordShapes\[\d+\] is \[.*"locatiom".*\], not a list of keys holding id, name, location/) as unknown });
  });

  it('a list the header no longer holds is refused, naming it (a TypeError at load before)', () => {
    expect(outcomes.get(headerKey)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/not a usable venue-search snapshot: its header's termWords is not a list/) as unknown });
  });
});

describe('a record start pointing at a number cut by its block end: the query reading it fails with invalid_data, never loops (audit 69c F1, randomised pass)', () => {
  it('record 0 starting at its block\'s last byte, 0xff (a number that goes on past the end)', () => {
    const blocks = header.recordBlocks;
    const last = blocks.length - 1;
    const lastByte = sectionAt('records') + blocks.reduce((a, b) => a + b, 0) - 1;
    const file = damaged('record-start', (b) => {
      b[lastByte] = 0xff;
      // recordStarts: Float64, block number times 2^32 plus the offset in the block (snapshot-format.ts)
      b.writeDoubleLE(last * 2 ** 32 + blocks[last]! - 1, sectionAt('recordStarts'));
    });
    const o = loadAll([file]).get(file)!;
    expect(o).toMatchObject({ stage: 'query', outcome: 'threw', code: 'invalid_data' });
    expect(o.message).toMatch(/the compact records are damaged: /);
  });
});

describe('a header damaged so that it still parses is refused by its digest, before it can answer wrongly', () => {
  // shared opening hours (recordShared[0] is a list of { days, timeSlots }): its first "days" key made "dayz".
  // The audit's case (69c, randomised pass): it loaded, and the details of every venue sharing those hours threw a TypeError.
  const daysKey = (b: Buffer): void => {
    b[b.indexOf('"days"', b.indexOf('"recordShared"', headerAt)) + 4] = 'z'.charCodeAt(0);
  };
  const sealedDays = damaged('shared-days', daysKey);
  const unsealedDays = damaged('shared-days-unsealed', daysKey, unsealed);
  const unsealedIntact = damaged('unsealed', () => undefined, unsealed);
  const sealedTermKey = damaged('header-key-sealed', (b) => (b[b.indexOf('"termWords"', headerAt) + 5] = 'X'.charCodeAt(0)));
  // the seal's own key damaged ("headerDigust"): neither a sealed header nor an older one
  const sealKey = damaged('seal-key', (b) => (b[headerAt + '{"headerDig'.length] = 'u'.charCodeAt(0)));
  // the prefix's header offset (Float64 at byte 8) and length (at byte 16), each with its lowest
  // mantissa bit flipped: a fraction (the integers here are below 2^30), read before the header
  const fractionalOffset = damaged('header-offset-fraction', (b) => (b[8]! ^= 1));
  const fractionalLength = damaged('header-length-fraction', (b) => (b[16]! ^= 1));
  const outcomes = loadAll([original, unsealedIntact, sealedDays, unsealedDays, sealedTermKey, sealKey, fractionalOffset, fractionalLength]);

  it('the header is sealed: its first key is the SHA-256 of the rest', () => {
    expect(sealMatch).not.toBeNull();
    const rest = `{${headerText.slice(sealMatch![0].length)}`;
    expect(createHash('sha256').update(rest, 'utf8').digest('hex')).toBe(sealMatch![1]);
    expect(JSON.parse(rest)).toEqual(JSON.parse(unsealed.toString('utf8', headerAt)));
    expect(JSON.parse(rest).recordShared[0][0]).toHaveProperty('days');
  });

  it('the undamaged snapshot loads and answers every query (the child itself works), sealed or as written before the seal', () => {
    expect(outcomes.get(original)).toMatchObject({ stage: 'query', outcome: 'answered', records: 3000 });
    expect(outcomes.get(unsealedIntact)).toMatchObject({ stage: 'query', outcome: 'answered', records: 3000 });
  });

  it('a shared value\'s key damaged: refused at load with invalid_data (an older, unsealed file still throws a TypeError at details)', () => {
    expect(outcomes.get(sealedDays)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/not a usable venue-search snapshot: its header does not match its digest \(written [0-9a-f]{64}, read [0-9a-f]{64}\)/) as unknown });
    expect(outcomes.get(unsealedDays)).toMatchObject({ stage: 'query', outcome: 'threw', code: 'not a VenueSearchError: TypeError' });
  });

  it('a header offset or length that is not a whole number: refused at load with invalid_data (audit 70f F1: a RangeError, or "unexpected end of file")', () => {
    expect(headerAt).toBeLessThan(2 ** 30);
    for (const file of [fractionalOffset, fractionalLength]) {
      expect(outcomes.get(file)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/not a usable venue-search snapshot: its header's place \(offset [\d.e-]+, length [\d.e-]+ bytes\) is not in whole bytes/) as unknown });
    }
  });

  it('a header key damaged, or the seal\'s own key: refused at load', () => {
    expect(outcomes.get(sealedTermKey)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/its header does not match its digest/) as unknown });
    expect(outcomes.get(sealKey)).toMatchObject({ stage: 'load', outcome: 'threw', code: 'invalid_data', message: expect.stringMatching(/its header starts with neither \{"headerDigest":"<digest>", nor \{"format":/) as unknown });
  });
});
