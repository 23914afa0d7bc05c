/**
 * A change log damaged in a line before the last (audit 65d F6): the start is refused (nothing
 * is repaired), and the message says where the line is (its number and byte offset), the seq
 * of the last intact line before it and of the first intact line after it, how many lines
 * after it are intact, and where the recovery procedure is; that procedure's cut (the
 * commands of docs/updates.md, "A damaged change log", run as written) then opens.
 * The log is written by the real ChangeLog from the OSM London pubs imported as docs/import.md
 * says (importOsm); one byte of a venue's name flipped in line 5 of 12. Oracle: the message
 * written here by hand, the byte offset counted here from the file's lines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeLog } from '../../src/changelog/change-log.js';
import { collectRun, importOsm } from '../../src/import/index.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const LONDON_PUBS = 'osm-london-pubs/london_pubs_points.ndjson';
const dir = mkdtempSync(join(tmpdir(), 'change-log-middle-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasShared(LONDON_PUBS))('a change log damaged in a middle line (real pubs, the real ChangeLog)', () => {
  it('is refused naming the line, its byte, the seqs around it and the intact lines after; the documented cut then opens', async () => {
    const { records } = await collectRun(importOsm(sharedFile(LONDON_PUBS)));
    const live = join(dir, 'live');
    const path = join(live, 'changes.log');
    execFileSync('mkdir', ['-p', live]);
    const { log } = await ChangeLog.open(path);
    // 11 batches of 10 pubs, then the removal of the first batch's: 12 lines, seq 1..12
    for (let b = 0; b < 11; b++) await log.append({ op: 'upsert', records: records.slice(b * 10, b * 10 + 10) });
    await log.append({ op: 'remove', ids: records.slice(0, 10).map((r) => r.id) });
    await log.close();

    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.length).toBe(13); // 12 lines and the empty text after the last newline
    // flip the first letter of the first pub's name in line 5 (seq 5): same length, checksum now wrong
    const name = records[40]!.name;
    const at = lines[4]!.indexOf(`"name":${JSON.stringify(name)}`) + '"name":"'.length;
    expect(at).toBeGreaterThan(8);
    const flipped = String.fromCharCode(lines[4]!.charCodeAt(at) ^ 1);
    lines[4] = lines[4]!.slice(0, at) + flipped + lines[4]!.slice(at + 1);
    const damaged = lines.join('\n');
    writeFileSync(path, damaged);
    // line 5 starts after lines 1 to 4 and their newlines (ASCII and UTF-8 alike: counted in bytes)
    const byte = lines.slice(0, 4).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);

    await expect(ChangeLog.open(path)).rejects.toThrow(
      `change log ${path} is damaged at line 5, byte ${byte} (not the last line, so not a torn write): ` +
        'the last intact line before it holds seq 4; the first intact line after it holds seq 6; 7 of the 7 lines after it are intact. ' +
        'Nothing was changed: restore the live directory from a copy, or cut the log at that byte and send the changes from there again (docs/updates.md, "A damaged change log")',
    );
    expect(readFileSync(path, 'utf8')).toBe(damaged);
    expect(existsSync(`${path}.torn`)).toBe(false);

    // the procedure's cut, its commands as docs/updates.md gives them (L: the live directory, B: the byte)
    const docs = readFileSync(join(import.meta.dirname, '../../docs/updates.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### A damaged change log'));
    const cut = /```sh\n *# cut[^\n]*\n([\s\S]*?)```/.exec(section)?.[1];
    expect(cut, 'the cut commands in docs/updates.md').toBeDefined();
    execFileSync('sh', ['-ec', cut!], { env: { ...process.env, L: live, B: String(byte) } });
    expect(readFileSync(path, 'utf8')).toBe(lines.slice(0, 4).join('\n') + '\n');
    expect(readFileSync(join(live, `changes.log.damaged-at-${byte}`), 'utf8')).toBe(lines.slice(4).join('\n'));
    const reopened = await ChangeLog.open(path);
    expect(reopened.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(await reopened.log.append({ op: 'remove', ids: [records[40]!.id] })).toBe(5);
    await reopened.log.close();
  }, 60_000);

  it('a damaged first line, with a damaged line after it: no seq before, and the intact ones counted', async () => {
    const path = join(dir, 'first.log');
    const { log } = await ChangeLog.open(path);
    for (const ids of [['a'], ['b'], ['c']]) await log.append({ op: 'remove', ids });
    await log.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[0] = lines[0]!.replace('"a"', '"x"');
    lines[1] = lines[1]!.replace('"b"', '"y"');
    writeFileSync(path, lines.join('\n'));
    await expect(ChangeLog.open(path)).rejects.toThrow(
      `change log ${path} is damaged at line 1, byte 0 (not the last line, so not a torn write): ` +
        'it is the first line; the first intact line after it holds seq 3; 1 of the 2 lines after it are intact. ',
    );
  });
});
