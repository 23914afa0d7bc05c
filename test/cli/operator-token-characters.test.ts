// Audit 69b F3: an operator token holding a character no HTTP header can carry (a passphrase
// with `€`, a control character) was accepted by `serve --admin-token-file` (the operator then
// locked out of the admin routes), and `venues remove --token-file` said it "cannot reach" the
// service and that the removal "was sent and may or may not be applied", though no request was
// ever built. Now both commands refuse such a token file at start, naming the file and the
// first bad character's position and code point, before anything is sent or served.
// Oracle: real token files written here byte by byte, the positions and code points counted
// by hand, the requests a plain-HTTP peer received (none), serve's exit without a listen line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTokenProblem } from '../../src/cli/operator-token.js';
import { writeFixturesSnapshot } from '../support/fixtures-snapshot.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'operator-token-characters-'));
const ids = join(tmp, 'ids.txt');
writeFileSync(ids, 'v1\n');
/** Token files as an operator may write them: 16 letters, then the bad character(s), then a newline. */
const euro = join(tmp, 'tok.euro');
writeFileSync(euro, Buffer.from('abcdefghijklmnop\xe2\x82\xac\n', 'latin1'), { mode: 0o600 }); // `€` in UTF-8: U+20AC, the 17th character
const control = join(tmp, 'tok.ctl');
writeFileSync(control, Buffer.from('abcdefghijklmnop\x01\x02\n', 'latin1'), { mode: 0o600 }); // U+0001, the 17th character
const latin = join(tmp, 'tok.latin');
writeFileSync(latin, Buffer.from('caf\xc3\xa9-abcdefghijklmnop\n', 'latin1'), { mode: 0o600 }); // `é` in UTF-8: U+00E9, the 4th character

const tail = 'it travels in an HTTP header, which carries visible ASCII only (letters, digits, punctuation); make one with: head -c 32 /dev/urandom | base64';
const EURO = `the operator token in ${euro} has a character outside ASCII (U+20AC) at character 17: ${tail}`;
const CONTROL = `the operator token in ${control} has a control character (U+0001) at character 17: ${tail}`;
const LATIN = `the operator token in ${latin} has a character outside ASCII (U+00E9) at character 4: ${tail}`;

/** A plain-HTTP peer standing for the service: every request it receives is logged. */
const requests: string[] = [];
let peer: Server;
let port: number;
beforeAll(async () => {
  peer = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  peer.listen(0, '127.0.0.1');
  await once(peer, 'listening');
  port = (peer.address() as AddressInfo).port;
});
afterAll(() => {
  peer.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs the CLI; a process that says it serves (an `http://` URL in its output) is killed then, and its code is null. */
async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 110_000, killSignal: 'SIGKILL' });
  let stdout = '';
  let stderr = '';
  const serving = () => {
    if (`${stdout}${stderr}`.includes('http://127.0.0.1:') && args[0] === 'serve') child.kill('SIGKILL');
  };
  child.stdout!.on('data', (d) => ((stdout += String(d)), serving()));
  child.stderr!.on('data', (d) => ((stderr += String(d)), serving()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('the operator token rule: visible ASCII only (audit 69b F3)', () => {
  it('names the first character outside 0x21..0x7E by position and code point, never quoting the token', () => {
    expect(operatorTokenProblem('abcdefghijklmnop€', 'F')).toBe(`the operator token in F has a character outside ASCII (U+20AC) at character 17: ${tail}`);
    expect(operatorTokenProblem('abcdefghijklmnop\u007f', 'F')).toContain('has a control character (U+007F) at character 17');
    expect(operatorTokenProblem('abcdefghijklmnop\u0085', 'F')).toContain('has a control character (U+0085) at character 17');
    // a character outside the BMP counts as one character
    expect(operatorTokenProblem('😀abcdefghijklmnop€', 'F')).toContain('(U+1F600) at character 1:');
    // every visible ASCII character is accepted: base64, hex, and the punctuation
    expect(operatorTokenProblem('MsRLtaZcBL1rT3CIM51qQMkOIejp8NGp21JAEPozxHo=', 'F')).toBeUndefined();
    let visible = '';
    for (let c = 0x21; c <= 0x7e; c++) visible += String.fromCharCode(c);
    expect(operatorTokenProblem(visible, 'F')).toBeUndefined();
  });

  it('venues remove and upsert refuse such a token file before sending anything (not "cannot reach ... was sent")', async () => {
    const records = join(tmp, 'changes.ndjson');
    writeFileSync(records, `${JSON.stringify({ id: 'v1', name: 'Venue 1', location: { type: 'Point', coordinates: [-0.1, 51.5] } })}\n`);
    for (const [file, message] of [
      [euro, EURO],
      [control, CONTROL],
      [latin, LATIN],
    ] as const) {
      const remove = await run(['venues', 'remove', '--server', `http://127.0.0.1:${port}`, '--file', ids, '--token-file', file]);
      expect({ code: remove.code, stderr: remove.stderr }).toEqual({ code: 1, stderr: `venue-search: ${message}\n` });
      const upsert = await run(['venues', 'upsert', '--server', `http://127.0.0.1:${port}`, '--file', records, '--token-file', file]);
      expect({ code: upsert.code, stderr: upsert.stderr }).toEqual({ code: 1, stderr: `venue-search: ${message}\n` });
    }
    expect(requests).toEqual([]);
  }, 120_000);

  it('serve refuses such an --admin-token-file at start: exit 1, the message, nothing served', async () => {
    const data = writeFixturesSnapshot(tmp);
    const served = await run(['serve', '--data', data, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', euro, '--live-dir', join(tmp, 'live')]);
    expect(served.code).toBe(1);
    expect(served.stderr.trim().split('\n').at(-1)).toBe(`venue-search: ${EURO}`);
    expect(`${served.stdout}${served.stderr}`).not.toContain('http://');
  }, 120_000);
});
