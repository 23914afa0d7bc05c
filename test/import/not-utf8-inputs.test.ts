import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { firstInvalidUtf8, Utf8Check } from '../../src/data/utf8-check.js';
import { collectRun, importFhrs } from '../../src/import/index.js';
import { importOsm } from '../../src/import/osm-import.js';
import { refusal } from './support/refusal.js';
import { runImportCli } from './support/import-cli.js';
import { scratchFolder } from './support/scratch-files.js';

/**
 * Audit 68e F1: real files rewritten here as a spreadsheet saves them in Latin-1, each refused
 * in one line naming the file, the line and byte offset of the first byte that is not UTF-8,
 * never read with U+FFFD in its place. The positions were found by Python's UTF-8 decoder and
 * `grep -n` on the same rewriting; the messages are written by hand.
 */
const DATA = new URL('../../../shared/data/', import.meta.url).pathname;
const PUBS_GEOJSON = DATA + 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const PUBS_POINTS = DATA + 'osm-london-pubs/london_pubs_points.ndjson';
const FHRS = DATA + 'fhrs-london/fhrs_london_food_drink_2021-08-19.csv';
const present = [PUBS_GEOJSON, PUBS_POINTS, FHRS].every(existsSync);
const { dir, file } = scratchFolder('venue-not-utf8-');

/** The file's text as a spreadsheet saves it in Latin-1: characters past U+00FF become "?", the rest one byte each. */
function latin1(path: string): Buffer {
  return Buffer.from(readFileSync(path, 'utf8').replace(/[\u0100-\u{10ffff}]/gu, '?'), 'latin1');
}

const CONVERT = 'saved as Latin-1 or Windows-1252?): convert it first, e.g. `iconv -f latin1 -t utf-8 in > out`';


describe.skipIf(!present)('audit 68e F1: a file that is not UTF-8 is refused naming its first invalid byte, never read with U+FFFD', () => {
  it('the London FHRS CSV saved as Latin-1: refused at line 429 ("DaddyÆs"), and the CLI leaves no output file', async () => {
    const path = file('fhrs-latin1.csv', latin1(FHRS));
    expect(await refusal(() => collectRun(importFhrs(path)))).toBe(`FHRS file ${path} is not UTF-8 text (line 429, byte offset 87683: the byte 0xC6; ${CONVERT}`);
    const out = join(dir, 'fhrs-latin1.ndjson');
    const { error } = await runImportCli(['import', 'fhrs', path, '-o', out]);
    expect((error as Error).message).toMatch(/^FHRS file .* is not UTF-8 text \(line 429,/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('the London pubs GeoJSON and points NDJSON saved as Latin-1: refused at "Finborough Wine Café" (line 16174) and at line 428', async () => {
    const geojson = file('pubs-latin1.geojson', latin1(PUBS_GEOJSON));
    expect(await refusal(() => collectRun(importOsm(geojson)))).toBe(`OSM file ${geojson} is not UTF-8 text (line 16174, byte offset 371066: the byte 0xE9; ${CONVERT}`);
    const points = file('pubs-latin1.ndjson', latin1(PUBS_POINTS));
    expect(await refusal(() => collectRun(importOsm(points)))).toBe(`OSM file ${points} is not UTF-8 text (line 428, byte offset 164328: the byte 0xE3; ${CONVERT}`);
  });

  it('audit 68i F1: the London FHRS CSV and pubs points saved as UTF-16 (with and without a byte order mark) are told UTF-16, with iconv -f utf-16, not the Latin-1 advice', async () => {
    const said = 'is UTF-16 text, not UTF-8 (as some Windows programs save "Unicode text"): convert it first, e.g. `iconv -f utf-16 -t utf-8 in > out`';
    const fhrsText = readFileSync(FHRS, 'utf8');
    const withBom = file('fhrs-utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fhrsText, 'utf16le')]));
    expect(await refusal(() => collectRun(importFhrs(withBom)))).toBe(`FHRS file ${withBom} ${said}`);
    const bigEndian = Buffer.from(fhrsText, 'utf16le').swap16();
    const be = file('fhrs-utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]));
    expect(await refusal(() => collectRun(importFhrs(be)))).toBe(`FHRS file ${be} ${said}`);
    const points = file('pubs-utf16le.ndjson', Buffer.from(readFileSync(PUBS_POINTS, 'utf8'), 'utf16le'));
    expect(await refusal(() => collectRun(importOsm(points)))).toBe(`OSM file ${points} ${said}`);
    // a Latin-1 file is still told Latin-1
    expect(await refusal(() => collectRun(importFhrs(file('fhrs-latin1-again.csv', latin1(FHRS)))))).toContain(CONVERT);
  });

  it('venue records saved as Latin-1 (import merge, readVenues): refused at the first line holding a Latin-1 letter, as a scan of the text finds it', async () => {
    const { records } = await collectRun(importOsm(PUBS_POINTS));
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const bytes = Buffer.from(text.replace(/[\u0100-\u{10ffff}]/gu, '?'), 'latin1');
    const line = text.split('\n').findIndex((l) => /[\u0080-\u00ff]/.test(l)) + 1;
    const offset = bytes.findIndex((b) => b >= 0x80);
    const path = file('venues-latin1.ndjson', bytes);
    expect(line).toBeGreaterThan(1);
    const said = `${path} is not UTF-8 text (line ${line}, byte offset ${offset}: the byte 0x${bytes[offset]!.toString(16).toUpperCase()}; ${CONVERT}`;
    expect(await refusal(() => readVenues(path))).toBe(said);
    // a stream of the same bytes: said without a line (the stream is not read again)
    expect(await refusal(() => readVenues((async function* () { yield bytes; })(), { name: 'venues' }))).toMatch(`venues is not UTF-8 text (byte offset ${offset}:`);
    const out = join(dir, 'merged.ndjson');
    const { error } = await runImportCli(['import', 'merge', path, '-o', out]);
    expect((error as Error).message).toBe(said);
    expect(existsSync(out)).toBe(false);
  });

  it('a UTF-8 file cut into chunks at every byte: no chunk boundary inside a character is taken for an invalid byte; a Latin-1 byte is found where the decoder fails', () => {
    const utf8 = Buffer.from('Caffè Nero, Café Quids Inn, 北京烤鸭, 🍺 The Fleadh\n', 'utf8');
    const bad = Buffer.concat([utf8, Buffer.from('Caff\xe8 Nero\n', 'latin1')]);
    // oracle: the WHATWG decoder, fatal, accepts the first and rejects the second
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(utf8)).not.toThrow();
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bad)).toThrow();
    for (let size = 1; size <= 7; size++) {
      const check = new Utf8Check();
      let at = -1;
      for (let i = 0; i < bad.length && at < 0; i += size) at = check.push(bad.subarray(i, i + size));
      expect(at).toBe(utf8.length + 4);
      const whole = new Utf8Check();
      for (let i = 0; i < utf8.length; i += size) expect(whole.push(utf8.subarray(i, i + size))).toBe(-1);
      expect(whole.end()).toBe(-1);
    }
    // a character cut by the end of the input
    const cut = new Utf8Check();
    expect(cut.push(utf8.subarray(0, 5))).toBe(-1);
    expect(cut.end()).toBe(4);
    // overlong "/" (C0 AF), a surrogate (ED A0 80), past U+10FFFF (F4 90 80 80): each refused by the decoder too
    for (const seq of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      expect(firstInvalidUtf8(Uint8Array.from([0x41, ...seq]))).toBe(1);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(seq))).toThrow();
    }
  });
});
