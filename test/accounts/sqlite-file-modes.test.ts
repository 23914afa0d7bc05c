/**
 * The SQLite accounts files are never world-readable (docs/security.md; audit 59c: under the
 * usual umask 022 all six were created 0644). Oracle: the files' modes as stat reports them,
 * after a store has been opened, written to (so SQLite made its -wal and -shm files) and closed.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccount } from '../../src/accounts/accounts.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlite-modes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const COMPANIONS = ['', '-wal', '-shm', '-rates', '-rates-wal', '-rates-shm'];
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('SQLite accounts files', () => {
  it('a new accounts file, its rate counters and their -wal/-shm are created 0600 under umask 022', async () => {
    const previous = process.umask(0o022);
    try {
      const path = join(tmp, 'accounts.sqlite');
      const store = new SqliteAccountsStore(path);
      await openAccount(store, 'StartUp');
      // the files as a running service has them: checked before the close checkpoints the WAL away
      const modes = Object.fromEntries(COMPANIONS.filter((c) => existsSync(path + c)).map((c) => [c || 'accounts.sqlite', modeOf(path + c)]));
      expect(Object.keys(modes)).toEqual(expect.arrayContaining(['accounts.sqlite', '-wal', '-shm', '-rates']));
      for (const [file, mode] of Object.entries(modes)) expect(mode.toString(8), file).toBe('600');
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('an existing file keeps the mode its operator gave it', async () => {
    const path = join(tmp, 'shared.sqlite');
    writeFileSync(path, '');
    chmodSync(path, 0o640);
    const store = new SqliteAccountsStore(path);
    await openAccount(store, 'StartUp');
    expect(modeOf(path).toString(8)).toBe('640');
    await store.close();
  });
});
