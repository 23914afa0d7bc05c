/**
 * A change log's last line that cannot be replayed is cut at the next start, and its bytes
 * are kept in `changes.log.torn` (audit 59e: a whole last line with a flipped byte was cut and
 * thrown away as "a batch never acknowledged"). A bad line before the last is refused.
 * Oracle: the bytes written here by hand, and node:zlib's crc32 of the JSON.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeLog, ChangeLogWriteError } from '../../src/changelog/change-log.js';

const dir = mkdtempSync(join(tmpdir(), 'change-log-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One log line as the format says: the JSON's crc32 in 8 hex digits, a space, the JSON, a newline. */
function line(seq: number, ids: string[]): string {
  const json = JSON.stringify({ seq, op: 'remove', ids });
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The .torn file holding these cuts, each after its header line (written here from docs/updates.md) and ending its line. */
function tornPieces(pieces: string[], from: number[]): RegExp {
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const one = (piece: string, k: number) => `# \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: ${Buffer.byteLength(piece)} bytes cut from the end of the log at byte ${from[k]}\\n${escape(piece.endsWith('\n') ? piece : `${piece}\n`)}`;
  return new RegExp(`^${pieces.map(one).join('')}$`);
}

describe('a change log whose last line cannot be replayed', () => {
  it('a whole last line with a flipped byte: cut, reported as whole, its bytes kept in changes.log.torn', async () => {
    const path = join(dir, 'flipped.log');
    const last = line(2, ['b', 'c']);
    const flipped = last.replace('"c"', '"d"'); // same length, newline kept, checksum now wrong
    writeFileSync(path, line(1, ['a']) + flipped);
    const { log, entries, tornBytes, tornWhole } = await ChangeLog.open(path);
    await log.close();
    expect(entries.map((e) => e.seq)).toEqual([1]);
    expect(tornBytes).toBe(Buffer.byteLength(flipped));
    expect(tornWhole).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(line(1, ['a']));
    expect(readFileSync(`${path}.torn`, 'utf8')).toMatch(tornPieces([flipped], [line(1, ['a']).length]));
  });

  it('a last line without its newline: cut as a write a crash interrupted, kept too; a later cut is appended', async () => {
    const path = join(dir, 'torn.log');
    const partial = line(2, ['b']).slice(0, 20);
    writeFileSync(path, line(1, ['a']) + partial);
    const first = await ChangeLog.open(path);
    await first.log.close();
    expect(first.tornWhole).toBe(false);
    const at = line(1, ['a']).length;
    expect(readFileSync(`${path}.torn`, 'utf8')).toMatch(tornPieces([partial], [at]));
    appendFileSync(path, 'x');
    const second = await ChangeLog.open(path);
    await second.log.close();
    // the second cut on lines of its own (audit 60a: they ran together)
    expect(readFileSync(`${path}.torn`, 'utf8')).toMatch(tornPieces([partial, 'x'], [at, at]));
  });

  it('a bad line before the last is refused, naming it, and nothing is cut or kept aside', async () => {
    const path = join(dir, 'middle.log');
    const text = line(1, ['a']).replace('"a"', '"z"') + line(2, ['b']);
    writeFileSync(path, text);
    await expect(ChangeLog.open(path)).rejects.toThrow(`change log ${path} is damaged at line 1, byte 0 (not the last line, so not a torn write): it is the first line; the first intact line after it holds seq 2; 1 of the 1 lines after it are intact. `);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(existsSync(`${path}.torn`)).toBe(false);
  });
});

describe('a change log whose failed append cannot even be cut back', () => {
  // The fault: the log's handle swapped for one opened read-only on the same file, so the
  // kernel refuses both the write (EBADF) and the cut (ftruncate on a read-only descriptor).
  it('refuses that batch and every later one, naming the restart, and a restart takes batches again with nothing lost', async () => {
    const path = join(dir, 'unusable.log');
    const { log } = await ChangeLog.open(path);
    await log.append({ op: 'remove', ids: ['kept'] });
    const writable = (log as unknown as { handle: FileHandle }).handle;
    (log as unknown as { handle: FileHandle }).handle = await open(path, 'r');

    const first = await log.append({ op: 'remove', ids: ['refused'] }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ChangeLogWriteError);
    expect(first).toMatchObject({ cutBack: false, path });
    expect((first as Error).message).toMatch(/takes no batch until the service restarts: a write failed \(.*EBADF.*\)/);
    // Even with a working handle again, the log stays shut: the file's end is unknown.
    await (log as unknown as { handle: FileHandle }).handle.close();
    (log as unknown as { handle: FileHandle }).handle = writable;
    const second = await log.append({ op: 'remove', ids: ['after'] }).catch((e: unknown) => e);
    expect(second).toMatchObject({ cutBack: false, message: expect.stringContaining('EBADF') });
    expect(log.lastSeq).toBe(1);
    await log.close();

    expect(readFileSync(path, 'utf8')).toBe(line(1, ['kept']));
    const reopened = await ChangeLog.open(path);
    expect(reopened.entries.map((e) => e.change)).toEqual([{ op: 'remove', ids: ['kept'] }]);
    expect(await reopened.log.append({ op: 'remove', ids: ['next'] })).toBe(2);
    await reopened.log.close();
    expect(readFileSync(path, 'utf8')).toBe(line(1, ['kept']) + line(2, ['next']));
  });
});
