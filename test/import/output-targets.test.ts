// Where `-o` points at something other than a plain file (audit 60a: the whole-or-nothing
// rename replaced a symbolic link, a named pipe, even /dev/full, with a regular file). The
// CLI runs as a user runs it. Oracle: the folder's entries as lstat sees them, and the bytes
// `-o` writes to a plain file, which are JSON.parse'd line by line and counted against the
// import's own report (352 written of the Isle of Man file, test/import/real-data.test.ts).
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, createReadStream, existsSync, linkSync, lstatSync, statSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const IOM = new URL('../../../shared/data/osm-isle-of-man-food-drink/iom_food_and_drink_overpass.geojson', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'import-targets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [CLI_MAIN, ...args]);
    return { code: 0, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe.skipIf(!existsSync(IOM))('import -o onto a link, a pipe or a folder', () => {
  let plain: Buffer;
  beforeAll(async () => {
    expect((await run(['import', 'osm', IOM, '-o', join(tmp, 'plain.ndjson')])).code).toBe(0);
    plain = readFileSync(join(tmp, 'plain.ndjson'));
    const lines = plain.toString('utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as { id: string }).every((r) => typeof r.id === 'string')).toBe(true);
    expect(lines).toHaveLength(352);
  }, 60_000);

  it('a symbolic link to a file: the file gets the output whole, the link stays a link', async () => {
    const dir = join(tmp, 'link');
    mkdirSync(dir);
    writeFileSync(join(dir, 'target.ndjson'), 'old\n');
    symlinkSync('target.ndjson', join(dir, 'current.ndjson'));
    const r = await run(['import', 'osm', IOM, '-o', join(dir, 'current.ndjson'), '--report-json', join(dir, 'report.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, 'current.ndjson')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'current.ndjson'))).toBe('target.ndjson');
    expect(readFileSync(join(dir, 'target.ndjson')).equals(plain)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ written: 352 });
    expect(readdirSync(dir).sort()).toEqual(['current.ndjson', 'report.json', 'target.ndjson']);
  }, 60_000);

  it('a named pipe: written through to its reader, and still a pipe', async () => {
    const fifo = join(tmp, 'pipe.ndjson');
    await promisify(execFile)('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reader = new Promise<Buffer>((resolve, reject) => {
      const s = createReadStream(fifo);
      s.on('data', (c) => chunks.push(c as Buffer));
      s.on('end', () => resolve(Buffer.concat(chunks)));
      s.on('error', reject);
    });
    const r = await run(['import', 'osm', IOM, '-o', fifo]);
    expect(r.code, r.stderr).toBe(0);
    expect((await reader).equals(plain)).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(tmp).filter((f) => f.startsWith('pipe'))).toEqual(['pipe.ndjson']);
  }, 60_000);

  it('two imports to one path at once: each writes its own partial file, and the path ends up holding one whole output', async () => {
    const dir = join(tmp, 'together');
    mkdirSync(dir);
    const out = join(dir, 'out.ndjson');
    const results = await Promise.all([run(['import', 'osm', IOM, '-o', out]), run(['import', 'osm', IOM, '-o', out])]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out).equals(plain)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  }, 60_000);

  it('an import stopped by SIGTERM or SIGINT leaves no partial file, and an earlier output as it was', async () => {
    const FHRS = new URL('../../../shared/data/fhrs-london/fhrs_london_food_drink_2021-08-19.csv', import.meta.url).pathname;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const dir = join(tmp, `stopped-${signal}`);
      mkdirSync(dir);
      const out = join(dir, 'fhrs.ndjson');
      writeFileSync(out, 'earlier\n');
      const child = spawn(process.execPath, [CLI_MAIN, 'import', 'fhrs', FHRS, '-o', out], { stdio: 'ignore' });
      // stopped once its partial file is there, mid-import
      await expect.poll(() => readdirSync(dir).some((f) => f.endsWith('.partial')), { timeout: 30_000, interval: 20 }).toBe(true);
      child.kill(signal);
      const [, stoppedBy] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      expect(stoppedBy).toBe(signal);
      expect(readdirSync(dir)).toEqual(['fhrs.ndjson']);
      expect(readFileSync(out, 'utf8')).toBe('earlier\n');
    }
  }, 90_000);

  it('--report-json on the file -o writes (the same path, a link to it, a hard link of it) is refused before any work (audit 61b N2)', async () => {
    const dir = join(tmp, 'same');
    mkdirSync(dir);
    const out = join(dir, 'same.json');
    writeFileSync(out, '{"old":1}\n');
    symlinkSync('same.json', join(dir, 'link.json'));
    linkSync(out, join(dir, 'hard.json'));
    for (const report of [out, join(dir, 'link.json'), join(dir, 'hard.json'), join(dir, '.', 'same.json')]) {
      const r = await run(['import', 'osm', IOM, '-o', out, '--report-json', report]);
      expect(r.code, report).toBe(1);
      expect(r.stderr.trim(), report).toBe(`venue-search: --report-json ${report} is the file --output writes (${out}): give each its own file`);
      expect(readFileSync(out, 'utf8')).toBe('{"old":1}\n');
    }
    expect(readdirSync(dir).sort()).toEqual(['hard.json', 'link.json', 'same.json']);
  }, 60_000);

  it('-o and --report-json meeting through a link whose target is not there yet are refused, both ways, and nothing is made (audit 62a 1)', async () => {
    const dir = join(tmp, 'dangling');
    mkdirSync(dir);
    mkdirSync(join(dir, 'sub'));
    symlinkSync('new.json', join(dir, 'dl.json')); // new.json does not exist yet
    symlinkSync('sub', join(dir, 'via')); // a folder link, then a dangling link in it
    symlinkSync('../new.json', join(dir, 'sub', 'up.json'));
    for (const [out, report] of [[join(dir, 'new.json'), join(dir, 'dl.json')], [join(dir, 'dl.json'), join(dir, 'new.json')], [join(dir, 'via', 'up.json'), join(dir, 'new.json')]] as const) {
      const r = await run(['import', 'osm', IOM, '-o', out, '--report-json', report]);
      expect(r.code, `${out} ${report}`).toBe(1);
      expect(r.stderr.trim()).toBe(`venue-search: --report-json ${report} is the file --output writes (${out}): give each its own file`);
      expect(existsSync(join(dir, 'new.json'))).toBe(false);
    }
    expect(readdirSync(dir).sort()).toEqual(['dl.json', 'sub', 'via']);
  }, 60_000);

  it('an empty -o or --report-json (an unset shell variable) is refused at once, naming the option (audit 62a 17)', async () => {
    const dir = join(tmp, 'empty-name');
    mkdirSync(dir);
    for (const [args, option] of [[['-o', ''], "-o, --output <file>"], [['-o', join(dir, 'out.ndjson'), '--report-json', ''], '--report-json <file>']] as const) {
      const r = await run(['import', 'osm', IOM, ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: option '${option}' argument '' is invalid. must name a file; got an empty string\n`);
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('-o or --report-json onto the input is refused before any work, and the input stays (audit 61a)', async () => {
    const dir = join(tmp, 'onto-input');
    mkdirSync(dir);
    const input = join(dir, 'iom.geojson');
    writeFileSync(input, readFileSync(IOM));
    for (const [args, option] of [[['-o', input], '--output'], [['-o', join(dir, 'out.ndjson'), '--report-json', input], '--report-json']] as const) {
      const r = await run(['import', 'osm', input, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim()).toBe(`venue-search: ${option} ${input} is the input ${input}: the import would replace what it reads; give another file`);
      expect(readFileSync(input).equals(readFileSync(IOM))).toBe(true);
    }
    expect(readdirSync(dir)).toEqual(['iom.geojson']);
  }, 60_000);

  it('a file replaced whole keeps its permission bits (an output kept private stays private; audit 61b N10)', async () => {
    const out = join(tmp, 'private.ndjson');
    writeFileSync(out, 'old\n', { mode: 0o600 });
    chmodSync(out, 0o600);
    const r = await run(['import', 'osm', IOM, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out).equals(plain)).toBe(true);
  }, 60_000);

  it('a report that cannot be written leaves -o as it was, so "nothing written" is true (audit 61b N6)', async () => {
    const out = join(tmp, 'kept.ndjson');
    writeFileSync(out, 'old\n');
    const r = await run(['import', 'osm', IOM, '-o', out, '--report-json', '/dev/full']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('venue-search: cannot write --report-json /dev/full: no space left on the device');
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    expect(readdirSync(tmp).filter((name) => name.includes('.partial'))).toEqual([]);
  }, 60_000);

  it('a folder is refused before any work, naming the option', async () => {
    const folder = join(tmp, 'a-folder');
    mkdirSync(folder);
    const r = await run(['import', 'osm', IOM, '-o', folder]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`venue-search: cannot write --output ${folder}: it is a folder; give a file\n`);
    const report = await run(['import', 'osm', IOM, '-o', join(tmp, 'x.ndjson'), '--report-json', folder]);
    expect(report.code).toBe(1);
    expect(report.stderr).toBe(`venue-search: cannot write --report-json ${folder}: it is a folder; give a file\n`);
    expect(existsSync(join(tmp, 'x.ndjson'))).toBe(false);
  }, 60_000);

  it('-o or --report-json ending in "/" names a folder: refused before any work; no file of that name made, an existing one kept (audit 63a F1)', async () => {
    const sub = join(tmp, 'slash');
    mkdirSync(sub);
    const r = await run(['import', 'osm', IOM, '-o', `${join(sub, 'newd')}/`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`venue-search: cannot write --output ${join(sub, 'newd')}/: the name ends in "/", so it names a folder; give a file\n`);
    writeFileSync(join(sub, 'rj'), 'old report\n');
    const report = await run(['import', 'osm', IOM, '-o', join(sub, 'o.ndjson'), '--report-json', `${join(sub, 'rj')}/`]);
    expect(report.code).toBe(1);
    expect(report.stderr).toBe(`venue-search: cannot write --report-json ${join(sub, 'rj')}/: the name ends in "/", so it names a folder; give a file\n`);
    expect(readFileSync(join(sub, 'rj'), 'utf8')).toBe('old report\n');
    expect(readdirSync(sub)).toEqual(['rj']);
  }, 60_000);
});

const OVERTURE = new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url).pathname;

describe.skipIf(!existsSync(OVERTURE))('import overture <folder>: its .parquet files are inputs', () => {
  it('-o or --report-json onto a .parquet file the folder walk reads is refused before any work, the file left as it was (audit 62a 12)', async () => {
    const dir = join(tmp, 'overture');
    const places = join(dir, 'places');
    mkdirSync(join(places, 'theme=places'), { recursive: true });
    const first = join(places, 'part-0.parquet');
    const nested = join(places, 'theme=places', 'part-1.parquet');
    writeFileSync(first, readFileSync(OVERTURE));
    writeFileSync(nested, readFileSync(OVERTURE));
    for (const [args, option, input] of [
      [['-o', first], '--output', first],
      [['-o', nested], '--output', nested],
      [['-o', join(dir, 'out.ndjson'), '--report-json', first], '--report-json', first],
    ] as const) {
      const r = await run(['import', 'overture', places, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim()).toBe(`venue-search: ${option} ${input} is the input ${input}: the import would replace what it reads; give another file`);
    }
    for (const file of [first, nested]) expect(readFileSync(file).equals(readFileSync(OVERTURE))).toBe(true);
    expect(readdirSync(dir)).toEqual(['places']);
    expect(readdirSync(places, { recursive: true }).sort()).toEqual(['part-0.parquet', 'theme=places', join('theme=places', 'part-1.parquet')]);
  }, 90_000);
});
