// `serve --db <SQLite file>`: what makes the accounts database unusable is said before the
// data is loaded (a minute at 1M venues), naming the cause (audit 62a 14). Oracle: the exact
// stderr (one line, no "read N venues" before it) and the database file's bytes, unchanged.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const FIXTURES = 'fixtures/venues.ndjson';
const root = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'venue-search-db-precheck-'));
chmodSync(dir, 0o777);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `venue-search <args>`; as `nobody` under root when `asNobody` (root writes into any folder). */
function run(args: string[], asNobody = false): { status: number | null; stderr: string } {
  const user = asNobody && root ? { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) } : {};
  const r = spawnSync(process.execPath, [CLI_MAIN, ...args], { encoding: 'utf8', ...user, env: { ...process.env, HOME: dir, TMPDIR: dir }, timeout: 30_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('serve --db: an SQLite database that cannot be used is said before the data is loaded (audit 62a 14)', () => {
  it('an existing, writable database in a folder that is not writable: the folder is named', () => {
    const folder = join(dir, 'rodb');
    mkdirSync(folder);
    const db = join(folder, 'acc.sqlite');
    const made = run(['accounts', 'create', '--plan', 'Builder', '--db', db]);
    expect(made.status, made.stderr).toBe(0);
    for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o666);
    if (root) chownSync(folder, 0, 0);
    chmodSync(folder, 0o555);
    const before = readFileSync(db);
    const r = run(['serve', '--data', FIXTURES, '--db', db, '--workers', '1', '--port', '0'], true);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([`venue-search: --db: cannot use the accounts database ${db}: permission denied in its folder ${folder} (SQLite writes its journal and WAL files beside the database)`]);
    expect(readFileSync(db).equals(before)).toBe(true);
  }, 60_000);

  it('a database under a path whose parent is a file: the file is named', () => {
    const db = join(FIXTURES, 'acc.sqlite');
    const before = readFileSync(FIXTURES);
    const r = run(['serve', '--data', FIXTURES, '--db', db, '--workers', '1', '--port', '0']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([`venue-search: --db: cannot open the accounts database ${db}: ${FIXTURES} is a file, not a folder`]);
    expect(readFileSync(FIXTURES).equals(before)).toBe(true);
  }, 60_000);
});
