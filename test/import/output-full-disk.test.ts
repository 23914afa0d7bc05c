// An import whose output cannot be written whole (audit 59e: on a full disk `-o` exited 13
// with no word and left a truncated file; to stdout, a stack trace). The CLI runs as a user
// runs it, in a process with a file size limit (`ulimit -f`): writes past it go short and then
// fail (EFBIG), as on a full disk (ENOSPC). Oracle: the exit code, stderr as written, and
// the folder's files.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const FHRS = new URL('../../../shared/data/fhrs-london/fhrs_london_food_drink_2021-08-19.csv', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'import-full-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** 256 KiB: a few hundred records of the FHRS import (9 MB in all). */
const LIMIT_BLOCKS = 512;

/** `venue-search <args>` under the file size limit; `stdoutFile`: stdout redirected to that file. */
function runLimited(args: string[], stdoutFile?: string): Promise<{ code: number | null; stderr: string }> {
  const redirect = stdoutFile === undefined ? '' : ` > "${stdoutFile}"`;
  const script = `ulimit -f ${LIMIT_BLOCKS} && exec "$@"${redirect}`;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script, 'sh', process.execPath, CLI_MAIN, ...args], { stdio: ['ignore', stdoutFile === undefined ? 'ignore' : 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!existsSync(FHRS))('import onto a disk that fills up', () => {
  it('-o: one line naming the output and the cause, exit 1, no file left (nor its --report-json); an earlier output kept', async () => {
    const out = join(tmp, 'fhrs.ndjson');
    const { code, stderr } = await runLimited(['import', 'fhrs', FHRS, '-o', out, '--report-json', join(tmp, 'fhrs-report.json')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^venue-search: cannot write --output ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*(EFBIG|too large).*; nothing written\\n$`));
    expect(readdirSync(tmp).filter((f) => f.startsWith('fhrs'))).toEqual([]);
    // an output from before is left as it was
    writeFileSync(out, '{"earlier":"output"}\n');
    expect((await runLimited(['import', 'fhrs', FHRS, '-o', out])).code).toBe(1);
    expect(readdirSync(tmp).filter((f) => f.startsWith('fhrs'))).toEqual(['fhrs.ndjson']);
  }, 120_000);

  it('stdout redirected to the full disk: one line, exit 1, no stack trace', async () => {
    const { code, stderr } = await runLimited(['import', 'fhrs', FHRS], join(tmp, 'redirected.ndjson'));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^venue-search: cannot write stdout: .*(EFBIG|too large).*\n$/);
  }, 120_000);
});
