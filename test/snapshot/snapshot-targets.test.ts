// Where `snapshot -o` (and writeSnapshot, which also writes a live directory's base.snapshot)
// points at something other than a plain file (audit 62a, 16 and 11): the rename into place
// replaced a device node or a symbolic link with a regular file; a 0600 file became 0644; a
// folder that refused the temporary file was blamed on the file. Oracle: the entries as lstat
// sees them (kind, device number, link text, mode bits), and the bytes of the same snapshot
// written to a plain new file.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { runSnapshotCommand } from './run-snapshot-command.js';
import { CLI_MAIN } from '../support/cli.js';

const FIXTURES = 'fixtures/venues.ndjson';
const root = process.getuid?.() === 0;
const dir = mkdtempSync(join(os.tmpdir(), 'venue-search-snapshot-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `venue-search snapshot --data FIXTURES --out <out>` in-process; `said.text` gets its stderr. */
async function snapshot(out: string, said = { text: '' }): Promise<void> {
  await runSnapshotCommand(said, ['snapshot', '--data', FIXTURES, '--out', out]);
}

let plain: Buffer;
beforeAll(async () => {
  await snapshot(join(dir, 'plain.vsnap'));
  plain = readFileSync(join(dir, 'plain.vsnap'));
  expect(plain.length).toBeGreaterThan(1000);
}, 60_000);

/** A refusal that names the path and what is there, said before the venues are read. */
async function expectRefused(out: string, message: string): Promise<void> {
  const said = { text: '' };
  await expect(snapshot(out, said)).rejects.toMatchObject({ code: 'invalid_request', param: 'out', message });
  expect(said.text).not.toContain('built the engine');
}

describe('snapshot -o onto something that is not a regular file (audit 62a 16)', () => {
  it.skipIf(!root)('a character device (mknod 1,3, as /dev/null), and a link to it: refused, naming them; both left as they were', async () => {
    const sub = join(dir, 'dev');
    mkdirSync(sub);
    const device = join(sub, 'mynull');
    execFileSync('mknod', [device, 'c', '1', '3']);
    symlinkSync(device, join(sub, 'null-link'));
    await expectRefused(device, `cannot write snapshot ${device}: it is a character device; renaming the snapshot into place would replace it with a file; give a regular file`);
    await expectRefused(join(sub, 'null-link'), `cannot write snapshot ${join(sub, 'null-link')}: it is a character device; renaming the snapshot into place would replace it with a file; give a regular file`);
    const after = lstatSync(device);
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.rdev).toBe(statSync('/dev/null').rdev);
    expect(lstatSync(join(sub, 'null-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(sub, 'null-link'))).toBe(device);
    expect(readdirSync(sub).sort()).toEqual(['mynull', 'null-link']);
  });

  it('a named pipe: refused, naming it; still a pipe', async () => {
    const fifo = join(dir, 'pipe.vsnap');
    execFileSync('mkfifo', [fifo]);
    await expectRefused(fifo, `cannot write snapshot ${fifo}: it is a named pipe; renaming the snapshot into place would replace it with a file; give a regular file`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a symbolic link to a file: the target gets the snapshot, the link stays a link, no temporary file left', async () => {
    const sub = join(dir, 'link');
    mkdirSync(sub);
    writeFileSync(join(sub, 'real.vsnap'), 'real');
    symlinkSync('real.vsnap', join(sub, 'current.vsnap'));
    await snapshot(join(sub, 'current.vsnap'));
    expect(lstatSync(join(sub, 'current.vsnap')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(sub, 'current.vsnap'))).toBe('real.vsnap');
    expect(readFileSync(join(sub, 'real.vsnap')).equals(plain)).toBe(true);
    expect(readdirSync(sub).sort()).toEqual(['current.vsnap', 'real.vsnap']);
  }, 60_000);

  it('writeSnapshot onto a live directory base.snapshot that links to another folder: the other folder\'s file is replaced, the link kept', async () => {
    const live = join(dir, 'live');
    const volume = join(dir, 'volume');
    mkdirSync(live);
    mkdirSync(volume);
    writeFileSync(join(volume, 'base.snapshot'), 'stale');
    symlinkSync(join(volume, 'base.snapshot'), join(live, 'base.snapshot'));
    const { venues } = await readVenues(FIXTURES);
    const engine = createEngine(venues);
    writeSnapshot(engine, join(dir, 'engine.vsnap'));
    writeSnapshot(engine, join(live, 'base.snapshot'));
    expect(lstatSync(join(live, 'base.snapshot')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(volume, 'base.snapshot')).equals(readFileSync(join(dir, 'engine.vsnap')))).toBe(true);
    expect(readdirSync(live)).toEqual(['base.snapshot']);
    expect(readdirSync(volume)).toEqual(['base.snapshot']);
  });
});

describe('an output name ending in "/" names a folder (audit 63a F1)', () => {
  it('snapshot -o newdir/ (nothing there): refused before the venues are read; no file newdir made', async () => {
    const sub = join(dir, 'slash-new');
    mkdirSync(sub);
    const out = `${join(sub, 'newdir')}/`;
    await expectRefused(out, `cannot write snapshot ${out}: the name ends in "/", so it names a folder; give a file`);
    expect(readdirSync(sub)).toEqual([]);
  });

  it('snapshot -o a.vsnap/ where a.vsnap is a snapshot: refused, the file not replaced (same bytes, same mtime)', async () => {
    const sub = join(dir, 'slash-old');
    mkdirSync(sub);
    const file = join(sub, 'a.vsnap');
    writeFileSync(file, plain);
    const before = statSync(file).mtimeMs;
    await expectRefused(`${file}/`, `cannot write snapshot ${file}/: the name ends in "/", so it names a folder; give a file`);
    await expectRefused(`${file}/.`, `cannot write snapshot ${file}/.: the name ends in "/.", so it names a folder; give a file`);
    expect(readFileSync(file).equals(plain)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(before);
    expect(readdirSync(sub)).toEqual(['a.vsnap']);
  });

  it('writeSnapshot(engine, "lib/new/"): invalid_data naming the path; nothing written', async () => {
    const sub = join(dir, 'slash-lib');
    mkdirSync(join(sub, 'lib'), { recursive: true });
    const engine = createEngine((await readVenues(FIXTURES)).venues);
    const path = `${join(sub, 'lib', 'new')}/`;
    expect(() => writeSnapshot(engine, path)).toThrow(expect.objectContaining({ code: 'invalid_data', param: 'path', message: `cannot write snapshot ${path}: the name ends in "/", so it names a folder; give a file` }));
    expect(readdirSync(join(sub, 'lib'))).toEqual([]);
  });
});

describe('a live directory compaction onto a base.snapshot that is a link (audit 62a 16)', () => {
  it('the linked file on the other volume gets the new base (its mode kept), the link stays a link, nothing is left beside either', async () => {
    const live = join(dir, 'live-compact');
    const volume = join(dir, 'volume-compact');
    mkdirSync(live);
    mkdirSync(volume);
    const { venues } = await readVenues(FIXTURES);
    writeSnapshot(createEngine(venues), join(volume, 'base.snapshot'));
    chmodSync(join(volume, 'base.snapshot'), 0o600);
    symlinkSync(join(volume, 'base.snapshot'), join(live, 'base.snapshot'));
    const load = async (p: string) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine;
    const service = await LiveVenues.open({ dataPath: FIXTURES, dir: live, compactAfter: 0, load });
    try {
      await service.upsert([{ id: 'new-62a', name: 'The Linked Base', location: { type: 'Point', coordinates: [51.5, -0.1] } }]);
      await service.compact();
    } finally {
      await service.close();
    }
    expect(lstatSync(join(live, 'base.snapshot')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(live, 'base.snapshot'))).toBe(join(volume, 'base.snapshot'));
    const base = readSnapshot(join(volume, 'base.snapshot'));
    expect(base.size).toBe(venues.length + 1);
    expect(base.store.name(base.store.indexOf('new-62a'))).toBe('The Linked Base');
    expect(lstatSync(join(volume, 'base.snapshot')).mode & 0o777).toBe(0o600);
    expect(readdirSync(volume)).toEqual(['base.snapshot']);
    expect(readdirSync(live).filter((name) => name.startsWith('base.snapshot'))).toEqual(['base.snapshot']);
  }, 60_000);
});

describe('snapshot -o keeps the replaced file\'s mode; a folder that refuses the temporary file is named (audit 62a 11)', () => {
  it('a 0600 snapshot stays 0600, through a link too', async () => {
    const sub = join(dir, 'private');
    mkdirSync(sub);
    const file = join(sub, 'a.vsnap');
    writeFileSync(file, 'old');
    chmodSync(file, 0o600);
    await snapshot(file);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).equals(plain)).toBe(true);
    symlinkSync('a.vsnap', join(sub, 'link.vsnap'));
    await snapshot(join(sub, 'link.vsnap'));
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('a writable file in a folder that is not writable: the folder is named, before any reading; the file as it was', () => {
    const sub = mkdtempSync(join(os.tmpdir(), 'venue-search-ro-'));
    try {
      const folder = join(sub, 'ro');
      mkdirSync(folder);
      const file = join(folder, 'out.vsnap');
      writeFileSync(file, 'old');
      chmodSync(file, 0o666);
      chmodSync(folder, 0o555);
      chmodSync(sub, 0o777);
      // root writes anywhere: the command runs as nobody then (the folder stays root's)
      const asUser = root ? { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) } : {};
      if (root) chownSync(folder, 0, 0);
      const r = spawnSync(process.execPath, [CLI_MAIN, 'snapshot', '--data', FIXTURES, '--out', file], { encoding: 'utf8', ...asUser, env: { ...process.env, HOME: sub, TMPDIR: sub }, timeout: 60_000 });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([`venue-search: cannot write snapshot ${file}: permission denied in its folder ${folder} (the output is written beside it, then renamed in)`]);
      expect(readFileSync(file, 'utf8')).toBe('old');
    } finally {
      rmSync(sub, { recursive: true, force: true });
    }
  }, 60_000);
});
