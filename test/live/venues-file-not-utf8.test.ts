// audit 68e F1 on the `venues upsert` / `venues remove` route: a change file saved as Latin-1
// was read with U+FFFD in place of each bad byte and sent, so the service stored the mangled
// names ("Caff\ufffd Nero"). Now the command stops before sending anything, naming the line and
// byte. Oracle: real venue rows of the fixtures re-encoded as Latin-1 by the test, the byte
// offset and line found here from the bytes themselves, and a plain HTTP server of the test's
// own that counts the requests it receives. Also (audit 73d F2, F6): a gzip, a Parquet or a
// snapshot was told it was Latin-1 text, to convert with iconv; now each is named as the other
// readers name it. An empty file is said, not passed off as a success.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureVenues } from '../search/support.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venues-not-utf8-'));
let server: Server;
let requests = 0;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('venues upsert and venues remove with a file that is not UTF-8 (audit 68e F1)', () => {
  it('each stops before sending anything, naming the file, the line and the byte', async () => {
    const token = join(tmp, 'token');
    writeFileSync(token, 'venues-not-utf8-operator-token\n', { mode: 0o600 });
    // three real rows, the third renamed "Café Rouge", the whole file written as Latin-1: its
    // first byte above 0x7F (a "£" of a real row, or the "é") is not UTF-8 on its own
    const rows = loadFixtureVenues().slice(0, 3).map((r, k) => (k === 2 ? { ...r, name: 'Café Rouge' } : r));
    const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const latin1 = Buffer.from(text, 'latin1');
    const offset = latin1.findIndex((b) => b > 0x7f);
    expect(offset).toBeGreaterThan(0);
    const byte = latin1[offset]!.toString(16).toUpperCase();
    const line = latin1.subarray(0, offset).filter((b) => b === 0x0a).length + 1;
    const records = join(tmp, 'changes-latin1.ndjson');
    writeFileSync(records, latin1);
    const ids = join(tmp, 'ids-latin1.txt');
    writeFileSync(ids, Buffer.from('cli-1\ncaf\u00e9-2\n', 'latin1'));

    const upsert = await run(['venues', 'upsert', '--server', base, '--file', records, '--token-file', token]);
    expect(upsert.code).toBe(1);
    expect(upsert.stderr).toContain(`--file ${records} is not UTF-8 text (line ${line}, byte offset ${offset}: the byte 0x${byte};`);
    expect(upsert.stderr).toContain('nothing was sent');
    const remove = await run(['venues', 'remove', '--server', base, '--file', ids, '--token-file', token]);
    expect(remove.code).toBe(1);
    expect(remove.stderr).toContain(`--file ${ids} is not UTF-8 text (line 2, byte offset 9: the byte 0xE9;`);
    expect(requests).toBe(0);
  }, 60_000);
});

describe('venues upsert with a file that is not text, or holds no record (audit 73d F2, F6)', () => {
  it('a gzip, a Parquet and a snapshot are said as what they are, not as Latin-1 text; nothing is sent', async () => {
    const { execFileSync } = await import('node:child_process');
    const { existsSync } = await import('node:fs');
    const { gzipSync } = await import('node:zlib');
    const token = join(tmp, 'token');
    writeFileSync(token, 'venues-not-utf8-operator-token\n', { mode: 0o600 });
    const text = loadFixtureVenues()
      .slice(0, 3)
      .map((r) => JSON.stringify(r))
      .join('\n');
    const gz = join(tmp, 'changes.ndjson.gz');
    writeFileSync(gz, gzipSync(text));
    const snapshot = join(tmp, 'changes.vsnap');
    const plain = join(tmp, 'changes.ndjson');
    writeFileSync(plain, `${text}\n`);
    execFileSync(process.execPath, [CLI_MAIN, 'snapshot', '--data', plain, '--out', snapshot], { stdio: 'ignore' });
    const cases: [string, string][] = [
      [gz, 'is gzip-compressed: decompress it first (gunzip)'],
      [snapshot, 'is a venue-search snapshot (venues built for serving), not a file to send: give the NDJSON file of venue records'],
    ];
    const parquet = new URL('../../../shared/data/overture-places-sample/overture_places_us_sample.parquet', import.meta.url).pathname;
    if (existsSync(parquet)) cases.push([parquet, 'is a Parquet file: import it with `venue-search import overture`']);
    for (const [file, said] of cases) {
      const upsert = await run(['venues', 'upsert', '--server', base, '--file', file, '--token-file', token]);
      expect(upsert.code, file).toBe(1);
      expect(upsert.stderr.trim().split('\n').at(-1)).toBe(`venue-search: --file ${file} ${said}; nothing was sent`);
      expect(upsert.stderr).not.toContain('Latin-1');
    }
    expect(requests).toBe(0);
  }, 60_000);

  it('an empty file, or one of blank lines, is said on stderr (exit 0: a feed may have no change); nothing is sent', async () => {
    const token = join(tmp, 'token');
    writeFileSync(token, 'venues-not-utf8-operator-token\n', { mode: 0o600 });
    for (const [name, bytes, why] of [
      ['empty.ndjson', '', 'it is empty'],
      ['blank.ndjson', '\n  \n\n', 'only blank lines'],
    ] as const) {
      const file = join(tmp, name);
      writeFileSync(file, bytes);
      const upsert = await run(['venues', 'upsert', '--server', base, '--file', file, '--token-file', token]);
      expect(upsert.code, name).toBe(0);
      expect(upsert.stderr).toContain(`venue-search: --file ${file} holds no venue record (${why}): nothing was sent`);
    }
    expect(requests).toBe(0);
  }, 60_000);
});
