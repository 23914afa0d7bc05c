import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import KDBush from 'kdbush';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot, restoreSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { isSnapshotFile } from '../../src/cli/load-engine.js';
import { prng } from '../support/oracle.js';
import { resealHeader, unsealHeader } from '../support/snapshot-header-seal.js';
import { NAME_TOKENS_VERSION } from '../../src/find/normalize-name.js';

// The oracle for what a snapshot holds: the fixture file itself, parsed here with
// JSON.parse line by line, and an engine built from those records (tested elsewhere against
// brute-force scans, GeographicLib and the opening_hours library).
const FIXTURES = new URL('../../fixtures/venues.ndjson', import.meta.url);
const venues: VenueRecord[] = readFileSync(FIXTURES, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as VenueRecord);
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 21, 19, 30);
const built = createEngine(venues).warm();
const file = join(dir, 'fixtures.vsnap');
const progress: number[] = [];
writeSnapshot(built, file, { onProgress: (p) => progress.push(p.done) });
const restored = readSnapshot(file);

describe('snapshot round trip on the 3,000 fixture venues', () => {
  it('every record comes back equal to its line in the NDJSON file, found by its id', () => {
    expect(restored.size).toBe(venues.length);
    for (const v of venues) {
      const i = restored.store.indexOf(v.id);
      expect(i, v.id).toBeGreaterThanOrEqual(0);
      expect(restored.store.record(i)).toEqual(v);
      expect(restored.store.id(i)).toBe(v.id);
      expect(restored.store.name(i)).toBe(v.name);
    }
    expect(restored.store.indexOf('no-such-venue')).toBe(-1);
    expect(restored.store.indexOf('')).toBe(-1);
  });

  it('POINT and PATH searches with preferences, all pages: the same answers as the engine built from the records', () => {
    const rnd = prng(31);
    const prefs = [
      {},
      { catersFilters: ['vegan'], nonCompromise: ['catersFilters'] },
      { establishmentFilters: ['pub', 'freeWifi'], openingConditions: { state: 'OPEN' }, chainPreference: 'PREFER_INDEPENDENT' },
      { vibes: ['cosy'], openingConditions: { state: 'OPEN', atTime: '2026-11-22T01:00:00Z' } },
    ];
    for (let q = 0; q < 60; q++) {
      const v = venues[Math.floor(rnd() * venues.length)]!;
      const [lat, lon] = v.location.coordinates;
      const w = venues[Math.floor(rnd() * venues.length)]!;
      const body =
        q % 2 === 0
          ? { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 500 + rnd() * 3000 }, preferences: prefs[q % 4] }
          : {
              locations: [{ lat, lon }, { lat: w.location.coordinates[0], lon: w.location.coordinates[1] }],
              mode: { mode: 'PATH', maxDistance: 300 + rnd() * 2000 },
              preferences: prefs[q % 4],
            };
      for (const page of [{ limit: 20, offset: 0 }, { limit: 7, offset: 13 }]) {
        expect(restored.search(body, { ...page, now: NOW })).toEqual(built.search(body, { ...page, now: NOW }));
      }
    }
  });

  it('find (names, typos, a learnt postcode and area), basic, advanced and menus: the same answers', () => {
    const withPostcode = venues.find((v) => /\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b/.test(v.formattedAddress ?? ''))!;
    const postcode = /\b([A-Z]{1,2}\d[A-Z\d]?) \d[A-Z]{2}\b/.exec(withPostcode.formattedAddress!)![1]!;
    const queries = [{ q: venues[5]!.name }, { q: venues[99]!.name.slice(0, 6) }, { q: 'crwon' }, { q: withPostcode.name, location: postcode }, { q: 'cafe', location: 'London' }];
    for (const q of queries) {
      const expected = built.find(q, { now: NOW });
      expect(JSON.stringify(expected), `${q.q} ${q.location ?? ''} finds something`).toContain('"id"');
      expect(restored.find(q, { now: NOW })).toEqual(expected);
    }
    for (const v of venues.slice(0, 40)) {
      expect(restored.basic(v.id, { now: NOW })).toEqual(built.basic(v.id, { now: NOW }));
      expect(restored.advanced(v.id, { now: NOW })).toEqual(built.advanced(v.id, { now: NOW }));
      expect(restored.menus(v.id)).toEqual(built.menus(v.id));
    }
    expect(() => restored.basic('no-such-venue')).toThrow(/no-such-venue/);
    expect(restored.vocabulary()).toEqual(built.vocabulary());
  });

  it('reports progress up to the venue count and leaves no temporary file behind', () => {
    expect(progress.at(-1)).toBe(venues.length);
    expect(readdirSync(dir).filter((f) => f.includes('.part'))).toEqual([]);
  });

  it("a writer's temporary file left by a process that is gone is removed by the next write; a running writer's is kept", async () => {
    const target = join(dir, 'killed.vsnap');
    // Each shell writes `<target>.<its pid>.part`, as writeSnapshot names its temporary file.
    const gone = spawnSync('sh', ['-c', 'echo partial > "$0.$$.part"', target]);
    expect(gone.status).toBe(0);
    const running = spawn('sh', ['-c', 'echo partial > "$0.$$.part"; exec sleep 60', target]);
    try {
      const runningPart = `killed.vsnap.${running.pid}.part`;
      await expect.poll(() => readdirSync(dir).includes(runningPart)).toBe(true);
      expect(readdirSync(dir).filter((f) => f.startsWith('killed.vsnap.'))).toHaveLength(2);
      writeSnapshot(built, target);
      expect(readdirSync(dir).filter((f) => f.startsWith('killed.vsnap'))).toEqual(['killed.vsnap', runningPart]);
    } finally {
      running.kill('SIGKILL');
    }
  });

  it('a folder named as an abandoned temporary file is left alone, and the write succeeds (audit 61b N5)', () => {
    const target = join(dir, 'folder-part.vsnap');
    mkdirSync(`${target}.999998.part`);
    writeFileSync(join(`${target}.999998.part`, 'inside'), 'x');
    expect(() => writeSnapshot(built, target)).not.toThrow();
    expect(readdirSync(dir).filter((f) => f.startsWith('folder-part.vsnap')).sort()).toEqual(['folder-part.vsnap', 'folder-part.vsnap.999998.part']);
    expect(readdirSync(`${target}.999998.part`)).toEqual(['inside']);
  });

  it('a JavaScript caller giving the wrong things gets invalid_request naming them, not a TypeError from inside (audit 61d)', () => {
    expect(() => writeSnapshot({} as never, join(dir, 'never.vsnap'))).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'engine' }));
    expect(() => restoreSnapshot('abc' as never, 'x')).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'bytes', message: 'bytes must be a snapshot\'s bytes (a Uint8Array or a Buffer); got "abc"' }));
    expect(() => restoreSnapshot(new Uint8Array(64), undefined as never)).toThrow(/^the bytes given is not a usable venue-search snapshot/);
    // an option it would ignore is refused, saying why
    expect(() => readSnapshot(file, { validate: true } as never)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'options.validate' }));
  });

  it('a restored engine can be written again: the second file has the same bytes', () => {
    const again = join(dir, 'again.vsnap');
    writeSnapshot(restored, again);
    expect(readFileSync(again).equals(readFileSync(file))).toBe(true);
  });
});

describe('restoreSnapshot over bytes in memory', () => {
  it('bytes at an odd offset of a larger buffer (sections misaligned): the same answers as the file', () => {
    const bytes = readFileSync(file);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const fromMemory = restoreSnapshot(shifted.subarray(3), 'shifted');
    for (const v of venues.slice(0, 50)) expect(fromMemory.basic(v.id, { now: NOW })).toEqual(built.basic(v.id, { now: NOW }));
    const [lat, lon] = venues[7]!.location.coordinates;
    const body = { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 2000 }, preferences: { vibes: ['cosy'] } };
    expect(fromMemory.search(body, { now: NOW })).toEqual(built.search(body, { now: NOW }));
    expect(fromMemory.find({ q: venues[11]!.name }, { now: NOW })).toEqual(built.find({ q: venues[11]!.name }, { now: NOW }));
  });
});

describe('snapshot edge cases and bad files', () => {
  it('an empty engine round-trips', () => {
    const empty = join(dir, 'empty.vsnap');
    writeSnapshot(createEngine([]), empty);
    const e = readSnapshot(empty);
    expect(e.size).toBe(0);
    expect(e.search({ locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 1000 } }, { now: NOW }).totalResults).toBe(0);
  });

  it('an NDJSON file is refused as "not a usable snapshot", naming the file', () => {
    expect(() => readSnapshot(FIXTURES.pathname)).toThrow(/venues\.ndjson is not a usable venue-search snapshot: it does not start with "VSNAPSHT"/);
  });

  it('a missing file names the path', () => {
    expect(() => readSnapshot(join(dir, 'nope.vsnap'))).toThrow(`cannot read snapshot ${join(dir, 'nope.vsnap')}: not found`);
    expect(() => readSnapshot(dir)).toThrow(`cannot read snapshot ${dir}: is a folder, not a file`);
  });

  it('a truncated file (cut at every tenth of its length) is refused, never half loaded', () => {
    const bytes = readFileSync(file);
    for (let k = 1; k < 10; k++) {
      const cut = join(dir, `cut-${k}.vsnap`);
      writeFileSync(cut, bytes.subarray(0, Math.floor((bytes.length * k) / 10)));
      expect(() => readSnapshot(cut), `cut at ${k}/10`).toThrow(/not a usable venue-search snapshot: it is truncated/);
    }
    // cut inside its first bytes (the magic): truncated too, for the reader and for the command
    // line, which would otherwise read the file as malformed JSON
    for (const n of [1, 5, 8, 20]) {
      const cut = join(dir, `head-${n}.vsnap`);
      writeFileSync(cut, bytes.subarray(0, n));
      expect(() => readSnapshot(cut), `first ${n} bytes`).toThrow(/not a usable venue-search snapshot: it is truncated/);
      expect(isSnapshotFile(cut), `first ${n} bytes`).toBe(true);
    }
  });

  it('another format version is refused with a message saying what to do', () => {
    const bytes = Buffer.from(readFileSync(file));
    const at = bytes.lastIndexOf('"format":3,');
    expect(at).toBeGreaterThan(0);
    bytes.write('"format":7,', at, 'latin1');
    const other = join(dir, 'other.vsnap');
    writeFileSync(other, resealHeader(bytes)); // as that version would seal it
    expect(() => readSnapshot(other)).toThrow(/format 7, this version reads format 3; write it again from the NDJSON/);
  });

  it('the header says the kd-tree leaves rise in latitude; a file without it (written before) is checked at load, and still answers alike', () => {
    const bytes = unsealHeader(Buffer.from(readFileSync(file))); // written before the seal as well
    const claim = '"leavesSortedByLat":true,';
    const at = bytes.lastIndexOf(claim);
    expect(at).toBeGreaterThan(0);
    expect(restored.spatial.leavesSortedByLat).toBe(true);
    // An older file: the key blanked out (JSON whitespace), and two points of the first leaf
    // swapped so that its latitudes fall: a valid kd-tree whose leaves are not sorted. (Its
    // positions then no longer hold the venues of the same number: that key goes too, as a
    // file of that time had neither.)
    bytes.write(' '.repeat(claim.length), at, 'latin1');
    const order = '"positionsAreVenues":true,';
    bytes.write(' '.repeat(order.length), bytes.lastIndexOf(order), 'latin1');
    const section = /"tree":\{"offset":(\d+),"byteLength":(\d+)/.exec(bytes.toString('latin1'))!;
    const offset = Number(section[1]);
    const treeBytes = new Uint8Array(bytes.subarray(offset, offset + Number(section[2])));
    const tree = KDBush.from(treeBytes.buffer);
    const { ids, coords } = tree;
    let j = 0;
    while (!(coords[2 * j + 1]! < coords[2 * j + 3]!)) j++; // j, j + 1 in the first leaf (nodeSize > 2)
    expect(j + 1).toBeLessThanOrEqual(tree.nodeSize);
    const swap = (a: number, b: number) => {
      const t = ids[a]!;
      ids[a] = ids[b]!;
      ids[b] = t;
      for (const k of [0, 1]) {
        const c = coords[2 * a + k]!;
        coords[2 * a + k] = coords[2 * b + k]!;
        coords[2 * b + k] = c;
      }
    };
    swap(j, j + 1);
    bytes.set(treeBytes, offset);
    const older = join(dir, 'unsorted-leaves.vsnap');
    writeFileSync(older, bytes);
    const checked = readSnapshot(older);
    expect(checked.spatial.leavesSortedByLat).toBe(false);
    expect(checked.spatial.positionsAreVenues).toBe(false);
    // the corridor walk then scans whole leaves: the same answers as the engine built from the records
    const rnd = prng(47);
    for (let q = 0; q < 30; q++) {
      const [a, b] = [venues[Math.floor(rnd() * venues.length)]!, venues[Math.floor(rnd() * venues.length)]!];
      const body = {
        locations: [{ lat: a.location.coordinates[0], lon: a.location.coordinates[1] }, { lat: b.location.coordinates[0], lon: b.location.coordinates[1] }],
        mode: { mode: 'PATH', maxDistance: 200 + rnd() * 1500 },
      };
      expect(checked.search(body, { now: NOW })).toEqual(built.search(body, { now: NOW }));
    }
    // and a file written from it says what its tree is
    const rewritten = join(dir, 'rewritten.vsnap');
    writeSnapshot(checked, rewritten);
    expect(readFileSync(rewritten).toString('latin1')).toContain('"leavesSortedByLat":false,');
    expect(readSnapshot(rewritten).spatial.leavesSortedByLat).toBe(false);
    expect(readFileSync(rewritten).toString('latin1')).toContain('"positionsAreVenues":false,');
    expect(readSnapshot(rewritten).spatial.positionsAreVenues).toBe(false);
  });

  it("the header says tree position k holds venue k, as the file's tree does; a file without the key (written before) finds it at the first search, and answers alike", () => {
    const bytes = unsealHeader(Buffer.from(readFileSync(file)));
    const text = bytes.toString('latin1');
    const claim = '"positionsAreVenues":true,';
    const at = bytes.lastIndexOf(claim);
    expect(at).toBeGreaterThan(0);
    // the oracle: the file's own tree section, read by kdbush, id by id
    const section = /"tree":\{"offset":(\d+),"byteLength":(\d+)/.exec(text)!;
    const offset = Number(section[1]);
    const tree = KDBush.from(new Uint8Array(bytes.subarray(offset, offset + Number(section[2]))).buffer);
    let identity = true;
    for (let k = 0; k < tree.ids.length; k++) if (tree.ids[k] !== k) identity = false;
    expect(identity).toBe(true);
    expect(restored.spatial.positionsAreVenues).toBe(true);
    bytes.write(' '.repeat(claim.length), at, 'latin1');
    const older = join(dir, 'no-order-claim.vsnap');
    writeFileSync(older, bytes);
    const found = readSnapshot(older);
    expect(found.spatial.positionsAreVenues).toBe(true);
    const rnd = prng(53);
    for (let q = 0; q < 30; q++) {
      const v = venues[Math.floor(rnd() * venues.length)]!;
      const body = { locations: [{ lat: v.location.coordinates[0], lon: v.location.coordinates[1] }], mode: { mode: 'POINT', maxDistance: 300 + rnd() * 3000 }, preferences: q % 2 === 0 ? {} : { catersFilters: ['vegan'] } };
      expect(found.search(body, { now: NOW })).toEqual(built.search(body, { now: NOW }));
    }
  });

  it('a format 2 file (name dictionary in the header) is refused with the same message', () => {
    const bytes = unsealHeader(Buffer.from(readFileSync(file)));
    bytes.write('"format":2,', bytes.lastIndexOf('"format":3,'), 'latin1');
    const old = join(dir, 'format2.vsnap');
    writeFileSync(old, bytes);
    expect(() => readSnapshot(old)).toThrow(/format 2, this version reads format 3; write it again from the NDJSON/);
  });

  it('a name dictionary whose ends do not fit its text is refused', () => {
    const bytes = Buffer.from(readFileSync(file));
    const ends = /"nameTokenEnds":\{"offset":(\d+),"byteLength":(\d+)/.exec(bytes.toString('latin1'))!;
    const lastEnd = Number(ends[1]) + Number(ends[2]) - 4;
    bytes.writeUInt32LE(bytes.readUInt32LE(lastEnd) + 1, lastEnd);
    const damaged = join(dir, 'tokens.vsnap');
    writeFileSync(damaged, bytes);
    expect(() => readSnapshot(damaged)).toThrow(/not a usable venue-search snapshot: its name dictionary \(sections nameTokenEnds, nameTokenText\) is damaged \(the strings end at \d+, their text is \d+ code units\)/);
  });

  it('keeps the genre counts; a count that is not one of 1..size venues is refused, naming it', () => {
    const restored = readSnapshot(file);
    expect(restored.store.genreCounts).not.toBeNull();
    expect(new Map([...restored.store.genreCounts!].sort())).toEqual(new Map([...createEngine(venues).store.genreCounts!].sort()));
    // (a header not sealed, as written before 2026-11-30: a sealed one's digest refuses any edit first)
    const bytes = unsealHeader(Buffer.from(readFileSync(file)));
    const pair = /"genreCounts":\[\["([a-z_]+)",(\d+)\]/.exec(bytes.toString('latin1'))!;
    const at = bytes.lastIndexOf(pair[0]);
    bytes.write(`"genreCounts":[["${pair[1]}",0]`.padEnd(pair[0].length, ' '), at, 'latin1');
    const zero = join(dir, 'zero-genre.vsnap');
    writeFileSync(zero, bytes);
    expect(() => readSnapshot(zero)).toThrow(new RegExp(`not a usable venue-search snapshot: its genreCounts holds \\["${pair[1]}",0\\], not a genre word \\(once\\) and a count of 1 to ${venues.length} venues`));
  });

  it('a section that does not fit the venue count is refused', () => {
    const bytes = unsealHeader(Buffer.from(readFileSync(file)));
    const at = bytes.lastIndexOf(`"size":${venues.length},`);
    bytes.write(`"size":${venues.length - 1},`.padEnd(`"size":${venues.length},`.length, ' '), at, 'latin1');
    const wrong = join(dir, 'wrong.vsnap');
    writeFileSync(wrong, bytes);
    expect(() => readSnapshot(wrong)).toThrow(/section \w+ holds \d+ values, expected \d+|do not span it/);
  });

  it('record blocks that do not span their section, or a record starting outside its block, are refused', () => {
    const bytes = unsealHeader(Buffer.from(readFileSync(file)));
    const header = bytes.toString('latin1');
    const blocks = /"recordBlocks":\[([\d,]+)\]/.exec(header)!;
    const blockBytes = blocks[1]!.split(',').map(Number);
    const last = blockBytes.length - 1;
    const short = Buffer.from(bytes);
    const shortened = [...blockBytes.slice(0, last), blockBytes[last]! - 1];
    short.write(`"recordBlocks":[${shortened.join(',')}]`.padEnd(blocks[0]!.length, ' '), blocks.index, 'latin1');
    writeFileSync(join(dir, 'short-blocks.vsnap'), short);
    expect(() => readSnapshot(join(dir, 'short-blocks.vsnap'))).toThrow(/not a usable venue-search snapshot: its record blocks do not span section records/);
    // the last record's start moved past the end of the block
    const starts = /"recordStarts":\{"offset":(\d+)/.exec(header)!;
    const past = Buffer.from(bytes);
    past.writeDoubleLE(last * 2 ** 32 + blockBytes[last]! + 10, Number(starts[1]) + 8 * (venues.length - 1));
    writeFileSync(join(dir, 'past-block.vsnap'), past);
    expect(() => readSnapshot(join(dir, 'past-block.vsnap'))).toThrow(new RegExp(`its records are damaged \\(compact records: record ${venues.length - 1} starts outside its block\\)`));
  });

  it('a name with an unpaired surrogate is refused at write time, naming the venue; no file is left', () => {
    const broken = join(dir, 'broken.vsnap');
    // validation refuses it first (test/live/engine-api.test.ts); unvalidated, the writer still does
    const engine = createEngine([{ ...venues[0]!, name: 'Caf\ud800 Rouge' }, venues[1]!], { validate: false });
    expect(() => writeSnapshot(engine, broken)).toThrow(new RegExp(`venue "${venues[0]!.id}": its name .* holds an unpaired UTF-16 surrogate`));
    expect(readdirSync(dir).filter((f) => f.startsWith('broken'))).toEqual([]);
    // a well-formed astral character (a surrogate pair) is kept
    const pair = join(dir, 'pair.vsnap');
    writeSnapshot(createEngine([{ ...venues[0]!, name: 'Caf\u00e9 \ud83c\udf7a' }]), pair);
    expect(readSnapshot(pair).store.name(0)).toBe('Café 🍺');
  });

  it('writing into a missing folder fails naming the path and leaves nothing', () => {
    expect(() => writeSnapshot(built, join(dir, 'no', 'such', 'x.vsnap'))).toThrow(`cannot write snapshot ${join(dir, 'no', 'such', 'x.vsnap')}: its folder does not exist`);
  });
});

describe('a snapshot whose name index was cut into words by older rules (no nameRules in its header)', () => {
  it('is read with the index built again from the records: a Hindi name is found by its word, as a fresh engine finds it', () => {
    const hindi: VenueRecord[] = [
      { id: 'hi-delhi', name: 'दिल्ली ढाबा', location: { type: 'Point', coordinates: [28.6, 77.2] } },
      { id: 'hi-dal', name: 'दाल भंडार', location: { type: 'Point', coordinates: [28.61, 77.21] } },
    ];
    const path = join(dir, 'older-rules.vsnap');
    writeSnapshot(createEngine(hindi).warm(), path);
    expect(readSnapshot(path, { places: null }).findBuilt).toBe(true); // this version's rules: the index is restored
    const bytes = unsealHeader(readFileSync(path)); // files before the seal
    const current = Buffer.from(`"nameRules":${NAME_TOKENS_VERSION},`);
    const at = bytes.indexOf(current);
    expect(at).toBeGreaterThan(0);
    // The same header with the key renamed (same length, so every offset holds): as files before it.
    Buffer.from(`"nameRulez":${NAME_TOKENS_VERSION},`).copy(bytes, at);
    writeFileSync(path, bytes);
    expect(readSnapshot(path, { places: null }).findBuilt).toBe(false); // older rules: not restored, built at the first find
    const found = (q: string) => readSnapshot(path, { places: null }).find({ q }, { now: 0 }).establishments.map((e) => e.id);
    expect(found('दिल्ली')).toEqual(['hi-delhi']);
    expect(found('दाल')).toEqual(['hi-dal']);
    const fresh = createEngine(hindi, { places: null });
    expect(fresh.find({ q: 'दिल्ली' }, { now: 0 }).establishments.map((e) => e.id)).toEqual(['hi-delhi']);
  });
});
