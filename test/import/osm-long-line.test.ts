// A line longer than any line is read (audit 73d F1): a 600 MB line crashed `import osm` with
// V8's "RangeError: Invalid string length" and a stack trace naming no file or line, and left
// `<out>.<pid>.partial` beside the output. Now it is refused in one line naming the file and
// the line, and the run fails as any bad input does: no partial file, the earlier output as it
// was (docs/import.md). The CLI runs as a user runs it, on the London pubs' first lines and a
// line of 256 MiB and 1 byte (the bound) made here. Oracle: the line's number counted by hand
// (the pubs' lines, then it), the folder's entries, the earlier output's bytes.
import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const PUBS = new URL('../../../shared/data/osm-london-pubs/london_pubs_points.ndjson', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'import-long-line-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The bound: 256 MiB (MAX_LINE_BYTES in src/import/utf8-file.ts, written out here). */
const BOUND = 256 * 1024 * 1024;

describe.skipIf(!existsSync(PUBS))('import osm of a file with one line too long', () => {
  it('is refused in one line naming the file and the line; no partial file, the earlier output kept', async () => {
    const input = join(tmp, 'long.ndjson');
    const pubLines = readFileSync(PUBS, 'utf8').split('\n').slice(0, 3);
    // three pubs, then a JSON text of BOUND + 1 bytes: {"note":"xxx...x"}
    const fd = openSync(input, 'w');
    writeSync(fd, `${pubLines.join('\n')}\n{"note":"`);
    const block = Buffer.alloc(16 * 1024 * 1024, 'x');
    const fill = BOUND + 1 - '{"note":""}'.length;
    for (let left = fill; left > 0; left -= block.length) writeSync(fd, block, 0, Math.min(left, block.length));
    writeSync(fd, '"}\n');
    closeSync(fd);
    const output = join(tmp, 'pubs.ndjson');
    writeFileSync(output, 'the earlier output\n');

    const result = await promisify(execFile)(process.execPath, [CLI_MAIN, 'import', 'osm', input, '-o', output], { maxBuffer: 1 << 20 }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n').filter((l) => !/^\s*(reading|\[|import)/.test(l) && l.trim() !== '');
    expect(result.stderr).toContain(`OSM file ${input}: line 4 is longer than 256 MiB`);
    expect(result.stderr).not.toContain('RangeError');
    expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
    expect(readdirSync(tmp).sort()).toEqual(['long.ndjson', 'pubs.ndjson']);
    expect(readFileSync(output, 'utf8')).toBe('the earlier output\n');
  }, 120_000);
});
