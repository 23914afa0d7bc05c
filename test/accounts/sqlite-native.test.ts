/**
 * better-sqlite3's binary missing or unloadable: the accounts store names it and the command
 * to run, instead of the `bindings` package's list of paths. The errors classified here are
 * real ones, raised by the same code paths better-sqlite3 takes: the `bindings` package (which
 * better-sqlite3 calls to find its binary) asked for a binary that was never built, and Node's
 * own loader given a file that is not a loadable binary. The whole path, a tarball installed
 * with install scripts skipped and `serve` started, is in test/install/tarball.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteNativeModuleError, sqliteNativeModuleError } from '../../src/accounts/sqlite-native.js';

// `bindings` resolved from better-sqlite3's own folder, as better-sqlite3 resolves it.
const bindings = createRequire(createRequire(import.meta.url).resolve('better-sqlite3'))('bindings') as (name: string) => unknown;
const dir = mkdtempSync(join(tmpdir(), 'sqlite-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('sqliteNativeModuleError', () => {
  it('a binary that was never built (install script skipped): says so and gives the npm commands that allow and build it', () => {
    const cause = thrown(() => bindings('never_built_by_this_test.node'));
    const err = sqliteNativeModuleError(cause);
    expect(err).toBeInstanceOf(SqliteNativeModuleError);
    expect(err!.failure).toBe('unbuilt');
    expect(err!.cause).toBe(cause);
    expect(err!.message).toContain('better-sqlite3 is installed but its native module was never built');
    expect(err!.message).toContain('\n  npm approve-scripts better-sqlite3 && npm rebuild better-sqlite3');
    expect(err!.message).not.toContain('Tried:');
  });

  it('a binary this Node.js cannot load: names the Node.js, the loader\'s reason, and the rebuild command', () => {
    const notABinary = join(dir, 'better_sqlite3.node');
    writeFileSync(notABinary, 'not an ELF file\n');
    const cause = thrown(() => createRequire(import.meta.url)(notABinary));
    expect((cause as NodeJS.ErrnoException).code).toBe('ERR_DLOPEN_FAILED');
    const err = sqliteNativeModuleError(cause);
    expect(err!.failure).toBe('unloadable');
    expect(err!.message).toContain(`does not load in this Node.js (${process.version}, ${process.platform}-${process.arch}): ${notABinary}:`);
    expect(err!.message).toMatch(/\n {2}npm rebuild better-sqlite3$/);
  });

  it('any other failure is left alone (a database file that cannot be opened keeps its own message)', () => {
    expect(sqliteNativeModuleError(new Error('unable to open database file'))).toBeUndefined();
    expect(sqliteNativeModuleError(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBeUndefined();
    expect(sqliteNativeModuleError('Could not locate the bindings file')).toBeUndefined();
  });
});
