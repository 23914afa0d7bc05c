/**
 * `venue-search snapshot` in-process, and `serve --data` telling a snapshot from a venues
 * file (loadEngineFile). The oracle: an engine built from the fixture records directly.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { unsealHeader } from '../support/snapshot-header-seal.js';
import { runSnapshotCommand } from './run-snapshot-command.js';

const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-snapshot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURES = 'fixtures/venues.ndjson';
const NOW = Date.UTC(2026, 10, 21, 12, 0);
const fail = (message: string): never => {
  throw new Error(message);
};

/** Runs `venue-search <args>`, returning what it wrote to stderr. */
async function run(...args: string[]): Promise<string> {
  const said = { text: '' };
  await runSnapshotCommand(said, args);
  return said.text;
}

describe('venue-search snapshot', () => {
  it('writes a snapshot of the fixtures that serve loads as a snapshot, answering like the records engine', async () => {
    const out = join(dir, 'fixtures.vsnap');
    const said = await run('snapshot', '--data', FIXTURES, '--out', out);
    const { venues } = await readVenues(FIXTURES);
    expect(said).toMatch(new RegExp(`read ${venues.length} venues from fixtures/venues.ndjson`));
    expect(said).toMatch(new RegExp(`wrote .*fixtures\\.vsnap: ${venues.length} venues, [\\d.]+ MB, in [\\d.]+ s\\. Serve it with: venue-search serve --data .*fixtures\\.vsnap`));
    expect(statSync(out).size).toBeGreaterThan(1000);

    const loaded = await loadEngineFile(out, fail);
    expect(loaded.snapshot).toBe(true);
    const oracle = createEngine(venues);
    const body = { locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 1500 }, preferences: { catersFilters: ['vegetarian'] } };
    const expected = oracle.search(body, { now: NOW });
    expect(expected.totalResults).toBeGreaterThan(0);
    expect(loaded.engine.search(body, { now: NOW })).toEqual(expected);

    const fromNdjson = await loadEngineFile(FIXTURES, fail);
    expect(fromNdjson.snapshot).toBe(false);
    expect(fromNdjson.engine.search(body, { now: NOW })).toEqual(expected);
  });

  it('--threads: 1 and 3 threads write snapshots that answer as the records engine does; a count outside 1..64 is refused before any reading', async () => {
    const answers: unknown[] = [];
    const body = { locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 3000 }, preferences: { vibes: ['cosy'] } };
    for (const threads of ['1', '3']) {
      const out = join(dir, `threads-${threads}.vsnap`);
      await run('snapshot', '--data', FIXTURES, '--out', out, '--threads', threads);
      answers.push((await loadEngineFile(out, fail)).engine.search(body, { now: NOW }));
    }
    const oracle = createEngine((await readVenues(FIXTURES)).venues).search(body, { now: NOW });
    expect(oracle.totalResults).toBeGreaterThan(20);
    expect(answers[0]).toEqual(oracle);
    expect(answers[1]).toEqual(oracle);
    for (const bad of ['0', '65', '1.5', 'two']) {
      const said = { text: '' };
      await expect(runSnapshotCommand(said, ['snapshot', '--data', FIXTURES, '--out', join(dir, 'never.vsnap'), '--threads', bad])).rejects.toThrow(`option '--threads <n>' argument '${bad}' is invalid. must be an integer 1..64; got "${bad}"`);
      expect(said.text).not.toContain('built the engine');
    }
  }, 60_000);

  it('a missing data file is an error naming it, and no snapshot is written', async () => {
    const out = join(dir, 'never.vsnap');
    await expect(run('snapshot', '--data', join(dir, 'missing.ndjson'), '--out', out)).rejects.toThrow(/data file not found: .*missing\.ndjson/);
    expect(() => statSync(out)).toThrow();
    await expect(loadEngineFile(join(dir, 'missing.ndjson'), fail)).rejects.toThrow(/data file not found: .*missing\.ndjson .*or a snapshot/);
  });

  it('an --out in a folder that does not exist is said before any reading', async () => {
    const out = join(dir, 'no-such-folder', 'x.vsnap');
    const said = { text: '' };
    await expect(runSnapshotCommand(said, ['snapshot', '--data', FIXTURES, '--out', out])).rejects.toMatchObject({
      code: 'invalid_request',
      message: `cannot write snapshot ${out}: its folder does not exist`,
    });
    expect(said.text).not.toContain('built the engine'); // nothing was read or built
  });

  it('an --out that is the --data file (or a link to it), or a folder, is refused before any reading (audit 61a)', async () => {
    const data = join(dir, 'own.ndjson');
    copyFileSync(FIXTURES, data);
    symlinkSync('own.ndjson', join(dir, 'own-link.ndjson'));
    for (const out of [data, join(dir, 'own-link.ndjson')]) {
      const said = { text: '' };
      await expect(runSnapshotCommand(said, ['snapshot', '--data', data, '--out', out])).rejects.toMatchObject({
        code: 'invalid_request',
        message: `--out ${out} is the --data file: the snapshot would replace the venues it is built from; give another file`,
      });
      expect(said.text).not.toContain('built the engine');
    }
    expect(readFileSync(data).equals(readFileSync(FIXTURES))).toBe(true);
    const folder = join(dir, 'a-folder-out');
    mkdirSync(folder);
    const said = { text: '' };
    await expect(runSnapshotCommand(said, ['snapshot', '--data', data, '--out', folder])).rejects.toMatchObject({ code: 'invalid_request', message: `cannot write snapshot ${folder}: it is a folder; give a file` });
    expect(said.text).not.toContain('built the engine');
  });

  it('-o is --out; "-" is refused as stdout would be meant (a snapshot is written whole to a file; audit 61a)', async () => {
    const out = join(dir, 'short-flag.vsnap');
    await run('snapshot', '--data', FIXTURES, '-o', out);
    expect(statSync(out).size).toBeGreaterThan(0);
    await expect(run('snapshot', '--data', FIXTURES, '--out', '-')).rejects.toThrow("option '-o, --out <file>' argument '-' is invalid. a snapshot is written to a file (whole, then renamed into place), not to stdout: give a file");
  }, 60_000);

  it('an empty --out (an unset shell variable) is refused before any reading, naming the option (audit 62a 17)', async () => {
    const said = { text: '' };
    for (const flag of ['--out', '-o']) {
      await expect(runSnapshotCommand(said, ['snapshot', '--data', FIXTURES, flag, ''])).rejects.toThrow("option '-o, --out <file>' argument '' is invalid. must name a file; got an empty string");
    }
    expect(said.text).toBe('');
  });

  it('an empty data file (an empty change log, a cut download) is refused, and no snapshot is written', async () => {
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '\n');
    const out = join(dir, 'empty.vsnap');
    await expect(run('snapshot', '--data', empty, '--out', out)).rejects.toThrow(`${empty} holds no venue records: no snapshot written`);
    expect(() => statSync(out)).toThrow();
  });

  it('a folder as data is an error saying it is not a file (not that it is missing)', async () => {
    await expect(run('snapshot', '--data', dir, '--out', join(dir, 'never.vsnap'))).rejects.toThrow(`--data must be a file; ${dir} is not`);
  });

  it('a snapshot of older rules given as --data is written again by this version\'s (audit 75d F4: it was refused, while docs/find.md said to write it again)', async () => {
    const first = join(dir, 'first.vsnap');
    await run('snapshot', '--data', FIXTURES, '--out', first);
    // as a writer of older rules left it: the header without nameRules and zoneRules (renamed
    // in place, same length), unsealed as files before the seal
    const bytes = unsealHeader(Buffer.from(readFileSync(first)));
    for (const key of ['"nameRules":', '"zoneRules":']) {
      const at = bytes.indexOf(key);
      expect(at, key).toBeGreaterThan(0);
      bytes.write(key.replace('Rules', 'Rulez'), at, 'latin1');
    }
    const older = join(dir, 'older.vsnap');
    writeFileSync(older, bytes);
    // serve's load says the index is built again, and how to keep it
    let reported = '';
    const report = new Writable({
      write(chunk: Buffer, _encoding, done) {
        reported += String(chunk);
        done();
      },
    });
    await loadEngineFile(older, fail, report);
    expect(reported).toContain(`venue-search: the snapshot ${older} holds a name index of older rules: it is built again at start (write the snapshot again to keep it: venue-search snapshot --data ${older} --out <new file>)\n`);
    const again = join(dir, 'again.vsnap');
    const { venues: fixtures } = await readVenues(FIXTURES);
    const said = await run('snapshot', '--data', older, '--out', again);
    expect(said).toContain(`read ${fixtures.length} venues from the snapshot ${older}; writing them again by this version's rules`);
    const header = readFileSync(again).toString('latin1');
    expect(header).toMatch(/"nameRules":\d+,"zoneRules":\d+,/);
    // the same venues, found alike: the fixtures file read afresh is the oracle
    const fresh = createEngine(fixtures);
    const rewritten = (await loadEngineFile(again, fail)).engine;
    expect(rewritten.size).toBe(fixtures.length);
    for (const q of ['red lion', 'crown', 'cafe']) {
      expect(rewritten.find({ q, limit: 50 }, { now: 0 }).establishments.map((e) => e.id), q).toEqual(fresh.find({ q, limit: 50 }, { now: 0 }).establishments.map((e) => e.id));
    }
  });
});
